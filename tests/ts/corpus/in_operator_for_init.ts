const o = { a: 1 };
for (let i = ("a" in o ? 0 : 1) as number; i < 1; i++) console.log("in ok", i);
const has = "a" in o;
console.log(has);
