class P {
  constructor(public x: number, private y: string, readonly z = 3, protected w?: number) {}
  show() { return [this.x, this.y, this.z, this.w]; }
}
const p = new P(1, "a");
console.log(p.show(), Object.keys(p), JSON.stringify(p));
