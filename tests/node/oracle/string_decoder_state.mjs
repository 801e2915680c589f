// Oracle: StringDecoder's lastChar, lastNeed and lastTotal after each write, for characters split
// across writes in utf8, utf16le, base64 and hex, and after end().
import { StringDecoder } from "node:string_decoder";
import { Buffer } from "node:buffer";

const state = (d) => [[...d.lastChar], d.lastNeed, d.lastTotal];

function walk(enc, chunks) {
  const d = new StringDecoder(enc);
  const steps = [state(d)];
  for (const c of chunks) {
    const text = d.write(Buffer.from(c));
    steps.push([text, ...state(d)]);
  }
  steps.push([d.end(), ...state(d)]);
  return steps;
}

export async function agent() {
  const out = {};
  const d = new StringDecoder("utf8");
  out.shape = [Object.keys(d), Buffer.isBuffer(d.lastChar), d.lastChar.length, "lastChar" in d,
    Object.prototype.hasOwnProperty.call(d, "lastNeed")];
  out.utf8 = [
    walk("utf8", [[0xe2], [0x82], [0xac]]),
    walk("utf8", [[0xf0, 0x9f], [0x98], [0x80, 0x41]]),
    walk("utf8", [[0x41, 0xc3], [0xa9]]),
    walk("utf8", [[0xe2, 0x82]]),
    walk("utf8", [[0xc3], [0x41]]),
    walk("utf8", [[0xf0, 0x9f, 0x98]]),
  ];
  out.utf16le = [
    walk("utf16le", [[0x3d], [0x00]]),
    walk("utf16le", [[0x3d, 0xd8], [0x00, 0xde]]),
    walk("utf16le", [[0x3d, 0xd8, 0x00], [0xde, 0x41, 0x00]]),
    walk("utf16le", [[0x3d, 0xd8]]),
  ];
  out.base64 = [walk("base64", [[1], [2], [3], [4, 5]]), walk("base64url", [[250, 251]]), walk("base64", [[1, 2, 3, 4]])];
  out.other = [walk("hex", [[1, 2]]), walk("latin1", [[0xe9]]), walk("ascii", [[0x41]])];
  return out;
}
