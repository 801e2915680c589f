//! mode: eval
//! isolation: both
//! stdout-file: error_capture.out
// Error.captureStackTrace and Error.stackTraceLimit as V8 has them (a custom error class's stack
// starts with its own line and drops the constructor's frames; the limit bounds the frames, a
// non-number captures none). error_capture.out is what Node prints for this file.
class MyError extends Error {
  constructor(msg) { super(msg); this.name = "MyError"; Error.captureStackTrace(this, MyError); }
}
function thrower() { throw new MyError("bad thing"); }
try { thrower(); } catch (e) {
  const lines = e.stack.split("\n");
  console.log(lines[0], /thrower/.test(lines[1]), e instanceof MyError, Object.keys(e).length);
}
const o = {};
Error.captureStackTrace(o);
console.log(o.stack.split("\n")[0], typeof o.stack, Object.keys(o));
function a() { b(); } function b() { c(); } function c() { const x = { message: "m", name: "N" }; Error.captureStackTrace(x); console.log(x.stack.split("\n").length); }
Error.stackTraceLimit = 2; a();
Error.stackTraceLimit = 0; a();
Error.stackTraceLimit = undefined; try { a(); } catch (e) { console.log("no stack"); }
Error.stackTraceLimit = 10;
try { Error.captureStackTrace(1); } catch (e) { console.log(e.name, e.code); }
console.log(typeof Error.stackTraceLimit, Error.stackTraceLimit);
