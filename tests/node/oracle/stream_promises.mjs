// Oracle: node:stream/promises against node:stream: the same functions as stream.promises and as
// util.promisify of the callback forms; finished()'s listeners stay after it settles unless
// { cleanup: true }; a non-boolean cleanup is refused.
import stream, { Readable, Writable, PassThrough } from "node:stream";
import { pipeline, finished } from "node:stream/promises";
import { promisify } from "node:util";

const info = (e) => ({ name: e.name, code: e.code, message: e.message });

export async function agent() {
  const out = {};
  out.same = [
    stream.promises.pipeline === pipeline, stream.promises.finished === finished,
    promisify(stream.pipeline) === pipeline, promisify(stream.finished) === finished,
  ];
  for (const cleanup of [undefined, false, true]) {
    const w = new Writable({ write(c, e, cb) { cb(); } });
    const before = ["end", "finish", "error", "close"].map((e) => w.listenerCount(e));
    const p = finished(w, cleanup === undefined ? undefined : { cleanup });
    w.end("x");
    await p;
    out["cleanup " + cleanup] = { before, after: ["end", "finish", "error", "close"].map((e) => w.listenerCount(e)) };
  }
  try { finished(new Readable(), { cleanup: 2 }); out.badCleanup = "accepted"; } catch (e) { out.badCleanup = info(e); }
  {
    const r = new Readable({ read() {} });
    let called = 0;
    stream.finished(r, () => { called++; });
    r.push(null);
    r.resume();
    await new Promise((res) => setTimeout(res, 5));
    out.callbackForm = { called, listeners: ["end", "error", "close"].map((e) => r.listenerCount(e)) };
  }
  {
    const got = [];
    await pipeline(Readable.from(["a", "b"]), new PassThrough({ objectMode: true }),
      new Writable({ objectMode: true, write(c, e, cb) { got.push(c); cb(); } }));
    out.pipelined = got;
  }
  return out;
}
