let x = 1
type T = number
;[1, 2].forEach((v) => console.log(v + x))
let y = 2
type U = string
console.log(y)
