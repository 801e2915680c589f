class A {
  static readonly defaults: Readonly<Record<string, number>> = { a: 1 };
  protected readonly map: Map<string, number> = new Map();
  public override toString(): string { return "A"; }
}
console.log(A.defaults, String(new A()));
