// Oracle: the tee of a byte stream (the spec's ReadableByteStreamTee): a branch read with a BYOB
// reader has the source read into its view and the other branch gets a copy; default reads on a
// branch read the source with a default reader; element sizes and a canceled branch.
const res = (r) => ({ done: r.done, v: r.value === undefined ? null : [r.value.constructor.name, Array.from(r.value), r.value.buffer.byteLength] });
function counter(n, chunk) {
  let at = 0;
  return new ReadableStream({ type: "bytes", pull(c) {
    const req = c.byobRequest;
    if (at >= n) { c.close(); if (req) req.respond(0); return; }
    if (req) { const k = Math.min(req.view.byteLength, n - at, chunk); for (let i = 0; i < k; i++) req.view[i] = at++; req.respond(k); }
    else { const k = Math.min(chunk, n - at); const b = new Uint8Array(k); for (let i = 0; i < k; i++) b[i] = at++; c.enqueue(b); }
  } });
}
export async function agent() {
const out = [];
{
  const [a, b] = counter(6, 4).tee();
  const ra = a.getReader({ mode: "byob" }), rb = b.getReader();
  out.push(res(await ra.read(new Uint8Array(3))), res(await rb.read()), res(await ra.read(new Uint8Array(8))), res(await rb.read()), res(await ra.read(new Uint8Array(8))), res(await rb.read()));
}
{
  const [a, b] = counter(5, 2).tee();
  const ra = a.getReader(), rb = b.getReader({ mode: "byob" });
  out.push(res(await rb.read(new Uint16Array(2))), res(await ra.read()), res(await ra.read()), res(await rb.read(new Uint8Array(4))), res(await rb.read(new Uint8Array(4))), res(await ra.read()), res(await ra.read()));
}
{
  const [a, b] = counter(3, 3).tee();
  a.cancel("x");
  const rb = b.getReader({ mode: "byob" });
  out.push(res(await rb.read(new Uint8Array(2))), res(await rb.read(new Uint8Array(2))), res(await rb.read(new Uint8Array(2))));
}
return out;
}
