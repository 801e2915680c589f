function make<T>(x: T) { return [x]; }
const makeNum = make<number>;
const arr = [make<string>][0]("s");
console.log(makeNum(1), arr);
