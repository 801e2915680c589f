// Oracle: where a throw from a stream's implementation methods goes, as in Node: one from _write
// (or the missing _write/_transform) reaches the caller of write()/end(); one from _read or _final
// destroys the stream with it. And a Transform given its own final still runs its flush.
import { Readable, Writable, Transform } from "node:stream";

const tick = () => new Promise((r) => setTimeout(r, 1));
const info = (e) => ({ name: e.name, code: e.code, message: e.message });
const attempt = (fn) => { try { fn(); return "no throw"; } catch (e) { return info(e); } };

export async function agent() {
  const out = {};
  out.writeMissing = attempt(() => new Writable().end(Buffer.from("x")));
  out.transformMissing = attempt(() => new Transform().end(Buffer.from("x")));
  {
    const w = new Writable({ write() { throw new Error("from _write"); } });
    const events = [];
    w.on("error", (e) => events.push("error " + e.message));
    out.writeThrows = attempt(() => w.write("a"));
    await tick();
    out.writeThrowsAfter = { events, destroyed: w.destroyed };
  }
  {
    const r = new Readable({ read() { throw new Error("from _read"); } });
    out.readThrows = await new Promise((res) => { r.on("error", (e) => res([e.message, r.destroyed])); r.resume(); });
  }
  {
    const w = new Writable({ write(c, e, cb) { cb(); }, final() { throw new Error("from _final"); } });
    const got = await new Promise((res) => { w.on("error", (e) => res([e.message, w.destroyed])); w.end("x"); });
    out.finalThrows = got;
  }
  {
    const log = [];
    const t = new Transform({
      transform(c, e, cb) { log.push("transform " + c); cb(null, c); },
      final(cb) { log.push("final"); cb(); },
      flush(cb) { log.push("flush"); cb(null, "tail"); },
    });
    const data = [];
    t.on("data", (c) => data.push(String(c)));
    const ended = new Promise((res) => t.on("end", res));
    t.end("body");
    await ended;
    out.transformOwnFinal = { log, data };
  }
  return out;
}
