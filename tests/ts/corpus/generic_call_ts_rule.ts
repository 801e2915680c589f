// TypeScript reads `g < number > (1)` as a call with a type argument.
function g<T>(x: T) { return ["called", x]; }
const number = 0;
console.log(g < number > (1));
