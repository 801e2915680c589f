/* esnext/transfer.js — ArrayBuffer.prototype.{transfer, transferToFixedLength} and the `detached`
 * getter (ES2024 arraybuffer-transfer). QuickJS 2025-04-26 has no resizable buffers, so both
 * transfers make a fixed-length buffer: the bytes are copied into a new %ArrayBuffer% and the
 * old one is detached (C: natives.detach).
 *
 * Trusts: lib (esnext/01-lib.js), natives.detach / natives.isDetached (C) and the intrinsics
 * 00-captures.js captured.
 */
(function (lib, natives) {
  "use strict";
  const { call, toIndex, register } = lib;
  const { TypeErrorCtor, ArrayBufferCtor, Uint8ArrayCtor, TypedArraySet } = lib.P;
  const ByteLength = lib.P.ArrayBufferByteLength;
  const isDetached = natives.isDetached;
  const detach = natives.detach;

  // ArrayBufferCopyAndDetach (the byteLength getter is the brand check: it refuses a
  // SharedArrayBuffer and anything else)
  function copyAndDetach(O, newLength) {
    const length = call(ByteLength, O);
    const newByteLength = newLength === undefined ? length : toIndex(newLength);
    if (isDetached(O)) throw new TypeErrorCtor("the ArrayBuffer is detached");
    const out = new ArrayBufferCtor(newByteLength);
    const n = newByteLength < length ? newByteLength : length;
    if (n > 0) call(TypedArraySet, new Uint8ArrayCtor(out, 0, n), new Uint8ArrayCtor(O, 0, n));
    detach(O);
    return out;
  }

  register("ArrayBuffer.prototype", {
    get detached() {
      call(ByteLength, this);
      return isDetached(this);
    },
    transfer(newLength = undefined) {
      return copyAndDetach(this, newLength);
    },
    transferToFixedLength(newLength = undefined) {
      return copyAndDetach(this, newLength);
    },
  });
})
