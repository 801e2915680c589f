//! mode: eval
//! stdout: 8 16 true 7 64 RangeError
// A growable SharedArrayBuffer (quickjs-ng needs allocator hooks for it, which chidori provides:
// limits.c) grows in place, keeps its contents, and refuses to shrink or to pass its maximum.
const sab = new SharedArrayBuffer(8, { maxByteLength: 64 });
const before = sab.byteLength;
new Uint8Array(sab)[3] = 7;
sab.grow(16);
let err = "none";
try { sab.grow(65); } catch (e) { err = e.constructor.name; }
console.log(before, sab.byteLength, sab.growable, new Uint8Array(sab)[3], sab.maxByteLength, err);
