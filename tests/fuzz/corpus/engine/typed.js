const b = new ArrayBuffer(64, { maxByteLength: 256 }); const u = new Uint8Array(b); u.fill(7, 2, 9);
b.resize(128); const d = new DataView(b); d.setFloat64(8, Math.PI); console.log(u.indexOf(7), u.slice(1, 5), new Float32Array(b, 4, 3));
const s = new Int16Array([5, 3, 9]).toSorted(); console.log(s.toReversed().with(0, 1), Atomics.add(new Int32Array(4), 0, 1));
