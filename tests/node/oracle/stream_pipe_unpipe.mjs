// Oracle: Readable#pipe and #unpipe as Node does them: the 'pipe'/'unpipe' events, a destination
// unpiped when it closes or finishes, unpipe() of one or of all, pausing until every full
// destination drained, { end: false }, piping after the end, an error on the destination, and the
// listeners pipe leaves behind.
import { Readable, Writable, PassThrough } from "node:stream";

const tick = () => new Promise((r) => setTimeout(r, 1));
const settle = async () => { for (let i = 0; i < 5; i++) await tick(); };
const counts = (em) => ["data", "end", "close", "finish", "error", "drain", "unpipe"].map((e) => em.listenerCount(e));
const sink = (got, opts) => new Writable({ write(c, e, cb) { got.push(String(c)); cb(); }, ...opts });

export async function agent() {
  const out = {};
  {
    const log = [];
    const r = new Readable({ read() {} });
    const w = sink([]);
    w.on("pipe", (s) => log.push("pipe " + (s === r)));
    w.on("unpipe", (s) => log.push("unpipe " + (s === r)));
    r.pipe(w);
    out.listenersPiped = { src: counts(r), dest: counts(w) };
    r.unpipe(w);
    log.push("flowing " + r.readableFlowing);
    out.unpipeOne = { log, src: counts(r), dest: counts(w) };
  }
  {
    const log = [];
    const r = new Readable({ read() {} });
    const a = sink([]), b = sink([]);
    a.on("unpipe", () => log.push("a unpiped"));
    b.on("unpipe", () => log.push("b unpiped"));
    r.pipe(a);
    r.pipe(b);
    log.push(Array.isArray(r._readableState.pipes), r._readableState.pipes.length, r._readableState.pipes[1] === b);
    r.unpipe(b);
    log.push(r._readableState.pipes.length);
    r.pipe(b);
    r.unpipe();
    log.push(JSON.stringify(r._readableState.pipes));
    r.unpipe(a); // nothing left: no event
    out.unpipeAll = { log, flowing: r.readableFlowing, src: counts(r) };
  }
  {
    const log = [];
    const r = new Readable({ read() {} });
    const w = sink([]);
    w.on("unpipe", () => log.push("unpipe"));
    r.pipe(w);
    w.destroy();
    await settle();
    out.destClosed = { log, flowing: r.readableFlowing, src: counts(r) };
  }
  {
    const got = [];
    const r = new Readable({ read() {} });
    const w = sink(got);
    r.pipe(w);
    w.end();
    await settle();
    r.push("after");
    await settle();
    out.destFinished = { got, src: counts(r), flowing: r.readableFlowing };
  }
  {
    // two destinations, one slow: the source waits for both to drain
    const log = [];
    const r = new Readable({ read() {}, highWaterMark: 1 });
    const fast = new Writable({ highWaterMark: 1, write(c, e, cb) { log.push("fast " + c); cb(); } });
    const slow = new Writable({ highWaterMark: 1, write(c, e, cb) { log.push("slow " + c); setTimeout(cb, 5); } });
    r.pipe(fast);
    r.pipe(slow);
    r.push("1");
    r.push("2");
    r.push("3");
    r.push(null);
    await new Promise((res) => slow.on("finish", res));
    out.twoDests = log;
  }
  {
    const got = [];
    const r = Readable.from(["a", "b"]);
    const w = sink(got);
    r.pipe(w, { end: false });
    await settle();
    out.noEnd = { got, ended: w.writableEnded, src: counts(r) };
  }
  {
    const r = new Readable({ read() {} });
    r.push(null);
    r.resume();
    await settle();
    const w = sink([]);
    r.pipe(w);
    await settle();
    out.pipeAfterEnd = { ended: w.writableEnded, endEmitted: r.readableEnded };
  }
  {
    const log = [];
    const r = new Readable({ read() {} });
    const w = new PassThrough();
    w.on("unpipe", () => log.push("unpipe"));
    r.pipe(w);
    w.on("error", (e) => log.push("error " + e.message));
    w.emit("error", new Error("dest failed"));
    out.destError = { log, src: counts(r), flowing: r.readableFlowing };
    const r2 = new Readable({ read() {} });
    const w2 = sink([]);
    r2.pipe(w2);
    const seen = [];
    try { w2.emit("error", new Error("nobody listens")); seen.push("returned"); } catch (e) { seen.push("threw " + e.message); }
    w2.on("error", (e) => seen.push("then destroyed with " + e.message));
    await settle();
    out.destErrorUnhandled = { seen, destroyed: w2.destroyed, src: counts(r2) };
  }
  return out;
}
