"""tests/cases_primordials_streams.py — the tampering corpus for node:stream, its operators and
the web streams (src/engine/js/node/stream.js, internal_stream_ops.js, internal_webstreams.js;
docs/primordials.md): guest code that replaces, deletes or booby-traps the builtins those modules
use changes nothing about what they do.

One agent body drives the streams (object and byte Readables, unshift and setEncoding, cork and
_writev, pipeline with a Transform, compose, the operators with concurrency, toWeb/fromWeb, web
readers, tee, a BYOB reader, pipeThrough/pipeTo, _construct, Duplex.from, pipe to two destinations
and unpipe, the old-style Stream#pipe) and prints a summary. It runs untouched, then once
per builtin family with that family tampered, before the modules are first imported and after
(the body ran once first, so every lazy path is loaded). The shims these modules build on
(events, buffer, string_decoder, internal text and abort: other modules, with their own
conversions) are loaded before the tampering. Each tampered run must exit 0 and print
what the untouched run prints. The body itself avoids what it tampers (no arrays of its own, no
iteration of arrays), so a difference is the modules' own doing.
"""
import os
import tempfile

from cases import chidori

BODY = r"""
import { run } from "chidori:agent";
const stolen = {};
let nStolen = 0;
const U8 = Uint8Array, PromiseC = Promise;
// byte chunks made before any tampering (Buffer.from is node:buffer's, not under test here)
const B1 = Buffer.from("abc"), B2 = Buffer.from("def");
function tamper() {
%TAMPER%
}
// The modules under test are node:stream and the web streams; the shims they build on (events,
// buffer, string_decoder, internal text and abort) load first, untouched, so that what a tampered
// run changes is these modules' doing.
async function preloadOthers() {
  await import("node:events"); await import("node:buffer"); await import("node:string_decoder");
  void TextEncoder; void TextDecoder; void AbortController; void DOMException;
}
if (%BEFORE%) { await preloadOthers(); tamper(); }

async function body(stream, web) {
  let log = "";
  const add = (k, v) => { log += k + "=" + v + ";"; };
  const { Readable, Writable, Transform, PassThrough, compose, finished } = stream;
  function* gen(n) { for (let i = 1; i <= n; i++) yield i; }
  const ops = await Readable.from(gen(6)).map(async (x) => x * 2, { concurrency: 3 }).filter((x) => x > 2).toArray();
  add("ops", ops.length + ":" + ops[0] + ":" + ops[ops.length - 1]);
  add("reduce", await Readable.from(gen(4)).reduce((a, b) => a + b, 0));
  add("some", await Readable.from(gen(4)).some(async (x) => x === 3, { concurrency: 2 }));
  add("find", await Readable.from(gen(4)).find((x) => x > 2));
  const taken = await Readable.from(gen(9)).drop(2).take(3).flatMap((x) => gen(x)).toArray();
  add("flat", taken.length);
  let each = 0;
  await Readable.from(gen(5)).forEach((x) => { each += x; }, { concurrency: 2 });
  add("forEach", each);

  const r = new Readable({ objectMode: true, read() {} });
  r.push("world"); r.unshift("hello "); r.push(null);
  let text = "";
  for await (const c of r) text += c;
  add("unshift", text);
  const rb = new Readable({ read() {} });
  rb.push(B1); rb.push(B2); rb.push(null);
  await new PromiseC((res) => rb.once("readable", res));
  const first = rb.read(4);
  add("read", first.length + ":" + first[0] + ":" + rb.read().length);

  let wv = "";
  const w = new Writable({ objectMode: true, writev(chunks, cb) { wv += "[" + chunks.length + chunks[0].chunk + "]"; cb(); }, write(c, e, cb) { wv += "w" + c; cb(); } });
  w.cork(); w.write("a"); w.write("b"); w.uncork(); w.write("c");
  await new PromiseC((res) => w.end(res));
  add("writev", wv);

  let sink = "";
  await stream.promises.pipeline(Readable.from(gen(3)),
    new Transform({ objectMode: true, transform(c, e, cb) { cb(null, "<" + c + ">"); } }),
    new Writable({ objectMode: true, write(c, e, cb) { sink += c; cb(); } }));
  add("pipeline", sink);
  const both = compose(new PassThrough({ objectMode: true }), new Transform({ objectMode: true, transform(c, e, cb) { cb(null, c + "!"); } }));
  let composed = "";
  both.on("data", (c) => { composed += c; });
  const ended = new PromiseC((res) => both.on("end", res));
  both.write("x"); both.end("y");
  await ended;
  add("compose", composed);

  let webText = "";
  for await (const c of Readable.toWeb(Readable.from(gen(3)))) webText += c;
  add("toWeb", webText);
  const back = Readable.fromWeb(new web.ReadableStream({ start(c) { c.enqueue("x"); c.enqueue("y"); c.close(); } }), { objectMode: true });
  let b2 = "";
  for await (const c of back) b2 += c;
  add("fromWeb", b2);

  const tees = new web.ReadableStream({ start(c) { c.enqueue(1); c.enqueue(2); c.close(); } }).tee();
  const ra = tees[0].getReader(), rb2 = tees[1].getReader();
  const x1 = await ra.read(), y1 = await rb2.read(), x2 = await ra.read(), x3 = await ra.read();
  add("tee", x1.value + "," + y1.value + "," + x2.value + "," + x3.done);
  let n = 0;
  const bs = new web.ReadableStream({ type: "bytes", pull(c) {
    const req = c.byobRequest;
    if (n++ === 2) { c.close(); req.respond(0); return; }
    req.view[0] = 7 + n; req.view[1] = 8; req.respond(2);
  } });
  const br = bs.getReader({ mode: "byob" });
  let byob = "";
  for (;;) {
    const got = await br.read(new U8(4));
    if (got.done) break;
    byob += got.value.length + ":" + got.value[0] + got.value[1] + " ";
  }
  add("byob", byob);
  let m = 0;
  const btees = new web.ReadableStream({ type: "bytes", pull(c) {
    const req = c.byobRequest;
    if (m >= 4) { c.close(); if (req) req.respond(0); return; }
    if (req) { req.view[0] = 40 + m++; req.respond(1); } else { const x = new U8(1); x[0] = 50 + m++; c.enqueue(x); }
  } }).tee();
  const ba = btees[0].getReader({ mode: "byob" }), bb = btees[1].getReader();
  const z1 = await ba.read(new U8(2)), z2 = await bb.read(), z3 = await bb.read(), z4 = await ba.read(new U8(2));
  add("byteTee", z1.value[0] + "," + z2.value[0] + "," + z3.value[0] + "," + z4.value[0] + ":" + z4.value.length);
  const auto = new web.ReadableStream({ type: "bytes", autoAllocateChunkSize: 8, pull(c) { c.byobRequest.view[0] = 5; c.byobRequest.respond(1); } });
  const ar = await auto.getReader().read();
  add("auto", ar.value.length + ":" + ar.value[0]);
  const ts = new web.TransformStream({ transform(chunk, c) { c.enqueue(chunk * 10); } });
  let ws = "";
  await new web.ReadableStream({ start(c) { c.enqueue(1); c.enqueue(2); c.close(); } })
    .pipeThrough(ts).pipeTo(new web.WritableStream({ write(c) { ws += c + ","; } }));
  add("pipeTo", ws);
  let fromIt = "";
  for await (const c of web.ReadableStream.from(gen(3))) fromIt += c;
  add("from", fromIt);
  const fin = await new PromiseC((res) => { const p = new PassThrough({ objectMode: true }); finished(p, (err) => res(err ? "err" : "ok")); p.resume(); p.end("z"); });
  add("finished", fin);

  // _construct, Duplex.from (a pair, a promise, an async generator function), pipe to two
  // destinations and unpipe, the old-style Stream#pipe
  const { Duplex, Stream } = stream;
  let built = "";
  const cw = new Writable({ objectMode: true, construct(cb) { built += "c"; cb(); }, write(c, e, cb) { built += c; cb(); } });
  await new PromiseC((res) => { cw.write("1"); cw.end("2", res); });
  add("construct", built);
  let paired = "";
  const pair = Duplex.from({ readable: Readable.from(gen(2)), writable: new Writable({ objectMode: true, write(c, e, cb) { paired += c; cb(); } }) });
  pair.on("data", (c) => { paired += "r" + c; });
  await new PromiseC((res) => { pair.on("end", res); pair.end("w"); });
  add("fromPair", paired);
  let promised = "";
  for await (const c of Duplex.from(new PromiseC((res) => res("p")))) promised += c;
  add("fromPromise", promised);
  const upper = Duplex.from(async function* (source) { for await (const c of source) yield c + "!"; });
  let genned = "";
  upper.on("data", (c) => { genned += c; });
  await new PromiseC((res) => { upper.on("end", res); upper.write("a"); upper.end("b"); });
  add("fromGenerator", genned);
  let ta = "", tb = "";
  const src = new Readable({ objectMode: true, read() {} });
  const da = new Writable({ objectMode: true, write(c, e, cb) { ta += c; cb(); } });
  const db = new Writable({ objectMode: true, write(c, e, cb) { tb += c; cb(); } });
  src.pipe(da); src.pipe(db);
  src.push("x");
  await new PromiseC((res) => setTimeout(res, 2));
  src.unpipe(db);
  src.push("y"); src.push(null);
  await new PromiseC((res) => da.on("finish", res));
  add("pipes", ta + "/" + tb + "/" + db.writableEnded);
  const old = new Stream();
  old.readable = true;
  let oldGot = "";
  const oldDest = new Writable({ objectMode: true, write(c, e, cb) { oldGot += c; cb(); } });
  old.pipe(oldDest);
  old.emit("data", "o"); old.emit("end");
  await new PromiseC((res) => oldDest.on("finish", res));
  add("legacyPipe", oldGot + old.listenerCount("data"));
  return log;
}

run(async () => {
  const stream = await import("node:stream");
  const web = await import("node:stream/web");
  if (!%BEFORE%) { await body(stream, web); tamper(); }
  const out = await body(stream, web);
  // a then-thief calls back what it kept, with a value of its choosing
  for (const k in stolen) { try { stolen[k]({ forged: true }); } catch (e) {} }
  await new PromiseC((res) => setTimeout(res, 5));
  return out;
});
"""

