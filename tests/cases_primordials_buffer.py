"""tests/cases_primordials_buffer.py — node:buffer against a guest that tampers with the builtins
it uses (docs/primordials.md, issue 25 item 2).

One script makes and reads Buffers every way node:buffer offers (from/alloc/concat, toString and
Buffer.from in every encoding, write, the integer/float/bigint accessors, compare/equals/indexOf/
includes/lastIndexOf, slice/subarray, fill, swap16/32/64, toJSON, copy, byteLength, isEncoding,
transcode, isUtf8/isAscii, copyBytesFrom, util.inspect of a Buffer, and a few of its errors) and
prints every answer as one JSON line. It runs untouched, then once per family of builtins below,
with the family replaced by traps (functions, getters and setters that throw) before node:buffer
is first imported and, separately, right after. Every tampered run must print exactly what the
untouched run printed: the module reads no guest-writable property on its own paths. The script
captures what it uses itself before tampering, and builds the values it feeds in (a Uint16Array,
an ArrayBuffer, a DataView) first, so a difference can only come from the module under test.

Buffer.prototype's own methods are the shim's code and are not tampered. With one conversion
undone (buffer.js's `TypedArraySet(out, …)` in concat back to `out.set(…)`), the
typed_array_methods family fails.
"""
import json
import re
import tempfile

from tamper_corpus import eval_markers

