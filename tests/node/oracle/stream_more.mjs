// Oracle: node:stream beyond the basics: _writev batching of corked and queued writes, unshift,
// wrap, compose, addAbortSignal, and the web-stream adapters (Readable/Writable toWeb, fromWeb).
import { Readable, Writable, PassThrough, Transform, compose, addAbortSignal } from "node:stream";
import { EventEmitter } from "node:events";

const tick = () => new Promise((r) => setTimeout(r, 1));

export async function agent() {
  const out = {};
  {
    // corked writes reach _writev in one call; writes made while one is in flight are batched too
    const calls = [];
    const w = new Writable({
      write(chunk, enc, cb) { calls.push(["write", chunk.toString()]); setTimeout(cb, 1); },
      writev(chunks, cb) { calls.push(["writev", chunks.map((c) => c.chunk.toString() + ":" + c.encoding), chunks.allBuffers]); setTimeout(cb, 1); },
    });
    const cbs = [];
    w.cork();
    w.write("a", () => cbs.push("a"));
    w.write("b", () => cbs.push("b"));
    out.corked = [w.writableCorked, w.writableLength];
    w.uncork();
    w.write("c", () => cbs.push("c"));
    w.write("d", () => cbs.push("d"));
    w.write("e", () => cbs.push("e"));
    await new Promise((r) => w.end(r));
    out.writev = calls;
    out.writevCallbacks = cbs;
    const objs = [];
    const ow = new Writable({ objectMode: true, writev(chunks, cb) { objs.push(chunks.map((c) => c.chunk)); cb(); } });
    ow.cork(); ow.write({ n: 1 }); ow.write({ n: 2 }); ow.uncork();
    await new Promise((r) => ow.end(r));
    out.writevObjects = objs;
  }
  {
    // unshift puts bytes back at the front
    const r = new Readable({ read() {} });
    r.push("world");
    r.unshift("hello ");
    r.push(null);
    const got = [];
    for await (const c of r) got.push(c.toString());
    out.unshift = got.join("");
    const r2 = new Readable({ read() {}, encoding: "utf8" });
    r2.push("b");
    r2.unshift(Buffer.from("a"));
    r2.push(null);
    let s = "";
    for await (const c of r2) s += c;
    out.unshiftEncoded = s;
    const r3 = new Readable({ objectMode: true, read() {} });
    r3.push({ x: 2 }); r3.unshift({ x: 1 }); r3.push(null);
    out.unshiftObjects = await r3.toArray();
  }
  {
    // wrap: an old-style emitter as a Readable
    const old = new EventEmitter();
    old.pause = () => {}; old.resume = () => {};
    const r = new Readable({ objectMode: true }).wrap(old);
    const got = [];
    r.on("data", (c) => got.push(c));
    const ended = new Promise((res) => r.on("end", res));
    old.emit("data", "x"); old.emit("data", "y"); old.emit("end");
    await ended;
    out.wrap = got;
  }
  {
    // compose: one duplex over a chain of transforms
    const up = new Transform({ transform(c, e, cb) { cb(null, c.toString().toUpperCase()); } });
    const ex = new Transform({ transform(c, e, cb) { cb(null, c.toString() + "!"); } });
    const d = compose(up, ex);
    const got = [];
    d.on("data", (c) => got.push(c.toString()));
    const done = new Promise((r) => d.on("end", r));
    d.write("ab"); d.write("c"); d.end();
    await done;
    out.compose = got.join("");
    out.composeErrors = (() => { try { compose(); return "ok"; } catch (e) { return e.code; } })();
  }
  {
    // addAbortSignal destroys the stream with an AbortError
    const ac = new AbortController();
    const r = addAbortSignal(ac.signal, new Readable({ read() {} }));
    const err = new Promise((res) => r.on("error", (e) => res([e.name, e.code])));
    ac.abort();
    out.abortSignal = [await err, r.destroyed];
    const pre = AbortSignal.abort();
    const w = addAbortSignal(pre, new PassThrough());
    out.abortedBefore = await new Promise((res) => w.on("error", (e) => res(e.name)));
    out.abortErrors = [
      (() => { try { addAbortSignal("x", new PassThrough()); return "ok"; } catch (e) { return e.code; } })(),
      (() => { try { addAbortSignal(new AbortController().signal, {}); return "ok"; } catch (e) { return e.code; } })(),
    ];
  }
  {
    // Readable.toWeb: Buffers come out as Uint8Arrays; object mode as is
    const rs = Readable.toWeb(Readable.from([Buffer.from("ab"), Buffer.from("cd")], { objectMode: false }));
    const parts = [];
    for await (const c of rs) parts.push([c.constructor.name, Buffer.from(c).toString()]);
    out.toWeb = parts;
    const objs = [];
    for await (const c of Readable.toWeb(Readable.from([{ a: 1 }, { b: 2 }]))) objs.push(c);
    out.toWebObjects = objs;
    // Readable.fromWeb
    const web = new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode("hi ")); c.enqueue(new TextEncoder().encode("there")); c.close(); } });
    const nr = Readable.fromWeb(web);
    let text = "";
    for await (const c of nr) text += Buffer.from(c).toString();
    out.fromWeb = text;
    const objWeb = new ReadableStream({ start(c) { c.enqueue({ k: 1 }); c.close(); } });
    out.fromWebObjects = await Readable.fromWeb(objWeb, { objectMode: true }).toArray();
    const bad = new ReadableStream({ start(c) { c.error(new Error("web failed")); } });
    out.fromWebError = await new Promise((res) => Readable.fromWeb(bad).on("error", (e) => res(e.message)).resume());
    out.fromWebType = (() => { try { Readable.fromWeb({}); return "ok"; } catch (e) { return e.code; } })();
  }
  {
    // Writable.toWeb and Writable.fromWeb
    const got = [];
    const w = new Writable({ write(c, e, cb) { got.push(c.toString()); cb(); } });
    const ws = Writable.toWeb(w);
    const writer = ws.getWriter();
    await writer.write(new TextEncoder().encode("one"));
    await writer.write(new TextEncoder().encode("two"));
    await writer.close();
    out.writableToWeb = [got, w.writableFinished];
    const sink = [];
    const webW = new WritableStream({ write(c) { sink.push(Buffer.from(c).toString()); } });
    const nw = Writable.fromWeb(webW);
    nw.write("x"); nw.write("y");
    await new Promise((r) => nw.end(r));
    out.writableFromWeb = sink;
  }
  await tick();
  out.statics = ["toWeb", "fromWeb"].map((k) => [typeof Readable[k], typeof Writable[k]]);
  return out;
}
