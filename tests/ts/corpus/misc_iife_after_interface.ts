const x = 1
interface A { a: number }
;(() => console.log("iife", x))()
