// fixture262 harness: the assertion surface the fixture's tests use.
function Test262Error(message) { this.message = message || ""; }
Test262Error.prototype.toString = function () { return "Test262Error: " + this.message; };
function assert(ok, message) { if (ok !== true) throw new Test262Error(message || "assertion failed"); }
assert.sameValue = function (actual, expected, message) {
  if (!Object.is(actual, expected)) throw new Test262Error((message || "") + " got " + String(actual) + ", want " + String(expected));
};
assert.throws = function (Ctor, fn, message) {
  try { fn(); } catch (e) {
    if (e === null || typeof e !== "object" || e.constructor !== Ctor) throw new Test262Error("wrong error: " + e);
    return;
  }
  throw new Test262Error((message || "") + " nothing was thrown");
};
