// Oracle: byte streams (type: "bytes"): ReadableStreamBYOBReader, ReadableByteStreamController,
// byobRequest (respond, respondWithNewView), autoAllocateChunkSize, transfers of the buffers
// handed in, partial elements, close and cancel with reads pending, and the errors.
import { ReadableStream, ReadableStreamBYOBReader, ReadableByteStreamController, ReadableStreamBYOBRequest } from "node:stream/web";

const err = (e) => ({ name: e.name, code: e.code });
const attempt = async (f) => { try { return { ok: await f() }; } catch (e) { return err(e); } };
const arr = (v) => (v === undefined ? null : { type: v.constructor.name, bytes: Array.from(new Uint8Array(v.buffer, v.byteOffset, v.byteLength)), length: v.length, offset: v.byteOffset, bufferLength: v.buffer.byteLength });
const res = (r) => ({ done: r.done, value: arr(r.value) });

// a source of the bytes 0..n-1 that answers byobRequest when there is one, else enqueues `chunk` bytes
function counter(n, chunk, log) {
  let at = 0;
  return new ReadableStream({
    type: "bytes",
    pull(c) {
      const req = c.byobRequest;
      if (log) log.push(req ? "byob:" + req.view.byteLength : "plain:" + c.desiredSize);
      if (at >= n) { c.close(); if (req) req.respond(0); return; }
      if (req) {
        const k = Math.min(req.view.byteLength, n - at, chunk);
        for (let i = 0; i < k; i++) req.view[i] = at++;
        req.respond(k);
      } else {
        const k = Math.min(chunk, n - at);
        const b = new Uint8Array(k);
        for (let i = 0; i < k; i++) b[i] = at++;
        c.enqueue(b);
      }
    },
  });
}

