namespace M { export const a = 1; }
namespace M { export const b = 2; }
console.log(M.a, M.b);
