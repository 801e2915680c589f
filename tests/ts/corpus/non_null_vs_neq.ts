let a: number | null = 3;
console.log(a! == 3, a != 3, a! != 4, a !== null);
const b = a!
console.log(b)
