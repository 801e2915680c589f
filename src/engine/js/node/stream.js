/* node/stream.js — node:stream (and, through the prelude, stream/promises): Readable, Writable,
 * Duplex, Transform, PassThrough, pipeline, finished, Readable.from and async iteration, object
 * mode and highWaterMark backpressure, built on node:events. The scope is what common packages
 * use; the gaps (cork batching into _writev, unshift/wrap, compose, web-stream adapters) are
 * listed in docs/captured-surface.md.
 *
 * Pure JavaScript over guest objects: a stream holds nothing the host owns. Deferred work runs as
 * microtasks (where Node uses process.nextTick). */
(function (require, natives, name) {
  "use strict";
  const EventEmitter = require("events");
  const { Buffer } = require("buffer");
  const { StringDecoder } = require("string_decoder");
  const { codedError, invalidArgType } = require("internal/text");

  const later = (fn, ...args) => queueMicrotask(() => fn(...args));
  const chunkLength = (objectMode, chunk) => (objectMode ? 1 : chunk.length);
  const defaultHwm = (objectMode) => (objectMode ? 16 : 16384);

  function hwmOf(options, objectMode, key) {
    const v = options && options[key] !== undefined ? options[key] : options && options.highWaterMark;
    if (v === undefined || v === null) return defaultHwm(objectMode);
    if (!Number.isInteger(v) || v < 0) {
      throw codedError(TypeError, "ERR_INVALID_ARG_VALUE", "The property 'options." + key + "' is invalid. Received " + v);
    }
    return v;
  }

  /* ---- Stream (legacy base) ---- */

  function Stream(opts) { EventEmitter.call(this, opts); }
  Object.setPrototypeOf(Stream.prototype, EventEmitter.prototype);
  Object.setPrototypeOf(Stream, EventEmitter);

  function destroyImpl(stream, err, cb) {
    const r = stream._readableState, w = stream._writableState;
    if ((r && r.destroyed) || (w && w.destroyed)) {
      if (typeof cb === "function") cb(err);
      return stream;
    }
    if (r) r.destroyed = true;
    if (w) w.destroyed = true;
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
    return stream;
  }

  /* ---- Readable ---- */

  function ReadableState(options, stream, isDuplex) {
    this.objectMode = !!(options && (options.objectMode || (isDuplex && options.readableObjectMode)));
    this.highWaterMark = hwmOf(options, this.objectMode, "readableHighWaterMark");
    this.buffer = [];
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
    if (options && options.encoding) this.setEncoding(options.encoding);
  }
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
    }
    Stream.call(this, options);
  }
  Object.setPrototypeOf(Readable.prototype, Stream.prototype);
  Object.setPrototypeOf(Readable, Stream);

  Readable.prototype._read = function () {
    throw codedError(Error, "ERR_METHOD_NOT_IMPLEMENTED", "The _read() method is not implemented");
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
      this.destroy(codedError(Error, "ERR_STREAM_PUSH_AFTER_EOF", "stream.push() after EOF"));
      return false;
    }
    if (!st.objectMode) {
      if (typeof chunk === "string") chunk = Buffer.from(chunk, encoding || "utf8");
      else if (chunk instanceof Uint8Array && !Buffer.isBuffer(chunk)) chunk = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      else if (!Buffer.isBuffer(chunk)) {
        this.destroy(invalidArgType("chunk", "of type string or an instance of Buffer or Uint8Array", chunk));
        return false;
      }
      if (chunk.length === 0) return st.length < st.highWaterMark;
    }
    if (st.decoder) {
      chunk = st.decoder.write(chunk);
      if (chunk === "" && !st.objectMode) return st.length < st.highWaterMark;
    }
    st.buffer.push(chunk);
    st.length += chunkLength(st.objectMode, chunk);
    scheduleFlow(this);
    return st.length < st.highWaterMark;
  };

  function scheduleFlow(stream) {
    const st = stream._readableState;
    if (st.flowScheduled) return;
    st.flowScheduled = true;
    later(flow, stream);
  }

  function maybeRead(stream) {
    const st = stream._readableState;
    if (st.reading || st.ended || st.destroyed || st.length >= st.highWaterMark) return;
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
        const chunk = st.buffer.shift();
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
        st.buffer.push(rest);
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
      if (st.objectMode) out = st.buffer.shift();
      else if (n === undefined || n >= st.length) {
        out = st.decoder ? st.buffer.join("") : Buffer.concat(st.buffer);
        st.buffer = [];
      } else if (n > 0) {
        const all = st.decoder ? st.buffer.join("") : Buffer.concat(st.buffer);
        out = all.slice(0, n);
        st.buffer = [all.slice(n)];
      }
      if (out !== null) st.length -= chunkLength(st.objectMode, out);
    }
    if (out !== null) this.emit("data", out);
    if (st.ended && st.length === 0) later(endMaybe, this);
    else later(maybeRead, this);
    return out;
  };

  Readable.prototype.on = function (ev, fn) {
    const res = Stream.prototype.on.call(this, ev, fn);
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

  Readable.prototype.pipe = function (dest, options) {
    const src = this;
    const doEnd = !(options && options.end === false);
    const ondata = (chunk) => {
      if (dest.write(chunk) === false) {
        src.pause();
        dest.once("drain", () => src.resume());
      }
    };
    src.on("data", ondata);
    if (doEnd) src.once("end", () => dest.end());
    dest.emit("pipe", src);
    src.resume();
    return dest;
  };
  Readable.prototype.unpipe = function () { this.removeAllListeners("data"); this.pause(); return this; };

  Readable.prototype[Symbol.asyncIterator] = function () {
    const stream = this;
    const queue = [];
    let error = null, done = false, wake = null;
    const notify = () => { if (wake) { const w = wake; wake = null; w(); } };
    stream.on("data", (chunk) => { queue.push(chunk); stream.pause(); notify(); });
    stream.once("end", () => { done = true; notify(); });
    stream.once("error", (e) => { error = e; notify(); });
    stream.once("close", () => { done = true; notify(); });
    return {
      async next() {
        for (;;) {
          if (queue.length) return { value: queue.shift(), done: false };
          if (error) throw error;
          if (done) return { value: undefined, done: true };
          stream.resume();
          await new Promise((r) => { wake = r; });
        }
      },
      async return() {
        stream.destroy();
        return { value: undefined, done: true };
      },
      [Symbol.asyncIterator]() { return this; },
    };
  };

  // map, filter, flatMap, take, drop, forEach, toArray, some, every, find, reduce
  require("internal/stream_ops").install(Readable);

  Readable.from = function (iterable, options) {
    if (typeof iterable === "string" || Buffer.isBuffer(iterable)) {
      return new Readable({ objectMode: true, ...options, read() { this.push(iterable); this.push(null); } });
    }
    const it = iterable && typeof iterable[Symbol.asyncIterator] === "function" ? iterable[Symbol.asyncIterator]()
      : iterable && typeof iterable[Symbol.iterator] === "function" ? iterable[Symbol.iterator]() : null;
    if (it === null) throw invalidArgType("iterable", "an Iterable", iterable);
    let pulling = false;
    return new Readable({
      objectMode: true, ...options,
      read() {
        if (pulling) return;
        pulling = true;
        const pull = async () => {
          try {
            for (;;) {
              const { value, done } = await it.next();
              if (done) { this.push(null); break; }
              const v = await value;
              if (v === null) throw codedError(TypeError, "ERR_STREAM_NULL_VALUES", "May not write null values to stream");
              if (!this.push(v)) break;
            }
          } catch (e) {
            this.destroy(e);
          }
          pulling = false;
        };
        pull();
      },
    });
  };

  for (const [k, get] of Object.entries({
    readable() { const s = this._readableState; return !!s && !s.destroyed && !s.endEmitted; },
    readableEnded() { return this._readableState.endEmitted; },
    readableFlowing() { return this._readableState.flowing; },
    readableLength() { return this._readableState.length; },
    readableObjectMode() { return this._readableState.objectMode; },
    readableHighWaterMark() { return this._readableState.highWaterMark; },
    readableEncoding() { return this._readableState.encoding; },
    destroyed() { const s = this._readableState || this._writableState; return s.destroyed; },
  })) Object.defineProperty(Readable.prototype, k, { get, configurable: true, enumerable: false });

  /* ---- Writable ---- */

  function WritableState(options, isDuplex) {
    this.objectMode = !!(options && (options.objectMode || (isDuplex && options.writableObjectMode)));
    this.highWaterMark = hwmOf(options, this.objectMode, "writableHighWaterMark");
    this.decodeStrings = !(options && options.decodeStrings === false);
    this.defaultEncoding = (options && options.defaultEncoding) || "utf8";
    this.length = 0;
    this.writing = false;
    this.queue = [];
    this.needDrain = false;
    this.ending = false;
    this.ended = false;
    this.finalCalled = false;
    this.finished = false;
    this.destroyed = false;
    this.errored = null;
    this.corked = 0;
    this.emitClose = !(options && options.emitClose === false);
    this.autoDestroy = !(options && options.autoDestroy === false);
  }

  function Writable(options) {
    if (!(this instanceof Writable) && !(this instanceof Duplex)) return new Writable(options);
    this._writableState = new WritableState(options, this instanceof Duplex);
    if (options) {
      if (typeof options.write === "function") this._write = options.write;
      if (typeof options.writev === "function") this._writev = options.writev;
      if (typeof options.final === "function") this._final = options.final;
      if (typeof options.destroy === "function") this._destroy = options.destroy;
    }
    Stream.call(this, options);
  }
  Object.setPrototypeOf(Writable.prototype, Stream.prototype);
  Object.setPrototypeOf(Writable, Stream);
  Object.defineProperty(Writable, Symbol.hasInstance, {
    value(obj) {
      if (Function.prototype[Symbol.hasInstance].call(this, obj)) return true;
      return this === Writable && !!obj && obj._writableState instanceof WritableState;
    },
  });

  Writable.prototype._write = function (chunk, encoding, cb) {
    if (this._writev) this._writev([{ chunk, encoding }], cb);
    else throw codedError(Error, "ERR_METHOD_NOT_IMPLEMENTED", "The _write() method is not implemented");
  };
  Writable.prototype._destroy = function (err, cb) { cb(err); };
  Writable.prototype.destroy = function (err, cb) { return destroyImpl(this, err, cb); };

  Writable.prototype.write = function (chunk, encoding, cb) {
    const st = this._writableState;
    if (typeof encoding === "function") { cb = encoding; encoding = null; }
    if (typeof cb !== "function") cb = () => {};
    encoding = encoding || st.defaultEncoding;
    let err = null;
    if (chunk === null) err = codedError(TypeError, "ERR_STREAM_NULL_VALUES", "May not write null values to stream");
    else if (!st.objectMode) {
      if (typeof chunk === "string") {
        if (st.decodeStrings) { chunk = Buffer.from(chunk, encoding); encoding = "buffer"; }
      } else if (chunk instanceof Uint8Array) {
        if (!Buffer.isBuffer(chunk)) chunk = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
        encoding = "buffer";
      } else {
        err = invalidArgType("chunk", "of type string or an instance of Buffer or Uint8Array", chunk);
      }
    }
    if (!err && st.ending) err = codedError(Error, "ERR_STREAM_WRITE_AFTER_END", "write after end");
    if (!err && st.destroyed) err = codedError(Error, "ERR_STREAM_DESTROYED", "Cannot call write after a stream was destroyed");
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
    if (st.writing || st.corked) st.queue.push({ chunk, encoding, cb });
    else doWrite(this, chunk, encoding, cb);
    return ok;
  };

  function doWrite(stream, chunk, encoding, cb) {
    const st = stream._writableState;
    st.writing = true;
    let sync = true, called = false;
    const onwrite = (err) => {
      if (called) return;
      called = true;
      // The state moves on at once (so synchronous sinks take the next chunk in the same call, as
      // in Node); the caller's callback, 'drain' and finishing are deferred when the sink was sync.
      st.writing = false;
      st.length -= chunkLength(st.objectMode, chunk);
      if (err) {
        later(cb, err);
        stream.destroy(err);
        return;
      }
      if (sync) later(cb, null); else cb(null);
      if (st.queue.length && !st.corked) {
        const next = st.queue.shift();
        doWrite(stream, next.chunk, next.encoding, next.cb);
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
    try {
      stream._write(chunk, encoding, onwrite);
    } catch (e) {
      onwrite(e);
    }
    sync = false;
  }

  function finishMaybe(stream) {
    const st = stream._writableState;
    if (!st.ending || st.finished || st.writing || st.length > 0 || st.queue.length || st.destroyed) return;
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
    if (st.corked > 0 && --st.corked === 0 && !st.writing && st.queue.length) {
      const next = st.queue.shift();
      doWrite(this, next.chunk, next.encoding, next.cb);
    }
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
  for (const [k, get] of Object.entries(writableGetters)) {
    Object.defineProperty(Writable.prototype, k, { get, configurable: true, enumerable: false });
  }

  /* ---- Duplex, Transform, PassThrough ---- */

  function Duplex(options) {
    if (!(this instanceof Duplex)) return new Duplex(options);
    Readable.call(this, options);
    this._writableState = new WritableState(options, true);
    if (options) {
      if (typeof options.write === "function") this._write = options.write;
      if (typeof options.writev === "function") this._writev = options.writev;
      if (typeof options.final === "function") this._final = options.final;
      if (options.readable === false) this._readableState.endEmitted = this._readableState.ended = true;
      if (options.writable === false) this._writableState.ending = this._writableState.finished = true;
    }
    this.allowHalfOpen = !(options && options.allowHalfOpen === false);
  }
  Object.setPrototypeOf(Duplex.prototype, Readable.prototype);
  Object.setPrototypeOf(Duplex, Readable);
  for (const k of ["write", "end", "cork", "uncork", "setDefaultEncoding", "_write"]) Duplex.prototype[k] = Writable.prototype[k];
  for (const k of Object.keys(writableGetters)) {
    if (k !== "destroyed") Object.defineProperty(Duplex.prototype, k, Object.getOwnPropertyDescriptor(Writable.prototype, k));
  }

  function Transform(options) {
    if (!(this instanceof Transform)) return new Transform(options);
    Duplex.call(this, options);
    if (options) {
      if (typeof options.transform === "function") this._transform = options.transform;
      if (typeof options.flush === "function") this._flush = options.flush;
    }
  }
  Object.setPrototypeOf(Transform.prototype, Duplex.prototype);
  Object.setPrototypeOf(Transform, Duplex);
  Transform.prototype._transform = function () {
    throw codedError(Error, "ERR_METHOD_NOT_IMPLEMENTED", "The _transform() method is not implemented");
  };
  Transform.prototype._write = function (chunk, encoding, cb) {
    this._transform(chunk, encoding, (err, data) => {
      if (err) { cb(err); return; }
      if (data !== undefined && data !== null) this.push(data);
      cb();
    });
  };
  Transform.prototype._read = function () {};
  Transform.prototype._final = function (cb) {
    const finish = (err, data) => {
      if (err) { cb(err); return; }
      if (data !== undefined && data !== null) this.push(data);
      this.push(null);
      cb();
    };
    if (typeof this._flush === "function") this._flush(finish);
    else finish();
  };

  function PassThrough(options) {
    if (!(this instanceof PassThrough)) return new PassThrough(options);
    Transform.call(this, options);
  }
  Object.setPrototypeOf(PassThrough.prototype, Transform.prototype);
  Object.setPrototypeOf(PassThrough, Transform);
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
    const done = (err) => {
      if (called) return;
      called = true;
      cleanup();
      callback.call(stream, err);
    };
    const onEnd = () => { readable = false; if (!writable) done(); };
    const onFinish = () => { writable = false; if (!readable) done(); };
    const onError = (err) => done(err);
    const onClose = () => {
      if (readable || writable) done(codedError(Error, "ERR_STREAM_PREMATURE_CLOSE", "Premature close"));
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

  function pipeline(...streams) {
    const callback = typeof streams[streams.length - 1] === "function" ? streams.pop() : null;
    if (streams.length === 1 && Array.isArray(streams[0])) streams = streams[0];
    if (callback === null) throw invalidArgType("callback", "of type function", undefined);
    if (streams.length < 2) throw codedError(TypeError, "ERR_MISSING_ARGS", 'The "streams" argument must be specified');
    streams = streams.map((s, i) => (i === 0 && typeof s.pipe !== "function" ? Readable.from(s) : s));
    let error = null, pending = streams.length, called = false;
    const finish = () => {
      if (called) return;
      called = true;
      callback(error, undefined);
    };
    streams.forEach((s, i) => {
      finished(s, { readable: i < streams.length - 1, writable: i > 0 }, (err) => {
        if (err && !error && !(err.code === "ERR_STREAM_PREMATURE_CLOSE" && i < streams.length - 1 && !error)) {
          error = err;
          for (const other of streams) if (other !== s && typeof other.destroy === "function") other.destroy();
          finish();
          return;
        }
        if (err && !error) error = err;
        if (--pending === 0 || i === streams.length - 1) finish();
      });
    });
    for (let i = 0; i < streams.length - 1; i++) streams[i].pipe(streams[i + 1]);
    return streams[streams.length - 1];
  }

  const promises = Object.freeze({
    pipeline(...streams) {
      return new Promise((resolve, reject) => {
        pipeline(...streams, (err, value) => (err ? reject(err) : resolve(value)));
      });
    },
    finished(stream, options) {
      return new Promise((resolve, reject) => {
        finished(stream, options, (err) => (err ? reject(err) : resolve()));
      });
    },
  });

  function isReadable(s) { return !!s && typeof s.read === "function" && !!s._readableState && !s._readableState.destroyed && !s._readableState.endEmitted; }
  function isWritable(s) { return !!s && typeof s.write === "function" && !!s._writableState && !s._writableState.destroyed && !s._writableState.ending; }
  function isErrored(s) { const st = s && (s._readableState || s._writableState); return !!(st && st.errored); }

  Object.assign(Stream, {
    Stream, Readable, Writable, Duplex, Transform, PassThrough, pipeline, finished, promises,
    isReadable, isWritable, isErrored,
  });
  return Object.freeze(Stream);
})
