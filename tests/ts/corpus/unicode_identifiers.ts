const café: string = "ok";
const ñ = (x: number): number => x;
const emoji = "😀" as string;
let after: number = 1; const more = after;
console.log(café, ñ(1), emoji, more);
