// Oracle: what Node's test-util-inspect-getters-accessing-this.js, -deprecate-invalid-code.js and
// -callbackify.js check that chidori missed (tools/node-tests): with showHidden and getters, a
// prototype's getter runs on the inspected object (not on the prototype); util.deprecate refuses
// a `code` that is not a string; an error naming a phrase ("The last argument must be …") is
// worded as Node's. (Before: `[Getter: undefined]`, no check, `The "last argument" argument`.)
import util from "node:util";

function t(f) {
  try { return f(); } catch (e) { return ["throws", e.name, e.code, e.message]; }
}

export async function agent() {
  class X { constructor() { this._y = 123; } get y() { return this._y; } }
  class A { constructor(B) { this.B = B; } get b() { return this.B; } }
  class B { constructor() { this.A = new A(this); } get a() { return this.A; } }
  class C extends X { get z() { return [this._y, this instanceof C]; } set z(v) {} }
  const getters = [util.inspect(new X(), { getters: true, showHidden: true }),
    util.inspect(new B(), { depth: 1, getters: true, showHidden: true }),
    util.inspect(new C(), { getters: true, showHidden: true }), util.inspect(new C(), { getters: "set", showHidden: true }),
    util.inspect(new X(), { showHidden: true })];
  const deprecate = [1, true, false, null, {}, Symbol("s")].map((code) => t(() => util.deprecate(() => {}, "m", code)));
  deprecate.push(typeof util.deprecate(() => 1, "m", "DEP0"), typeof util.deprecate(() => 1, "m"));
  const cb = util.callbackify(async () => 42);
  const callbackify = [t(() => cb("foo")), t(() => cb()), t(() => cb(1, [])), t(() => util.callbackify(1))];
  return { getters, deprecate, callbackify };
}