BODY = r"""
const cap = {
  create: Object.create, stringify: JSON.stringify, defineProperty: Object.defineProperty, log: console.log,
  String, getPrototypeOf: Object.getPrototypeOf, apply: Reflect.apply, PI: Math.PI, isArray: Array.isArray,
  lengthGetter: Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), "length").get,
  bufferGetter: Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), "buffer").get,
};
// a typed array's length and buffer, read through the getters as they were before any tampering
const len = (x) => cap.apply(cap.lengthGetter, x, []);
const bufferOf = (x) => cap.apply(cap.bufferGetter, x, []);
const out = cap.create(null);
let n = 0;
// a value as JSON text, with BigInts spelled out (JSON.stringify refuses them)
function show(v) {
  if (typeof v === "bigint") return cap.String(v) + "n";
  if (v === undefined) return "undefined";
  if (cap.isArray(v)) {
    let s = "[";
    for (let i = 0; i < v.length; i++) s += (i ? "," : "") + show(v[i]);
    return s + "]";
  }
  return cap.stringify(v);
}
function put(label, f) {
  let v;
  try { v = show(f()); } catch (e) { v = "threw " + e.code + " " + e.message; }
  out[(n++) + " " + label] = v;
}
// the guest's own values, made before any tampering
const u16 = new Uint16Array([1, 258, 65535]);
const ab = new ArrayBuffer(6);
new Uint8Array(ab).set([9, 8, 7, 6, 5, 4]);
const dv = new DataView(ab, 1, 3);
const plain = new Uint8Array([104, 105, 33]);
const arr = [1, 2, 300, -1];
const jsonLike = { type: "Buffer", data: [7, 8, 9] };

TAMPER_BEFORE

import("node:buffer").then((bufferModule) => import("node:util").then((util) => {
  TAMPER_AFTER

  const { Buffer, transcode, isUtf8, isAscii } = bufferModule;
  const text = "h\u00e9llo w\u00f6rld \u2603 \ud834\udd1e and more text to pass sixteen bytes";
  const b = Buffer.from(text);
  const hex = (x) => x.toString("hex");
  const encodings = ["utf8", "utf-8", "hex", "base64", "base64url", "latin1", "binary", "ascii", "utf16le", "ucs2"];
  for (let i = 0; i < encodings.length; i++) {
    const e = encodings[i];
    put("toString " + e, () => b.toString(e));
    put("from " + e, () => hex(Buffer.from(b.toString(e), e)));
    put("range " + e, () => b.toString(e, 1, 9));
    put("byteLength " + e, () => Buffer.byteLength(text, e));
    put("write " + e, () => { const t = Buffer.alloc(12); const w = t.write("ab\u00e9\u2603 z", 1, 9, e); return [w, hex(t)]; });
    put("isEncoding " + e, () => Buffer.isEncoding(e));
    put("slice " + e, () => b[(e === "utf-8" ? "utf8" : e === "binary" ? "latin1" : e === "utf16le" ? "ucs2" : e) + "Slice"](2, 12));
  }
  put("encWrite", () => { const t = Buffer.alloc(12); return [t.hexWrite("abcdzz", 1), t.latin1Write("x\u00e9", 4), t.utf8Write("\u00e9", 6),
    t.ucs2Write("\u2603", 8), t.base64Write("aGk=", 10), t.asciiWrite("q"), hex(t)]; });
  put("short utf8", () => Buffer.from([0x61, 0xe2, 0x98, 0x83, 0xff, 0x62]).toString());
  put("base64 lenient", () => hex(Buffer.from("aGk=\n Zm9v-_==", "base64")));
  put("from array", () => hex(Buffer.from(arr)));
  put("from u16", () => hex(Buffer.from(u16)));
  put("from plain", () => hex(Buffer.from(plain)));
  put("from arraybuffer", () => hex(Buffer.from(ab, 1, 4)));
  put("from json", () => hex(Buffer.from(jsonLike)));
  put("from buffer", () => hex(Buffer.from(b.subarray(0, 5))));
  put("alloc", () => [hex(Buffer.alloc(5)), hex(Buffer.alloc(7, "ab")), hex(Buffer.alloc(4, 0x1ff)), hex(Buffer.alloc(6, "aGk=", "base64")),
    hex(Buffer.allocUnsafe(3)), hex(Buffer.allocUnsafeSlow(2)), hex(Buffer(3)), hex(Buffer("xy"))]);
  put("concat", () => [hex(Buffer.concat([b.subarray(0, 3), plain, Buffer.from("z")])), hex(Buffer.concat([plain, plain], 4)),
    len(Buffer.concat([]))]);
  put("compare", () => [Buffer.compare(b, plain), Buffer.compare(plain, b), b.compare(b), b.compare(plain, 0, 2, 0, 2),
    b.equals(Buffer.from(text)), b.equals(plain)]);
  put("search", () => [b.indexOf("l"), b.lastIndexOf("l"), b.includes("\u2603"), b.indexOf(Buffer.from("w\u00f6")),
    b.indexOf(0x6f, 5), b.lastIndexOf(0x6f, -10), b.indexOf("more", -30), b.indexOf(plain), b.includes("zz"),
    Buffer.from("a\u2603b", "utf16le").indexOf("\u2603", 0, "utf16le"), b.indexOf("6d6f7265", "hex")]);
  put("slice", () => [hex(b.slice(1, 4)), hex(b.subarray(-3)), hex(b.slice(-5, -2)), len(b.subarray(3, 1)),
    b.slice(2).constructor === Buffer]);
  put("fill", () => [hex(Buffer.alloc(6).fill(7, 1, 3)), hex(Buffer.alloc(5).fill("xyz")), hex(Buffer.alloc(5).fill(plain, 1)),
    hex(Buffer.alloc(4).fill(u16)), hex(Buffer.alloc(5).fill("e2", "hex")), hex(Buffer.alloc(3).fill(true)),
    hex(Buffer.alloc(5).fill(dv))]);
  put("self fill", () => { const t = Buffer.from("abcdefgh"); t.fill(t.subarray(0, 3), 3); return hex(t); });
  put("swap", () => [hex(Buffer.from("0102030405060708", "hex").swap16()), hex(Buffer.from("0102030405060708", "hex").swap32()),
    hex(Buffer.from("0102030405060708", "hex").swap64())]);
  put("toJSON", () => b.subarray(0, 6).toJSON());
  put("toJSON array", () => { const d = b.subarray(0, 3).toJSON().data; return [cap.getPrototypeOf(d) === cap.getPrototypeOf(arr), d.length]; });
  put("stringify", () => cap.stringify({ b: Buffer.from(plain) }));
  put("copy", () => { const t = Buffer.alloc(8); const k = b.copy(t, 2, 1, 5); const t2 = Buffer.alloc(4); return [k, hex(t), b.copy(t2), hex(t2)]; });
  put("byteLength", () => [Buffer.byteLength("\u2603"), Buffer.byteLength("aGk=", "base64"), Buffer.byteLength(u16),
    Buffer.byteLength(ab), Buffer.byteLength(dv), Buffer.byteLength("abcd", "hex")]);
  put("isEncoding", () => [Buffer.isEncoding("UTF-8"), Buffer.isEncoding("Latin1"), Buffer.isEncoding("x"), Buffer.isEncoding(""),
    Buffer.isEncoding(3)]);
  put("transcode", () => [hex(transcode(b.subarray(0, 20), "utf8", "latin1")), hex(transcode(b.subarray(0, 8), "utf8", "utf16le")),
    hex(transcode(Buffer.from("h\u00e9", "latin1"), "latin1", "utf8")), hex(transcode(b.subarray(0, 14), "utf8", "ascii"))]);
  put("isUtf8", () => [isUtf8(b), isUtf8(Buffer.from([0xff])), isAscii(b), isAscii(plain), isAscii(ab), isUtf8(dv)]);
  put("copyBytesFrom", () => [hex(Buffer.copyBytesFrom(u16, 1)), hex(Buffer.copyBytesFrom(u16, 0, 1)), len(Buffer.copyBytesFrom(u16, 5))]);
  put("isBuffer", () => [Buffer.isBuffer(b), Buffer.isBuffer(plain), Buffer.isBuffer(null), b.parent === bufferOf(b), b.offset]);
  put("ints", () => {
    const t = Buffer.alloc(24);
    const r = [t.writeUInt8(200, 0), t.writeInt8(-3, 1), t.writeUInt16LE(0xbeef, 2), t.writeInt16BE(-2, 4),
      t.writeUInt32BE(0xdeadbeef, 6), t.writeInt32LE(-123456, 10), t.writeUIntLE(0x123456789a, 14, 5), t.writeIntBE(-5, 19, 3),
      t.writeUint16BE(7, 22)];
    return [r, hex(t), t.readUInt8(0), t.readInt8(1), t.readUInt16LE(2), t.readInt16BE(4), t.readUInt32BE(6), t.readInt32LE(10),
      t.readUIntLE(14, 5), t.readIntBE(19, 3), t.readUIntBE(0, 6), t.readIntLE(2, 6), t.readUint32LE(6), t.readUint16BE(22)];
  });
  put("floats", () => {
    const t = Buffer.alloc(24);
    const r = [t.writeFloatLE(1.5, 0), t.writeFloatBE(-2.25, 4), t.writeDoubleLE(cap.PI, 8), t.writeDoubleBE(-1e300, 16)];
    return [r, hex(t), t.readFloatLE(0), t.readFloatBE(4), t.readDoubleLE(8), t.readDoubleBE(16), t.readFloatBE(0), t.readDoubleLE(16)];
  });
  put("bigints", () => {
    const t = Buffer.alloc(32);
    const r = [t.writeBigInt64LE(-3n, 0), t.writeBigInt64BE(-(2n ** 62n), 8), t.writeBigUInt64LE(2n ** 64n - 2n, 16), t.writeBigUint64BE(5n, 24)];
    return [r, hex(t), t.readBigInt64LE(0), t.readBigInt64BE(8), t.readBigUInt64LE(16), t.readBigUInt64BE(24), t.readBigUint64LE(24)];
  });
  put("inspect", () => { const t = Buffer.from("inspect me"); t.extra = 1; return [util.inspect(b), util.inspect(t), util.inspect(Buffer.alloc(0)),
    util.inspect({ nested: Buffer.from([1, 2]) }), b.inspect().length]; });
  put("INSPECT_MAX_BYTES", () => { bufferModule.INSPECT_MAX_BYTES = 4; const s = util.inspect(b); bufferModule.INSPECT_MAX_BYTES = 50; return s; });
  put("toLocaleString", () => [Buffer.from(plain).toLocaleString("hex"), b.toString(undefined, 2, 5)]);
  put("err range", () => Buffer.alloc(2).readUInt16LE(1));
  put("err value", () => Buffer.alloc(2).writeUInt8(500));
  put("err big value", () => Buffer.alloc(8).writeBigInt64LE(2n ** 70n));
  put("err big offset", () => Buffer.alloc(8).writeUInt8(1, 2 ** 40));
  put("err offset type", () => Buffer.alloc(2).readUInt8("1"));
  put("err encoding", () => b.toString("nope"));
  put("err from", () => Buffer.from(5));
  put("err concat", () => Buffer.concat([plain, 3]));
  put("err swap", () => Buffer.from("abc").swap16());
  put("err fill", () => Buffer.alloc(3).fill("", 0, 3, "nope"));
  put("err alloc", () => Buffer.alloc(-1));
  put("err transcode", () => transcode(b, "hex", "utf8"));
  put("err bigint type", () => Buffer.alloc(8).writeBigInt64LE(1));
  put("err compare", () => Buffer.compare(b, "x"));
  put("atob", () => [bufferModule.btoa("hi!"), bufferModule.atob("aGkh")]);
  cap.log(n + " " + cap.stringify(out));
}));
"""

