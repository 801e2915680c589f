// Oracle: the differences Node's own test files (util, util-format, util-inspect, querystring,
// string_decoder) showed in a hand run, each pinned against Node 20: function kinds as the
// engine knows them (not the prototype), a numeric function name, typed arrays sized by the
// engine's length, showHidden's prototype properties, RegExp text with every flag, querystring's replaceable unescape,
// StringDecoder across every cut of invalid and multi-byte input in every encoding, and
// console.log's placeholders.
import util from "node:util";
import qs from "node:querystring";
import { StringDecoder } from "node:string_decoder";
import { Buffer } from "node:buffer";

// Text with every code unit outside printable ASCII written as \uXXXX (so the JSON the run
// prints compares byte for byte, whatever the console does with control characters).
const esc = (s) => {
  let out = "";
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    out += c >= 0x20 && c < 0x7f ? s[i] : "\\u" + c.toString(16).padStart(4, "0");
  }
  return out;
};

export async function agent() {
  const out = {};

  // function kinds: a generator whose prototype became AsyncFunction's is still a generator
  const fn = (() => function* () {})();
  const kinds = [util.inspect(fn)];
  Object.setPrototypeOf(fn, Object.getPrototypeOf(async () => {}));
  kinds.push(util.inspect(fn));
  Object.defineProperty(fn, "name", { value: 5, configurable: true });
  kinds.push(util.inspect(fn));
  Object.defineProperty(fn, Symbol.toStringTag, { value: "Foobar", configurable: true });
  kinds.push(util.inspect({ ["5"]: fn }));
  Object.defineProperty(fn, "name", { value: "5", configurable: true });
  Object.setPrototypeOf(fn, null);
  kinds.push(util.inspect(fn));
  class A { async m() {} *g() {} async *ag() {} static async s() {} async() {} }
  const a = new A();
  const o = { async f() {}, *g() {}, async *h() {}, asyncX() {}, ["async"]() {} };
  kinds.push(util.inspect([a.m, a.g, a.ag, A.s, a.async, o.f, o.g, o.h, o.asyncX, o.async,
    async (x) => x, async x => x, async function named() {}, Math.max, async function* agen() {}]));
  kinds.push([util.types.isAsyncFunction(a.m), util.types.isGeneratorFunction(a.g), util.types.isAsyncFunction(a.async),
    util.types.isGeneratorFunction(a.ag), util.types.isAsyncFunction(a.ag), util.types.isGeneratorFunction(fn)]);
  out.kinds = kinds;

  // typed arrays: the engine's length, whatever own `length` a program defined
  const broken = new Float32Array(2);
  Object.defineProperty(broken, "length", { value: -1 });
  out.typed = [util.inspect(broken), util.inspect(new Uint8Array(0)), util.inspect(new BigInt64Array([1n, -2n])),
    util.inspect(new Uint16Array(120)).split("\n").length];

  // showHidden lists what a class's prototype adds (Node's prototype properties)
  class CustomArray extends Array {}
  CustomArray.prototype[5] = "foo";
  CustomArray.prototype[49] = "bar";
  CustomArray.prototype.foo = true;
  const custom = new CustomArray(50);
  custom[49] = "I win";
  class WithGetter { constructor() { this.own = 1; } get x() { return 1; } m() {} }
  WithGetter.prototype.shared = [1, 2];
  class Sub extends WithGetter { get y() { return 2; } }
  out.protoProps = [util.inspect(custom), util.inspect(custom, { showHidden: true }), util.inspect(new Sub(), { showHidden: true }),
    util.inspect(Object.create({ inherited: 1 }), { showHidden: true }), util.inspect({}, { showHidden: true }),
    util.inspect(new (class A {})(), { showHidden: true }), util.inspect(new (class S extends Set {})([1]), { showHidden: true })];

  // regular expressions with every flag, a source with an escape, extra properties
  const re = /a+\/b/dgimsuy;
  re.extra = 1;
  out.regexp = [util.inspect(re), util.inspect(/foo(bar\n)?/gi), util.inspect({ a: re }, false, 0), util.inspect(new RegExp("")),
    util.inspect(Object.setPrototypeOf(/x/g, null))];

  // querystring: a program may replace unescape on the module, and parse uses it
  const prev = qs.unescape;
  qs.unescape = (str) => str.replace(/o/g, "_");
  const replaced = qs.parse("foo=bor");
  qs.unescape = prev;
  out.querystring = [replaced, qs.parse("foo=bor"), qs.unescape("%E4%B8%AD%zz%C3"), qs.unescapeBuffer("%41%4+b", true).toString("hex"),
    qs.parse("a=%FF&b=%E4%B8%AD%")];

  // StringDecoder: every cut of valid and invalid input, in every encoding
  const inputs = [Buffer.from("h\u00e9llo \u20ac \ud83d\ude00 end"),
    Buffer.from([0xff, 0xe2, 0x82, 0x41, 0xf0, 0x9f, 0x98, 0xc0, 0xed, 0xa0, 0x80, 0x80]),
    Buffer.from("3DD84DDC3DD8", "hex"), Buffer.from("E2B8CCB8F0B841", "hex")];
  const decoded = [];
  for (const enc of ["utf8", "utf16le", "latin1", "ascii", "hex", "base64", "base64url"]) {
    for (const b of inputs) {
      for (let cut = 0; cut <= b.length; cut++) {
        const d = new StringDecoder(enc);
        const first = d.write(b.subarray(0, cut));
        const state = [d.lastNeed, d.lastTotal, d.lastChar.toString("hex")];
        decoded.push(esc(first) + "|" + state.join(",") + "|" + esc(d.end(b.subarray(cut))));
      }
    }
  }
  out.decoded = decoded;
  const surrogates = new StringDecoder("utf16le");
  out.surrogates = [surrogates.write(Buffer.from("3DD8", "hex")), surrogates.write(Buffer.from("4D", "hex")),
    esc(surrogates.write(Buffer.from("DC", "hex"))), esc(surrogates.end())];
  const held = new StringDecoder("utf16le");
  out.surrogates.push(held.write(Buffer.from("3DD8", "hex")), held.write(Buffer.from("4D", "hex")), esc(held.end()));

  // placeholders as console.log writes them
  out.format = [util.format("%s=%d", "n", 42), util.format("%s:%s", "foo"), util.format("%i", 1, () => {}),
    util.format("%d", 1180591620717411303424n), util.format("%o", { f: function f() {} }),
    util.format(new Array(1e9)), util.format("%s", [1, { a: true }]), util.format(1, -0)];
  return out;
}
