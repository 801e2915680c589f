/* node/stream.js — node:stream (and, through the prelude, stream/promises): Readable, Writable,
 * Duplex, Transform, PassThrough, pipeline (with function stages), finished, compose,
 * addAbortSignal, Readable.from, Duplex.from and async iteration, _construct, pipe/unpipe to
 * several destinations and the old-style Stream#pipe, unshift and wrap, corked and queued writes
 * batched into _writev, object mode and highWaterMark backpressure, the web-stream adapters
 * (Readable/Writable/Duplex toWeb and fromWeb), built on node:events. What is left out is listed in docs/captured-surface.md.
 *
 * Pure JavaScript over guest objects: a stream holds nothing the host owns. Deferred work runs as
 * microtasks (where Node uses process.nextTick). Trusts natives.primordials: its own paths use
 * captured builtins, prototype-less lists and index loops (docs/primordials.md). */
(function (require, natives, name) {
  "use strict";
  const EventEmitter = require("events");
  const { Buffer } = require("buffer");
  const { StringDecoder } = require("string_decoder");
  const { codedError, invalidArgType } = require("internal/text");
  const P = natives.primordials, u = P.uncurry;
  const SP = require("internal/webstreams").SP; // the streams' own captures, named
  const {
    ReflectApply, ObjectSetPrototypeOf, ObjectKeys, ObjectFreeze, ObjectDefineProperty,
    NumberIsInteger, ArrayIsArray, PromiseCtor, PromiseOwn, PromiseThen, PromiseFrom, TypeErrorCtor, ErrorCtor,
    list, defineValue, argsWith,
  } = P;
  const { SymbolAsyncIterator, SymbolIterator, SymbolHasInstance, FunctionPrototypeHasInstance } = SP;
  const Uint8ArrayCtor = SP.Uint8ArrayCtor;
  const ArrayPush = u(P.ArrayPrototypePush), ArrayShift = u(SP.ArrayPrototypeShift), ArrayUnshift = u(P.ArrayPrototypeUnshift);
  const ArrayJoin = u(P.ArrayPrototypeJoin);
  const TASet = u(SP.TypedArrayPrototypeSet), TAByteLength = u(SP.TypedArrayPrototypeGetByteLength);
  const TABuffer = u(SP.TypedArrayPrototypeGetBuffer), TAByteOffset = u(SP.TypedArrayPrototypeGetByteOffset);
  const MathMin = SP.MathMin, MathMax = P.MathMax;
  // Buffer's statics, read once (the module object is the guest's to patch afterwards)
  const BufferFrom = Buffer.from, BufferIsBuffer = Buffer.isBuffer;
  const EEOn = EventEmitter.prototype.on, EEPrepend = EventEmitter.prototype.prependListener;
  const EERemove = EventEmitter.prototype.removeListener, EECount = EventEmitter.prototype.listenerCount;
  const BufferToString = u(Buffer.prototype.toString);
  const StringSlice = u(P.StringPrototypeSlice);
  // buf.slice(a, b) for 0 <= a: a view on the same bytes, as Node's
  function bufferSlice(b, a, e) {
    const len = TAByteLength(b);
    const start = MathMin(a, len), end = e === undefined ? len : MathMax(start, MathMin(e, len));
    return asBuffer(new Uint8ArrayCtor(TABuffer(b), TAByteOffset(b) + start, end - start));
  }
  const sliceOf = (x, a, b) => (typeof x === "string" ? StringSlice(x, a, b) : bufferSlice(x, a, b));
  // a Uint8Array that is not a Buffer, as a Buffer over the same bytes
  const viewAsBuffer = (c) => asBuffer(new Uint8ArrayCtor(TABuffer(c), TAByteOffset(c), TAByteLength(c)));
  const microtask = natives.queueMicrotask;

  const later = (fn, a) => microtask(() => fn(a));
  // A Buffer over bytes (what node:buffer's own Buffers are: Uint8Arrays with Buffer.prototype),
  // made without a call into node:buffer.
  const BufferProto = Buffer.prototype;
  const asBuffer = (u8) => ObjectSetPrototypeOf(u8, BufferProto);
  // Buffer.concat over a prototype-less list (no iterator, no Array.prototype read)
  function concatBuffers(bufs) {
    let total = 0;
    for (let i = 0; i < bufs.length; i++) total += TAByteLength(bufs[i]);
    const out = asBuffer(new Uint8ArrayCtor(total));
    let at = 0;
    for (let i = 0; i < bufs.length; i++) { TASet(out, bufs[i], at); at += TAByteLength(bufs[i]); }
    return out;
  }
  const toBuffer = (x, a, b) => ReflectApply(BufferFrom, Buffer, a === undefined ? [x] : b === undefined ? [x, a] : [x, a, b]);
  const isBuffer = (x) => ReflectApply(BufferIsBuffer, Buffer, [x]);
  const chunkLength = (objectMode, chunk) => (objectMode ? 1 : chunk.length);
  const defaultHwm = (objectMode) => (objectMode ? 16 : 16384);

  function hwmOf(options, objectMode, key) {
    const v = options && options[key] !== undefined ? options[key] : options && options.highWaterMark;
    if (v === undefined || v === null) return defaultHwm(objectMode);
    if (!NumberIsInteger(v) || v < 0) {
      throw codedError(TypeErrorCtor, "ERR_INVALID_ARG_VALUE", "The property 'options." + key + "' is invalid. Received " + v);
    }
    return v;
  }

  /* ---- Stream (legacy base) ---- */

  function Stream(opts) { ReflectApply(EventEmitter, this, [opts]); }
  ObjectSetPrototypeOf(Stream.prototype, EventEmitter.prototype);
  ObjectSetPrototypeOf(Stream, EventEmitter);

  // The old-style pipe of a bare Stream (data/end/close events, pause/resume by hand): every
  // listener it adds is taken off again once either side ends, closes or fails.
  Stream.prototype.pipe = function (dest, options) {
    const source = this;
    const on = (em, ev, fn) => ReflectApply(EEOn, em, [ev, fn]);
    const off = (em, ev, fn) => ReflectApply(EERemove, em, [ev, fn]);
    const ondata = (chunk) => {
      if (dest.writable && dest.write(chunk) === false && typeof source.pause === "function") source.pause();
    };
    const ondrain = () => {
      if (source.readable && typeof source.resume === "function") source.resume();
    };
    let ended = false;
    const onend = () => { if (ended) return; ended = true; dest.end(); };
    const onclose = () => {
      if (ended) return;
      ended = true;
      if (typeof dest.destroy === "function") dest.destroy();
    };
    const endDest = !dest._isStdio && !(options && options.end === false);
    function onerror(err) {
      cleanup();
      if (ReflectApply(EECount, this, ["error"]) === 0) this.emit("error", err); // nobody else listens: unhandled, as in Node
    }
    function cleanup() {
      off(source, "data", ondata);
      off(dest, "drain", ondrain);
      off(source, "end", onend);
      off(source, "close", onclose);
      off(source, "error", onerror);
      off(dest, "error", onerror);
      off(source, "end", cleanup);
      off(source, "close", cleanup);
      off(dest, "close", cleanup);
    }
    on(source, "data", ondata);
    on(dest, "drain", ondrain);
    if (endDest) { on(source, "end", onend); on(source, "close", onclose); }
    ReflectApply(EEPrepend, source, ["error", onerror]);
    ReflectApply(EEPrepend, dest, ["error", onerror]);
    on(source, "end", cleanup);
    on(source, "close", cleanup);
    on(dest, "close", cleanup);
    dest.emit("pipe", source);
    return dest;
  };

  function destroyImpl(stream, err, cb) {
    const r = stream._readableState, w = stream._writableState;
    if ((r && r.destroyed) || (w && w.destroyed)) {
      if (typeof cb === "function") cb(err);
      return stream;
    }
    if (r) r.destroyed = true;
    if (w) w.destroyed = true;
    const st = r || w;
    if (st.constructed === false) st.afterConstruct = () => runDestroy(stream, err, cb);
    else runDestroy(stream, err, cb);
    return stream;
  }

  function runDestroy(stream, err, cb) {
    const r = stream._readableState, w = stream._writableState;
    stream._destroy(err || null, (e) => {
      if (typeof cb === "function") cb(e);
      later(() => {
        if (e) {
          if (r) r.errored = e;
          if (w) w.errored = e;
          stream.emit("error", e);
        }
        if ((r ? r.emitClose : true) && (w ? w.emitClose : true)) stream.emit("close");
      });
    });
  }

  // _construct(callback) (an own method or options.construct) runs once, deferred; until it calls
  // back, reads wait, writes queue, finishing and destroy wait. An error, or a second call,
  // destroys the stream with that error.
  function startConstruct(stream) {
    if (typeof stream._construct !== "function") return;
    const r = stream._readableState, w = stream._writableState;
    if (r) r.constructed = false;
    if (w) w.constructed = false;
    later(() => {
      let called = false;
      const done = (err) => {
        if (called) {
          stream.destroy(codedError(ErrorCtor, "ERR_MULTIPLE_CALLBACK", "Callback called multiple times"));
          return;
        }
        called = true;
        if (r) r.constructed = true;
        if (w) w.constructed = true;
        const st = r || w;
        const pending = st.afterConstruct;
        if (pending) {
          st.afterConstruct = null;
          pending();
          return;
        }
        if (err) { stream.destroy(err); return; }
        if (r) scheduleFlow(stream);
        if (w) {
          if (w.queue.length && !w.corked && !w.writing) clearQueue(stream);
          else finishMaybe(stream);
        }
      };
      try {
        stream._construct(done);
      } catch (e) {
        if (!called) done(e);
        else stream.destroy(e);
      }
    });
  }

  /* ---- Readable ---- */

  function ReadableState(options, stream, isDuplex) {
    this.objectMode = !!(options && (options.objectMode || (isDuplex && options.readableObjectMode)));
    this.highWaterMark = hwmOf(options, this.objectMode, "readableHighWaterMark");
    this.buffer = list();
    this.length = 0;
    this.flowing = null;
    this.ended = false;
    this.endEmitted = false;
    this.reading = false;
    this.destroyed = false;
    this.errored = null;
    this.emitClose = !(options && options.emitClose === false);
    this.autoDestroy = !(options && options.autoDestroy === false);
    this.decoder = null;
    this.encoding = null;
    this.flowScheduled = false;
    this.readableListening = false;
    this.pipes = []; // an ordinary array as in Node (tests read it); filled by own definitions only
    this.awaitDrain = list();
    this.constructed = true;
    this.afterConstruct = null;
    if (options && options.encoding) this.setEncoding(options.encoding);
  }
  ObjectSetPrototypeOf(ReadableState.prototype, null);
  ReadableState.prototype.setEncoding = function (enc) {
    this.decoder = new StringDecoder(enc);
    this.encoding = this.decoder.encoding;
  };

  function Readable(options) {
    if (!(this instanceof Readable)) return new Readable(options);
    const isDuplex = this instanceof Duplex;
    this._readableState = new ReadableState(options, this, isDuplex);
    if (options) {
      if (typeof options.read === "function") this._read = options.read;
      if (typeof options.destroy === "function") this._destroy = options.destroy;
      if (typeof options.construct === "function") this._construct = options.construct;
    }
    ReflectApply(Stream, this, [options]);
    if (!isDuplex) startConstruct(this);
  }
  ObjectSetPrototypeOf(Readable.prototype, Stream.prototype);
  ObjectSetPrototypeOf(Readable, Stream);

  Readable.prototype._read = function () {
    throw codedError(ErrorCtor, "ERR_METHOD_NOT_IMPLEMENTED", "The _read() method is not implemented");
  };
  Readable.prototype._destroy = function (err, cb) { cb(err); };
  Readable.prototype.destroy = function (err, cb) { return destroyImpl(this, err, cb); };

  Readable.prototype.push = function (chunk, encoding) {
    const st = this._readableState;
    st.reading = false;
    if (chunk === null) {
      st.ended = true;
      scheduleFlow(this);
      return false;
    }
    if (st.ended) {
      this.destroy(codedError(ErrorCtor, "ERR_STREAM_PUSH_AFTER_EOF", "stream.push() after EOF"));
      return false;
    }
    if (!st.objectMode) {
      if (typeof chunk === "string") chunk = toBuffer(chunk, encoding || "utf8");
      else if (chunk instanceof Uint8ArrayCtor && !isBuffer(chunk)) chunk = viewAsBuffer(chunk);
      else if (!isBuffer(chunk)) {
        this.destroy(invalidArgType("chunk", "of type string or an instance of Buffer or Uint8Array", chunk));
        return false;
      }
      if (chunk.length === 0) return st.length < st.highWaterMark;
    }
    if (st.decoder) {
      chunk = st.decoder.write(chunk);
      if (chunk === "" && !st.objectMode) return st.length < st.highWaterMark;
    }
    ArrayPush(st.buffer, chunk);
    st.length += chunkLength(st.objectMode, chunk);
    scheduleFlow(this);
    return st.length < st.highWaterMark;
  };

  // A chunk put back at the front of the buffer (a parser that read too far).
  Readable.prototype.unshift = function (chunk, encoding) {
    const st = this._readableState;
    if (chunk === null) { this.push(null); return false; }
    if (st.endEmitted) {
      this.destroy(codedError(ErrorCtor, "ERR_STREAM_UNSHIFT_AFTER_END_EVENT", "stream.unshift() after end event"));
      return false;
    }
    if (!st.objectMode) {
      if (typeof chunk === "string") chunk = toBuffer(chunk, encoding || "utf8");
      else if (chunk instanceof Uint8ArrayCtor && !isBuffer(chunk)) chunk = viewAsBuffer(chunk);
      else if (!isBuffer(chunk)) {
        this.destroy(invalidArgType("chunk", "of type string or an instance of Buffer or Uint8Array", chunk));
        return false;
      }
      if (st.decoder) chunk = BufferToString(chunk, st.encoding);
      if (chunk.length === 0) return st.length < st.highWaterMark;
    }
    ArrayUnshift(st.buffer, chunk);
    st.length += chunkLength(st.objectMode, chunk);
    scheduleFlow(this);
    return st.length < st.highWaterMark;
  };

  // An old-style stream (data/end events, pause/resume) read as this Readable.
  Readable.prototype.wrap = function (old) {
    let paused = false;
    const self = this;
    ReflectApply(EEOn, old, ["data", (chunk) => {
      if (!self.push(chunk) && !paused && typeof old.pause === "function") { paused = true; old.pause(); }
    }]);
    ReflectApply(EEOn, old, ["end", () => self.push(null)]);
    ReflectApply(EEOn, old, ["error", (err) => self.destroy(err)]);
    ReflectApply(EEOn, old, ["close", () => self.destroy()]);
    ReflectApply(EEOn, old, ["destroy", () => self.destroy()]);
    this._read = () => {
      if (paused && typeof old.resume === "function") { paused = false; old.resume(); }
    };
    return this;
  };

  function scheduleFlow(stream) {
    const st = stream._readableState;
    if (st.flowScheduled) return;
    st.flowScheduled = true;
    later(flow, stream);
  }

  function maybeRead(stream) {
    const st = stream._readableState;
    if (st.reading || st.ended || st.destroyed || !st.constructed || st.length >= st.highWaterMark) return;
    st.reading = true;
    try {
      stream._read(st.highWaterMark);
    } catch (e) {
      stream.destroy(e);
    }
  }

  function endMaybe(stream) {
    const st = stream._readableState;
    if (st.ended && st.length === 0 && !st.endEmitted && !st.destroyed) {
      st.endEmitted = true;
      stream.emit("end");
      const w = stream._writableState;
      if (st.autoDestroy && (!w || (w.finished && w.autoDestroy))) stream.destroy();
      else if (w && !stream.allowHalfOpen && !w.ending) stream.end();
    }
  }

  function flow(stream) {
    const st = stream._readableState;
    st.flowScheduled = false;
    if (st.destroyed) return;
    if (st.flowing) {
      while (st.flowing && st.buffer.length > 0 && !st.destroyed) {
        const chunk = ArrayShift(st.buffer);
        st.length -= chunkLength(st.objectMode, chunk);
        stream.emit("data", chunk);
      }
    } else if (st.readableListening && (st.buffer.length > 0 || st.ended)) {
      stream.emit("readable");
    }
    if (st.ended && st.decoder && st.buffer.length === 0) {
      const rest = st.decoder.end();
      st.decoder = new StringDecoder(st.encoding);
      if (rest) {
        ArrayPush(st.buffer, rest);
        st.length += chunkLength(st.objectMode, rest);
        scheduleFlow(stream);
        return;
      }
    }
    if (st.ended) {
      if (st.flowing !== false || st.readableListening) endMaybe(stream);
    } else if (st.flowing || st.readableListening) {
      maybeRead(stream);
    }
  }

  Readable.prototype.read = function (n) {
    const st = this._readableState;
    let out = null;
    if (st.buffer.length > 0) {
      if (st.objectMode) out = ArrayShift(st.buffer);
      else if (n === undefined || n >= st.length) {
        out = st.decoder ? ArrayJoin(st.buffer, "") : concatBuffers(st.buffer);
        st.buffer = list();
      } else if (n > 0) {
        const all = st.decoder ? ArrayJoin(st.buffer, "") : concatBuffers(st.buffer);
        out = sliceOf(all, 0, n);
        st.buffer = list();
        ArrayPush(st.buffer, sliceOf(all, n));
      }
      if (out !== null) st.length -= chunkLength(st.objectMode, out);
    }
    if (out !== null) this.emit("data", out);
    if (st.ended && st.length === 0) later(endMaybe, this);
    else later(maybeRead, this);
    return out;
  };

  Readable.prototype.on = function (ev, fn) {
    const res = ReflectApply(EEOn, this, [ev, fn]);
    const st = this._readableState;
    if (ev === "data" && st.flowing !== false) this.resume();
    else if (ev === "readable") {
      st.readableListening = true;
      st.flowing = false;
      scheduleFlow(this);
      later(maybeRead, this);
    }
    return res;
  };
  Readable.prototype.addListener = Readable.prototype.on;

  Readable.prototype.resume = function () {
    const st = this._readableState;
    if (!st.flowing) {
      st.flowing = !st.readableListening;
      this.emit("resume");
      scheduleFlow(this);
    }
    return this;
  };
  Readable.prototype.pause = function () {
    const st = this._readableState;
    if (st.flowing !== false) {
      st.flowing = false;
      this.emit("pause");
    }
    return this;
  };
  Readable.prototype.isPaused = function () { return this._readableState.flowing === false; };
  Readable.prototype.setEncoding = function (enc) { this._readableState.setEncoding(enc); return this; };

  // pipe: the source flows into each destination; one that returns false from write() pauses it
  // until every such destination has drained. A destination is unpiped when it closes, finishes
  // or fails (an 'error' nobody else handles still reaches it as one), and ended with the source
  // unless { end: false }.
  Readable.prototype.pipe = function (dest, options) {
    const src = this, st = this._readableState;
    defineValue(st.pipes, st.pipes.length, dest);
    const unpipe = () => src.unpipe(dest);
    const onend = () => dest.end();
    const endFn = options && options.end === false ? unpipe : onend;
    if (st.endEmitted) later(endFn); else src.once("end", endFn);
    let ondrain = null, cleanedUp = false;
    const onunpipe = (readable, info) => {
      if (readable === src && info && info.hasUnpiped === false) { info.hasUnpiped = true; cleanup(); }
    };
    const ondata = (chunk) => { if (dest.write(chunk) === false) pause(); };
    function onerror(err) {
      unpipe();
      dest.removeListener("error", onerror);
      if (dest.listenerCount("error") === 0) {
        const ds = dest._writableState || dest._readableState;
        if (ds && !ds.destroyed && typeof dest.destroy === "function") dest.destroy(err);
        else dest.emit("error", err);
      }
    }
    const onclose = () => { dest.removeListener("finish", onfinish); unpipe(); };
    const onfinish = () => { dest.removeListener("close", onclose); unpipe(); };
    function cleanup() {
      dest.removeListener("close", onclose);
      dest.removeListener("finish", onfinish);
      if (ondrain) dest.removeListener("drain", ondrain);
      dest.removeListener("error", onerror);
      dest.removeListener("unpipe", onunpipe);
      src.removeListener("end", onend);
      src.removeListener("end", unpipe);
      src.removeListener("data", ondata);
      cleanedUp = true;
      // a destination gone while the source waited on it no longer holds the source back
      if (ondrain && st.awaitDrain.length && (!dest._writableState || dest._writableState.needDrain)) ondrain();
    }
    function pause() {
      if (!cleanedUp) {
        let waiting = false;
        for (let i = 0; i < st.awaitDrain.length; i++) if (st.awaitDrain[i] === dest) waiting = true;
        if (!waiting) ArrayPush(st.awaitDrain, dest);
        src.pause();
      }
      if (!ondrain) {
        ondrain = () => {
          removeFrom(st, "awaitDrain", dest);
          if (st.awaitDrain.length === 0 && src.listenerCount("data") > 0) src.resume();
        };
        dest.on("drain", ondrain);
      }
    }
    dest.on("unpipe", onunpipe);
    src.on("data", ondata);
    ReflectApply(EEPrepend, dest, ["error", onerror]);
    dest.once("close", onclose);
    dest.once("finish", onfinish);
    dest.emit("pipe", src);
    if (dest.writableNeedDrain === true) pause();
    else if (!st.flowing) src.resume();
    return dest;
  };

  // st[key] without `item`, rebuilt by index with own definitions (no Array.prototype method runs
  // and no inherited setter): `pipes` stays an ordinary array as Node's is, the others lists
  function removeFrom(st, key, item) {
    const old = st[key], kept = key === "pipes" ? [] : list();
    let found = false;
    for (let i = 0; i < old.length; i++) {
      if (!found && old[i] === item) found = true;
      else defineValue(kept, kept.length, old[i]);
    }
    st[key] = kept;
    return found;
  }

  Readable.prototype.unpipe = function (dest) {
    const st = this._readableState;
    if (st.pipes.length === 0) return this;
    if (dest === undefined || dest === null) {
      const dests = st.pipes;
      st.pipes = [];
      this.pause();
      for (let i = 0; i < dests.length; i++) dests[i].emit("unpipe", this, { hasUnpiped: false });
      return this;
    }
    if (!removeFrom(st, "pipes", dest)) return this;
    if (st.pipes.length === 0) this.pause();
    dest.emit("unpipe", this, { hasUnpiped: false });
    return this;
  };

  // An own-marked promise and its resolving functions.
  function deferred() {
    let resolve, reject;
    const promise = PromiseOwn(new PromiseCtor((a, b) => { resolve = a; reject = b; }));
    return { __proto__: null, promise, resolve, reject };
  }

  Readable.prototype[SymbolAsyncIterator] = function () {
    const stream = this;
    const queue = list();
    let error = null, done = false, wake = null;
    const notify = () => { if (wake) { const w = wake; wake = null; w(); } };
    stream.on("data", (chunk) => { ArrayPush(queue, chunk); stream.pause(); notify(); });
    stream.once("end", () => { done = true; notify(); });
    stream.once("error", (e) => { error = e; notify(); });
    stream.once("close", () => { done = true; notify(); });
    const next = (d) => {
      if (queue.length) { d.resolve({ value: ArrayShift(queue), done: false }); return; }
      if (error) { d.reject(error); return; }
      if (done) { d.resolve({ value: undefined, done: true }); return; }
      wake = () => next(d);
      stream.resume();
    };
    return {
      next() { const d = deferred(); next(d); return d.promise; },
      return() {
        stream.destroy();
        const d = deferred();
        d.resolve({ value: undefined, done: true });
        return d.promise;
      },
      [SymbolAsyncIterator]() { return this; },
    };
  };

  // map, filter, flatMap, take, drop, forEach, toArray, some, every, find, reduce
  require("internal/stream_ops").install(Readable);

  // The iterator of a sync or async iterable, or null.
  function iteratorOf(iterable) {
    return iterable && typeof iterable[SymbolAsyncIterator] === "function" ? iterable[SymbolAsyncIterator]()
      : iterable && typeof iterable[SymbolIterator] === "function" ? iterable[SymbolIterator]() : null;
  }

  // A _read that pulls `it` (one pull at a time; awaited values; null refused as in Node).
  function readFromIterator(it) {
    let pulling = false;
    return function () {
      if (pulling) return;
      pulling = true;
      const self = this;
      const fail = (e) => { pulling = false; self.destroy(e); };
      const pull = () => {
        let p;
        try { p = PromiseFrom(it.next()); } catch (e) { fail(e); return; }
        PromiseThen(p, (r) => {
          if (r.done) { pulling = false; self.push(null); return; }
          PromiseThen(PromiseFrom(r.value), (v) => {
            if (v === null) { fail(codedError(TypeErrorCtor, "ERR_STREAM_NULL_VALUES", "May not write null values to stream")); return; }
            if (self.push(v)) pull(); else pulling = false;
          }, fail);
        }, fail);
      };
      pull();
    };
  }

  Readable.from = function (iterable, options) {
    if (typeof iterable === "string" || isBuffer(iterable)) {
      return new Readable({ objectMode: true, ...options, read() { this.push(iterable); this.push(null); } });
    }
    const it = iteratorOf(iterable);
    if (it === null) throw invalidArgType("iterable", "an Iterable", iterable);
    return new Readable({ objectMode: true, ...options, read: readFromIterator(it) });
  };

  // Defines getters on a prototype from an object of functions.
  function defineGetters(proto, getters, skip) {
    const keys = ObjectKeys(getters);
    for (let i = 0; i < keys.length; i++) {
      if (keys[i] === skip) continue;
      ObjectDefineProperty(proto, keys[i], { __proto__: null, get: getters[keys[i]], configurable: true, enumerable: false });
    }
  }
  defineGetters(Readable.prototype, {
    readable() { const s = this._readableState; return !!s && !s.destroyed && !s.endEmitted; },
    readableEnded() { return this._readableState.endEmitted; },
    readableFlowing() { return this._readableState.flowing; },
    readableLength() { return this._readableState.length; },
    readableObjectMode() { return this._readableState.objectMode; },
    readableHighWaterMark() { return this._readableState.highWaterMark; },
    readableEncoding() { return this._readableState.encoding; },
    destroyed() { const s = this._readableState || this._writableState; return s.destroyed; },
  });

  /* ---- Writable ---- */

  function WritableState(options, isDuplex) {
    this.objectMode = !!(options && (options.objectMode || (isDuplex && options.writableObjectMode)));
    this.highWaterMark = hwmOf(options, this.objectMode, "writableHighWaterMark");
    this.decodeStrings = !(options && options.decodeStrings === false);
    this.defaultEncoding = (options && options.defaultEncoding) || "utf8";
    this.length = 0;
    this.writing = false;
    this.queue = list();
    this.needDrain = false;
    this.ending = false;
    this.ended = false;
    this.finalCalled = false;
    this.finished = false;
    this.destroyed = false;
    this.errored = null;
    this.corked = 0;
    this.constructed = true;
    this.afterConstruct = null;
    this.emitClose = !(options && options.emitClose === false);
    this.autoDestroy = !(options && options.autoDestroy === false);
  }

  ObjectSetPrototypeOf(WritableState.prototype, null);

  function Writable(options) {
    if (!(this instanceof Writable) && !(this instanceof Duplex)) return new Writable(options);
    this._writableState = new WritableState(options, this instanceof Duplex);
    if (options) {
      if (typeof options.write === "function") this._write = options.write;
      if (typeof options.writev === "function") this._writev = options.writev;
      if (typeof options.final === "function") this._final = options.final;
      if (typeof options.destroy === "function") this._destroy = options.destroy;
      if (typeof options.construct === "function") this._construct = options.construct;
    }
    ReflectApply(Stream, this, [options]);
    startConstruct(this);
  }
  ObjectSetPrototypeOf(Writable.prototype, Stream.prototype);
  ObjectSetPrototypeOf(Writable, Stream);
  ObjectDefineProperty(Writable, SymbolHasInstance, {
    __proto__: null,
    value(obj) {
      if (ReflectApply(FunctionPrototypeHasInstance, this, [obj])) return true;
      return this === Writable && !!obj && obj._writableState instanceof WritableState;
    },
  });

  Writable.prototype._write = function (chunk, encoding, cb) {
    if (this._writev) this._writev([{ chunk, encoding }], cb);
    else throw codedError(ErrorCtor, "ERR_METHOD_NOT_IMPLEMENTED", "The _write() method is not implemented");
  };
  Writable.prototype._destroy = function (err, cb) { cb(err); };
  Writable.prototype.destroy = function (err, cb) { return destroyImpl(this, err, cb); };

  Writable.prototype.write = function (chunk, encoding, cb) {
    const st = this._writableState;
    if (typeof encoding === "function") { cb = encoding; encoding = null; }
    if (typeof cb !== "function") cb = () => {};
    encoding = encoding || st.defaultEncoding;
    let err = null;
    if (chunk === null) err = codedError(TypeErrorCtor, "ERR_STREAM_NULL_VALUES", "May not write null values to stream");
    else if (!st.objectMode) {
      if (typeof chunk === "string") {
        if (st.decodeStrings) { chunk = toBuffer(chunk, encoding); encoding = "buffer"; }
      } else if (chunk instanceof Uint8ArrayCtor) {
        if (!isBuffer(chunk)) chunk = viewAsBuffer(chunk);
        encoding = "buffer";
      } else {
        err = invalidArgType("chunk", "of type string or an instance of Buffer or Uint8Array", chunk);
      }
    }
    if (!err && st.ending) err = codedError(ErrorCtor, "ERR_STREAM_WRITE_AFTER_END", "write after end");
    if (!err && st.destroyed) err = codedError(ErrorCtor, "ERR_STREAM_DESTROYED", "Cannot call write after a stream was destroyed");
    if (err) {
      later(cb, err);
      if (err.code === "ERR_STREAM_WRITE_AFTER_END" || err.code === "ERR_STREAM_DESTROYED") {
        if (!st.destroyed) this.destroy(err); else later(() => {});
      } else {
        throw err;
      }
      return false;
    }
    st.length += chunkLength(st.objectMode, chunk);
    const ok = st.length < st.highWaterMark;
    if (!ok) st.needDrain = true;
    if (st.writing || st.corked || !st.constructed) ArrayPush(st.queue, { chunk, encoding, callback: cb });
    else doWrite(this, chunk, encoding, cb);
    return ok;
  };

  // The queued writes go out: all at once through _writev when the stream has one and more than
  // one is waiting (corked writes, or writes made while one was in flight), as in Node.
  function clearQueue(stream) {
    const st = stream._writableState;
    if (st.queue.length > 1 && typeof stream._writev === "function") {
      const entries = st.queue;
      st.queue = list();
      const chunks = [];
      let allBuffers = true, size = 0;
      for (let i = 0; i < entries.length; i++) {
        defineValue(chunks, i, entries[i]);
        if (entries[i].encoding !== "buffer") allBuffers = false;
        size += chunkLength(st.objectMode, entries[i].chunk);
      }
      defineValue(chunks, "allBuffers", allBuffers);
      const cbs = (err) => { for (let i = 0; i < entries.length; i++) entries[i].callback(err); };
      doWrite(stream, chunks, "", cbs, size, true);
      return;
    }
    const next = ArrayShift(st.queue);
    doWrite(stream, next.chunk, next.encoding, next.callback);
  }

  function doWrite(stream, chunk, encoding, cb, size, writev) {
    const st = stream._writableState;
    st.writing = true;
    let sync = true, called = false;
    const onwrite = (err) => {
      if (called) return;
      called = true;
      // The state moves on at once (so synchronous sinks take the next chunk in the same call, as
      // in Node); the caller's callback, 'drain' and finishing are deferred when the sink was sync.
      st.writing = false;
      st.length -= writev ? size : chunkLength(st.objectMode, chunk);
      if (err) {
        later(cb, err);
        stream.destroy(err);
        return;
      }
      if (sync) later(cb, null); else cb(null);
      if (st.queue.length && !st.corked) {
        clearQueue(stream);
        return;
      }
      const settle = () => {
        if (st.needDrain && st.length === 0 && !st.ending && !st.destroyed) {
          st.needDrain = false;
          stream.emit("drain");
        }
        finishMaybe(stream);
      };
      if (sync) later(settle); else settle();
    };
    // A throw from _write/_writev reaches the caller of write() or end(), as in Node (which, unlike
    // _read, _construct and _final, does not catch it).
    try {
      if (writev) stream._writev(chunk, onwrite);
      else stream._write(chunk, encoding, onwrite);
    } finally {
      sync = false;
    }
  }

  function finishMaybe(stream) {
    const st = stream._writableState;
    if (!st.ending || st.finished || st.writing || !st.constructed || st.length > 0 || st.queue.length || st.destroyed) return;
    const done = (err) => {
      if (err) { stream.destroy(err); return; }
      st.finished = true;
      stream.emit("prefinish");
      stream.emit("finish");
      const r = stream._readableState;
      if (st.autoDestroy && (!r || (r.endEmitted && r.autoDestroy))) stream.destroy();
    };
    if (st.finalCalled) return;
    st.finalCalled = true;
    if (typeof stream._final === "function") {
      later(() => {
        try { stream._final((err) => done(err)); } catch (e) { done(e); }
      });
    } else {
      later(done);
    }
  }

  Writable.prototype.end = function (chunk, encoding, cb) {
    const st = this._writableState;
    if (typeof chunk === "function") { cb = chunk; chunk = null; encoding = null; }
    else if (typeof encoding === "function") { cb = encoding; encoding = null; }
    if (chunk !== null && chunk !== undefined) this.write(chunk, encoding);
    if (st.corked) { st.corked = 1; this.uncork(); }
    if (typeof cb === "function") {
      if (st.finished) later(cb);
      else {
        const onFinish = () => { this.removeListener("error", onError); cb(); };
        const onError = (e) => { this.removeListener("finish", onFinish); cb(e); };
        this.once("finish", onFinish);
        this.once("error", onError);
      }
    }
    if (!st.ending) {
      st.ending = true;
      st.ended = true;
      finishMaybe(this);
    }
    return this;
  };

  Writable.prototype.cork = function () { this._writableState.corked++; };
  Writable.prototype.uncork = function () {
    const st = this._writableState;
    if (st.corked > 0 && --st.corked === 0 && !st.writing && st.constructed && st.queue.length) clearQueue(this);
  };
  Writable.prototype.setDefaultEncoding = function (enc) { this._writableState.defaultEncoding = enc; return this; };

  const writableGetters = {
    writable() { const s = this._writableState; return !!s && !s.destroyed && !s.ending; },
    writableEnded() { return this._writableState.ending; },
    writableFinished() { return this._writableState.finished; },
    writableLength() { return this._writableState.length; },
    writableObjectMode() { return this._writableState.objectMode; },
    writableHighWaterMark() { return this._writableState.highWaterMark; },
    writableNeedDrain() { return this._writableState.needDrain; },
    writableCorked() { return this._writableState.corked; },
    destroyed() { const s = this._writableState || this._readableState; return s.destroyed; },
  };
  defineGetters(Writable.prototype, writableGetters);

  /* ---- Duplex, Transform, PassThrough ---- */

  function Duplex(options) {
    if (!(this instanceof Duplex)) return new Duplex(options);
    ReflectApply(Readable, this, [options]);
    this._writableState = new WritableState(options, true);
    if (options) {
      if (typeof options.write === "function") this._write = options.write;
      if (typeof options.writev === "function") this._writev = options.writev;
      if (typeof options.final === "function") this._final = options.final;
      if (options.readable === false) this._readableState.endEmitted = this._readableState.ended = true;
      if (options.writable === false) this._writableState.ending = this._writableState.finished = true;
    }
    this.allowHalfOpen = !(options && options.allowHalfOpen === false);
    startConstruct(this);
  }
  ObjectSetPrototypeOf(Duplex.prototype, Readable.prototype);
  ObjectSetPrototypeOf(Duplex, Readable);
  {
    const shared = ["write", "end", "cork", "uncork", "setDefaultEncoding", "_write"];
    for (let i = 0; i < shared.length; i++) defineValue(Duplex.prototype, shared[i], Writable.prototype[shared[i]]);
  }
  defineGetters(Duplex.prototype, writableGetters, "destroyed");

  function Transform(options) {
    if (!(this instanceof Transform)) return new Transform(options);
    ReflectApply(Duplex, this, [options]);
    if (options) {
      if (typeof options.transform === "function") this._transform = options.transform;
      if (typeof options.flush === "function") this._flush = options.flush;
      // a final of one's own replaces Transform's, so the flush runs at 'prefinish' instead, as in Node
      if (typeof options.final === "function") ReflectApply(EEOn, this, ["prefinish", () => flushTransform(this, (err) => { if (err) this.destroy(err); })]);
    }
  }
  ObjectSetPrototypeOf(Transform.prototype, Duplex.prototype);
  ObjectSetPrototypeOf(Transform, Duplex);
  Transform.prototype._transform = function () {
    throw codedError(ErrorCtor, "ERR_METHOD_NOT_IMPLEMENTED", "The _transform() method is not implemented");
  };
  Transform.prototype._write = function (chunk, encoding, cb) {
    this._transform(chunk, encoding, (err, data) => {
      if (err) { cb(err); return; }
      if (data !== undefined && data !== null) this.push(data);
      cb();
    });
  };
  Transform.prototype._read = function () {};
  // _flush (when there is one), its last data, then the end of the readable side
  function flushTransform(stream, cb) {
    const finish = (err, data) => {
      if (err) { cb(err); return; }
      if (data !== undefined && data !== null) stream.push(data);
      stream.push(null);
      cb();
    };
    if (typeof stream._flush === "function") stream._flush(finish);
    else finish();
  }
  Transform.prototype._final = function (cb) { flushTransform(this, cb); };

  function PassThrough(options) {
    if (!(this instanceof PassThrough)) return new PassThrough(options);
    ReflectApply(Transform, this, [options]);
  }
  ObjectSetPrototypeOf(PassThrough.prototype, Transform.prototype);
  ObjectSetPrototypeOf(PassThrough, Transform);
  PassThrough.prototype._transform = function (chunk, encoding, cb) { cb(null, chunk); };

  /* ---- finished, pipeline ---- */

  function finished(stream, options, callback) {
    if (typeof options === "function") { callback = options; options = {}; }
    options = options || {};
    if (typeof callback !== "function") throw invalidArgType("callback", "of type function", callback);
    const r = stream._readableState, w = stream._writableState;
    let readable = options.readable !== false && !!r && !r.endEmitted;
    let writable = options.writable !== false && !!w && !w.finished;
    let called = false;
    // as in Node, its listeners stay after the callback ran (the returned function removes them)
    const done = (err) => {
      if (called) return;
      called = true;
      ReflectApply(callback, stream, [err]);
    };
    const onEnd = () => { readable = false; if (!writable) done(); };
    const onFinish = () => { writable = false; if (!readable) done(); };
    const onError = (err) => done(err);
    const onClose = () => {
      if (readable || writable) done(codedError(ErrorCtor, "ERR_STREAM_PREMATURE_CLOSE", "Premature close"));
      else done();
    };
    const cleanup = () => {
      stream.removeListener("end", onEnd);
      stream.removeListener("finish", onFinish);
      stream.removeListener("error", onError);
      stream.removeListener("close", onClose);
    };
    stream.on("end", onEnd);
    stream.on("finish", onFinish);
    stream.on("error", onError);
    stream.on("close", onClose);
    if (!readable && !writable) later(done);
    return cleanup;
  }

  function pipeline(...args) {
    const callback = args.length > 0 && typeof args[args.length - 1] === "function" ? args[args.length - 1] : null;
    let streams = list();
    for (let i = 0; i < args.length - (callback === null ? 0 : 1); i++) ArrayPush(streams, args[i]);
    if (streams.length === 1 && ArrayIsArray(streams[0])) {
      const given = streams[0];
      streams = list();
      for (let i = 0; i < given.length; i++) ArrayPush(streams, given[i]);
    }
    if (callback === null) throw invalidArgType("callback", "of type function", undefined);
    if (streams.length < 2) throw codedError(TypeErrorCtor, "ERR_MISSING_ARGS", 'The "streams" argument must be specified');
    // function stages as Node takes them: the first is called for its (async) iterable, a later one
    // becomes a Duplex over its source (Duplex.from), a generator's output or a promise's settling
    if (typeof streams[0] === "function") {
      const abort = require("internal/abort");
      streams[0] = streams[0]({ signal: new abort.AbortController().signal });
    }
    if (typeof streams[0].pipe !== "function") streams[0] = Readable.from(streams[0]);
    for (let i = 1; i < streams.length; i++) {
      if (typeof streams[i] !== "function") continue;
      streams[i] = duplexFrom(streams[i]);
      // a last generator stage runs for its effect: what it yields is read and dropped
      if (i === streams.length - 1 && streams[i].readable) streams[i].resume();
    }
    let error, pending = streams.length, called = false; // undefined when all went well, as in Node
    const finish = () => {
      if (called) return;
      called = true;
      callback(error, undefined);
    };
    const watch = (s, i) => {
      finished(s, { readable: i < streams.length - 1, writable: i > 0 }, (err) => {
        if (err && !error && !(err.code === "ERR_STREAM_PREMATURE_CLOSE" && i < streams.length - 1 && !error)) {
          error = err;
          for (let j = 0; j < streams.length; j++) {
            const other = streams[j];
            if (other !== s && typeof other.destroy === "function") other.destroy();
          }
          finish();
          return;
        }
        if (err && !error) error = err;
        if (--pending === 0 || i === streams.length - 1) finish();
      });
    };
    for (let i = 0; i < streams.length; i++) watch(streams[i], i);
    for (let i = 0; i < streams.length - 1; i++) streams[i].pipe(streams[i + 1]);
    return streams[streams.length - 1];
  }

  // One Duplex over a chain of streams: writes go to the first, reads come from the last.
  function compose(...streams) {
    if (streams.length === 0) throw codedError(TypeErrorCtor, "ERR_MISSING_ARGS", 'The "streams" argument must be specified');
    for (let i = 0; i < streams.length; i++) {
      const s = streams[i];
      if (!s || (typeof s.pipe !== "function" && typeof s.write !== "function"))
        throw invalidArgType("streams[" + i + "]", "a Stream", s);
    }
    if (streams.length === 1) return streams[0];
    const head = streams[0], last = streams[streams.length - 1];
    const writable = typeof head.write === "function", readable = typeof last.read === "function";
    let onDrain = null;
    const d = new Duplex({
      objectMode: !!(head._writableState && head._writableState.objectMode) || !!(last._readableState && last._readableState.objectMode),
      writable, readable,
      write(chunk, encoding, cb) {
        if (head.write(chunk, encoding)) cb();
        else onDrain = cb;
      },
      final(cb) {
        head.end();
        if (!readable) finished(head, { readable: false }, (err) => cb(err));
        else cb();
      },
      read() { if (typeof last.resume === "function") last.resume(); },
      destroy(err, cb) {
        for (let i = 0; i < streams.length; i++) if (typeof streams[i].destroy === "function") streams[i].destroy(err);
        cb(err);
      },
    });
    if (writable) head.on("drain", () => { if (onDrain) { const cb = onDrain; onDrain = null; cb(); } });
    if (readable) {
      last.on("data", (chunk) => { if (!d.push(chunk)) last.pause(); });
      last.on("end", () => d.push(null));
    }
    const chain = list();
    for (let i = 0; i < streams.length; i++) ArrayPush(chain, streams[i]);
    ArrayPush(chain, (err) => { if (err && !d.destroyed) d.destroy(err); });
    ReflectApply(pipeline, null, chain);
    return d;
  }

  // Destroys `stream` with an AbortError when `signal` aborts.
  function addAbortSignal(signal, stream) {
    const abort = require("internal/abort");
    if (!signal || typeof signal !== "object" || !("aborted" in signal)) throw invalidArgType("signal", "an instance of AbortSignal", signal);
    if (!stream || (typeof stream.pipe !== "function" && typeof stream.write !== "function" && !require("internal/webstreams").isReadableStream(stream)))
      throw invalidArgType("stream", "an instance of ReadableStream, WritableStream, or Stream", stream);
    const onAbort = () => stream.destroy(abort.abortError(signal));
    if (signal.aborted) onAbort();
    else {
      signal.addEventListener("abort", onAbort, { once: true });
      finished(stream, () => signal.removeEventListener("abort", onAbort));
    }
    return stream;
  }

  /* ---- web-stream adapters ---- */

  const web = () => require("internal/webstreams").web;

  function readableToWeb(readable, options) {
    const W = web();
    const objectMode = readable.readableObjectMode;
    const hwm = readable.readableHighWaterMark;
    const strategy = options && options.strategy ? options.strategy
      : objectMode ? new W.CountQueuingStrategy({ highWaterMark: hwm }) : { highWaterMark: hwm, size: (c) => c.byteLength };
    let controller, closed = false;
    const onData = (chunk) => {
      if (isBuffer(chunk) && !objectMode) chunk = new Uint8ArrayCtor(chunk);
      controller.enqueue(chunk);
      if (controller.desiredSize <= 0) readable.pause();
    };
    return new W.ReadableStream({
      start(c) {
        controller = c;
        readable.pause();
        finished(readable, (err) => {
          if (closed) return;
          closed = true;
          if (err && err.code !== "ERR_STREAM_PREMATURE_CLOSE") controller.error(err);
          else if (err) controller.error(err);
          else controller.close();
        });
        readable.on("data", onData);
      },
      pull() { readable.resume(); },
      cancel(reason) { closed = true; readable.destroy(reason); },
    }, strategy);
  }

  function readableFromWeb(rs, options) {
    if (!require("internal/webstreams").isReadableStream(rs)) throw invalidArgType("readableStream", "an instance of ReadableStream", rs);
    const o = options || {};
    const reader = rs.getReader();
    let closed = false;
    const r = new Readable({
      objectMode: !!o.objectMode, highWaterMark: o.highWaterMark, encoding: o.encoding, signal: o.signal,
      read() {
        PromiseThen(PromiseFrom(reader.read()), (res) => {
          if (res.done) { closed = true; r.push(null); } else r.push(res.value);
        }, (err) => { closed = true; r.destroy(err); });
      },
      destroy(err, cb) {
        if (closed) { cb(err); return; }
        closed = true;
        PromiseThen(PromiseFrom(reader.cancel(err)), () => cb(err), (e) => cb(e));
      },
    });
    PromiseThen(PromiseFrom(reader.closed), () => { closed = true; }, (err) => { closed = true; r.destroy(err); });
    return r;
  }

  function writableToWeb(writable) {
    const W = web();
    let backpressure = null, closeD = null;
    writable.on("drain", () => { if (backpressure) { const b = backpressure; backpressure = null; b.resolve(); } });
    return new W.WritableStream({
      start(c) {
        finished(writable, (err) => {
          if (err) { if (closeD) closeD.reject(err); else c.error(err); if (backpressure) backpressure.reject(err); }
          else if (closeD) closeD.resolve();
        });
      },
      write(chunk) {
        if (writable.writableNeedDrain || !writable.write(chunk)) {
          backpressure = deferred();
          return backpressure.promise;
        }
        return undefined;
      },
      close() {
        closeD = deferred();
        writable.end();
        return closeD.promise;
      },
      abort(reason) { writable.destroy(reason); },
    }, { highWaterMark: writable.writableHighWaterMark });
  }

  function writableFromWeb(ws, options) {
    const W = web();
    if (!(ws instanceof W.WritableStream)) throw invalidArgType("writableStream", "an instance of WritableStream", ws);
    const o = options || {};
    const writer = ws.getWriter();
    let closed = false;
    return new Writable({
      objectMode: !!o.objectMode, highWaterMark: o.highWaterMark, decodeStrings: o.decodeStrings,
      write(chunk, encoding, cb) {
        PromiseThen(PromiseFrom(writer.ready), () => PromiseThen(PromiseFrom(writer.write(chunk)), () => cb(), cb), cb);
      },
      final(cb) {
        closed = true;
        PromiseThen(PromiseFrom(writer.close()), () => cb(), cb);
      },
      destroy(err, cb) {
        if (closed) { cb(err); return; }
        closed = true;
        PromiseThen(PromiseFrom(writer.abort(err)), () => cb(err), () => cb(err));
      },
    });
  }

  function duplexToWeb(duplex) {
    return { readable: readableToWeb(duplex), writable: writableToWeb(duplex) };
  }
  function duplexFromWeb(pair, options) {
    if (!pair || typeof pair !== "object") throw invalidArgType("pair", "an object with readable and writable streams", pair);
    const o = options || {};
    const r = readableFromWeb(pair.readable, { objectMode: o.objectMode, encoding: o.encoding });
    const w = writableFromWeb(pair.writable, { objectMode: o.objectMode, decodeStrings: o.decodeStrings });
    const d = new Duplex({
      objectMode: !!o.objectMode, allowHalfOpen: o.allowHalfOpen,
      write(chunk, encoding, cb) { w.write(chunk, encoding, cb); },
      final(cb) { w.end(); finished(w, { readable: false }, (err) => cb(err)); },
      read() { r.resume(); },
      destroy(err, cb) { r.destroy(err); w.destroy(err); cb(err); },
    });
    r.on("data", (chunk) => { if (!d.push(chunk)) r.pause(); });
    r.on("end", () => d.push(null));
    r.on("error", (err) => d.destroy(err));
    w.on("error", (err) => d.destroy(err));
    return d;
  }

  defineValue(Readable, "toWeb", readableToWeb);
  defineValue(Readable, "fromWeb", readableFromWeb);
  defineValue(Writable, "toWeb", writableToWeb);
  defineValue(Writable, "fromWeb", writableFromWeb);
  defineValue(Duplex, "toWeb", duplexToWeb);
  defineValue(Duplex, "fromWeb", duplexFromWeb);

  /* ---- Duplex.from ---- */

  const isNodeReadable = (x) => !!x && typeof x.pipe === "function" && typeof x.on === "function" && (!x._writableState || !!x._readableState);
  const isNodeWritable = (x) => !!x && typeof x.write === "function" && typeof x.on === "function" && (!x._readableState || !!x._writableState);
  const isWebReadable = (x) => require("internal/webstreams").isReadableStream(x);
  const isWebWritable = (x) => !!x && typeof x === "object" && x instanceof web().WritableStream;

  // One Duplex over a Readable `r` and/or a Writable `w` (either may be missing): writes go into
  // `w`, reads come from `r`; an error on either side destroys it (and the other side).
  function duplexOfSides(r, w) {
    let readable = !!r && isReadable(r), writable = !!w && isWritable(w);
    let onDrain = null, onFinish = null;
    const d = new Duplex({
      readableObjectMode: !!(r && r.readableObjectMode), writableObjectMode: !!(w && w.writableObjectMode),
      readable, writable,
    });
    const take = (cb) => { if (cb) cb(); };
    if (writable) {
      w.on("drain", () => { const cb = onDrain; onDrain = null; take(cb); });
      w.on("finish", () => { const cb = onFinish; onFinish = null; take(cb); });
      finished(w, (err) => {
        writable = false;
        if (err) { if (r && readable) r.destroy(err); d.destroy(err); }
      });
      d._write = (chunk, encoding, cb) => { if (w.write(chunk, encoding)) cb(); else onDrain = cb; };
      d._final = (cb) => { onFinish = cb; w.end(); };
    }
    if (readable) {
      r.on("data", (chunk) => { if (!d.push(chunk)) r.pause(); });
      r.on("end", () => d.push(null));
      finished(r, (err) => {
        readable = false;
        if (err) { if (w && writable) w.destroy(err); d.destroy(err); }
      });
      d._read = () => { if (typeof r.resume === "function") r.resume(); };
    }
    d._destroy = (err, cb) => {
      onDrain = onFinish = null;
      if (w && !w.destroyed) w.destroy(writable ? err : null);
      if (r && r !== w && !r.destroyed) r.destroy(readable ? err : null);
      cb(err);
    };
    return d;
  }

  // The writing half of Duplex.from(fn): an async iterable handed to fn, yielding what is written
  // (each write's callback runs when fn's loop takes the chunk); ending it ends the iteration.
  function writesAsIterable() {
    const abort = require("internal/abort");
    const controller = new abort.AbortController();
    const signal = controller.signal;
    const inbox = list();
    let waiting = null;
    const hand = (d, item) => {
      later(item.cb);
      if (item.done) d.resolve({ value: undefined, done: true });
      else if (signal.aborted) d.reject(abort.abortError(signal));
      else d.resolve({ value: item.chunk, done: false });
    };
    const put = (item) => {
      if (waiting) { const d = waiting; waiting = null; hand(d, item); } else ArrayPush(inbox, item);
    };
    const source = {
      next() {
        const d = deferred();
        if (inbox.length) hand(d, ArrayShift(inbox)); else waiting = d;
        return d.promise;
      },
      return() {
        const d = deferred();
        d.resolve({ value: undefined, done: true });
        return d.promise;
      },
      [SymbolAsyncIterator]() { return this; },
    };
    return {
      __proto__: null, source, signal,
      write(chunk, encoding, cb) { put({ __proto__: null, chunk, done: false, cb }); },
      final(cb) { put({ __proto__: null, done: true, cb }); },
      destroy(err, cb) { controller.abort(); cb(err); },
    };
  }

  function duplexFromFunction(fn) {
    const io = writesAsIterable();
    const value = fn(io.source, { signal: io.signal });
    if (iteratorOf(value) !== null) {
      return new Duplex({ objectMode: true, write: io.write, final: io.final, destroy: io.destroy, read: readFromIterator(iteratorOf(value)) });
    }
    const then = value && value.then;
    if (typeof then === "function") {
      let d = null, failure = null, settled = false;
      const waiters = list();
      const settle = (err) => {
        settled = true;
        failure = err;
        for (let i = 0; i < waiters.length; i++) later(waiters[i], err);
      };
      ReflectApply(then, value, [(v) => {
        settle(v === undefined || v === null ? null
          : codedError(TypeErrorCtor, "ERR_INVALID_RETURN_VALUE", "Expected nully to be returned from the \"body\" function but got " + typeof v + "."));
      }, (err) => { settle(err); d.destroy(err); }]);
      d = new Duplex({
        objectMode: true, readable: false, write: io.write, destroy: io.destroy,
        final(cb) {
          io.final(() => { if (settled) later(cb, failure); else ArrayPush(waiters, cb); });
        },
      });
      return d;
    }
    const fnName = typeof fn.name === "string" && fn.name !== "" ? fn.name : "body";
    throw codedError(TypeErrorCtor, "ERR_INVALID_RETURN_VALUE",
      "Expected Iterable, AsyncIterable or AsyncFunction to be returned from the \"" + fnName + "\" function but got " +
      (value === undefined ? "undefined" : value === null ? "null" : "type " + typeof value) + ".");
  }

  // A readable-only Duplex holding what a promise (or thenable) resolves to.
  function duplexFromThenable(body, then) {
    const d = new Duplex({ objectMode: true, writable: false, read() {} });
    ReflectApply(then, body, [(v) => {
      if (v !== undefined && v !== null) d.push(v);
      d.push(null);
    }, (err) => d.destroy(err)]);
    return d;
  }

  // Duplex.from(body): a Duplex made from a stream, a web stream, a { readable, writable } pair, an
  // (async) iterable, an async generator function or async function, a promise or a Blob.
  function duplexFrom(body) {
    if (body instanceof Duplex || (isNodeReadable(body) && isNodeWritable(body))) return body;
    if (isNodeReadable(body)) return duplexOfSides(body, null);
    if (isNodeWritable(body)) return duplexOfSides(null, body);
    if (isWebReadable(body)) return duplexOfSides(readableFromWeb(body), null);
    if (isWebWritable(body)) return duplexOfSides(null, writableFromWeb(body));
    if (typeof body === "function") return duplexFromFunction(body);
    if (require("internal/blob").isBlob(body)) {
      // its bytes as one ArrayBuffer (a copy), read from the Blob's own record, not its methods
      const copy = TABuffer(new Uint8ArrayCtor(require("internal/blob").bytesOf(body)));
      return new Duplex({ objectMode: true, writable: false, read() { this.push(copy); this.push(null); } });
    }
    if (typeof body === "string" || isBuffer(body)) {
      return new Duplex({ objectMode: true, writable: false, read() { this.push(body); this.push(null); } });
    }
    if (iteratorOf(body) !== null) return new Duplex({ objectMode: true, writable: false, read: readFromIterator(iteratorOf(body)) });
    if (body && typeof body === "object") {
      if (isWebReadable(body.readable) && isWebWritable(body.writable)) return duplexFromWeb(body);
      if (typeof body.readable === "object" || typeof body.writable === "object") {
        const r = body.readable ? (isNodeReadable(body.readable) ? body.readable : duplexFrom(body.readable)) : null;
        const w = body.writable ? (isNodeWritable(body.writable) ? body.writable : duplexFrom(body.writable)) : null;
        return duplexOfSides(r, w);
      }
      const then = body.then;
      if (typeof then === "function") return duplexFromThenable(body, then);
    }
    throw invalidArgType("body", "of type Blob, ReadableStream, WritableStream, Stream, Iterable, AsyncIterable, Function, { readable, writable } pair, or Promise", body);
  }
  defineValue(Duplex, "from", duplexFrom);

  const promises = ObjectFreeze({
    pipeline(...streams) {
      const d = deferred();
      ReflectApply(pipeline, null, argsWith(streams, [(err, value) => (err ? d.reject(err) : d.resolve(value))]));
      return d.promise;
    },
    finished(stream, options) {
      const cleanup = options && options.cleanup;
      if (cleanup !== undefined && typeof cleanup !== "boolean") throw invalidArgType("cleanup", "of type boolean", cleanup);
      const d = deferred();
      const remove = finished(stream, options, (err) => {
        if (cleanup) remove();
        if (err) d.reject(err); else d.resolve();
      });
      return d.promise;
    },
  });
  // util.promisify(pipeline) and util.promisify(finished) give these, as in Node
  const promisifyCustom = require("internal/captures_util").SymbolFor("nodejs.util.promisify.custom");
  defineValue(pipeline, promisifyCustom, promises.pipeline);
  defineValue(finished, promisifyCustom, promises.finished);

  function isReadable(s) { return !!s && typeof s.read === "function" && !!s._readableState && !s._readableState.destroyed && !s._readableState.endEmitted; }
  function isWritable(s) { return !!s && typeof s.write === "function" && !!s._writableState && !s._writableState.destroyed && !s._writableState.ending; }
  function isErrored(s) { const st = s && (s._readableState || s._writableState); return !!(st && st.errored); }

  const exported = {
    Stream, Readable, Writable, Duplex, Transform, PassThrough, pipeline, finished, promises,
    isReadable, isWritable, isErrored, compose, addAbortSignal,
  };
  const names = ObjectKeys(exported);
  for (let i = 0; i < names.length; i++) defineValue(Stream, names[i], exported[names[i]]);
  return ObjectFreeze(Stream);
})
