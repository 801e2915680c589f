abstract class Shape {
  abstract area(): number;
  abstract readonly name: string;
  describe(): string { return `${this.name}: ${this.area()}`; }
}
class Sq extends Shape {
  readonly name = "sq";
  constructor(private s: number) { super(); }
  area(): number { return this.s * this.s; }
}
console.log(new Sq(3).describe());
