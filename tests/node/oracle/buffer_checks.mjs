// Oracle: what running Node's own buffer tests by hand found different (our inputs): the
// variable-width readIntBE/readUIntLE/writeIntBE... have no default offset, buffer.INSPECT_MAX_BYTES
// is settable and validated, and a toString past the engine's string limit is ERR_STRING_TOO_LONG
// (checked by its code only where a huge buffer is cheap: here the validation paths).
import buffer, { Buffer } from "node:buffer";

const attempt = (f) => { try { return f(); } catch (e) { return { name: e.name, code: e.code, message: e.message }; } };

export async function agent() {
  const out = {};
  const b = Buffer.from([1, 2, 3, 4, 5, 6, 7, 8]);
  out.varWidth = ["readIntBE", "readIntLE", "readUIntBE", "readUIntLE"].map((m) =>
    [undefined, "0", null, 0, 2].map((o) => attempt(() => b[m](o, 3))));
  out.varWidthWrite = ["writeIntBE", "writeIntLE", "writeUIntBE", "writeUIntLE"].map((m) =>
    [undefined, 0].map((o) => attempt(() => Buffer.alloc(8)[m](5, o, 2))));
  out.noByteLength = attempt(() => b.readIntBE(0));
  out.inspectDefault = buffer.INSPECT_MAX_BYTES;
  out.inspectSet = [-1, "x", NaN, 3].map((v) => attempt(() => { buffer.INSPECT_MAX_BYTES = v; return buffer.INSPECT_MAX_BYTES; }));
  buffer.INSPECT_MAX_BYTES = 50;
  out.toStringRanges = [[], ["hex"], ["utf8", 2], ["latin1", 1, 3], ["base64", -1, 100]].map((a) => b.toString(...a));
  return out;
}
