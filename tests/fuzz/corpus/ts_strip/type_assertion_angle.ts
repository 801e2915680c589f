const v: unknown = "hello";
const s = <string>v;
const n = (<number>(<unknown>42)) + 1;
console.log(s.length, n);