TAMPERS = {
    "promise_then": """
  const then = Promise.prototype.then;
  Promise.prototype.then = function (f, r) {
    if (typeof f === "function") stolen["k" + nStolen++] = f;
    return Reflect.apply(then, this, [f, r]);
  };""",
    "promise_statics": """
  Promise.resolve = () => { throw new Error("Promise.resolve tampered"); };
  Promise.reject = () => { throw new Error("Promise.reject tampered"); };
  Promise.all = () => { throw new Error("Promise.all tampered"); };
  Promise.prototype.finally = () => { throw new Error("finally tampered"); };""",
    "function_call_apply": """
  Function.prototype.call = function () { throw new Error("call tampered"); };
  Function.prototype.apply = function () { throw new Error("apply tampered"); };
  Function.prototype.bind = function () { throw new Error("bind tampered"); };""",
    "array_methods": """
  for (const k of ["push", "shift", "unshift", "splice", "slice", "join", "map", "forEach", "filter", "indexOf", "concat", "pop", "includes"])
    Array.prototype[k] = function () { throw new Error("Array.prototype." + k + " tampered"); };""",
    "array_setters": """
  for (const k of ["0", "1", "2", "3", "4"])
    Object.defineProperty(Array.prototype, k, { set() { throw new Error("Array.prototype setter " + k); }, configurable: true });""",
    "symbol_iterator": """
  const ArrayIteratorProto = Object.getPrototypeOf([][Symbol.iterator]());
  Array.prototype[Symbol.iterator] = function () { throw new Error("array iterator tampered"); };
  ArrayIteratorProto.next = function () { throw new Error("next tampered"); };""",
    "object_statics": """
  for (const k of ["keys", "entries", "assign", "getPrototypeOf", "setPrototypeOf", "getOwnPropertyDescriptor", "freeze"])
    Object[k] = function () { throw new Error("Object." + k + " tampered"); };""",
    "weakmap": """
  for (const k of ["get", "set", "has", "delete"])
    WeakMap.prototype[k] = function () { throw new Error("WeakMap.prototype." + k + " tampered"); };""",
    "string_methods": """
  for (const k of ["split", "slice", "includes", "indexOf", "replace", "startsWith", "repeat", "trim", "toLowerCase"])
    String.prototype[k] = function () { throw new Error("String.prototype." + k + " tampered"); };""",
    "buffers_and_views": """
  ArrayBuffer.prototype.slice = function () { throw new Error("ArrayBuffer slice tampered"); };
  ArrayBuffer.prototype.transfer = function () { throw new Error("transfer tampered"); };
  ArrayBuffer.isView = () => { throw new Error("isView tampered"); };
  const TA = Object.getPrototypeOf(Uint8Array.prototype);
  for (const k of ["buffer", "byteOffset", "byteLength"])
    Object.defineProperty(TA, k, { get() { throw new Error("TypedArray " + k + " tampered"); }, configurable: true });
  TA.set = function () { throw new Error("TypedArray set tampered"); };""",
    "globals": """
  globalThis.Symbol = function () { throw new Error("Symbol tampered"); };
  globalThis.Number = function () { throw new Error("Number tampered"); };
  globalThis.WeakMap = function () { throw new Error("WeakMap tampered"); };
  globalThis.RangeError = function () { throw new Error("RangeError tampered"); };
  globalThis.ArrayBuffer = function () { throw new Error("ArrayBuffer tampered"); };
  globalThis.queueMicrotask = function () { throw new Error("queueMicrotask tampered"); };""",
}


