function longest<T extends { length: number }>(a: T, b: T): T { return a.length >= b.length ? a : b; }
function keys<T extends object, K extends keyof T = keyof T>(o: T): K[] { return Object.keys(o) as K[]; }
console.log(longest("ab", "abc"), keys({ a: 1, b: 2 }));
