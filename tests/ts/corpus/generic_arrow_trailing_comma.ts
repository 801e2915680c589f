const id = <T,>(x: T) => x;
const two = <T, U>(x: T, y: U): [T, U] => [x, y];
console.log(id(3), two("a", 1));