TRAP = ("const trap = function () { throw new Error('a tampered builtin was called'); };\n"
        "const defineProperty = Object.defineProperty;\n"
        "const trapAll = (o, names) => { for (let i = 0; i < names.length; i++) "
        "defineProperty(o, names[i], { __proto__: null, value: trap, writable: true, configurable: true }); };\n"
        "const trapGetters = (o, names) => { for (let i = 0; i < names.length; i++) "
        "defineProperty(o, names[i], { __proto__: null, get: trap, configurable: true }); };\n"
        "const TypedArrayProto = Object.getPrototypeOf(Uint8Array.prototype);\n")

TYPED_ARRAY_METHODS = ('["set", "subarray", "slice", "fill", "indexOf", "lastIndexOf", "includes", "copyWithin", "at", '
                       '"join", "map", "filter", "forEach", "reverse", "sort", "toString", "toLocaleString", "values", '
                       '"keys", "entries", Symbol.iterator, "every", "some", "find", "findIndex", "reduce", "with", '
                       '"toReversed", "toSorted"]')

FAMILIES = {
    "typed_array_methods": TRAP + "trapAll(TypedArrayProto, " + TYPED_ARRAY_METHODS + ");",
    "typed_array_getters": TRAP + """trapGetters(TypedArrayProto, ["length", "buffer", "byteOffset", "byteLength", Symbol.toStringTag]);
      trapGetters(ArrayBuffer.prototype, ["byteLength"]);
      trapGetters(DataView.prototype, ["byteLength"]);
      if (typeof SharedArrayBuffer === "function") trapGetters(SharedArrayBuffer.prototype, ["byteLength"]);""",
    "species_constructor": TRAP + """trapGetters(Object.getPrototypeOf(Uint8Array), [Symbol.species]);
      trapGetters(ArrayBuffer, [Symbol.species]);
      trapGetters(Uint8Array.prototype, ["constructor"]);
      trapGetters(Uint16Array.prototype, ["constructor"]);""",
    "dataview": TRAP + """trapAll(DataView.prototype, ["getFloat32", "getFloat64", "setFloat32", "setFloat64", "getBigInt64",
      "getBigUint64", "setBigInt64", "setBigUint64", "getUint8", "setUint8", "getInt8", "setInt8", "getUint16", "setUint16",
      "getInt16", "setInt16", "getUint32", "setUint32", "getInt32", "setInt32"]);
      trapAll(ArrayBuffer.prototype, ["slice", "resize", "transfer"]);
      trapAll(ArrayBuffer, ["isView"]);""",
    "string_methods": TRAP + """trapAll(String.prototype, ["charCodeAt", "codePointAt", "slice", "substring", "substr",
      "indexOf", "lastIndexOf", "includes", "startsWith", "endsWith", "toLowerCase", "toUpperCase", "toWellFormed",
      "split", "replace", "replaceAll", "trim", "trimStart", "trimEnd", "padStart", "padEnd", "at", "charAt",
      "concat", "normalize", "search", "match", "repeat", "toString", "valueOf", "localeCompare"]);""",
    "string_statics": TRAP + """trapAll(String, ["fromCharCode", "fromCodePoint", "raw"]);""",
    "array_methods": TRAP + """trapAll(Array.prototype, ["push", "pop", "shift", "unshift", "slice", "splice", "concat",
      "join", "map", "filter", "some", "every", "find", "findIndex", "forEach", "reduce", "sort", "reverse",
      "indexOf", "lastIndexOf", "includes", "keys", "entries", "flat", "flatMap", "at", "fill", "toString"]);""",
    "array_setters": TRAP + """for (let i = 0; i < 8; i++)
      defineProperty(Array.prototype, i, { __proto__: null, get: trap, set: trap, configurable: true });""",
    "array_iterator": TRAP + """const arrayIteratorProto = Object.getPrototypeOf([][Symbol.iterator]());
      trapAll(arrayIteratorProto, ["next"]);
      trapAll(Array.prototype, [Symbol.iterator, "values"]);""",
    "object_statics": TRAP + """trapAll(Object, ["freeze", "defineProperty", "defineProperties", "keys", "values",
      "entries", "getOwnPropertyNames", "getOwnPropertyDescriptor", "getOwnPropertyDescriptors", "getPrototypeOf",
      "setPrototypeOf", "assign", "create", "hasOwn", "is", "fromEntries"]);
      trapAll(Object.prototype, ["hasOwnProperty", "propertyIsEnumerable", "isPrototypeOf"]);
      trapAll(Reflect, ["ownKeys", "getOwnPropertyDescriptor", "apply", "get", "set", "defineProperty", "construct",
      "has", "getPrototypeOf", "setPrototypeOf"]);
      trapAll(Array, ["from", "isArray", "of"]);""",
    "object_setters": TRAP + """const names = ["name", "encode", "decode", "write", "length", "code", "type", "data",
      "poolSize", "text", "u16", "n", "pending", "value", "0", "1", "2", "3"];
      for (let i = 0; i < names.length; i++)
        defineProperty(Object.prototype, names[i], { __proto__: null, set: trap, configurable: true });
      const getters = ["get", "set", "encode", "utf8", "hex", "base64", "latin1", "ascii", "utf16le", "base64url", "ucs2"];
      for (let i = 0; i < getters.length; i++)
        defineProperty(Object.prototype, getters[i], { __proto__: null, get: trap, configurable: true });""",
    "regexp": TRAP + """trapAll(RegExp.prototype, ["exec", "test", Symbol.replace, Symbol.split, Symbol.match,
      Symbol.matchAll, Symbol.search]);""",
    "number_math": TRAP + """trapAll(Number.prototype, ["toString", "toFixed", "valueOf", "toLocaleString"]);
      trapAll(Number, ["isNaN", "isInteger", "isFinite", "isSafeInteger", "parseInt", "parseFloat"]);
      trapAll(BigInt.prototype, ["toString", "valueOf", "toLocaleString"]);
      trapAll(Math, ["floor", "pow", "min", "max", "trunc", "abs", "ceil", "round", "sign"]);""",
    "functions_instanceof": TRAP + """trapAll(Function.prototype, ["call", "apply", "bind"]);
      const ctors = [Uint8Array, Uint16Array, ArrayBuffer, DataView, RangeError, TypeError, Error, Object, Array];
      if (typeof SharedArrayBuffer === "function") ctors[ctors.length] = SharedArrayBuffer;
      for (let i = 0; i < ctors.length; i++)
        defineProperty(ctors[i], Symbol.hasInstance, { __proto__: null, value: trap, configurable: true });""",
    "globals": TRAP + """trapAll(globalThis, ["String", "Number", "TypeError", "Error", "RangeError", "Symbol", "Array",
      "Object", "Reflect", "Math", "JSON", "RegExp", "BigInt", "ArrayBuffer", "SharedArrayBuffer", "DataView",
      "encodeURIComponent", "decodeURIComponent", "escape", "unescape"]);""",
}


