// Oracle: node:assert — pass/fail of each assertion, AssertionError shapes and generated messages.
import assert, { AssertionError, strict as strictFromNamed } from "node:assert";
import strict from "assert/strict";
import * as bare from "assert";

const noStack = (e) => { e.stack = ""; return e; };
// The shape of what a call throws (or "passed").
function shape(f) {
  try {
    f();
    return "passed";
  } catch (e) {
    const r = { name: e.name, code: e.code, message: e.message, isAssertionError: e instanceof AssertionError };
    if (e instanceof AssertionError) {
      r.keys = Object.keys(e).join(",");
      r.generatedMessage = e.generatedMessage;
      r.operator = e.operator;
      r.actual = describe(e.actual);
      r.expected = describe(e.expected);
      r.toString = String(e) === "AssertionError [ERR_ASSERTION]: " + e.message;
    }
    return r;
  }
}
async function shapeAsync(p) {
  try {
    await p();
    return "passed";
  } catch (e) {
    return { name: e.name, code: e.code, message: e.message, generatedMessage: e.generatedMessage, operator: e.operator };
  }
}
const describe = (v) => (v === undefined ? "undefined" : typeof v === "function" ? "fn:" + v.name : typeof v === "bigint" ? v + "n" :
  v instanceof Error ? "error:" + v.message : v instanceof RegExp ? String(v) : JSON.parse(JSON.stringify(v === undefined ? null : v)));

