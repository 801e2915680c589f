export default interface Config { a: number }
const c = { a: 1 };
console.log(c);
