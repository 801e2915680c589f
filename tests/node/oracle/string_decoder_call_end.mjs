// Oracle: what Node's test-string-decoder.js and -fuzz.js check that chidori missed
// (tools/node-tests): StringDecoder may be called without `new` (StringDecoder.call(obj) sets obj
// up); its prototype's write refuses a receiver that is no decoder (ERR_INVALID_THIS); end()
// decodes held UTF-8 bytes as they are, so bytes that never began a character give one U+FFFD
// each, as Buffer#toString does. (Before: "class constructors must be invoked with 'new'", "not
// a TypedArray", and a single U+FFFD for whatever end() held.)
import { StringDecoder } from "node:string_decoder";

function t(f) {
  try { return f(); } catch (e) { return ["throws", e.name, e.code, e.message]; }
}

export async function agent() {
  const d2 = {};
  const called = t(() => { StringDecoder.call(d2, "hex"); return [d2.encoding, Object.keys(d2)]; });
  const badThis = [t(() => new StringDecoder("utf8").__proto__.write(Buffer.from("abc"))),
    t(() => StringDecoder.prototype.write.call(null, "x")), t(() => StringDecoder.prototype.write.call({}, new Uint16Array(2)))];
  const ends = ["e090", "e2", "e282", "f0", "f09f", "f09f98", "c0", "c1bf", "ed", "eda0", "f4", "f490", "f5", "80",
    "41e0", "e0a0", "ff"].map((hex) => {
    const d = new StringDecoder("utf8");
    const w = d.write(Buffer.from(hex, "hex"));
    const e = d.end();
    return [hex, escape(w), escape(e), escape(w + e) === escape(Buffer.from(hex, "hex").toString())];
  });
  const split = [["e0", "90"], ["f0", "9f", "41"], ["e2", "82ac"], ["c0", "ea", "2e"], ["ed", "a0", "80"]].map((parts) => {
    const d = new StringDecoder("utf8");
    const out = parts.map((p) => escape(d.write(Buffer.from(p, "hex"))));
    out.push(escape(d.end()));
    return out;
  });
  return { called, badThis, ends, split, length: StringDecoder.length, name: StringDecoder.name };
}
