let x = [1, 2] as number[]
[0].forEach((v) => console.log(v))
let y = 5 as number
;(y as any) += 1
console.log(x, y)
