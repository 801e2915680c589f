class A { #p = 1; static s = 2; get v() { return this.#p; } m(...a) { return a.length; } }
class B extends A { constructor() { super(); this.q = [1, 2, 3].map((v) => v * 2); } }
const b = new B(); console.log(b.v, b.m(1, 2), B.s, Object.keys(b), JSON.stringify(b));
