const sym: unique symbol = Symbol("s");
declare const other: unique symbol;
interface HasSym { [sym]: number }
const o: HasSym = { [sym]: 5 };
console.log(o[sym]);
