/* node/internal_webstreams.js — the streams behind node:stream/web (node/stream_web.js) and the globals ReadableStream, WritableStream,
 * TransformStream, ByteLengthQueuingStrategy, CountQueuingStrategy, TextEncoderStream and
 * TextDecoderStream: the WHATWG Streams model that fetch bodies and the LLM SDKs use.
 *
 * Pure computation over guest values, no host op. What is here: default readers and controllers
 * (start/pull/cancel, queuing strategies and backpressure through desiredSize), `type: "bytes"`
 * sources read through default readers (chunks are copied, as the spec's byte queue does), tee,
 * async iteration (`preventCancel`), pipeTo/pipeThrough (`preventClose`, `preventAbort`,
 * `preventCancel`, `signal`), ReadableStream.from, WritableStream with its writer (sequential
 * writes, close, abort, ready/closed), TransformStream (transform, flush, backpressure toward the
 * readable side). Not here: BYOB readers (`getReader({ mode: "byob" })` throws saying so).
 * Promises settle through the engine's microtask queue, so the order of reads and pulls is the
 * spec's, though not every intermediate promise tick of Node's implementation is reproduced. */
(function (require, natives, name) {
  "use strict";
  const text = require("internal/text");
  const { codedError, invalidArgType } = text;

  const noop = () => {};
  const resolved = (v) => Promise.resolve(v);
  const rejected = (e) => Promise.reject(e);
  function handled(p) { p.then(noop, noop); return p; }
  function deferred() {
    let resolve, reject;
    const promise = new Promise((a, b) => { resolve = a; reject = b; });
    return { promise, resolve, reject };
  }
  // Calls method `m` of `obj` (if any) with args; a throw becomes a rejection.
  function promiseCall(obj, m, args) {
    try {
      const f = obj === undefined || obj === null ? undefined : obj[m];
      if (f === undefined || f === null) return resolved(undefined);
      if (typeof f !== "function") throw invalidArgType(m, "a function", f);
      return resolved(Reflect.apply(f, obj, args));
    } catch (e) {
      return rejected(e);
    }
  }
  function illegal(what) {
    return codedError(TypeError, "ERR_ILLEGAL_CONSTRUCTOR", "Illegal constructor: " + what + " is made by its stream");
  }
  function invalidState(msg) { return codedError(TypeError, "ERR_INVALID_STATE", "Invalid state: " + msg); }

  // A queuing strategy: {highWaterMark, size}.
  function strategyOf(strategy, defaultHwm) {
    if (strategy !== undefined && strategy !== null && typeof strategy !== "object")
      throw invalidArgType("strategy", "an object", strategy);
    const s = strategy || {};
    let hwm = s.highWaterMark === undefined ? defaultHwm : Number(s.highWaterMark);
    if (Number.isNaN(hwm) || hwm < 0) throw new RangeError("The value of \"strategy.highWaterMark\" is invalid: " + String(s.highWaterMark));
    const size = s.size;
    if (size !== undefined && typeof size !== "function") throw invalidArgType("strategy.size", "a function", size);
    return { hwm, size: size === undefined ? () => 1 : (c) => Reflect.apply(size, undefined, [c]) };
  }

  class ByteLengthQueuingStrategy {
    #hwm;
    constructor(init) {
      if (init === null || typeof init !== "object") throw invalidArgType("init", "an object", init);
      this.#hwm = Number(init.highWaterMark);
    }
    get highWaterMark() { return this.#hwm; }
    get size() { return (chunk) => chunk.byteLength; }
  }
  class CountQueuingStrategy {
    #hwm;
    constructor(init) {
      if (init === null || typeof init !== "object") throw invalidArgType("init", "an object", init);
      this.#hwm = Number(init.highWaterMark);
    }
    get highWaterMark() { return this.#hwm; }
    get size() { return () => 1; }
  }

  /* ---- ReadableStream ----
   * The state of a stream lives in a plain record `rs` held by a WeakMap (guest code cannot reach
   * it); the classes are views over it. */

  const streams = new WeakMap();   // ReadableStream -> rs
  const readers = new WeakMap();   // reader -> {rs, requests: [deferred], closed: deferred}
  const controllers = new WeakMap(); // controller -> rs
  let creating = false; // set while a stream builds its own reader/controller

  function rsOf(x) {
    const rs = streams.get(x);
    if (!rs) throw codedError(TypeError, "ERR_INVALID_THIS", "Value of \"this\" must be of type ReadableStream");
    return rs;
  }

  function setupReadable(stream, source, strategy, bytes) {
    const rs = {
      stream, state: "readable", error: undefined, reader: null, disturbed: false,
      queue: [], queueSize: 0, hwm: strategy.hwm, size: strategy.size, bytes,
      started: false, closeRequested: false, pulling: false, pullAgain: false,
      pull: () => promiseCall(source, "pull", [rs.controller]),
      cancel: (r) => promiseCall(source, "cancel", [r]),
      controller: null,
    };
    creating = true;
    try {
      rs.controller = new ReadableStreamDefaultController();
    } finally {
      creating = false;
    }
    controllers.set(rs.controller, rs);
    streams.set(stream, rs);
    let start;
    try {
      start = source && source.start !== undefined ? Reflect.apply(source.start, source, [rs.controller]) : undefined;
    } catch (e) {
      throw e;
    }
    resolved(start).then(() => { rs.started = true; pullIfNeeded(rs); }, (e) => errorReadable(rs, e));
    return rs;
  }

  function desiredSize(rs) {
    if (rs.state === "errored") return null;
    if (rs.state === "closed") return 0;
    return rs.hwm - rs.queueSize;
  }

  function pendingReads(rs) { return rs.reader ? readers.get(rs.reader).requests.length : 0; }

  function pullIfNeeded(rs) {
    if (rs.state !== "readable" || rs.closeRequested || !rs.started) return;
    if (pendingReads(rs) === 0 && !(desiredSize(rs) > 0)) return;
    if (rs.pulling) { rs.pullAgain = true; return; }
    rs.pulling = true;
    rs.pull().then(() => {
      rs.pulling = false;
      if (rs.pullAgain) { rs.pullAgain = false; pullIfNeeded(rs); }
    }, (e) => errorReadable(rs, e));
  }

  function closeReadable(rs) {
    rs.state = "closed";
    if (!rs.reader) return;
    const r = readers.get(rs.reader);
    const reqs = r.requests.splice(0);
    for (const d of reqs) d.resolve({ value: undefined, done: true });
    r.closed.resolve(undefined);
  }

  function errorReadable(rs, e) {
    if (rs.state !== "readable") return;
    rs.queue = []; rs.queueSize = 0;
    rs.state = "errored";
    rs.error = e;
    if (!rs.reader) return;
    const r = readers.get(rs.reader);
    const reqs = r.requests.splice(0);
    for (const d of reqs) d.reject(e);
    r.closed.reject(e);
  }

  function enqueueReadable(rs, chunk) {
    if (rs.closeRequested || rs.state !== "readable") throw invalidState("the stream is " + (rs.closeRequested ? "closing" : rs.state));
    if (rs.bytes) {
      if (!ArrayBuffer.isView(chunk)) throw invalidArgType("chunk", "an ArrayBuffer view", chunk);
      chunk = new Uint8Array(chunk.buffer.slice(chunk.byteOffset, chunk.byteOffset + chunk.byteLength));
    }
    if (pendingReads(rs) > 0) {
      readers.get(rs.reader).requests.shift().resolve({ value: chunk, done: false });
    } else {
      let size;
      try {
        size = rs.bytes ? chunk.byteLength : Number(rs.size(chunk));
        if (Number.isNaN(size) || size < 0 || size === Infinity) throw new RangeError("a chunk's size must be a finite, non-negative number");
      } catch (e) {
        errorReadable(rs, e);
        throw e;
      }
      rs.queue.push({ chunk, size });
      rs.queueSize += size;
    }
    pullIfNeeded(rs);
  }

  function cancelReadable(rs, reason) {
    rs.disturbed = true;
    if (rs.state === "closed") return resolved(undefined);
    if (rs.state === "errored") return rejected(rs.error);
    rs.queue = []; rs.queueSize = 0;
    closeReadable(rs);
    return rs.cancel(reason).then(() => undefined);
  }

  function readFrom(rs) {
    rs.disturbed = true;
    if (rs.state === "closed") return resolved({ value: undefined, done: true });
    if (rs.state === "errored") return rejected(rs.error);
    if (rs.queue.length > 0) {
      const { chunk, size } = rs.queue.shift();
      rs.queueSize -= size;
      if (rs.queue.length === 0) rs.queueSize = 0;
      if (rs.closeRequested && rs.queue.length === 0) closeReadable(rs);
      else pullIfNeeded(rs);
      return resolved({ value: chunk, done: false });
    }
    const d = deferred();
    readers.get(rs.reader).requests.push(d);
    pullIfNeeded(rs);
    return d.promise;
  }

  class ReadableStreamDefaultController {
    constructor() { if (!creating) throw illegal("ReadableStreamDefaultController"); }
    get desiredSize() { return desiredSize(controllers.get(this)); }
    get byobRequest() { return null; }
    enqueue(chunk) { enqueueReadable(controllers.get(this), chunk); }
    close() {
      const rs = controllers.get(this);
      if (rs.closeRequested || rs.state !== "readable") throw invalidState("the stream is " + (rs.closeRequested ? "already closing" : rs.state));
      rs.closeRequested = true;
      if (rs.queue.length === 0) closeReadable(rs);
    }
    error(e) { errorReadable(controllers.get(this), e); }
    get [Symbol.toStringTag]() { return "ReadableStreamDefaultController"; }
  }

  class ReadableStreamDefaultReader {
    constructor(stream) {
      const rs = rsOf(stream);
      if (rs.reader) throw invalidState("ReadableStream is locked");
      const closed = deferred();
      handled(closed.promise);
      readers.set(this, { rs, requests: [], closed });
      rs.reader = this;
      if (rs.state === "closed") closed.resolve(undefined);
      else if (rs.state === "errored") closed.reject(rs.error);
    }
    #state(what) {
      const r = readers.get(this);
      if (!r) throw codedError(TypeError, "ERR_INVALID_THIS", "Value of \"this\" must be of type ReadableStreamDefaultReader");
      if (!r.rs) throw invalidState("the reader was released; " + what + " needs a locked reader");
      return r;
    }
    read() {
      try {
        return readFrom(this.#state("read").rs);
      } catch (e) {
        return rejected(e);
      }
    }
    cancel(reason) {
      try {
        return cancelReadable(this.#state("cancel").rs, reason);
      } catch (e) {
        return rejected(e);
      }
    }
    releaseLock() {
      const r = readers.get(this);
      if (!r || !r.rs) return;
      const err = invalidState("the reader was released");
      for (const d of r.requests.splice(0)) d.reject(err);
      if (r.rs.state === "readable") r.closed.reject(err);
      else { r.closed = deferred(); handled(r.closed.promise); r.closed.reject(err); }
      r.rs.reader = null;
      r.rs = null;
    }
    get closed() {
      const r = readers.get(this);
      return r ? r.closed.promise : rejected(new TypeError("not a reader"));
    }
    get [Symbol.toStringTag]() { return "ReadableStreamDefaultReader"; }
  }

  const asyncIteratorProto = Object.getPrototypeOf(Object.getPrototypeOf((async function* () {})()));

  class ReadableStream {
    constructor(source, strategy) {
      if (source === undefined) source = null;
      if (source !== null && typeof source !== "object") throw invalidArgType("source", "an object", source);
      const type = source === null ? undefined : source.type;
      if (type !== undefined && String(type) !== "bytes") throw new RangeError("ReadableStream: the source's type must be \"bytes\" or undefined, not " + String(type));
      const bytes = type !== undefined;
      if (bytes && strategy && strategy.size !== undefined) throw new RangeError("ReadableStream: a byte stream's strategy cannot have a size");
      setupReadable(this, source, strategyOf(strategy, bytes ? 0 : 1), bytes);
    }
    get locked() { return rsOf(this).reader !== null; }
    cancel(reason) {
      let rs;
      try { rs = rsOf(this); } catch (e) { return rejected(e); }
      if (rs.reader) return rejected(invalidState("ReadableStream is locked"));
      return cancelReadable(rs, reason);
    }
    getReader(options) {
      rsOf(this);
      const mode = options === undefined || options === null ? undefined : options.mode;
      if (mode !== undefined) {
        if (String(mode) === "byob") throw codedError(TypeError, "ERR_CHIDORI_UNSUPPORTED", "ReadableStream: BYOB readers are not supported in chidori; use getReader() and read chunks as they come");
        throw new RangeError("ReadableStream.getReader: mode must be \"byob\" or undefined");
      }
      return new ReadableStreamDefaultReader(this);
    }
    tee() {
      const rs = rsOf(this);
      const reader = new ReadableStreamDefaultReader(this);
      let reading = false, readAgain = false, canceled1 = false, canceled2 = false, reason1, reason2;
      let b1, b2;
      const cancelDone = deferred();
      const pull = () => {
        if (reading) { readAgain = true; return resolved(undefined); }
        reading = true;
        reader.read().then(({ value, done }) => {
          reading = false;
          if (done) {
            if (!canceled1) streams.get(b1).controller.close();
            if (!canceled2) streams.get(b2).controller.close();
            cancelDone.resolve(undefined);
            return;
          }
          let v2 = value;
          if (rs.bytes && !canceled1 && !canceled2) v2 = new Uint8Array(value);
          if (!canceled1) enqueueReadable(streams.get(b1), value);
          if (!canceled2) enqueueReadable(streams.get(b2), v2);
          if (readAgain) { readAgain = false; pull(); }
        }, (e) => {
          reading = false;
          errorReadable(streams.get(b1), e);
          errorReadable(streams.get(b2), e);
          cancelDone.resolve(undefined);
        });
        return resolved(undefined);
      };
      const cancelBranch = (which) => (reason) => {
        if (which === 1) { canceled1 = true; reason1 = reason; } else { canceled2 = true; reason2 = reason; }
        if (canceled1 && canceled2) cancelReadable(rs, [reason1, reason2]).then(cancelDone.resolve, cancelDone.reject);
        return cancelDone.promise;
      };
      const source = (which) => ({ type: rs.bytes ? "bytes" : undefined, pull, cancel: cancelBranch(which) });
      b1 = new ReadableStream(source(1), { highWaterMark: 0 });
      b2 = new ReadableStream(source(2), { highWaterMark: 0 });
      reader.closed.then(noop, (e) => { errorReadable(streams.get(b1), e); errorReadable(streams.get(b2), e); });
      return [b1, b2];
    }
    values(options) {
      const reader = this.getReader();
      const preventCancel = !!(options && options.preventCancel);
      let finished = false;
      const it = Object.create(asyncIteratorProto);
      it.next = () => {
        if (finished) return resolved({ value: undefined, done: true });
        return reader.read().then((r) => {
          if (r.done) { finished = true; reader.releaseLock(); }
          return r;
        }, (e) => { finished = true; reader.releaseLock(); throw e; });
      };
      it.return = (value) => {
        if (finished) return resolved({ value, done: true });
        finished = true;
        if (!preventCancel) {
          const p = reader.cancel(value);
          reader.releaseLock();
          return p.then(() => ({ value, done: true }));
        }
        reader.releaseLock();
        return resolved({ value, done: true });
      };
      return it;
    }
    [Symbol.asyncIterator](options) { return this.values(options); }
    pipeThrough(pair, options) {
      if (pair === null || typeof pair !== "object" || !streams.has(pair.readable) || !writables.has(pair.writable))
        throw invalidArgType("transform", "an object with readable and writable streams", pair);
      if (this.locked) throw invalidState("ReadableStream is locked");
      handled(this.pipeTo(pair.writable, options));
      return pair.readable;
    }
    pipeTo(dest, options) {
      try {
        rsOf(this);
        if (!writables.has(dest)) throw invalidArgType("destination", "a WritableStream", dest);
        if (this.locked) throw invalidState("ReadableStream is locked");
        if (dest.locked) throw invalidState("WritableStream is locked");
      } catch (e) {
        return rejected(e);
      }
      const o = options || {};
      const preventClose = !!o.preventClose, preventAbort = !!o.preventAbort, preventCancel = !!o.preventCancel;
      const signal = o.signal;
      const reader = this.getReader();
      const writer = dest.getWriter();
      const ws = writables.get(dest);
      let stop = null;
      const onAbort = () => { stop = signal.reason; };
      if (signal) {
        if (signal.aborted) stop = signal.reason;
        else signal.addEventListener("abort", onAbort, { once: true });
      }
      const finish = (fn) => fn().finally(() => {
        if (signal) signal.removeEventListener("abort", onAbort);
        writer.releaseLock();
        reader.releaseLock();
      });
      return finish(async () => {
        for (;;) {
          if (stop !== null) {
            const reason = stop;
            const tasks = [];
            if (!preventAbort && ws.state === "writable") tasks.push(writer.abort(reason));
            if (!preventCancel) tasks.push(reader.cancel(reason));
            await Promise.all(tasks);
            throw reason;
          }
          if (ws.state !== "writable") {
            const e = ws.state === "errored" ? ws.error : new TypeError("WritableStream: the destination is closed");
            if (!preventCancel) await reader.cancel(e);
            throw e;
          }
          await writer.ready;
          let r;
          try {
            r = await reader.read();
          } catch (e) {
            if (!preventAbort) await writer.abort(e);
            throw e;
          }
          if (r.done) {
            if (!preventClose) await writer.close();
            return;
          }
          handled(writer.write(r.value));
        }
      });
    }
    static from(iterable) {
      if (streams.has(iterable)) return iterable;
      if (iterable === null || iterable === undefined) throw invalidArgType("iterable", "an iterable", iterable);
      const m = iterable[Symbol.asyncIterator] !== undefined ? iterable[Symbol.asyncIterator] : iterable[Symbol.iterator];
      if (typeof m !== "function") throw invalidArgType("iterable", "an iterable or async iterable", iterable);
      const it = Reflect.apply(m, iterable, []);
      if (it === null || typeof it !== "object") throw new TypeError("ReadableStream.from: the iterator is not an object");
      return new ReadableStream({
        async pull(c) {
          const r = await it.next();
          if (r === null || typeof r !== "object") throw new TypeError("ReadableStream.from: the iterator result is not an object");
          if (r.done) c.close();
          else c.enqueue(await r.value);
        },
        async cancel(reason) {
          if (typeof it.return === "function") {
            const r = await it.return(reason);
            if (r === null || typeof r !== "object") throw new TypeError("ReadableStream.from: the iterator's return() result is not an object");
          }
        },
      }, { highWaterMark: 0 });
    }
    get [Symbol.toStringTag]() { return "ReadableStream"; }
  }

  /* ---- WritableStream ---- */

  const writables = new WeakMap(); // WritableStream -> ws
  const writers = new WeakMap();   // writer -> ws | null (released)
  const wcontrollers = new WeakMap();

  function wsOf(x) {
    const ws = writables.get(x);
    if (!ws) throw codedError(TypeError, "ERR_INVALID_THIS", "Value of \"this\" must be of type WritableStream");
    return ws;
  }

  function wsDesired(ws) {
    if (ws.state === "errored") return null;
    if (ws.state === "closed") return 0;
    return ws.hwm - ws.queueSize;
  }

  // ready is pending while desiredSize <= 0 (backpressure).
  function updateReady(ws) {
    if (ws.state !== "writable" || ws.closeRequested) return;
    const back = wsDesired(ws) <= 0;
    if (back && !ws.ready.pending) { ws.ready = Object.assign(deferred(), { pending: true }); handled(ws.ready.promise); }
    else if (!back && ws.ready.pending) { ws.ready.pending = false; ws.ready.resolve(undefined); }
  }

  function errorWritable(ws, e) {
    if (ws.state === "errored" || ws.state === "closed") return;
    ws.state = "errored";
    ws.error = e;
    for (const w of ws.queue.splice(0)) w.d.reject(e);
    ws.queueSize = 0;
    if (ws.closeD) ws.closeD.reject(e);
    ws.closed.reject(e);
    if (ws.ready.pending) ws.ready.reject(e);
    else { ws.ready = deferred(); handled(ws.ready.promise); ws.ready.reject(e); }
  }

  // Runs the queued writes one after the other, then the close.
  function advance(ws) {
    if (!ws.started || ws.busy || ws.state !== "writable") return;
    if (ws.queue.length === 0) {
      if (ws.closeRequested && ws.closeD) {
        ws.busy = true;
        promiseCall(ws.sink, "close", []).then(() => {
          ws.busy = false;
          ws.state = "closed";
          ws.closeD.resolve(undefined);
          ws.closed.resolve(undefined);
        }, (e) => { ws.busy = false; errorWritable(ws, e); });
      }
      return;
    }
    const w = ws.queue[0];
    ws.busy = true;
    promiseCall(ws.sink, "write", [w.chunk, ws.controller]).then(() => {
      ws.busy = false;
      ws.queue.shift();
      ws.queueSize -= w.size;
      if (ws.queue.length === 0) ws.queueSize = 0;
      w.d.resolve(undefined);
      updateReady(ws);
      advance(ws);
    }, (e) => { ws.busy = false; errorWritable(ws, e); });
  }

  function writeTo(ws, chunk) {
    if (ws.state === "errored") return rejected(ws.error);
    if (ws.state === "closed" || ws.closeRequested) return rejected(invalidState("WritableStream is closed"));
    let size;
    try {
      size = Number(ws.size(chunk));
      if (Number.isNaN(size) || size < 0 || size === Infinity) throw new RangeError("a chunk's size must be a finite, non-negative number");
    } catch (e) {
      errorWritable(ws, e);
      return rejected(e);
    }
    const d = deferred();
    ws.queue.push({ chunk, size, d });
    ws.queueSize += size;
    updateReady(ws);
    advance(ws);
    return d.promise;
  }

  function closeWritable(ws) {
    if (ws.state === "errored") return rejected(ws.error);
    if (ws.state === "closed" || ws.closeRequested) return rejected(invalidState("WritableStream is closed"));
    ws.closeRequested = true;
    ws.closeD = deferred();
    if (ws.ready.pending) { ws.ready.pending = false; ws.ready.resolve(undefined); }
    advance(ws);
    return ws.closeD.promise;
  }

  function abortWritable(ws, reason) {
    if (ws.state === "closed" || ws.state === "errored") return resolved(undefined);
    const err = reason;
    errorWritable(ws, err);
    return promiseCall(ws.sink, "abort", [reason]).then(() => undefined);
  }

  class WritableStreamDefaultController {
    constructor() { if (!creating) throw illegal("WritableStreamDefaultController"); }
    error(e) { const ws = wcontrollers.get(this); if (ws.state === "writable") errorWritable(ws, e); }
    get signal() { return wcontrollers.get(this).abort.signal; }
    get [Symbol.toStringTag]() { return "WritableStreamDefaultController"; }
  }

  class WritableStreamDefaultWriter {
    constructor(stream) {
      const ws = wsOf(stream);
      if (ws.writer) throw invalidState("WritableStream is locked");
      ws.writer = this;
      writers.set(this, ws);
    }
    #ws(what) {
      const ws = writers.get(this);
      if (!ws) throw invalidState("the writer was released; " + what + " needs a locked writer");
      return ws;
    }
    get closed() { try { return this.#ws("closed").closed.promise; } catch (e) { return rejected(e); } }
    get ready() { try { return this.#ws("ready").ready.promise; } catch (e) { return rejected(e); } }
    get desiredSize() { return wsDesired(this.#ws("desiredSize")); }
    write(chunk) { try { return writeTo(this.#ws("write"), chunk); } catch (e) { return rejected(e); } }
    close() { try { return closeWritable(this.#ws("close")); } catch (e) { return rejected(e); } }
    abort(reason) { try { return abortWritable(this.#ws("abort"), reason); } catch (e) { return rejected(e); } }
    releaseLock() {
      const ws = writers.get(this);
      if (!ws) return;
      ws.writer = null;
      writers.set(this, null);
    }
    get [Symbol.toStringTag]() { return "WritableStreamDefaultWriter"; }
  }

  class WritableStream {
    constructor(sink, strategy) {
      if (sink === undefined) sink = null;
      if (sink !== null && typeof sink !== "object") throw invalidArgType("sink", "an object", sink);
      if (sink !== null && sink.type !== undefined) throw new RangeError("WritableStream: the sink's type must be undefined");
      const st = strategyOf(strategy, 1);
      const AC = globalThis.AbortController;
      const ws = {
        state: "writable", error: undefined, writer: null, sink, hwm: st.hwm, size: st.size,
        queue: [], queueSize: 0, started: false, busy: false, closeRequested: false, closeD: null,
        closed: deferred(), ready: Object.assign(deferred(), { pending: false }), controller: null,
        abort: new AC(),
      };
      handled(ws.closed.promise);
      ws.ready.resolve(undefined);
      creating = true;
      try { ws.controller = new WritableStreamDefaultController(); } finally { creating = false; }
      wcontrollers.set(ws.controller, ws);
      writables.set(this, ws);
      updateReady(ws);
      const start = sink && sink.start !== undefined ? Reflect.apply(sink.start, sink, [ws.controller]) : undefined;
      resolved(start).then(() => { ws.started = true; advance(ws); }, (e) => errorWritable(ws, e));
    }
    get locked() { return wsOf(this).writer !== null; }
    getWriter() { return new WritableStreamDefaultWriter(this); }
    close() {
      let ws;
      try { ws = wsOf(this); } catch (e) { return rejected(e); }
      if (ws.writer) return rejected(invalidState("WritableStream is locked"));
      return closeWritable(ws);
    }
    abort(reason) {
      let ws;
      try { ws = wsOf(this); } catch (e) { return rejected(e); }
      if (ws.writer) return rejected(invalidState("WritableStream is locked"));
      return abortWritable(ws, reason);
    }
    get [Symbol.toStringTag]() { return "WritableStream"; }
  }

  /* ---- TransformStream ---- */

  const tcontrollers = new WeakMap(); // controller -> {rs, ws, terminate}

  class TransformStreamDefaultController {
    constructor() { if (!creating) throw illegal("TransformStreamDefaultController"); }
    get desiredSize() { return desiredSize(tcontrollers.get(this).rs()); }
    enqueue(chunk) { enqueueReadable(tcontrollers.get(this).rs(), chunk); }
    error(e) { const t = tcontrollers.get(this); errorReadable(t.rs(), e); errorWritable(t.ws(), e); }
    terminate() {
      const t = tcontrollers.get(this);
      const rs = t.rs();
      if (rs.state === "readable" && !rs.closeRequested) { rs.closeRequested = true; if (rs.queue.length === 0) closeReadable(rs); }
      errorWritable(t.ws(), new TypeError("TransformStream: the stream was terminated"));
    }
    get [Symbol.toStringTag]() { return "TransformStreamDefaultController"; }
  }

  class TransformStream {
    #readable; #writable;
    constructor(transformer, writableStrategy, readableStrategy) {
      if (transformer === undefined) transformer = null;
      if (transformer !== null && typeof transformer !== "object") throw invalidArgType("transformer", "an object", transformer);
      const tr = transformer || {};
      if (tr.readableType !== undefined || tr.writableType !== undefined) throw new RangeError("TransformStream: readableType and writableType must be undefined");
      let controller;
      creating = true;
      try { controller = new TransformStreamDefaultController(); } finally { creating = false; }
      let pullWaiter = null; // resolved when the readable side asks for more
      const self = this;
      const rsRec = () => streams.get(self.#readable);
      const wsRec = () => writables.get(self.#writable);
      tcontrollers.set(controller, { rs: rsRec, ws: wsRec });
      const startD = deferred();
      this.#readable = new ReadableStream({
        start: () => startD.promise,
        pull: () => { if (pullWaiter) { const w = pullWaiter; pullWaiter = null; w.resolve(undefined); } },
        cancel: (reason) => {
          errorWritable(wsRec(), reason === undefined ? new TypeError("TransformStream: the readable side was canceled") : reason);
          return promiseCall(tr, "cancel", [reason]);
        },
      }, readableStrategy === undefined ? { highWaterMark: 0 } : readableStrategy);
      this.#writable = new WritableStream({
        start: () => startD.promise,
        write: async (chunk) => {
          const rs = rsRec();
          if (rs.state === "readable" && desiredSize(rs) <= 0 && pendingReads(rs) === 0) {
            pullWaiter = deferred();
            await pullWaiter.promise;
          }
          if (tr.transform === undefined) enqueueReadable(rsRec(), chunk);
          else await promiseCall(tr, "transform", [chunk, controller]);
        },
        close: async () => {
          await promiseCall(tr, "flush", [controller]);
          const rs = rsRec();
          if (rs.state === "readable" && !rs.closeRequested) { rs.closeRequested = true; if (rs.queue.length === 0) closeReadable(rs); }
        },
        abort: (reason) => { errorReadable(rsRec(), reason); return promiseCall(tr, "cancel", [reason]); },
      }, writableStrategy);
      try {
        const start = tr.start !== undefined ? Reflect.apply(tr.start, tr, [controller]) : undefined;
        resolved(start).then(() => startD.resolve(undefined), (e) => startD.reject(e));
      } catch (e) {
        throw e;
      }
    }
    get readable() { return this.#readable; }
    get writable() { return this.#writable; }
    get [Symbol.toStringTag]() { return "TransformStream"; }
  }

  /* ---- text streams ---- */

  class TextEncoderStream {
    #t;
    constructor() {
      const enc = new text.TextEncoder();
      this.#t = new TransformStream({
        transform(chunk, c) { const s = String(chunk); if (s.length) c.enqueue(enc.encode(s)); },
      });
    }
    get encoding() { return "utf-8"; }
    get readable() { return this.#t.readable; }
    get writable() { return this.#t.writable; }
  }

  class TextDecoderStream {
    #t; #dec;
    constructor(label, options) {
      const dec = new text.TextDecoder(label === undefined ? "utf-8" : label, options);
      this.#dec = dec;
      this.#t = new TransformStream({
        transform(chunk, c) { const s = dec.decode(chunk, { stream: true }); if (s.length) c.enqueue(s); },
        flush(c) { const s = dec.decode(); if (s.length) c.enqueue(s); },
      });
    }
    get encoding() { return this.#dec.encoding; }
    get fatal() { return this.#dec.fatal; }
    get ignoreBOM() { return this.#dec.ignoreBOM; }
    get readable() { return this.#t.readable; }
    get writable() { return this.#t.writable; }
  }

  // A stream over bytes that are all there already (a fetch body): one chunk, then the end.
  function readableOfBytes(bytes) {
    return new ReadableStream({
      type: "bytes",
      start(c) { if (bytes.length) c.enqueue(bytes); c.close(); },
    });
  }
  // Every chunk of a stream, concatenated (a request body given as a stream).
  async function bytesOfReadable(stream, what, limit) {
    const reader = stream.getReader();
    const parts = [];
    let total = 0;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      let b;
      if (typeof value === "string") b = text.utf8Encode(value);
      else if (ArrayBuffer.isView(value)) b = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
      else if (value instanceof ArrayBuffer) b = new Uint8Array(value);
      else throw new TypeError(what + ": a body stream must give Uint8Array chunks");
      total += b.length;
      if (total > limit) { await reader.cancel(); throw new RangeError(what + ": the body stream is larger than " + limit + " bytes"); }
      parts.push(b);
    }
    const out = new Uint8Array(total);
    let at = 0;
    for (const b of parts) { out.set(b, at); at += b.length; }
    return out;
  }
  const isReadableStream = (x) => streams.has(x);
  const isDisturbed = (x) => { const rs = streams.get(x); return rs !== undefined && rs.disturbed; };

  const web = Object.freeze({
    ReadableStream, ReadableStreamDefaultReader, ReadableStreamDefaultController,
    WritableStream, WritableStreamDefaultWriter, WritableStreamDefaultController,
    TransformStream, TransformStreamDefaultController,
    ByteLengthQueuingStrategy, CountQueuingStrategy, TextEncoderStream, TextDecoderStream,
  });
  // `web` is what guests see (node:stream/web, the globals); the rest is for fetch and Blob.
  return Object.freeze({ web, readableOfBytes, bytesOfReadable, isReadableStream, isDisturbed });
})
