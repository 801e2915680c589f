class Temp {
  private _c = 0;
  get c(): number { return this._c; }
  set c(v: number) { this._c = v; }
  static get zero(): number { return 0; }
}
const t = new Temp();
t.c = 21;
const obj = { get x(): number { return 1; }, set x(v: number) {} };
console.log(t.c, Temp.zero, obj.x);
