// Oracle: URL's util.inspect layout and the shape of URL's members, as Node's
// test-whatwg-url-custom-inspect.js, -custom-properties.js and -properties.js check them
// (tools/node-tests): `URL { href: …, searchParams: …, hash: … }` named after a subclass, `URL {}`
// below depth 0; a for-in over a URL lists toString, the attributes, then toJSON; URL.prototype
// has an inspect.custom method; URL's static operations are enumerable; URLSearchParams refuses
// an object with an enumerable Symbol key. (Before: `URL {}` at any depth, toString listed after
// hash, no inspect.custom, non-enumerable statics, and Symbol keys skipped.)
import util from "node:util";

function t(f) {
  try { return f(); } catch (e) { return ["throws", e.name, e.message]; }
}

export async function agent() {
  const url = new URL("https://user:pw@host.name:8080/p/a/?q=1&r=2#h");
  class MyURL extends URL {}
  const shown = [util.inspect(url), util.inspect({ a: url }, { depth: 0 }), util.inspect(new MyURL("http://x/")),
    util.inspect([[url]], { depth: 1 }), util.inspect(url, { breakLength: Infinity }),
    util.inspect(new URL("file:///a/b")), util.format("%s|%s", url, [new URL("http://y/")])];
  const forIn = [];
  for (const k in url) forIn.push(k);
  const custom = Object.getOwnPropertyDescriptor(URL.prototype, Symbol.for("nodejs.util.inspect.custom"));
  const statics = ["parse", "canParse", "createObjectURL", "revokeObjectURL"].map((k) => {
    const d = Object.getOwnPropertyDescriptor(URL, k);
    return [k, d.enumerable, d.writable, d.configurable, typeof d.value];
  });
  const methods = ["toString", "toJSON"].map((k) => {
    const d = Object.getOwnPropertyDescriptor(URL.prototype, k);
    return [k, d.enumerable, d.value.name, Object.hasOwn(d.value, "prototype")];
  });
  const sym = Symbol("s"), hidden = {};
  Object.defineProperty(hidden, sym, { value: 1, enumerable: false });
  hidden.a = "b";
  const symbolKeys = [t(() => String(new URLSearchParams({ [sym]: 42 }))), t(() => String(new URLSearchParams(hidden))),
    t(() => String(new URLSearchParams({ a: 1, [Symbol.iterator]: undefined })))];
  return {
    shown, forIn, symbolKeys, methods, statics,
    custom: custom && [typeof custom.value, custom.enumerable, Object.hasOwn(custom.value, "prototype")],
  };
}
