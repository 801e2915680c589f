function isStr(x: unknown): x is string { return typeof x === "string"; }
function assertNum(x: unknown): asserts x is number { if (typeof x !== "number") throw new Error("nope"); }
function assertOk(x: unknown): asserts x { if (!x) throw new Error("falsy"); }
class T { isMe(): this is T { return true; } }
assertNum(3);
assertOk(1);
console.log(isStr("a"), isStr(1), new T().isMe());
