interface User { name: string; age: number }
function get<T, K extends keyof T>(o: T, k: K): T[K] { return o[k]; }
const u: User = { name: "n", age: 3 };
console.log(get(u, "name"), get(u, "age"));
