// Oracle: node:buffer conversions in every encoding, views, search, accessors and error shapes.
import { Buffer as ImportedBuffer, isUtf8, isAscii, INSPECT_MAX_BYTES, transcode } from "node:buffer";
import * as bare from "buffer";

const attempt = (f) => {
  try {
    const v = f();
    return { ok: v instanceof Uint8Array ? "<" + v.constructor.name + " " + Buffer.from(v).toString("hex") + ">" : typeof v === "bigint" ? String(v) + "n" : v };
  } catch (e) { return { name: e.name, message: e.message, code: e.code }; }
};
// Errors whose message names Node's 2^32 buffer limit: compare only their shape.
const shape = (f) => { const r = attempt(f); return r.ok !== undefined ? r : { name: r.name, code: r.code }; };
const ENCODINGS = ["utf8", "utf-8", "UTF8", "hex", "base64", "base64url", "latin1", "binary", "ascii", "utf16le", "ucs2", "ucs-2", "utf-16le"];

export async function agent() {
  const out = {};
  out.same = [ImportedBuffer === Buffer, bare.Buffer === Buffer, bare.default.Buffer === Buffer, INSPECT_MAX_BYTES];
  const strings = ["", "hello", "héllo wörld", "€😀", "\ud800x", "\u00ff\u0100\u0080", "YWJj", "YW Jj", "-_", "a+/=", "0g", "abc", "DEADbeef1"];
  out.fromString = {};
  for (const enc of ENCODINGS) out.fromString[enc] = strings.map((s) => Buffer.from(s, enc).toString("hex"));
  out.fromBase64 = ["YQ=YQ", "YQ", "Y", "YQ==YQ==", "-_-_", "Y\u0100Q", "YWJjZA=", "YW=Jj", "a", "////", "____", "QUJD\nREVG"]
    .map((s) => [Buffer.from(s, "base64").toString("hex"), Buffer.from(s, "base64url").toString("hex")]);
  const bytes = Buffer.from([0x00, 0x41, 0x7f, 0x80, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xff, 0xfe, 0xf0, 0x9f, 0x98, 0x80]);
  out.toString = {};
  for (const enc of ENCODINGS) {
    const s = bytes.toString(enc);
    out.toString[enc] = Array.from(s, (c) => c.codePointAt(0));
  }
  out.toStringRanges = [[undefined, 2, 5], ["hex", -1, 100], [undefined, 3], ["base64", 1, 4], ["utf8", 5, 2], ["latin1", 1.7, 3.2],
    ["hex", "1", "3"], ["hex", NaN, 2], ["ascii", 100]].map(([e, s, t]) => attempt(() => bytes.toString(e, s, t)));
  out.toStringErrors = [null, "", 0, "bogus", "utf32"].map((e) => attempt(() => bytes.toString(e)));
  out.byteLength = ["YQ==", "YQ", "abc", "é", "YW Jj", "", "😀", "\ud800"].map((s) =>
    ["base64", "hex", "utf8", "latin1", "utf16le", "base64url", "nope"].map((e) => Buffer.byteLength(s, e)));
  out.byteLengthOther = [Buffer.byteLength(new ArrayBuffer(7)), Buffer.byteLength(new Uint16Array(3)), Buffer.byteLength(new DataView(new ArrayBuffer(5))),
    attempt(() => Buffer.byteLength(5))];

  const ab = new Uint8Array([1, 2, 3, 4, 5, 6]).buffer;
  out.from = [
    attempt(() => Buffer.from([256, -1, 1.5, "3", null, "x"])),
    attempt(() => Buffer.from({ length: 2, 0: 1, 1: 2 })),
    attempt(() => Buffer.from({ type: "Buffer", data: [1, 2] })),
    attempt(() => Buffer.from(new String("ab"))),
    attempt(() => Buffer.from(new Uint16Array([0x102, 0x304]))),
    attempt(() => Buffer.from(ab, 2)), attempt(() => Buffer.from(ab, 1, 3)), attempt(() => Buffer.from(ab, "2", "2")),
    attempt(() => Buffer.from(ab, NaN, -1)), attempt(() => Buffer.from(ab, 7)), attempt(() => Buffer.from(ab, 1, 9)),
    attempt(() => Buffer.from(5)), attempt(() => Buffer.from({})), attempt(() => Buffer.from(null)), attempt(() => Buffer.from("x", "nope")),
    attempt(() => Buffer.from("ab", 5)), attempt(() => Buffer.from("ab", "")), attempt(() => Buffer.from({ length: "x" })),
    attempt(() => Buffer.from({ [Symbol.toPrimitive]() { return "prim"; } })),
  ];
  const shared = Buffer.from(ab, 1, 3);
  shared[0] = 99;
  out.fromSharesMemory = new Uint8Array(ab)[1];
  const copied = Buffer.from(Buffer.from("abc"));
  out.fromCopies = copied.toString();

  out.alloc = [attempt(() => Buffer.alloc(3)), attempt(() => Buffer.alloc(5, "ab")), attempt(() => Buffer.alloc(4, 257)),
    attempt(() => Buffer.alloc(3, "")), attempt(() => Buffer.alloc(1.5)), attempt(() => Buffer.alloc(4, "aGk=", "base64")),
    attempt(() => Buffer.alloc(3, Buffer.from([7, 8]))), attempt(() => Buffer.alloc(2, true)), attempt(() => Buffer.allocUnsafe(3).fill(0)),
    attempt(() => Buffer.alloc("5")), shape(() => Buffer.alloc(-1)), shape(() => Buffer.alloc(NaN)), attempt(() => Buffer.alloc(2, "zz", "hex"))];

  const b = Buffer.from("hello world");
  out.views = [b.slice(-2).toString(), b.subarray(1, 3).constructor.name, b.slice(3, 1).length, b.subarray(-100, 2).toString(),
    b.subarray("2", "4").toString(), b.slice(1.9, 3.9).toString(), b.map((x) => x + 1).constructor.name,
    b.slice(0).buffer === b.buffer, Buffer.isBuffer(b.subarray(1)), Buffer.isBuffer(new Uint8Array(2)), Buffer.isBuffer("x")];
  const view = b.subarray(0, 5);
  view[0] = 72;
  out.viewWritesThrough = b.toString();
  out.json = [b.toJSON(), JSON.stringify(b.subarray(0, 2)), JSON.parse(JSON.stringify(Buffer.from("hi")), (k, v) =>
    v && v.type === "Buffer" ? Buffer.from(v).toString() : v)];
  out.string = [String(Buffer.from("abc")), Buffer.from("ab") + "", `${Buffer.from("x")}`, b.toLocaleString("hex", 0, 2)];
  out.isEncoding = ["UTF-8", "binary", "", "utf-16le", "ucs-2", "Hex", "base64URL", "utf16", null, 1, "latin-1"].map((e) => Buffer.isEncoding(e));

  const w = Buffer.alloc(11, ".");
  out.write = [w.write("XY", 1), w.write("abc", 9), w.write("zz", 0, 1), w.write("é", 10), w.toString(),
    w.write("6162", 0, "hex"), w.write("6162", "hex"), w.write("6162zz", 4, 10, "hex"), w.write("€", 7, "utf8"), w.write("aGk=", 2, "base64"),
    w.write("ab", 0, 3, "utf16le"), w.write("héllo", 0, "latin1"), w.toString("hex"),
    attempt(() => w.write(5)), attempt(() => w.write("x", 12)), attempt(() => w.write("x", 1.5)), attempt(() => w.write("x", 0, "nope")),
    attempt(() => w.write("x", 0, -1)), attempt(() => w.write("abcdef", 8, 100))];

  const f = Buffer.alloc(6);
  out.fill = [attempt(() => f.fill("ab")), attempt(() => f.fill("é")), attempt(() => f.fill(0x141)), attempt(() => f.fill(1, 2, 4)),
    attempt(() => f.fill("x", 1)), attempt(() => f.fill("616", "hex")), attempt(() => f.fill("zz", "hex")), attempt(() => f.fill(Buffer.alloc(0))),
    attempt(() => f.fill("x", 1, 10)), shape(() => f.fill(1, -1)), attempt(() => f.fill("a", 4, 2)), attempt(() => f.fill("YWJj", 0, 6, "base64")),
    attempt(() => f.fill(new Uint16Array([0x4142]))), attempt(() => f.fill("q", "nope")), attempt(() => f.fill(-1)), attempt(() => f.fill(2.7)),
    attempt(() => f.fill("\u0100", "latin1")), attempt(() => f.fill("\u0100", 0, 6, "utf16le"))];

  const hay = Buffer.from("abcabc\u00e9abc");
  const needles = ["abc", "c", "", "é", "x", 99, 0x163, -157, Buffer.from("bc"), Buffer.alloc(0), new Uint8Array([0x61]), "YWJj"];
  const offsets = [undefined, 0, 1, 3, -1, -3, -100, 6, 100, "latin1", NaN, 1.5, null];
  out.indexOf = needles.map((n) => offsets.map((o) => [hay.indexOf(n, o), hay.lastIndexOf(n, o), hay.includes(n, o)]));
  out.indexOfEncodings = [hay.indexOf("YWJj", 0, "base64"), hay.indexOf("6263", 2, "hex"), hay.lastIndexOf("e9", undefined, "hex"),
    Buffer.from("abab", "utf16le").indexOf("b", 0, "utf16le"), Buffer.from("abab", "utf16le").lastIndexOf("a", undefined, "ucs2"),
    Buffer.from("\u6261\u6362", "utf16le").indexOf("b", 0, "ucs2"), Buffer.alloc(0).indexOf("a"), Buffer.alloc(0).indexOf(""),
    attempt(() => hay.indexOf({})), attempt(() => hay.indexOf("a", 0, "nope"))];

  out.compare = [Buffer.compare(Buffer.from("a"), Buffer.from("b")), Buffer.compare(Buffer.from("b"), Buffer.from("a")),
    Buffer.compare(Buffer.from("ab"), Buffer.from("a")), Buffer.compare(Buffer.from(""), Buffer.from("")),
    [Buffer.from("b"), Buffer.from("a"), Buffer.from("ab"), Buffer.from("")].sort(Buffer.compare).map(String),
    b.compare(Buffer.from("ello"), 0, 4, 1, 5), b.compare(b, 10), b.compare(Buffer.from("x"), 0, 0, 0, 0), b.compare(Buffer.from("x"), 0, 1, 2, 2),
    attempt(() => Buffer.compare(1, b)), attempt(() => b.compare("x")), attempt(() => b.compare(b, 0, 100)), shape(() => b.compare(b, -1)),
    Buffer.from("abc").equals(Buffer.from("abc")), Buffer.from("abc").equals(new Uint8Array([97, 98])), attempt(() => b.equals("x"))];
  out.concat = [attempt(() => Buffer.concat([Buffer.from("ab"), new Uint8Array([99]), Buffer.from("")])),
    attempt(() => Buffer.concat([Buffer.from("abc"), Buffer.from("def")], 4)), attempt(() => Buffer.concat([Buffer.from("ab")], 5)),
    attempt(() => Buffer.concat([])), attempt(() => Buffer.concat("x")), attempt(() => Buffer.concat([1])),
    attempt(() => Buffer.concat([Buffer.from("a"), "b"]))];

  const src = Buffer.from("abcdef");
  const copyCases = [[0], [2], [0, 2], [0, 2, 4], [4, 0, 6], [10], [0, 5, 3], ["1", "2", "4"], [1.5, 0.5, 2.5]];
  out.copy = copyCases.map((args) => { const t = Buffer.alloc(6, "."); const n = src.copy(t, ...args); return [n, t.toString()]; });
  out.copyErrors = [attempt(() => src.copy("x")), attempt(() => src.copy(Buffer.alloc(3), -1)), attempt(() => src.copy(Buffer.alloc(3), 0, 9)),
    attempt(() => src.copy(Buffer.alloc(3), 0, 0, -1))];
  const overlap = Buffer.from("abcdef");
  overlap.copy(overlap, 2, 0, 4);
  out.copyOverlap = overlap.toString();

  const r = Buffer.from([0x01, 0x02, 0x03, 0x04, 0x85, 0x86, 0x87, 0x88, 0xff, 0x7f, 0x00, 0x80]);
  const readers = ["readUInt8", "readInt8", "readUInt16LE", "readUInt16BE", "readInt16LE", "readInt16BE", "readUInt32LE", "readUInt32BE",
    "readInt32LE", "readInt32BE", "readFloatLE", "readFloatBE", "readDoubleLE", "readDoubleBE", "readBigUInt64LE", "readBigUInt64BE",
    "readBigInt64LE", "readBigInt64BE", "readUint8", "readUint16LE", "readUint32BE", "readBigUint64LE"];
  out.read = readers.map((m) => [0, 3, 4].map((o) => attempt(() => r[m](o))));
  out.readVar = [1, 2, 3, 4, 5, 6].map((n) => [attempt(() => r.readUIntLE(1, n)), attempt(() => r.readUIntBE(1, n)),
    attempt(() => r.readIntLE(3, n)), attempt(() => r.readIntBE(3, n))]);
  out.readErrors = [attempt(() => r.readUInt32LE(9)), attempt(() => r.readUInt8(1.5)), attempt(() => r.readUInt8("1")),
    attempt(() => r.readUIntLE(0)), attempt(() => r.readUIntLE(0, 7)), attempt(() => Buffer.alloc(2).readUInt32LE()),
    attempt(() => Buffer.alloc(0).readUInt8()), attempt(() => r.readUInt8(-1)), attempt(() => r.readUInt8(Infinity)),
    attempt(() => r.readUInt8(NaN)), attempt(() => r.readDoubleLE(5)), attempt(() => r.readBigInt64LE(5)), attempt(() => r.readUInt8())];

  const writes = [["writeUInt8", 255], ["writeUInt8", 300], ["writeInt8", -128], ["writeInt8", 128], ["writeUInt16LE", 0x1234],
    ["writeUInt16BE", 0x1234], ["writeInt16LE", -2], ["writeInt16BE", -40000], ["writeUInt32LE", 0xdeadbeef], ["writeUInt32BE", 2 ** 32],
    ["writeInt32LE", -1], ["writeInt32BE", 2 ** 31], ["writeFloatLE", 1.5], ["writeFloatBE", -0.1], ["writeDoubleLE", Math.PI],
    ["writeDoubleBE", -Infinity], ["writeBigUInt64LE", 2n ** 64n - 1n], ["writeBigUInt64BE", 258n], ["writeBigInt64LE", -2n],
    ["writeBigInt64BE", 2n ** 63n], ["writeBigUInt64LE", -1n], ["writeBigUInt64LE", 1], ["writeUInt8", "7"], ["writeUInt8", NaN],
    ["writeUInt16LE", 1.9], ["writeInt16LE", -1.5], ["writeUint16BE", 0xabcd], ["writeUInt8", 1, 1.5], ["writeUInt16LE", 1, 11],
    ["writeUInt8", 1, "0"], ["writeUInt32LE", -1]];
  out.write8 = writes.map(([m, v, o]) => { const t = Buffer.alloc(12); const res = attempt(() => t[m](v, o === undefined ? 0 : o)); return [res, t.toString("hex")]; });
  out.writeVar = [1, 2, 3, 4, 5, 6].map((n) => { const t = Buffer.alloc(8); return [attempt(() => t.writeUIntLE(0x123456789abc % 2 ** (8 * n), 1, n)),
    attempt(() => t.writeUIntBE(2 ** (8 * n) - 1, 1, n)), attempt(() => t.writeIntLE(-(2 ** (8 * n - 1)), 1, n)), attempt(() => t.writeIntBE(-3, 1, n)),
    attempt(() => t.writeUIntBE(2 ** (8 * n), 0, n)), attempt(() => t.writeIntLE(2 ** (8 * n - 1), 0, n)), t.toString("hex")]; });
  out.writeVarErrors = [attempt(() => Buffer.alloc(8).writeUIntLE(1, 0)), attempt(() => Buffer.alloc(8).writeUIntLE(1, 0, 0))];
  const fl = Buffer.alloc(8);
  fl.writeFloatLE(0.1);
  out.floatRound = [fl.readFloatLE(0), fl.toString("hex")];

  out.swap = [attempt(() => Buffer.from("abcdefgh").swap16()), attempt(() => Buffer.from("abcdefgh").swap32()),
    attempt(() => Buffer.from("abcdefgh").swap64()), attempt(() => Buffer.from("abc").swap16()), attempt(() => Buffer.from("abcdef").swap32())];
  out.iter = [Array.from(Buffer.from("ab").entries()), Array.from(Buffer.from("ab").keys()), [...Buffer.from("ab")]];
  out.ctor = [attempt(() => Buffer(3)), attempt(() => new Buffer("ab")), attempt(() => Buffer("6869", "hex")), attempt(() => Buffer(3, "hex"))];
  out.module = [isUtf8(Buffer.from("é")), isUtf8(Buffer.from([0xc3])), isAscii(Buffer.from("abc")), isAscii(Buffer.from("é")),
    isUtf8(new Uint8Array([0xed, 0xa0, 0x80])), attempt(() => transcode(Buffer.from("h€llo"), "utf8", "ucs2")),
    attempt(() => transcode(Buffer.from("h€llo"), "utf8", "latin1")), typeof bare.Blob, typeof bare.constants.MAX_LENGTH];
  const blob = new bare.Blob(["ab", Buffer.from("cd"), new Uint8Array([101])], { type: "Text/Plain" });
  out.blob = [blob.size, blob.type, await blob.text(), await blob.slice(1, -1).text(), Buffer.from(await blob.arrayBuffer()).toString(),
    String(blob), blob.slice(-2).size];
  out.bufferAtob = [bare.atob("aGk="), bare.btoa("hi")];
  // Legacy members: parent/offset/inspect.
  {
    const b = Buffer.alloc(2, "hi");
    const s = Buffer.alloc(5, "hello").subarray(1, 3);
    const desc = Object.getOwnPropertyDescriptor(Buffer.prototype, "parent");
    out.legacy = [b.parent === b.buffer, b.offset, s.offset, s.parent === s.buffer, typeof b.parent, b.inspect(), s.inspect(),
      Buffer.prototype.inspect === Buffer.prototype[Symbol.for("nodejs.util.inspect.custom")], desc.enumerable, desc.configurable,
      typeof desc.get, desc.get.call(new Uint8Array(2)), Object.keys(b).length];
  }
  return out;
}
