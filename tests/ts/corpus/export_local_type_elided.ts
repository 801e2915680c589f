interface Shape { a: number }
type Alias = number;
const shape: Shape = { a: 1 };
export { Shape, Alias, shape };
console.log(shape);
