// Oracle: what Node's test-buffer-alloc.js, -arraybuffer.js, -fill.js and -indexof.js check that
// chidori missed (tools/node-tests): toLocaleString is toString itself; indexOf and lastIndexOf
// are plain functions that refuse a receiver that is no view (ERR_INVALID_ARG_TYPE, also
// under `new`); fill() goes up to the buffer's `length` as Node reads it and refuses one beyond
// its bytes (ERR_BUFFER_OUT_OF_BOUNDS); Buffer.from takes only a real ArrayBuffer, not an object
// that inherits from ArrayBuffer.prototype. (Before: a wrapper function, "not a constructor",
// the whole buffer filled, and "ArrayBuffer object expected".)
import buffer from "node:buffer";

function t(f) {
  try { return f(); } catch (e) { return ["throws", e.name, e.code, e.message]; }
}

export async function agent() {
  const withLength = (n) => {
    const buf = Buffer.from("w00t");
    Object.defineProperty(buf, "length", { value: n, enumerable: true });
    return buf;
  };
  function AB() {}
  Object.setPrototypeOf(AB, ArrayBuffer);
  Object.setPrototypeOf(AB.prototype, ArrayBuffer.prototype);
  return {
    toLocale: [Buffer.prototype.toLocaleString === Buffer.prototype.toString, Buffer.from("test").toLocaleString("hex")],
    search: [t(() => new buffer.Buffer.prototype.lastIndexOf(1, "str")), t(() => new Buffer.prototype.indexOf("a")),
      t(() => Buffer.prototype.indexOf.call({}, 1)), t(() => Buffer.prototype.indexOf.call(new Uint16Array([97]), 97)),
      Buffer.from("abcabc").lastIndexOf("c"), typeof Buffer.prototype.indexOf.prototype],
    fill: [t(() => withLength(1337).fill("")), t(() => withLength(1337).fill(1)), t(() => withLength(5).fill("ab")),
      t(() => [...withLength(2).fill("a")].join()), t(() => [...withLength(2).fill("a", 1)].join()),
      t(() => [...withLength(3).fill(0x41, 0)].join()), t(() => withLength(3).fill(0x41, 0, 4))],
    fromFake: [t(() => Buffer.from(new AB())), t(() => Buffer.byteLength(new AB())), Buffer.from(new ArrayBuffer(3)).length,
      Buffer.from(new Uint8Array([1, 2]).buffer).length, t(() => Buffer.from(Object.create(ArrayBuffer.prototype)))],
  };
}
