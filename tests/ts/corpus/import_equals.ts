namespace Lib { export namespace Sub { export const v = 9; } }
import V = Lib.Sub;
console.log(V.v);
