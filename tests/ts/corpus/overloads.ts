function f(x: string): string;
function f(x: number): number;
function f(x: any): any { return x; }
class O {
  m(x: string): void;
  m(x: number): void;
  m(x: any) { console.log("m", x); }
}
console.log(f("a"), f(2));
new O().m(3);
