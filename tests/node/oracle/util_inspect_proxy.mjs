// Oracle: util.inspect and util.format of proxies, as Node's test-util-inspect-proxy.js checks them
// (tools/node-tests): a proxy is never walked, so none of its traps runs; it is shown as its
// target (a custom inspector of the target is called with the proxy as `this`), or with
// showProxy as `Proxy [ target, handler ]` down to the depth limit; a revoked proxy is
// `<Revoked Proxy>`; util.types.isProxy tells a proxy from its target. (Before: inspect walked
// the proxy and its traps ran or threw, a revoked proxy threw "revoked proxy", showProxy
// printed the target only, and isProxy was always false.)
import util from "node:util";

function t(f) {
  try { return f(); } catch (e) { return ["throws", e.name, e.message]; }
}

export async function agent() {
  const trapsRun = [];
  const handler = {};
  for (const k of ["getPrototypeOf", "setPrototypeOf", "isExtensible", "preventExtensions",
    "getOwnPropertyDescriptor", "defineProperty", "has", "get", "set", "deleteProperty", "ownKeys",
    "apply", "construct"]) {
    handler[k] = function () { trapsRun.push(k); throw new Error(k); };
  }
  let thisSeen = null;
  const target = {
    [util.inspect.custom](depth, options) { thisSeen = this; return ["custom", options.showProxy]; },
  };
  const p = new Proxy(target, handler);
  const r = Proxy.revocable({ a: 1 }, {});
  r.revoke();
  const p1 = new Proxy({}, {});
  const p2 = new Proxy(p1, {});
  const p3 = new Proxy(p2, p1);
  const p5 = new Proxy(p3, new Proxy(p1, p2));
  const opts = { showProxy: true };
  const shown = [
    t(() => util.inspect(p)), t(() => util.inspect(p, opts)), t(() => util.format("%s", p)),
    t(() => util.format("%o", p1)), t(() => util.format("%j", p1)),
    t(() => util.inspect(r.proxy)), t(() => util.inspect(r, opts)), t(() => util.format("%s", r.proxy)),
    t(() => util.inspect(p1, { showProxy: 1, depth: null })), t(() => util.inspect(p3, opts)),
    t(() => util.inspect(p5, opts)), t(() => util.inspect(p5, { showProxy: true, depth: 0 })),
    t(() => util.inspect(p5)), t(() => util.inspect(new Proxy([1, 2], []), opts)),
    t(() => util.inspect(new Proxy(Date, String), opts)), t(() => util.inspect(new Proxy(Date, String))),
    t(() => util.inspect({ inner: new Proxy({ x: 1 }, { get() { throw new Error("get"); } }) })),
    t(() => util.inspect(new Proxy(function named() {}, handler))),
  ];
  const types = [util.types.isProxy(p), util.types.isProxy(target), util.types.isProxy(r.proxy),
    util.types.isProxy({}), util.types.isProxy(1), util.types.isProxy(null)];
  return { shown, types, thisIsProxy: thisSeen === p, trapsRun };
}
