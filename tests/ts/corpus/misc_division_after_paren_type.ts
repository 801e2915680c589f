const total = 10, n = 4;
const avg = (total as number) / (n as number);
const half = (total!) / 2;
console.log(avg, half);
