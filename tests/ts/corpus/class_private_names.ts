class P {
  #secret: number = 1;
  static #count: number = 0;
  #inc(): void { this.#secret++; }
  bump(): number { this.#inc(); P.#count++; return this.#secret; }
  has(o: object): boolean { return #secret in o; }
}
const p = new P();
console.log(p.bump(), p.has(p), p.has({}));
