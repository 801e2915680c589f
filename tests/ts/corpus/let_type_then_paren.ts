let x: number
(x = 3)
console.log(x)
