// Oracle: node:stream — Readable (push/read, flowing and paused, setEncoding, from, async
// iteration), Writable (backpressure, drain, final, write after end), Transform/PassThrough,
// pipeline and finished (callback and promise forms), object mode; the order of events matters.
import stream, { Readable, Writable, Transform, PassThrough, Duplex, pipeline, finished } from "node:stream";
import { pipeline as pipelineP, finished as finishedP } from "node:stream/promises";

const tick = () => new Promise((r) => setTimeout(r, 0));

function collector(log, options) {
  const chunks = [];
  const w = new Writable({
    ...options,
    write(chunk, enc, cb) { chunks.push(Buffer.isBuffer(chunk) ? chunk.toString() : chunk); log.push("write " + JSON.stringify(chunks[chunks.length - 1])); cb(); },
    final(cb) { log.push("final"); cb(); },
  });
  w.on("finish", () => log.push("finish"));
  w.on("close", () => log.push("close"));
  return { w, chunks };
}

export async function agent() {
  const out = {};
  out.shape = [typeof stream, stream.Readable === Readable, stream.Stream === stream, typeof stream.promises.pipeline,
    Object.getPrototypeOf(Readable.prototype) === stream.prototype, new PassThrough() instanceof Writable, new Duplex() instanceof Writable,
    new Readable() instanceof stream, typeof stream.isReadable];

  // Flowing mode with a pushing source.
  {
    const log = [];
    const src = new Readable({ read() {} });
    src.on("data", (c) => log.push("data " + c));
    src.on("end", () => log.push("end"));
    src.on("close", () => log.push("close"));
    src.push("a"); src.push("b"); src.push(null);
    await tick();
    out.flowing = log;
  }
  // A source producing on demand, read in object mode via async iteration.
  {
    let i = 0;
    const src = new Readable({ objectMode: true, read() { this.push(i < 5 ? { i: i++ } : null); } });
    const got = [];
    for await (const v of src) got.push(v.i);
    out.asyncIter = got;
  }
  // setEncoding keeps a character split across pushes whole.
  {
    const src = new Readable({ read() {} });
    src.setEncoding("utf8");
    const euro = Buffer.from("€");
    const got = [];
    src.on("data", (c) => got.push(c));
    src.push(euro.subarray(0, 1)); src.push(euro.subarray(1)); src.push(null);
    await tick();
    out.encoding = [got, src.readableEncoding];
  }
  // Paused mode: 'readable' + read().
  {
    const src = new Readable({ read() {} });
    const got = [];
    src.on("readable", () => { let c; while ((c = src.read()) !== null) got.push(c.toString()); });
    src.push("x"); src.push("y");
    await tick();
    src.push(null);
    await tick();
    out.paused = [got.join(""), src.readableEnded];
  }
  // Writable backpressure and drain.
  {
    const log = [];
    const w = new Writable({ highWaterMark: 3, write(c, e, cb) { log.push("w" + c); setTimeout(cb, 1); } });
    w.on("drain", () => log.push("drain"));
    const r = [w.write("ab"), w.write("cd"), w.writableLength, w.writableNeedDrain];
    await new Promise((res) => w.end("e", res));
    out.backpressure = [r, log, w.writableFinished, w.writableEnded];
  }
  // Writable: end + final + finish + close order; write after end.
  {
    const log = [];
    const { w, chunks } = collector(log);
    w.write("1"); w.write(Buffer.from("2")); w.end("3");
    w.on("error", (e) => log.push("error " + e.code));
    w.write("late", (e) => log.push("cb " + (e && e.code)));
    await tick(); await tick();
    out.writable = [chunks, log];
  }
  // Transform with flush, piped.
  {
    const log = [];
    const up = new Transform({
      transform(chunk, enc, cb) { cb(null, chunk.toString().toUpperCase()); },
      flush(cb) { this.push("!"); cb(); },
    });
    const { w, chunks } = collector(log);
    Readable.from(["a", "b", "c"]).pipe(up).pipe(w);
    await new Promise((r) => w.on("finish", r));
    out.transform = chunks;
  }
  // pipeline with a callback, object-mode transform, and the promise form.
  {
    const log = [];
    const double = new Transform({ objectMode: true, transform(n, e, cb) { cb(null, n * 2); } });
    const { w, chunks } = collector(log, { objectMode: true });
    const err = await new Promise((r) => pipeline(Readable.from([1, 2, 3]), double, w, r));
    out.pipeline = [err, chunks];
    const { w: w2, chunks: c2 } = collector([], {});
    await pipelineP(Readable.from(["x", "y"]), new PassThrough(), w2);
    out.pipelinePromise = c2;
  }
  // pipeline propagates an error and destroys the others.
  {
    const bad = new Transform({ transform(c, e, cb) { cb(new Error("boom")); } });
    const { w } = collector([]);
    const err = await new Promise((r) => pipeline(Readable.from(["a"]), bad, w, r));
    out.pipelineError = [err && err.message, w.destroyed];
  }
  // finished: normal end, premature close, error.
  {
    const r1 = Readable.from(["a"]);
    r1.resume();
    const ok = await finishedP(r1).then(() => "ok", (e) => e.code);
    const r2 = new Readable({ read() {} });
    const p2 = new Promise((res) => finished(r2, (e) => res(e && e.code)));
    r2.destroy();
    const r3 = new Readable({ read() {} });
    const p3 = new Promise((res) => finished(r3, (e) => res(e && e.message)));
    r3.destroy(new Error("bad"));
    r3.on("error", () => {});
    out.finished = [ok, await p2, await p3];
  }
  // Errors and misuse.
  {
    const r = new Readable();
    const e1 = await new Promise((res) => { r.on("error", (e) => res([e.code, e.message])); r.resume(); });
    const w = new Writable({ write(c, e, cb) { cb(); } });
    let e2;
    try { w.write(5); } catch (e) { e2 = [e.name, e.code]; }
    const r4 = new Readable({ read() {} });
    r4.push(null);
    const e3 = await new Promise((res) => { r4.on("error", (e) => res(e.code)); r4.push("x"); });
    out.errors = [e1, e2, e3];
  }
  return out;
}
