interface Box<T extends object = {}> extends Array<T>, Iterable<T> {
  get(i: number): T;
  readonly [k: string]: unknown;
  new (x: string): Box<T>;
  (call: number): void;
}
export interface Exported { a: string }
console.log("interfaces erased");