export async function agent() {
  const out = {};
  out.shape = [typeof assert, assert.ok === assert, strict === assert.strict, strictFromNamed === strict, strict.strict === strict,
    bare.default === assert, strict.equal === assert.strictEqual, strict.deepEqual === assert.deepStrictEqual, strict.ok === assert,
    Object.keys(assert).sort(), Object.keys(strict).sort(), assert.name, strict.name];
  out.ok = [shape(() => assert(true)), shape(() => assert.ok(1)), shape(() => assert(0, "zero is falsy")), shape(() => assert.ok()),
    shape(() => assert.ok(false, noStack(new TypeError("own error")))), shape(() => strict("", "empty string"))];
  out.equal = [shape(() => assert.equal(1, "1")), shape(() => assert.equal(NaN, NaN)), shape(() => assert.equal(1, 2)),
    shape(() => assert.equal({}, {})), shape(() => assert.notEqual(1, 2)), shape(() => assert.notEqual(1, "1")),
    shape(() => assert.equal(null, undefined)), shape(() => assert.equal(1)), shape(() => assert.equal("a", "b", "custom message"))];
  out.strictEqual = [shape(() => assert.strictEqual(1, 1)), shape(() => assert.strictEqual(1, "1")), shape(() => assert.strictEqual(NaN, NaN)),
    shape(() => assert.strictEqual(0, -0)), shape(() => assert.strictEqual("hello world", "hello there")),
    shape(() => assert.strictEqual("a much longer string that goes on", "a much longer string that ends")),
    shape(() => assert.strictEqual({ a: 1 }, { a: 1 })), shape(() => assert.strictEqual([1, 2], [1, 3])),
    shape(() => assert.strictEqual("line1\nline2\nline3", "line1\nlineX\nline3")), shape(() => assert.strictEqual(1n, 2n)),
    shape(() => assert.strictEqual(() => {}, () => {})), shape(() => assert.strictEqual(null, undefined)),
    shape(() => assert.notStrictEqual(1, 1)), shape(() => assert.notStrictEqual("long string value", "long string value")),
    shape(() => assert.notStrictEqual(1, 2)), shape(() => strict.equal(1, "1")), shape(() => strict.notEqual(1, "1"))];
  const big = (n, change) => Object.fromEntries(Array.from({ length: n }, (_, i) => ["k" + i, i === change ? "changed" : i]));
  out.deep = [
    shape(() => assert.deepEqual({ a: 1, b: [1, "2"] }, { a: "1", b: [1, 2] })), shape(() => assert.deepEqual({ a: 1 }, { a: 2 })),
    shape(() => assert.deepStrictEqual({ a: 1, b: [1, 2] }, { a: 1, b: [1, 2] })), shape(() => assert.deepStrictEqual({ a: 1 }, { a: "1" })),
    shape(() => assert.deepStrictEqual([1, 2, 3], [1, 2, 4])), shape(() => assert.deepStrictEqual({ x: { y: { z: 1 } } }, { x: { y: { z: 2 } } })),
    shape(() => assert.deepStrictEqual(big(12, 6), big(12, -1))), shape(() => assert.deepStrictEqual(big(40, 3), big(40, 30))),
    shape(() => assert.deepStrictEqual(new Map([["a", 1]]), new Map([["a", 2]]))), shape(() => assert.deepStrictEqual(new Set([1]), new Set([1, 2]))),
    shape(() => assert.deepStrictEqual([1, 2], [1, 2, 3, 4, 5])), shape(() => assert.deepStrictEqual([1, 2, 3, 4, 5], [1, 2])),
    shape(() => assert.deepStrictEqual({ a: Symbol.for("s") }, { a: Symbol.for("s") })),
    shape(() => assert.deepStrictEqual(Object.create(null), {})), shape(() => assert.deepStrictEqual(new Date(0), new Date(1))),
    shape(() => assert.deepStrictEqual("a", "b")), shape(() => assert.deepStrictEqual(1, 1)),
    shape(() => assert.notDeepStrictEqual({ a: 1 }, { a: 1 })), shape(() => assert.notDeepStrictEqual({ a: 1 }, { a: 2 })),
    shape(() => assert.notDeepEqual({ a: 1 }, { a: "1" })), shape(() => assert.notDeepEqual([1], [2])),
    shape(() => assert.notDeepStrictEqual(Array.from({ length: 8 }, (_, i) => i), Array.from({ length: 8 }, (_, i) => i))),
    shape(() => assert.deepStrictEqual([{ a: 1, b: 2 }], [{ a: 1, b: 3 }], "deep custom")),
    shape(() => assert.strictEqual(1, 2, "m1")), shape(() => assert.strictEqual("a long string here", "a long string there", "m2")),
    shape(() => assert.deepStrictEqual(1, 2, "m4")), shape(() => assert.notStrictEqual(1, 1, "m5")),
    shape(() => assert.deepStrictEqual([1, 2, 3, 4, 5, 6, 7, 8], [1, 2, 3, 4, 5, 6, 7, 9], "m6")),
    shape(() => assert.deepStrictEqual({ a: 1 }, { a: 1, b: 2 }, "m7")), shape(() => assert.strictEqual({ a: 1 }, { a: 1 }, "m8")),
    shape(() => assert.deepEqual({ a: 1 }, { a: 2 }, "m10")), shape(() => assert.deepStrictEqual(new Error("e1"), new Error("e2"))),
    shape(() => assert.strictEqual(Object.assign(new Error("inner"), { code: "X" }), new RangeError("b"))),
    shape(() => assert.deepStrictEqual({ s: "x".repeat(600) }, { s: "y" })), shape(() => assert.deepEqual("x".repeat(600), "y")),
  ];
  class CustomError extends Error {}
  const thrower = (e) => () => { throw e; };
  out.throws = [
    shape(() => assert.throws(thrower(noStack(new TypeError("bad"))))),
    shape(() => assert.throws(thrower(noStack(new TypeError("bad"))), TypeError)),
    shape(() => assert.throws(thrower(noStack(new TypeError("bad"))), RangeError)),
    shape(() => assert.throws(thrower(noStack(new TypeError("bad"))), /bad/)),
    shape(() => assert.throws(thrower(noStack(new TypeError("bad"))), /good/)),
    shape(() => assert.throws(thrower(noStack(new TypeError("bad"))), { name: "TypeError", message: "bad" })),
    shape(() => assert.throws(thrower(noStack(new TypeError("bad"))), { name: "TypeError", message: /ba/ })),
    shape(() => assert.throws(thrower(noStack(new TypeError("bad"))), { message: "worse" })),
    shape(() => assert.throws(thrower(noStack(new CustomError("c"))), Error)),
    shape(() => assert.throws(thrower(noStack(new TypeError("bad"))), (e) => e instanceof TypeError)),
    shape(() => assert.throws(thrower(noStack(new TypeError("bad"))), function validate(e) { return false; })),
    shape(() => assert.throws(() => {})), shape(() => assert.throws(() => {}, TypeError)), shape(() => assert.throws(() => {}, "no throw msg")),
    shape(() => assert.throws(() => {}, TypeError, "with message")), shape(() => assert.throws("notfn")),
    shape(() => assert.throws(thrower("a string"), /string/)), shape(() => assert.throws(thrower(noStack(new Error("same"))), "same")),
    shape(() => assert.throws(thrower(noStack(new Error("x"))), {})),
    shape(() => assert.doesNotThrow(() => {})), shape(() => assert.doesNotThrow(thrower(noStack(new Error("oops"))))),
    shape(() => assert.doesNotThrow(thrower(noStack(new Error("oops"))), "extra")),
    shape(() => assert.doesNotThrow(thrower(noStack(new TypeError("oops"))), RangeError)),
  ];
  out.rejects = [
    await shapeAsync(() => assert.rejects(Promise.reject(noStack(new Error("r"))))),
    await shapeAsync(() => assert.rejects(async () => { throw noStack(new TypeError("r")); }, TypeError)),
    await shapeAsync(() => assert.rejects(Promise.resolve(1))),
    await shapeAsync(() => assert.rejects(async () => 1, Error, "should reject")),
    await shapeAsync(() => assert.rejects(() => 5)),
    await shapeAsync(() => assert.rejects(5)),
    await shapeAsync(() => assert.rejects(Promise.reject(noStack(new Error("r"))), /nomatch/)),
    await shapeAsync(() => assert.doesNotReject(Promise.resolve(1))),
    await shapeAsync(() => assert.doesNotReject(Promise.reject(noStack(new Error("no"))))),
  ];
  out.match = [shape(() => assert.match("abc", /b/)), shape(() => assert.match("abc", /x/)), shape(() => assert.match(123, /1/)),
    shape(() => assert.match("abc", "b")), shape(() => assert.doesNotMatch("abc", /x/)), shape(() => assert.doesNotMatch("abc", /b/)),
    shape(() => assert.match("abc", /x/, "custom"))];
  out.fail = [shape(() => assert.fail()), shape(() => assert.fail("boom")), shape(() => assert.fail(noStack(new TypeError("te")))),
    shape(() => assert.fail(1, 2, undefined, ">")), shape(() => assert.fail(1, 2))];
  out.ifError = [shape(() => assert.ifError(null)), shape(() => assert.ifError(undefined)), shape(() => assert.ifError("str")),
    shape(() => assert.ifError(noStack(new Error("ife"))))];
  const manual = new AssertionError({ actual: 1, expected: 2, operator: "strictEqual" });
  const manualMsg = new AssertionError({ message: "given", actual: "a" });
  out.assertionError = [manual.message, manual.generatedMessage, manual.name, manual.code, Object.keys(manual), manual instanceof Error,
    manualMsg.message, manualMsg.generatedMessage, manualMsg.operator, String(manualMsg), shape(() => new AssertionError())];
  return out;
}
