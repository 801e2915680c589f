//! mode: eval
//! isolation: both
//! stdout-file: console_format.out
// console.* prints what Node prints: util.format placeholders (%s %d %i %f %j %o %O %c %%), what
// is left over through util.inspect with its default depth of 2, Buffers as <Buffer ..>.
// The same file run by Node gives the same lines (console_format.out was checked against it).
console.log("%s=%d", "n", 42);
console.log("%i|%f|%j|%%|%c|%s", "42.9x", "1.5", { j: [1] }, "color: red", Symbol("s"));
console.log("%O", { a: { b: { c: { d: 1 } } } });
console.log("%d %d", 1n, "x");
console.log("extra", "%s", "args", 7);
console.log({ a: [1, { b: { c: { d: {} } } }] }, "plain");
console.log(Buffer.from("hi"), [Buffer.from([0, 255])]);
console.log([1, "two", null, undefined], new Map([["k", 1]]), new Set(["v"]));
console.log("%s", { toString() { return "custom"; } }, -0, [ -0 ]);
console.info("info %s", "line");
console.debug("debug %d", 3);
console.dir({ x: { y: { z: { w: 1 } } } }, { depth: 0 });
console.log(Object.create(null));
