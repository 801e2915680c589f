const s: string = "abc123";
if (/\d+/.test(s)) console.log("has digits");
const m = s.match(/[a-z]+/)!;
console.log(m[0], s.replace(/\d/g, (d: string): string => String(Number(d) + 1)));
