const pre = 1
function f(a: number): number
function f(a: any) { return a }
(function () { console.log("iife") })()
console.log(pre, f(2))
