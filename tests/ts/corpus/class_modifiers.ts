class Acc {
  public a = 1;
  private b = 2;
  protected c = 3;
  readonly d = 4;
  public static readonly e = 5;
  private static f(): number { return 6; }
  static g() { return Acc.f(); }
  sum() { return this.a + this.b + this.c + this.d; }
}
console.log(new Acc().sum(), Acc.e, Acc.g());
