function id<T>(x: T): T { return x; }
function pair<A, B extends object = {}>(a: A, b: B): [A, B] { return [a, b]; }
console.log(id<number>(5), id("s"), pair(1, { k: 2 }));