def _run(v, tamper, before, flags=("--no-isolate",)):
    text = BODY.replace("%TAMPER%", tamper).replace("%BEFORE%", "true" if before else "false")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "agent.mjs")
        with open(path, "w") as f:
            f.write(text)
        return chidori(v, "run", *flags, path, state=os.path.join(tmp, "state"))


_BASELINE = {}


def _baseline(v):
    if v.name not in _BASELINE:
        code, out, err = _run(v, "", True)
        assert code == 0, f"the untouched run failed: exit {code}\n{out}\n{err[-2000:]}"
        for part in ("ops=5:4:12;", "unshift=hello world;", "writev=[2a]wc;", "byob=2:88 2:98 ;", "pipeTo=10,20,;",
                     "construct=c12;", "fromPromise=p;", "fromGenerator=a!b!;", "pipes=xy/x/false;", "legacyPipe=o0;"):
            assert part in out, f"the untouched run printed\n{out}\n(missing {part!r})"
        _BASELINE[v.name] = out
    return _BASELINE[v.name]


def _check_family(v, family):
    base = _baseline(v)
    for before in (True, False):
        where = f"{family}, tampered {'before the first import' if before else 'after the modules ran once'}"
        code, out, err = _run(v, TAMPERS[family], before)
        assert code == 0, f"{where}: exit {code}\n{out}\n{err[-2000:]}"
        assert out == base, f"{where}: printed\n{out}\nuntouched it printed\n{base}"


for _family in TAMPERS:
    def _case(v, _family=_family):
        _check_family(v, _family)
    _case.__doc__ = f"Tampering with {_family} leaves node:stream and the web streams unchanged."
    _case.__name__ = "case_primordials_streams_" + _family
    globals()[_case.__name__] = _case
del _case, _family


def case_primordials_streams_isolated(v):
    """The thief family once in an isolated run too (the worker runs the same modules)."""
    base = _baseline(v)
    code, out, err = _run(v, TAMPERS["promise_then"], True, flags=())
    assert code == 0, f"isolated: exit {code}\n{out}\n{err[-2000:]}"
    assert out == base, f"isolated, promise_then: printed\n{out}\nuntouched it printed\n{base}"