export async function agent() {
  const out = {};
  {
    const log = [];
    const rs = counter(10, 4, log);
    const reader = rs.getReader({ mode: "byob" });
    out.readerClass = [reader instanceof ReadableStreamBYOBReader, Object.prototype.toString.call(reader)];
    const got = [];
    let buf = new ArrayBuffer(6);
    for (;;) {
      const r = await reader.read(new Uint8Array(buf, 1, 5));
      got.push(res(r));
      if (r.done) break;
      buf = r.value.buffer;
    }
    out.byobLoop = got;
    out.byobLog = log;
  }
  {
    // the view handed to read() is transferred: its buffer is detached afterwards
    const rs = counter(4, 4);
    const reader = rs.getReader({ mode: "byob" });
    const view = new Uint8Array(8);
    const p = reader.read(view);
    out.detachedAfterRead = [view.byteLength, view.buffer.byteLength];
    out.readResult = res(await p);
  }
  {
    // element sizes: a Uint16Array read and an odd number of bytes
    const rs = new ReadableStream({
      type: "bytes",
      start(c) { c.enqueue(new Uint8Array([1, 2, 3])); c.enqueue(new Uint8Array([4, 5])); c.close(); },
    });
    const reader = rs.getReader({ mode: "byob" });
    out.u16 = [res(await reader.read(new Uint16Array(1))), res(await reader.read(new Uint16Array(4))), await attempt(async () => res(await reader.read(new Uint16Array(2))))];
  }
  {
    // enqueue transfers the chunk's buffer; a default reader on a byte stream sees Uint8Arrays
    const chunk = new Uint8Array([7, 8, 9]);
    let ctrl;
    const rs = new ReadableStream({ type: "bytes", start(c) { ctrl = c; } });
    out.controllerClass = [ctrl instanceof ReadableByteStreamController, Object.prototype.toString.call(ctrl), ctrl.byobRequest, ctrl.desiredSize];
    ctrl.enqueue(chunk);
    out.chunkAfterEnqueue = [chunk.byteLength, chunk.buffer.byteLength, ctrl.desiredSize];
    const r = rs.getReader();
    out.defaultRead = res(await r.read());
    ctrl.enqueue(new DataView(new Uint8Array([1, 2]).buffer));
    out.dataViewChunk = res(await r.read());
  }
  {
    // autoAllocateChunkSize: a default reader's read makes a byobRequest
    const log = [];
    const rs = counter(5, 3, log);
    const rs2 = new ReadableStream({
      type: "bytes", autoAllocateChunkSize: 4,
      pull(c) { const v = c.byobRequest.view; log.push("auto:" + v.byteLength + ":" + v.buffer.byteLength); v[0] = 42; v[1] = 43; c.byobRequest.respond(2); },
    });
    const r = rs2.getReader();
    out.auto = [res(await r.read()), log];
    out.autoBad = await attempt(() => new ReadableStream({ type: "bytes", autoAllocateChunkSize: 0 }));
    rs.cancel();
  }
  {
    // respondWithNewView, and its checks
    const rs = new ReadableStream({
      type: "bytes",
      pull(c) {
        const v = c.byobRequest.view;
        const mine = new Uint8Array(v.buffer, v.byteOffset, 2);
        mine.set([5, 6]);
        c.byobRequest.respondWithNewView(mine);
      },
    });
    const reader = rs.getReader({ mode: "byob" });
    out.newView = res(await reader.read(new Uint8Array(4)));
    let caught = [];
    const rs2 = new ReadableStream({
      type: "bytes",
      pull(c) {
        const req = c.byobRequest;
        for (const f of [() => req.respondWithNewView(new Uint8Array(2)), () => req.respond(99), () => req.respond(0), () => req.respondWithNewView("x")]) {
          try { f(); caught.push("ok"); } catch (e) { caught.push(e.name + ":" + e.code); }
        }
        req.respond(1);
        try { req.respond(1); caught.push("ok"); } catch (e) { caught.push(e.name + ":" + e.code); }
        caught.push(c.byobRequest === null ? "null" : "request");
        c.close();
      },
    });
    const reader2 = rs2.getReader({ mode: "byob" });
    out.respondChecks = [res(await reader2.read(new Uint8Array(4))), caught];
    out.afterClose = res(await reader2.read(new Uint8Array(2)));
  }
  {
    // close with a BYOB read pending: done once the source answers respond(0)
    let ctrl;
    const rs = new ReadableStream({ type: "bytes", start(c) { ctrl = c; } });
    const reader = rs.getReader({ mode: "byob" });
    const p = reader.read(new Uint8Array(3));
    const req = ctrl.byobRequest;
    out.pendingView = [req.view.byteLength, req instanceof ReadableStreamBYOBRequest];
    ctrl.close();
    req.respond(0);
    out.closedPending = res(await p);
    out.closedPromise = await reader.closed;
  }
  {
    // cancel with a BYOB read pending; error with one pending
    const rs = new ReadableStream({ type: "bytes", cancel(r) { out.cancelReason = r; } });
    const reader = rs.getReader({ mode: "byob" });
    const p = reader.read(new Uint8Array(3));
    await reader.cancel("why");
    out.canceledPending = res(await p);
    let ctrl;
    const rs2 = new ReadableStream({ type: "bytes", start(c) { ctrl = c; } });
    const reader2 = rs2.getReader({ mode: "byob" });
    const p2 = reader2.read(new Uint8Array(3));
    ctrl.error(new TypeError("bad source"));
    out.erroredPending = await attempt(() => p2);
    out.erroredClosed = await attempt(() => reader2.closed);
  }
  {
    // releaseLock with a read pending; a new reader gets the bytes later responded
    let ctrl;
    const rs = new ReadableStream({ type: "bytes", start(c) { ctrl = c; } });
    const r1 = rs.getReader({ mode: "byob" });
    const p = r1.read(new Uint8Array(4));
    const req = ctrl.byobRequest;
    r1.releaseLock();
    out.released = await attempt(() => p);
    req.view[0] = 11; req.view[1] = 12;
    req.respond(2);
    const r2 = rs.getReader();
    out.afterRelease = res(await r2.read());
  }
  out.errors = [
    await attempt(() => new ReadableStream().getReader({ mode: "byob" })),
    await attempt(() => new ReadableStream({ type: "bytes" }).getReader({ mode: "nope" })),
    await attempt(() => counter(1, 1).getReader({ mode: "byob" }).read(new Uint8Array(0))),
    await attempt(() => counter(1, 1).getReader({ mode: "byob" }).read("x")),
    await attempt(() => counter(1, 1).getReader({ mode: "byob" }).read()),
    await attempt(() => { let c; new ReadableStream({ type: "bytes", start(x) { c = x; } }); c.enqueue(new Uint8Array(0)); }),
    await attempt(() => { let c; new ReadableStream({ type: "bytes", start(x) { c = x; } }); c.enqueue("str"); }),
    await attempt(() => { let c; new ReadableStream({ type: "bytes", start(x) { c = x; } }); c.close(); c.enqueue(new Uint8Array(1)); }),
    await attempt(() => new ReadableStreamBYOBReader(new ReadableStream())),
    await attempt(() => { const s = counter(1, 1); s.getReader(); return new ReadableStreamBYOBReader(s); }),
    await attempt(() => new ReadableStream({ type: "bytes" }).getReader(1)),
    await attempt(() => new ReadableStream({ type: "bytes" }).getReader("byob")),
    await attempt(() => new ReadableStream({ type: "bytes" }).getReader({ mode: "" })),
    await attempt(() => new ReadableStream({ type: "bytes" }).getReader({ mode: null })),
    await attempt(() => Reflect.get(ReadableStreamBYOBRequest.prototype, "view", {})),
    await attempt(() => ReadableStreamBYOBRequest.prototype.respond.call({}, 1)),
    await attempt(() => { const r = new ReadableStream({ type: "bytes" }).getReader({ mode: "byob" }); r.releaseLock(); r.releaseLock(); return r.read(new Uint8Array(2)); }),
  ];
  {
    // a partial element at close errors the stream
    const rs = new ReadableStream({ type: "bytes", start(c) { c.enqueue(new Uint8Array([1])); c.close(); } });
    const reader = rs.getReader({ mode: "byob" });
    out.partialAtClose = await attempt(() => reader.read(new Uint16Array(1)));
  }
  {
    // tee of a byte stream read through default readers (chunks are copied per branch)
    const [a, b] = counter(6, 4).tee();
    const ra = a.getReader(), rb = b.getReader();
    const x = await ra.read(), y = await rb.read();
    out.tee = [res(x), res(y), x.value.buffer !== y.value.buffer, res(await ra.read()), res(await rb.read()), res(await ra.read())];
  }
  return out;
}