def run_body(v, tmp, name, before, after):
    return eval_markers(v, tmp, name, BODY, before, after)


def answers_of(output):
    """The printed answers as a dict (console.log spells a control character in a string as \\u{XX},
    which is put back into JSON's form first)."""
    body = output[output.index(" ") + 1:]
    return json.loads(re.sub(r"\\u\{([0-9a-fA-F]{1,4})\}", lambda m: "\\u" + m.group(1).rjust(4, "0"), body))


def first_difference(want, got):
    try:
        a, b = answers_of(want), answers_of(got)
    except ValueError:
        return "output: " + got[:600]
    for k in a:
        if a.get(k) != b.get(k):
            return f"  {k}: untouched {a[k][:300]}\n  {k}: tampered  {str(b.get(k))[:300]}"
    return "(same answers, different bytes)"


def case_primordials_buffer_tampered_builtins_change_nothing(v):
    """Every family, tampered before and after node:buffer's first import, prints what the
    untouched run prints."""
    with tempfile.TemporaryDirectory() as tmp:
        code, want, err = run_body(v, tmp, "untouched", "", "")
        assert code == 0 and want[:1].isdigit(), f"the untouched body failed: exit {code}\n{err[-2000:]}"
        answers = answers_of(want)
        assert len(answers) > 80, f"the untouched body lost its answers:\n{want[:2000]}"
        threw = [k for k, a in answers.items() if a.startswith("threw") and " err " not in " " + k]
        assert not threw, "the untouched body threw where it should answer:\n" + "\n".join(
            f"  {k}: {answers[k]}" for k in threw)
        problems = []
        for family, tamper in FAMILIES.items():
            for when in ("before", "after"):
                before, after = (tamper, "") if when == "before" else ("", tamper)
                code, got, err = run_body(v, tmp, f"{family}_{when}", before, after)
                if code != 0 or got != want:
                    problems.append(f"{family} (tampered {when} the first import): exit {code}\n"
                                    f"{first_difference(want, got)}\n{err[-600:]}")
        assert not problems, f"{len(problems)} tampered runs differ from the untouched one:\n" + "\n".join(problems)
