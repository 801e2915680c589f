class Dict {
  [key: string]: any;
  static [k: string]: unknown;
  a = 1;
}
interface D2 { [k: number]: string }
const d = new Dict();
d.b = 2;
console.log(d.a, d.b);
