// Oracle: the old-style Stream.prototype.pipe of a bare node:stream Stream (data, end and close
// events driven by hand): what it writes, when it ends or destroys the destination, pause on a
// full destination and resume on 'drain', and that every listener it added is removed again.
import { Stream, Writable } from "node:stream";

function source() { const s = new Stream(); s.readable = true; return s; }
function sink(log) {
  const d = new Stream();
  d.writable = true;
  d.write = (c) => { log.push("write " + c); return c !== "full"; };
  d.end = () => log.push("end");
  d.destroy = () => log.push("destroy");
  return d;
}
const counts = (em) => ["data", "end", "close", "error", "drain"].map((e) => em.listenerCount(e));

export async function agent() {
  const out = {};
  {
    const log = [];
    const r = source(), w = sink(log);
    r.pause = () => log.push("pause");
    r.resume = () => log.push("resume");
    w.on("pipe", (src) => log.push("pipe event " + (src === r)));
    out.returnsDest = r.pipe(w) === w;
    out.listeners = { source: counts(r), dest: counts(w) };
    r.emit("data", "a");
    r.emit("data", "full");
    w.emit("drain");
    r.emit("end");
    r.emit("close");
    out.endLog = log;
    out.afterEnd = { source: counts(r), dest: counts(w) };
  }
  {
    const log = [];
    const r = source(), w = sink(log);
    r.pipe(w);
    r.emit("close");
    out.closeLog = log;
    out.afterClose = { source: counts(r), dest: counts(w) };
  }
  {
    const log = [];
    const r = source(), w = sink(log);
    r.pipe(w, { end: false });
    r.emit("end");
    out.noEnd = { log, source: counts(r) };
  }
  {
    const log = [];
    const r = source(), w = sink(log);
    r.pipe(w);
    w.emit("close");
    out.destClosed = { source: counts(r), dest: counts(w) };
  }
  {
    const log = [];
    const r = source(), w = sink(log);
    r.pipe(w);
    r.on("error", (e) => log.push("own handler " + e.message));
    r.emit("error", new Error("boom"));
    out.errorHandled = { log, source: counts(r), dest: counts(w) };
    const r2 = source(), w2 = sink([]);
    r2.pipe(w2);
    try { r2.emit("error", new Error("unhandled")); out.errorUnhandled = "no throw"; } catch (e) { out.errorUnhandled = e.message; }
  }
  {
    // a bare Stream piped into a real Writable
    const got = [];
    const r = source();
    const w = new Writable({ write(c, e, cb) { got.push(String(c)); cb(); } });
    r.pipe(w);
    r.emit("data", "x");
    r.emit("data", "y");
    r.emit("end");
    await new Promise((res) => w.on("finish", res));
    out.intoWritable = got;
  }
  out.writableHasPipe = typeof new Writable().pipe;
  return out;
}
