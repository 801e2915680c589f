type Greeting = `hello ${string}`;
type Ev<T extends string> = `${T}Changed`;
const g: Greeting = "hello world";
const tpl = `value: ${1 < 2 ? "a" : "b"} and ${"x:y"}`;
console.log(g, tpl);
