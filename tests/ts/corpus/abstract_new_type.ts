type Ctor<T> = abstract new (...args: any[]) => T;
function name(c: Ctor<object>): string { return c.name; }
class Q {}
console.log(name(Q));
