const m: Map<string, Map<string, Array<number>>> = new Map<string, Map<string, Array<number>>>();
let x = 16;
x >>= 2;
x >>>= 1;
const y = x >> 1, z = -16 >>> 28, w = x >= 2;
console.log(m.size, x, y, z, w);
