// Oracle: node:string_decoder — characters split across writes in every encoding, end(), errors.
import { StringDecoder } from "node:string_decoder";
import sd from "string_decoder";
import { Buffer } from "node:buffer";

const attempt = (f) => {
  try { return { ok: f() }; } catch (e) { return { name: e.name, message: e.message, code: e.code }; }
};

// Feeds `bytes` in every 1/2/3-byte chunking, returning the pieces of each run.
function chunked(enc, bytes) {
  const runs = [];
  for (const size of [1, 2, 3, 5]) {
    const d = new StringDecoder(enc);
    const pieces = [];
    for (let i = 0; i < bytes.length; i += size) pieces.push(d.write(Buffer.from(bytes.slice(i, i + size))));
    pieces.push(d.end());
    runs.push(pieces);
  }
  return runs;
}

export async function agent() {
  const out = {};
  out.shape = [typeof sd.StringDecoder, sd.StringDecoder === StringDecoder, Object.keys(new StringDecoder())];
  out.encodings = [undefined, "utf8", "UTF-8", "ucs2", "UCS-2", "utf16le", "binary", "latin1", "base64", "base64url", "hex", "ascii"]
    .map((e) => new StringDecoder(e).encoding);
  out.unknown = attempt(() => new StringDecoder("nope"));
  const text = "aé€😀z";
  const utf8 = [...Buffer.from(text)];
  out.utf8 = chunked("utf8", utf8);
  out.utf16 = chunked("utf16le", [...Buffer.from(text, "utf16le")]);
  out.base64 = chunked("base64", utf8);
  out.base64url = chunked("base64url", utf8);
  out.hex = chunked("hex", utf8);
  out.latin1 = chunked("latin1", [0x41, 0xe9, 0xff]);
  out.invalid = [[0xe4, 0xbd], [0xc0, 0x80], [0xff, 0x41], [0xf0, 0x9f, 0x41], [0xe4, 0xbd, 0xa0, 0xe4]].map((b) => chunked("utf8", b));
  let d = new StringDecoder("utf8");
  out.endWithBuffer = [d.write(Buffer.from([0xe4, 0xbd])), d.end(Buffer.from([0x41])), d.end()];
  d = new StringDecoder("utf16le");
  out.utf16Ends = [d.write(Buffer.from([0x3d, 0xd8])), d.end(), new StringDecoder("utf16le").end(Buffer.from([0x41]))];
  d = new StringDecoder();
  out.writeString = d.write("str");
  out.writeBad = attempt(() => d.write(5));
  out.typed = new StringDecoder("utf8").write(new Uint8Array([0xc3, 0xa9]));
  d = new StringDecoder("utf8");
  d.write(Buffer.from([0xf0, 0x9f]));
  out.lastNeed = d.lastNeed;
  return out;
}
