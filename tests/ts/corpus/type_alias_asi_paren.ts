let a = 10
type Fn = () => void
;(function () { console.log("iife", a) })()
let b = a
interface I { x: number }
;(console.log)(b)
