// Oracle: node:stream's _construct (reads, writes, finishing and destroy wait for its callback; an
// error or a second call destroys the stream) and Duplex.from for each kind of body Node takes:
// a stream, a web stream, a { readable, writable } pair, a promise, an async generator function,
// an async function, an iterable, a Blob, and the refusals; pipeline's function stages.
import { Readable, Writable, Duplex, PassThrough } from "node:stream";
import { ReadableStream, WritableStream } from "node:stream/web";
import { Blob } from "node:buffer";

const tick = () => new Promise((r) => setTimeout(r, 1));
const settle = async () => { for (let i = 0; i < 5; i++) await tick(); };
const errInfo = (e) => (e && typeof e === "object" ? { name: e.name, code: e.code, message: e.message } : e);
const collect = (d) => new Promise((resolve) => {
  const got = [];
  d.on("data", (c) => got.push(typeof c === "string" ? c : c instanceof ArrayBuffer ? ["ArrayBuffer", c.byteLength] : String(c)));
  d.on("end", () => resolve(got));
  d.on("error", (e) => resolve(["error", errInfo(e)]));
});

export async function agent() {
  const out = {};

  // ---- _construct ----
  {
    const log = [];
    const w = new Writable({
      construct(cb) { log.push("construct"); setTimeout(() => { log.push("constructed"); cb(); }, 1); },
      write(chunk, enc, cb) { log.push("write " + chunk); cb(); },
      final(cb) { log.push("final"); cb(); },
    });
    w.write("a");
    w.end("b");
    log.push("after end");
    await new Promise((r) => w.on("close", r));
    out.writableConstruct = log;
  }
  {
    const log = [];
    const r = new Readable({
      construct(cb) { log.push("construct"); setTimeout(cb, 1); },
      read() { log.push("read"); this.push("x"); this.push(null); },
    });
    log.push("made");
    out.readableConstruct = { data: await collect(r), log };
  }
  {
    const log = [];
    const r = new Readable({ construct(cb) { log.push("construct"); cb(); }, read() { log.push("read"); } });
    await settle();
    out.constructDoesNotRead = [log, r.readableFlowing];
  }
  for (const kind of ["Readable", "Writable"]) {
    const C = kind === "Readable" ? Readable : Writable;
    const res = {};
    {
      const s = new C({ construct(cb) { cb(); cb(); } });
      res.twice = await new Promise((r) => s.on("error", (e) => r(errInfo(e))));
    }
    {
      const s = new C({ construct(cb) { cb(new Error("sync")); } });
      res.syncError = await new Promise((r) => s.on("error", (e) => r([e.message, s.destroyed])));
    }
    {
      const s = new C({ construct(cb) { setTimeout(() => cb(new Error("async")), 1); } });
      res.asyncError = await new Promise((r) => s.on("error", (e) => r(e.message)));
    }
    {
      let constructed = false;
      const log = [];
      const s = new C({ construct(cb) { setTimeout(() => { constructed = true; cb(); }, 1); } });
      s.on("error", (e) => log.push(["error", e.message, constructed]));
      s.destroy(new Error("kaboom"), (e) => log.push(["cb", e.message, constructed]));
      log.push(["destroyed", s.destroyed]);
      await new Promise((r) => s.on("close", r));
      log.push(["close", constructed]);
      res.destroyWhileConstructing = log;
    }
    out["construct" + kind] = res;
  }
  {
    let constructed = false;
    const d = new Duplex({
      readable: false,
      construct(cb) { setTimeout(() => { constructed = true; cb(); }, 1); },
      write(chunk, enc, cb) { cb(); },
      read() { this.push(null); },
    });
    d.resume();
    d.end("foo");
    await new Promise((r) => d.on("close", r));
    out.duplexConstruct = constructed;
  }

  // ---- Duplex.from ----
  const from = {};
  {
    const d = Duplex.from(new Readable({ read() { this.push("asd"); this.push(null); } }));
    from.readable = { flags: [d.readable, d.writable, d instanceof Duplex], data: await collect(d), after: d.readable };
  }
  {
    let ret = "";
    const d = Duplex.from(new Writable({ write(c, e, cb) { ret += c; cb(); } }));
    const flags = [d.readable, d.writable];
    d.end("asd");
    await new Promise((r) => d.on("finish", r));
    from.writable = { flags, ret, after: d.writable };
  }
  {
    let ret = "";
    const d = Duplex.from({
      readable: new Readable({ read() { this.push("r1"); this.push(null); } }),
      writable: new Writable({ write(c, e, cb) { ret += c; cb(); } }),
    });
    const flags = [d.readable, d.writable];
    const finished = new Promise((r) => d.on("finish", r));
    d.end("w1");
    const data = await collect(d);
    await finished;
    from.pair = { flags, data, ret };
  }
  {
    const through = new PassThrough({ objectMode: true });
    const d = Readable.from(["foo", "bar"]).pipe(Duplex.from({ writable: through, readable: through }));
    from.sameStreamBothSides = await collect(d);
  }
  {
    const d = Duplex.from(Promise.resolve("asd"));
    from.promise = { flags: [d.readable, d.writable, d.readableObjectMode], data: await collect(d) };
    from.promiseRejected = await collect(Duplex.from(Promise.reject(new Error("nope"))));
    from.promiseNullish = await collect(Duplex.from(Promise.resolve(null)));
  }
  {
    const d = Duplex.from(async function* (source) {
      let rest = "";
      for await (const chunk of source) {
        const lines = (rest + chunk.toString()).split("\n");
        rest = lines.pop();
        for (const line of lines) yield line.toUpperCase();
      }
      yield rest;
    });
    const data = collect(d);
    d.write("ab\ncd");
    d.end("\nef");
    from.asyncGenerator = { flags: [d.readable, d.writable], data: await data };
  }
  {
    const seen = [];
    const d = Duplex.from(async (source) => { for await (const c of source) seen.push(String(c)); });
    d.write("x");
    d.end("y");
    await new Promise((r) => d.on("finish", r));
    from.asyncFunction = { flags: [d.readable, d.writable], seen };
    const failing = Duplex.from(async () => { throw new Error("inside"); });
    from.asyncFunctionRejects = await new Promise((r) => failing.on("error", (e) => r(e.message)));
  }
  {
    from.iterable = await collect(Duplex.from(["a", "b", "c"]));
    from.asyncIterable = await collect(Duplex.from((async function* () { yield "p"; yield "q"; })()));
    const blob = Duplex.from(new Blob(["blob!"]));
    from.blob = [blob.writable, await collect(blob)];
  }
  {
    const dup = new Duplex();
    from.sameDuplex = Duplex.from(dup) === dup;
    const pt = new PassThrough();
    from.samePassThrough = Duplex.from(pt) === pt;
  }
  {
    const bad = Duplex.from(new Readable({ read() { throw new Error("read threw"); } }));
    from.readThrows = await new Promise((r) => bad.on("error", (e) => r([e.message, bad.destroyed])));
    const w = Duplex.from(new Writable({ write(c, e, cb) { cb(new Error("write failed")); } }));
    const werr = new Promise((r) => w.on("error", (e) => r(e.message)));
    w.write("x");
    from.writeFails = await werr;
  }
  {
    const d = Duplex.from(new ReadableStream({ start(c) { c.enqueue("foo"); c.close(); } }));
    from.webReadable = { flags: [d.readable, d.writable], data: await collect(d) };
    let ret = "";
    const w = Duplex.from({ writable: new WritableStream({ write(c) { ret += c; } }) });
    const flags = [w.readable, w.writable];
    w.end("bar");
    await new Promise((r) => w.on("finish", r));
    from.webWritablePair = { flags, ret };
  }
  {
    const refused = [];
    for (const body of [() => {}, function named() { return 5; }, 42, null, undefined, {}]) {
      try { Duplex.from(body); refused.push("accepted"); } catch (e) { refused.push(e.code); }
    }
    try { Duplex.from(() => {}); } catch (e) { refused.push(e.message); }
    from.refused = refused;
  }
  out.from = from;

  // ---- pipeline with function stages (made with Duplex.from) ----
  {
    const { pipeline } = await import("node:stream");
    let seen = "";
    const err = await new Promise((resolve) => pipeline(
      ["abc\ndef\nghi"],
      async function* (source) {
        let rest = "";
        for await (const chunk of source) {
          const lines = (rest + chunk.toString()).split("\n");
          rest = lines.pop();
          for (const line of lines) yield line;
        }
        yield rest;
      },
      async function (source) { for await (const x of source) seen += x + "|"; },
      (e) => resolve(e === undefined ? "undefined" : e === null ? "null" : errInfo(e)),
    ));
    const first = [];
    await new Promise((resolve) => pipeline(
      async function* () { yield "one"; yield "two"; },
      new Writable({ objectMode: true, write(c, e, cb) { first.push(c); cb(); } }),
      resolve,
    ));
    let lastGen = "";
    const lastGenErr = await new Promise((resolve) => pipeline(
      Readable.from(["x", "y"]),
      async function* (source) { for await (const c of source) lastGen += c; }, // eslint-disable-line require-yield
      (e) => resolve(e === undefined ? "undefined" : errInfo(e)),
    ));
    out.pipelineFunctions = { err, seen, first, lastGen, lastGenErr };
  }
  return out;
}
