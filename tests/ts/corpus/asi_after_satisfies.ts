const a = { n: 1 } satisfies object
(function () { console.log("separate statement") })()
console.log(a.n)
