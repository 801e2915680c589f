/* node/internal_webstreams.js — the streams behind node:stream/web (node/stream_web.js) and the globals ReadableStream, WritableStream,
 * TransformStream, ByteLengthQueuingStrategy, CountQueuingStrategy, TextEncoderStream and
 * TextDecoderStream: the WHATWG Streams model that fetch bodies and the LLM SDKs use.
 *
 * Pure computation over guest values, no host op. What is here: default readers and controllers
 * (start/pull/cancel, queuing strategies and backpressure through desiredSize), byte streams
 * (`type: "bytes"`: ReadableByteStreamController with its byte queue, pending pull-into
 * descriptors, `byobRequest` (respond, respondWithNewView), `autoAllocateChunkSize`, and
 * ReadableStreamBYOBReader; buffers are transferred (detached) as the spec says), tee, async
 * iteration (`preventCancel`), pipeTo/pipeThrough (`preventClose`, `preventAbort`,
 * `preventCancel`, `signal`), ReadableStream.from, WritableStream with its writer (sequential
 * writes, close, abort, ready/closed), TransformStream (transform, flush, backpressure toward the
 * readable side). Promises settle through the engine's microtask queue, so the order of reads and
 * pulls is the spec's, though not every intermediate promise tick of Node's implementation is
 * reproduced.
 *
 * Trusts: natives.primordials (builtins captured before guest code). Its own paths read no
 * guest-writable property (docs/primordials.md): index loops over prototype-less lists, captured
 * uncurried methods, promises chained with the captured `then`, no async functions. */
(function (require, natives, name) {
  "use strict";
  const text = require("internal/text");
  const { codedError, invalidArgType } = text;
  const P = natives.primordials, u = P.uncurry;
  // The streams' own captures (primordials.js's `streams` array, in its order), named once here
  // for this module, node:stream and its operators.
  const SP = (() => {
    const a = P.streams;
    const names = [
      "ArrayPrototypeShift", "WeakMapPrototypeHas", "RangeErrorCtor", "SymbolAsyncIterator", "SymbolIterator",
      "SymbolToStringTag", "SymbolHasInstance", "FunctionPrototypeHasInstance", "ObjectGetPrototypeOf",
      "NumberIsNaN", "MathMin", "ArrayBufferCtor", "ArrayBufferIsView", "ArrayBufferPrototypeSlice",
      "ArrayBufferPrototypeTransfer", "ArrayBufferPrototypeGetByteLength", "ArrayBufferPrototypeGetDetached",
      "DataViewCtor", "TypedArrayPrototypeSet", "TypedArrayPrototypeGetTag", "TypedArrayPrototypeGetBuffer",
      "TypedArrayPrototypeGetByteOffset", "TypedArrayPrototypeGetByteLength", "Uint8ArrayCtor",
    ];
    const o = { __proto__: null };
    for (let i = 0; i < names.length; i++) o[names[i]] = a[i];
    return o;
  })();
  const {
    ReflectApply, PromiseCtor, PromiseResolve, PromiseReject, PromiseThen, PromiseOwn, PromiseFrom,
    ObjectCreate, ObjectFreeze, ObjectDefineProperty, NumberCtor, StringCtor,
    NumberIsInteger, TypeErrorCtor, list, WeakMapCtor,
  } = P;
  const {
    ObjectGetPrototypeOf, NumberIsNaN, RangeErrorCtor, ArrayBufferCtor, ArrayBufferIsView,
    SymbolAsyncIterator, SymbolIterator, SymbolToStringTag, DataViewCtor, Uint8ArrayCtor, MathMin,
  } = SP;
  const ArrayPush = u(P.ArrayPrototypePush), ArrayShift = u(SP.ArrayPrototypeShift);
  const WeakMapGet = u(P.WeakMapPrototypeGet), WeakMapSet = u(P.WeakMapPrototypeSet), WeakMapHas = u(SP.WeakMapPrototypeHas);
  const BufferSlice = u(SP.ArrayBufferPrototypeSlice), BufferByteLength = u(SP.ArrayBufferPrototypeGetByteLength);
  const BufferTransfer = SP.ArrayBufferPrototypeTransfer ? u(SP.ArrayBufferPrototypeTransfer) : null;
  const BufferDetached = SP.ArrayBufferPrototypeGetDetached ? u(SP.ArrayBufferPrototypeGetDetached) : null;
  const TASet = u(SP.TypedArrayPrototypeSet), TATag = u(SP.TypedArrayPrototypeGetTag), TABuffer = u(SP.TypedArrayPrototypeGetBuffer);
  const TAByteOffset = u(SP.TypedArrayPrototypeGetByteOffset), TAByteLength = u(SP.TypedArrayPrototypeGetByteLength);
  const microtask = natives.queueMicrotask;

  const noop = () => {};
  const resolved = (v) => PromiseResolve(v);
  const rejected = (e) => PromiseReject(e);
  const then = (p, f, r) => PromiseThen(p, f, r);
  function handled(p) { PromiseThen(p, noop, noop); return p; }
  function deferred() {
    let resolve, reject;
    const promise = PromiseOwn(new PromiseCtor((a, b) => { resolve = a; reject = b; }));
    return { __proto__: null, promise, resolve, reject, pending: false };
  }
  // Calls method `m` of `obj` (if any) with args; a throw becomes a rejection.
  function promiseCall(obj, m, args) {
    try {
      const f = obj === undefined || obj === null ? undefined : obj[m];
      if (f === undefined || f === null) return resolved(undefined);
      if (typeof f !== "function") throw invalidArgType(m, "a function", f);
      return PromiseFrom(ReflectApply(f, obj, args));
    } catch (e) {
      return rejected(e);
    }
  }
  function illegal(what) {
    return codedError(TypeErrorCtor, "ERR_ILLEGAL_CONSTRUCTOR", "Illegal constructor: " + what + " is made by its stream");
  }
  function invalidState(msg) { return codedError(TypeErrorCtor, "ERR_INVALID_STATE", "Invalid state: " + msg); }
  function argValue(Ctor, msg) { return codedError(Ctor, "ERR_INVALID_ARG_VALUE", msg); }
  function invalidThis(what) { return codedError(TypeErrorCtor, "ERR_INVALID_THIS", "Value of \"this\" must be of type " + what); }

  /* ---- views and buffers (captured accessors: a guest's look-alike is refused) ---- */

  // {ctor, elementSize, buffer, byteOffset, byteLength} of an ArrayBuffer view, or null.
  function viewInfo(v) {
    if (!ArrayBufferIsView(v)) return null;
    const tag = TATag(v);
    if (tag !== undefined) {
      // the view's own kind: Uint8Array captured, any other the guest's view names itself
      const ctor = tag === "Uint8Array" ? Uint8ArrayCtor : v.constructor;
      return { __proto__: null, ctor, elementSize: ctor.BYTES_PER_ELEMENT, buffer: TABuffer(v), byteOffset: TAByteOffset(v), byteLength: TAByteLength(v) };
    }
    // a DataView (rare as a chunk): its own accessors, as the guest left them
    return { __proto__: null, ctor: DataViewCtor, elementSize: 1, buffer: v.buffer, byteOffset: v.byteOffset, byteLength: v.byteLength };
  }
  const isDetached = (b) => (BufferDetached ? BufferDetached(b) : false);
  // TransferArrayBuffer: the bytes move to a new buffer and the old one is detached.
  function transfer(b) {
    if (isDetached(b)) throw new TypeErrorCtor("ReadableStream: the ArrayBuffer is detached");
    return BufferTransfer ? BufferTransfer(b) : b;
  }
  function copyBytes(dest, destOffset, src, srcOffset, n) {
    if (n > 0) TASet(new Uint8ArrayCtor(dest, destOffset, n), new Uint8ArrayCtor(src, srcOffset, n));
  }

  // A queuing strategy: {hwm, size}.
  function strategyOf(strategy, defaultHwm) {
    if (strategy !== undefined && strategy !== null && typeof strategy !== "object")
      throw invalidArgType("strategy", "an object", strategy);
    const s = strategy || {};
    const hwm = s.highWaterMark === undefined ? defaultHwm : NumberCtor(s.highWaterMark);
    if (NumberIsNaN(hwm) || hwm < 0) throw new RangeErrorCtor("The value of \"strategy.highWaterMark\" is invalid: " + StringCtor(s.highWaterMark));
    const size = s.size;
    if (size !== undefined && typeof size !== "function") throw invalidArgType("strategy.size", "a function", size);
    return { __proto__: null, hwm, size: size === undefined ? () => 1 : (c) => ReflectApply(size, undefined, [c]) };
  }

  class ByteLengthQueuingStrategy {
    #hwm;
    constructor(init) {
      if (init === null || typeof init !== "object") throw invalidArgType("init", "an object", init);
      this.#hwm = NumberCtor(init.highWaterMark);
    }
    get highWaterMark() { return this.#hwm; }
    get size() { return (chunk) => chunk.byteLength; }
  }
  class CountQueuingStrategy {
    #hwm;
    constructor(init) {
      if (init === null || typeof init !== "object") throw invalidArgType("init", "an object", init);
      this.#hwm = NumberCtor(init.highWaterMark);
    }
    get highWaterMark() { return this.#hwm; }
    get size() { return () => 1; }
  }

  /* ---- ReadableStream ----
   * The state of a stream lives in a prototype-less record `rs` held by a WeakMap (guest code
   * cannot reach it); the classes are views over it. */

  const streams = new WeakMapCtor();     // ReadableStream -> rs
  const readers = new WeakMapCtor();     // reader -> {rs, requests: [deferred], closed: deferred, byob}
  const controllers = new WeakMapCtor(); // controller -> rs
  const byobRequests = new WeakMapCtor(); // ReadableStreamBYOBRequest -> {rs, view} (rs null once used)
  let creating = false; // set while a stream builds its own reader/controller/request

  function rsOf(x) {
    const rs = WeakMapGet(streams, x);
    if (!rs) throw invalidThis("ReadableStream");
    return rs;
  }
  function ctlOf(x, what) {
    const rs = WeakMapGet(controllers, x);
    if (!rs) throw invalidThis(what);
    return rs;
  }

  function setupReadable(stream, source, strategy, bytes, autoAllocate) {
    const rs = {
      __proto__: null,
      stream, state: "readable", error: undefined, reader: null, disturbed: false,
      queue: list(), queueSize: 0, hwm: strategy.hwm, size: strategy.size, bytes,
      started: false, closeRequested: false, pulling: false, pullAgain: false,
      pull: () => promiseCall(source, "pull", [rs.controller]),
      cancel: (r) => promiseCall(source, "cancel", [r]),
      controller: null,
      // byte streams: pull-into descriptors, the cached byobRequest, autoAllocateChunkSize
      pullIntos: list(), byobRequest: null, autoAllocate,
    };
    creating = true;
    try {
      rs.controller = bytes ? new ReadableByteStreamController() : new ReadableStreamDefaultController();
    } finally {
      creating = false;
    }
    WeakMapSet(controllers, rs.controller, rs);
    WeakMapSet(streams, stream, rs);
    const start = source && source.start !== undefined ? ReflectApply(source.start, source, [rs.controller]) : undefined;
    then(PromiseFrom(start), () => { rs.started = true; pullIfNeeded(rs); }, (e) => errorReadable(rs, e));
    return rs;
  }

  function desiredSize(rs) {
    if (rs.state === "errored") return null;
    if (rs.state === "closed") return 0;
    return rs.hwm - rs.queueSize;
  }

  function pendingReads(rs) { return rs.reader ? WeakMapGet(readers, rs.reader).requests.length : 0; }
  const hasByobReader = (rs) => rs.reader !== null && WeakMapGet(readers, rs.reader).byob;

  function pullIfNeeded(rs) {
    if (rs.state !== "readable" || rs.closeRequested || !rs.started) return;
    if (pendingReads(rs) === 0 && !(desiredSize(rs) > 0)) return;
    if (rs.pulling) { rs.pullAgain = true; return; }
    rs.pulling = true;
    then(rs.pull(), () => {
      rs.pulling = false;
      if (rs.pullAgain) { rs.pullAgain = false; pullIfNeeded(rs); }
    }, (e) => errorReadable(rs, e));
  }

  function takeRequests(r) {
    const reqs = r.requests;
    r.requests = list();
    return reqs;
  }

  function closeReadable(rs) {
    rs.state = "closed";
    if (!rs.reader) return;
    const r = WeakMapGet(readers, rs.reader);
    // a BYOB reader's pending reads end when the source answers byobRequest (respond(0))
    if (!r.byob) {
      const reqs = takeRequests(r);
      for (let i = 0; i < reqs.length; i++) reqs[i].resolve({ value: undefined, done: true });
    }
    r.closed.resolve(undefined);
  }

  function invalidateByobRequest(rs) {
    if (rs.byobRequest === null) return;
    const b = WeakMapGet(byobRequests, rs.byobRequest);
    b.rs = null;
    b.view = null;
    rs.byobRequest = null;
  }

  function errorReadable(rs, e) {
    if (rs.state !== "readable") return;
    if (rs.bytes) { invalidateByobRequest(rs); rs.pullIntos = list(); }
    rs.queue = list(); rs.queueSize = 0;
    rs.state = "errored";
    rs.error = e;
    if (!rs.reader) return;
    const r = WeakMapGet(readers, rs.reader);
    const reqs = takeRequests(r);
    for (let i = 0; i < reqs.length; i++) reqs[i].reject(e);
    r.closed.reject(e);
  }

  function enqueueReadable(rs, chunk) {
    if (rs.closeRequested || rs.state !== "readable") throw invalidState("the stream is " + (rs.closeRequested ? "closing" : rs.state));
    if (rs.bytes) {
      const v = viewInfo(chunk);
      if (v === null) throw invalidArgType("chunk", "an ArrayBuffer view", chunk);
      enqueueBytes(rs, v);
      return;
    }
    if (pendingReads(rs) > 0) {
      ArrayShift(WeakMapGet(readers, rs.reader).requests).resolve({ value: chunk, done: false });
    } else {
      let size;
      try {
        size = NumberCtor(rs.size(chunk));
        if (NumberIsNaN(size) || size < 0 || size === Infinity) throw new RangeErrorCtor("a chunk's size must be a finite, non-negative number");
      } catch (e) {
        errorReadable(rs, e);
        throw e;
      }
      ArrayPush(rs.queue, { __proto__: null, chunk, size });
      rs.queueSize += size;
    }
    pullIfNeeded(rs);
  }

  function cancelReadable(rs, reason) {
    rs.disturbed = true;
    if (rs.state === "closed") return resolved(undefined);
    if (rs.state === "errored") return rejected(rs.error);
    if (rs.bytes) { invalidateByobRequest(rs); rs.pullIntos = list(); }
    rs.queue = list(); rs.queueSize = 0;
    closeReadable(rs);
    if (hasByobReader(rs)) {
      const reqs = takeRequests(WeakMapGet(readers, rs.reader));
      for (let i = 0; i < reqs.length; i++) reqs[i].resolve({ value: undefined, done: true });
    }
    return then(rs.cancel(reason), () => undefined);
  }

  function readFrom(rs) {
    rs.disturbed = true;
    if (rs.state === "closed") return resolved({ value: undefined, done: true });
    if (rs.state === "errored") return rejected(rs.error);
    if (rs.bytes) return readBytesDefault(rs);
    if (rs.queue.length > 0) {
      const entry = ArrayShift(rs.queue);
      rs.queueSize -= entry.size;
      if (rs.queue.length === 0) rs.queueSize = 0;
      if (rs.closeRequested && rs.queue.length === 0) closeReadable(rs);
      else pullIfNeeded(rs);
      return resolved({ value: entry.chunk, done: false });
    }
    const d = deferred();
    ArrayPush(WeakMapGet(readers, rs.reader).requests, d);
    pullIfNeeded(rs);
    return d.promise;
  }

  /* ---- byte streams (the spec's ReadableByteStreamController algorithms) ----
   * queue entries: {buffer, byteOffset, byteLength}; pull-into descriptors: {buffer,
   * bufferByteLength, byteOffset, byteLength, bytesFilled, elementSize, ctor, readerType}. */

  function enqueueChunk(rs, buffer, byteOffset, byteLength) {
    ArrayPush(rs.queue, { __proto__: null, buffer, byteOffset, byteLength });
    rs.queueSize += byteLength;
  }
  function enqueueClonedChunk(rs, buffer, byteOffset, byteLength) {
    enqueueChunk(rs, BufferSlice(buffer, byteOffset, byteOffset + byteLength), 0, byteLength);
  }
  function enqueueDetachedPullInto(rs, desc) {
    if (desc.bytesFilled > 0) enqueueClonedChunk(rs, desc.buffer, desc.byteOffset, desc.bytesFilled);
    ArrayShift(rs.pullIntos);
  }

  function handleQueueDrain(rs) {
    if (rs.queueSize === 0 && rs.closeRequested) closeReadable(rs);
    else pullIfNeeded(rs);
  }

  function fulfillRead(rs, chunk, done) {
    const reqs = WeakMapGet(readers, rs.reader).requests;
    if (reqs.length === 0) return;
    ArrayShift(reqs).resolve({ value: done ? undefined : chunk, done });
  }
  function fulfillReadInto(rs, chunk, done) {
    const reqs = WeakMapGet(readers, rs.reader).requests;
    if (reqs.length === 0) return;
    ArrayShift(reqs).resolve({ value: chunk, done });
  }

  function convertPullInto(desc) {
    const buffer = transfer(desc.buffer);
    return new desc.ctor(buffer, desc.byteOffset, desc.bytesFilled / desc.elementSize);
  }

  function commitPullInto(rs, desc) {
    let done = false;
    if (rs.state === "closed") done = true;
    const filled = convertPullInto(desc);
    if (rs.reader === null) return;
    if (desc.readerType === "default") fulfillRead(rs, filled, done);
    else fulfillReadInto(rs, filled, done);
  }

  function fillPullIntoFromQueue(rs, desc) {
    const maxBytesToCopy = MathMin(rs.queueSize, desc.byteLength - desc.bytesFilled);
    const maxBytesFilled = desc.bytesFilled + maxBytesToCopy;
    let remaining = maxBytesToCopy, ready = false;
    const maxAlignedBytes = maxBytesFilled - (maxBytesFilled % desc.elementSize);
    if (maxAlignedBytes >= desc.elementSize) {
      remaining = maxAlignedBytes - desc.bytesFilled;
      ready = true;
    }
    while (remaining > 0) {
      const head = rs.queue[0];
      const n = MathMin(remaining, head.byteLength);
      copyBytes(desc.buffer, desc.byteOffset + desc.bytesFilled, head.buffer, head.byteOffset, n);
      if (head.byteLength === n) ArrayShift(rs.queue);
      else { head.byteOffset += n; head.byteLength -= n; }
      rs.queueSize -= n;
      desc.bytesFilled += n;
      remaining -= n;
    }
    return ready;
  }

  function processPullIntosUsingQueue(rs) {
    while (rs.pullIntos.length > 0) {
      if (rs.queueSize === 0) return;
      const desc = rs.pullIntos[0];
      if (fillPullIntoFromQueue(rs, desc)) {
        ArrayShift(rs.pullIntos);
        commitPullInto(rs, desc);
      }
    }
  }

  function enqueueBytes(rs, v) {
    if (isDetached(v.buffer)) throw new TypeErrorCtor("ReadableByteStreamController.enqueue: the chunk's buffer is detached");
    if (v.byteLength === 0) throw invalidState("ReadableByteStreamController.enqueue: the chunk is empty");
    if (BufferByteLength(v.buffer) === 0) throw invalidState("ReadableByteStreamController.enqueue: the chunk's buffer is empty");
    const buffer = transfer(v.buffer);
    if (rs.pullIntos.length > 0) {
      const first = rs.pullIntos[0];
      if (isDetached(first.buffer)) throw new TypeErrorCtor("ReadableByteStreamController.enqueue: the byobRequest's buffer is detached");
      invalidateByobRequest(rs);
      first.buffer = transfer(first.buffer);
      if (first.readerType === "none") enqueueDetachedPullInto(rs, first);
    }
    if (rs.reader !== null && !hasByobReader(rs)) {
      // a default reader: the chunk goes to a waiting read, or to the queue
      const reqs = WeakMapGet(readers, rs.reader).requests;
      while (reqs.length > 0 && rs.queueSize > 0) fillReadRequestFromQueue(rs, ArrayShift(reqs));
      if (reqs.length === 0) {
        enqueueChunk(rs, buffer, v.byteOffset, v.byteLength);
      } else {
        if (rs.pullIntos.length > 0) ArrayShift(rs.pullIntos);
        fulfillRead(rs, new Uint8ArrayCtor(buffer, v.byteOffset, v.byteLength), false);
      }
    } else if (hasByobReader(rs)) {
      enqueueChunk(rs, buffer, v.byteOffset, v.byteLength);
      processPullIntosUsingQueue(rs);
    } else {
      enqueueChunk(rs, buffer, v.byteOffset, v.byteLength);
    }
    pullIfNeeded(rs);
  }

  function fillReadRequestFromQueue(rs, d) {
    const entry = ArrayShift(rs.queue);
    rs.queueSize -= entry.byteLength;
    handleQueueDrain(rs);
    d.resolve({ value: new Uint8ArrayCtor(entry.buffer, entry.byteOffset, entry.byteLength), done: false });
  }

  // A default reader's read() on a byte stream.
  function readBytesDefault(rs) {
    const d = deferred();
    if (rs.queueSize > 0) {
      fillReadRequestFromQueue(rs, d);
      return d.promise;
    }
    if (rs.autoAllocate !== undefined) {
      let buffer;
      try {
        buffer = new ArrayBufferCtor(rs.autoAllocate);
      } catch (e) {
        return rejected(e);
      }
      ArrayPush(rs.pullIntos, {
        __proto__: null, buffer, bufferByteLength: rs.autoAllocate, byteOffset: 0, byteLength: rs.autoAllocate,
        bytesFilled: 0, elementSize: 1, ctor: Uint8ArrayCtor, readerType: "default",
      });
    }
    ArrayPush(WeakMapGet(readers, rs.reader).requests, d);
    pullIfNeeded(rs);
    return d.promise;
  }

  // A BYOB reader's read(view) (ReadableByteStreamControllerPullInto).
  function readInto(rs, v) {
    rs.disturbed = true;
    if (rs.state === "errored") return rejected(rs.error);
    let buffer;
    try {
      buffer = transfer(v.buffer);
    } catch (e) {
      return rejected(e);
    }
    const desc = {
      __proto__: null, buffer, bufferByteLength: BufferByteLength(buffer), byteOffset: v.byteOffset,
      byteLength: v.byteLength, bytesFilled: 0, elementSize: v.elementSize, ctor: v.ctor, readerType: "byob",
    };
    const d = deferred();
    const reqs = WeakMapGet(readers, rs.reader).requests;
    if (rs.pullIntos.length > 0) {
      ArrayPush(rs.pullIntos, desc);
      ArrayPush(reqs, d);
      return d.promise;
    }
    if (rs.state === "closed") {
      d.resolve({ value: new desc.ctor(desc.buffer, desc.byteOffset, 0), done: true });
      return d.promise;
    }
    if (rs.queueSize > 0) {
      if (fillPullIntoFromQueue(rs, desc)) {
        const filled = convertPullInto(desc);
        handleQueueDrain(rs);
        d.resolve({ value: filled, done: false });
        return d.promise;
      }
      if (rs.closeRequested) {
        const e = invalidState("ReadableStream closed in the middle of an element");
        errorReadable(rs, e);
        return rejected(e);
      }
    }
    ArrayPush(rs.pullIntos, desc);
    ArrayPush(reqs, d);
    pullIfNeeded(rs);
    return d.promise;
  }

  function respondInternal(rs, bytesWritten) {
    const first = rs.pullIntos[0];
    invalidateByobRequest(rs);
    if (rs.state === "closed") {
      if (first.readerType === "none") ArrayShift(rs.pullIntos);
      if (hasByobReader(rs)) {
        while (pendingReads(rs) > 0 && rs.pullIntos.length > 0) commitPullInto(rs, ArrayShift(rs.pullIntos));
      }
    } else {
      first.bytesFilled += bytesWritten;
      if (first.readerType === "none") {
        enqueueDetachedPullInto(rs, first);
        processPullIntosUsingQueue(rs);
      } else if (first.bytesFilled >= first.elementSize) {
        ArrayShift(rs.pullIntos);
        const remainder = first.bytesFilled % first.elementSize;
        if (remainder > 0) {
          enqueueClonedChunk(rs, first.buffer, first.byteOffset + first.bytesFilled - remainder, remainder);
          first.bytesFilled -= remainder;
        }
        commitPullInto(rs, first);
        processPullIntosUsingQueue(rs);
      }
    }
    pullIfNeeded(rs);
  }

  function respond(rs, bytesWritten) {
    const first = rs.pullIntos[0];
    if (rs.state === "closed") {
      if (bytesWritten !== 0) throw argValue(TypeErrorCtor, "ReadableStreamBYOBRequest.respond: bytesWritten must be 0 once the stream is closed");
    } else {
      if (bytesWritten === 0) throw argValue(TypeErrorCtor, "ReadableStreamBYOBRequest.respond: bytesWritten must be more than 0 while the stream is readable");
      if (first.bytesFilled + bytesWritten > first.byteLength) throw argValue(RangeErrorCtor, "ReadableStreamBYOBRequest.respond: bytesWritten is larger than the view");
    }
    first.buffer = transfer(first.buffer);
    respondInternal(rs, bytesWritten);
  }

  function respondWithNewView(rs, v) {
    const first = rs.pullIntos[0];
    if (rs.state === "closed") {
      if (v.byteLength !== 0) throw argValue(TypeErrorCtor, "ReadableStreamBYOBRequest.respondWithNewView: the view must be empty once the stream is closed");
    } else if (v.byteLength === 0) {
      throw argValue(TypeErrorCtor, "ReadableStreamBYOBRequest.respondWithNewView: the view must not be empty while the stream is readable");
    }
    if (first.byteOffset + first.bytesFilled !== v.byteOffset) throw argValue(RangeErrorCtor, "ReadableStreamBYOBRequest.respondWithNewView: the view's offset does not match the request");
    if (first.bufferByteLength !== BufferByteLength(v.buffer)) throw argValue(RangeErrorCtor, "ReadableStreamBYOBRequest.respondWithNewView: the view's buffer length does not match the request");
    if (first.bytesFilled + v.byteLength > first.byteLength) throw argValue(RangeErrorCtor, "ReadableStreamBYOBRequest.respondWithNewView: the view is larger than the request");
    first.buffer = transfer(v.buffer);
    respondInternal(rs, v.byteLength);
  }

  function closeBytes(rs) {
    if (rs.queueSize > 0) { rs.closeRequested = true; return; }
    if (rs.pullIntos.length > 0) {
      const first = rs.pullIntos[0];
      if (first.bytesFilled % first.elementSize !== 0) {
        const e = new TypeErrorCtor("ReadableByteStreamController.close: the stream closed in the middle of an element");
        errorReadable(rs, e);
        throw e;
      }
    }
    rs.closeRequested = true;
    closeReadable(rs);
  }

  class ReadableStreamBYOBRequest {
    constructor() { if (!creating) throw illegal("ReadableStreamBYOBRequest"); }
    get view() {
      const b = WeakMapGet(byobRequests, this);
      if (!b) throw invalidThis("ReadableStreamBYOBRequest");
      return b.view;
    }
    respond(bytesWritten) {
      const b = WeakMapGet(byobRequests, this);
      if (!b) throw invalidThis("ReadableStreamBYOBRequest");
      const n = NumberCtor(bytesWritten);
      if (NumberIsNaN(n) || n < 0 || n === Infinity || (n !== 0 && !NumberIsInteger(n)))
        throw argValue(RangeErrorCtor, "ReadableStreamBYOBRequest.respond: bytesWritten must be a non-negative integer, got " + StringCtor(bytesWritten));
      if (b.rs === null) throw invalidState("this byobRequest was already answered");
      if (isDetached(TABuffer(b.view))) throw new TypeErrorCtor("ReadableStreamBYOBRequest.respond: the view's buffer is detached");
      respond(b.rs, n);
    }
    respondWithNewView(view) {
      const b = WeakMapGet(byobRequests, this);
      if (!b) throw invalidThis("ReadableStreamBYOBRequest");
      const v = viewInfo(view);
      if (v === null) throw invalidArgType("view", "an ArrayBuffer view", view);
      if (b.rs === null) throw invalidState("this byobRequest was already answered");
      if (isDetached(v.buffer)) throw new TypeErrorCtor("ReadableStreamBYOBRequest.respondWithNewView: the view's buffer is detached");
      respondWithNewView(b.rs, v);
    }
    get [SymbolToStringTag]() { return "ReadableStreamBYOBRequest"; }
  }

  class ReadableByteStreamController {
    constructor() { if (!creating) throw illegal("ReadableByteStreamController"); }
    get byobRequest() {
      const rs = ctlOf(this, "ReadableByteStreamController");
      if (rs.byobRequest === null && rs.pullIntos.length > 0) {
        const first = rs.pullIntos[0];
        const view = new Uint8ArrayCtor(first.buffer, first.byteOffset + first.bytesFilled, first.byteLength - first.bytesFilled);
        creating = true;
        try { rs.byobRequest = new ReadableStreamBYOBRequest(); } finally { creating = false; }
        WeakMapSet(byobRequests, rs.byobRequest, { __proto__: null, rs, view });
      }
      return rs.byobRequest;
    }
    get desiredSize() { return desiredSize(ctlOf(this, "ReadableByteStreamController")); }
    enqueue(chunk) {
      const rs = ctlOf(this, "ReadableByteStreamController");
      const v = viewInfo(chunk);
      if (v === null) throw invalidArgType("chunk", "an ArrayBuffer view", chunk);
      if (rs.closeRequested || rs.state !== "readable") throw invalidState("the stream is " + (rs.closeRequested ? "closing" : rs.state));
      enqueueBytes(rs, v);
    }
    close() {
      const rs = ctlOf(this, "ReadableByteStreamController");
      if (rs.closeRequested || rs.state !== "readable") throw invalidState("the stream is " + (rs.closeRequested ? "already closing" : rs.state));
      closeBytes(rs);
    }
    error(e) { errorReadable(ctlOf(this, "ReadableByteStreamController"), e); }
    get [SymbolToStringTag]() { return "ReadableByteStreamController"; }
  }

  class ReadableStreamDefaultController {
    constructor() { if (!creating) throw illegal("ReadableStreamDefaultController"); }
    get desiredSize() { return desiredSize(ctlOf(this, "ReadableStreamDefaultController")); }
    enqueue(chunk) { enqueueReadable(ctlOf(this, "ReadableStreamDefaultController"), chunk); }
    close() {
      const rs = ctlOf(this, "ReadableStreamDefaultController");
      if (rs.closeRequested || rs.state !== "readable") throw invalidState("the stream is " + (rs.closeRequested ? "already closing" : rs.state));
      rs.closeRequested = true;
      if (rs.queue.length === 0) closeReadable(rs);
    }
    error(e) { errorReadable(ctlOf(this, "ReadableStreamDefaultController"), e); }
    get [SymbolToStringTag]() { return "ReadableStreamDefaultController"; }
  }

  function attachReader(reader, stream, byob) {
    const rs = rsOf(stream);
    if (rs.reader) throw invalidState("ReadableStream is locked");
    if (byob && !rs.bytes) throw argValue(TypeErrorCtor, "The argument 'stream' must be a byte stream (type: \"bytes\") for a BYOB reader");
    const closed = deferred();
    handled(closed.promise);
    WeakMapSet(readers, reader, { __proto__: null, rs, requests: list(), closed, byob });
    rs.reader = reader;
    if (rs.state === "closed") closed.resolve(undefined);
    else if (rs.state === "errored") closed.reject(rs.error);
  }
  function readerState(reader, kind, what) {
    const r = WeakMapGet(readers, reader);
    if (!r || r.byob !== (kind === "ReadableStreamBYOBReader")) throw invalidThis(kind);
    if (!r.rs) throw invalidState("the reader was released; " + what + " needs a locked reader");
    return r;
  }
  function releaseReader(reader) {
    const r = WeakMapGet(readers, reader);
    if (!r || !r.rs) return;
    const err = invalidState("the reader was released");
    const reqs = takeRequests(r);
    for (let i = 0; i < reqs.length; i++) reqs[i].reject(err);
    if (r.rs.state === "readable") r.closed.reject(err);
    else { r.closed = deferred(); handled(r.closed.promise); r.closed.reject(err); }
    const rs = r.rs;
    if (rs.bytes && rs.pullIntos.length > 0) {
      // the spec's ReleaseSteps: the first descriptor stays (its bytes go to the queue), the rest go
      const first = rs.pullIntos[0];
      first.readerType = "none";
      rs.pullIntos = list();
      ArrayPush(rs.pullIntos, first);
    }
    rs.reader = null;
    r.rs = null;
  }
  function readerClosed(reader, kind) {
    const r = WeakMapGet(readers, reader);
    return r ? r.closed.promise : rejected(invalidThis(kind));
  }

  class ReadableStreamDefaultReader {
    constructor(stream) { attachReader(this, stream, false); }
    read() {
      try {
        return readFrom(readerState(this, "ReadableStreamDefaultReader", "read").rs);
      } catch (e) {
        return rejected(e);
      }
    }
    cancel(reason) {
      try {
        return cancelReadable(readerState(this, "ReadableStreamDefaultReader", "cancel").rs, reason);
      } catch (e) {
        return rejected(e);
      }
    }
    releaseLock() { releaseReader(this); }
    get closed() { return readerClosed(this, "ReadableStreamDefaultReader"); }
    get [SymbolToStringTag]() { return "ReadableStreamDefaultReader"; }
  }

  class ReadableStreamBYOBReader {
    constructor(stream) { attachReader(this, stream, true); }
    read(view) {
      try {
        const v = viewInfo(view);
        if (v === null) throw invalidArgType("view", "an ArrayBuffer view", view);
        if (v.byteLength === 0) throw invalidState("ReadableStreamBYOBReader.read: the view is empty");
        if (BufferByteLength(v.buffer) === 0) throw invalidState("ReadableStreamBYOBReader.read: the view's buffer is empty");
        if (isDetached(v.buffer)) throw new TypeErrorCtor("ReadableStreamBYOBReader.read: the view's buffer is detached");
        return readInto(readerState(this, "ReadableStreamBYOBReader", "read").rs, v);
      } catch (e) {
        return rejected(e);
      }
    }
    cancel(reason) {
      try {
        return cancelReadable(readerState(this, "ReadableStreamBYOBReader", "cancel").rs, reason);
      } catch (e) {
        return rejected(e);
      }
    }
    releaseLock() { releaseReader(this); }
    get closed() { return readerClosed(this, "ReadableStreamBYOBReader"); }
    get [SymbolToStringTag]() { return "ReadableStreamBYOBReader"; }
  }

  const asyncIteratorProto = ObjectGetPrototypeOf(ObjectGetPrototypeOf((async function* () {})()));

  // One read of `reader` (a default reader made here): its promise, chained with the captured then.
  const readOnce = (reader) => readFrom(readerState(reader, "ReadableStreamDefaultReader", "read").rs);

  class ReadableStream {
    constructor(source, strategy) {
      if (source === undefined) source = null;
      if (source !== null && typeof source !== "object") throw invalidArgType("source", "an object", source);
      const type = source === null ? undefined : source.type;
      if (type !== undefined && StringCtor(type) !== "bytes") throw new RangeErrorCtor("ReadableStream: the source's type must be \"bytes\" or undefined, not " + StringCtor(type));
      const bytes = type !== undefined;
      if (bytes && strategy && strategy.size !== undefined) throw new RangeErrorCtor("ReadableStream: a byte stream's strategy cannot have a size");
      let autoAllocate;
      if (bytes && source.autoAllocateChunkSize !== undefined) {
        autoAllocate = NumberCtor(source.autoAllocateChunkSize);
        if (!NumberIsInteger(autoAllocate) || autoAllocate <= 0)
          throw codedError(TypeErrorCtor, "ERR_INVALID_ARG_VALUE", "The property 'source.autoAllocateChunkSize' must be a positive integer. Received " + StringCtor(source.autoAllocateChunkSize));
      }
      setupReadable(this, source, strategyOf(strategy, bytes ? 0 : 1), bytes, autoAllocate);
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
      if (options !== undefined && options !== null && typeof options !== "object" && typeof options !== "function")
        throw invalidArgType("options", "of type object", options);
      const mode = options === undefined || options === null ? undefined : options.mode;
      if (mode !== undefined) {
        if (StringCtor(mode) === "byob") return new ReadableStreamBYOBReader(this);
        throw codedError(TypeErrorCtor, "ERR_INVALID_ARG_VALUE", "The argument 'options.mode' is invalid. Received " + StringCtor(mode));
      }
      return new ReadableStreamDefaultReader(this);
    }
    tee() {
      const rs = rsOf(this);
      if (rs.bytes) return teeBytes(this);
      const reader = new ReadableStreamDefaultReader(this);
      let reading = false, readAgain = false, canceled1 = false, canceled2 = false, reason1, reason2;
      let b1, b2;
      const cancelDone = deferred();
      const pull = () => {
        if (reading) { readAgain = true; return resolved(undefined); }
        reading = true;
        then(readOnce(reader), (r) => {
          reading = false;
          if (r.done) {
            if (!canceled1) closeBranch(WeakMapGet(streams, b1));
            if (!canceled2) closeBranch(WeakMapGet(streams, b2));
            cancelDone.resolve(undefined);
            return;
          }
          const value = r.value;
          let v2 = value;
          if (rs.bytes && !canceled1 && !canceled2) v2 = new Uint8ArrayCtor(value);
          if (!canceled1) enqueueReadable(WeakMapGet(streams, b1), value);
          if (!canceled2) enqueueReadable(WeakMapGet(streams, b2), v2);
          if (readAgain) { readAgain = false; pull(); }
        }, (e) => {
          reading = false;
          errorReadable(WeakMapGet(streams, b1), e);
          errorReadable(WeakMapGet(streams, b2), e);
          cancelDone.resolve(undefined);
        });
        return resolved(undefined);
      };
      const closeBranch = (b) => {
        if (b.state !== "readable" || b.closeRequested) return;
        if (b.bytes) {
          closeBytes(b);
          // a BYOB read waiting on the branch ends with an empty view
          if (b.pullIntos.length > 0 && b.state === "closed") respondInternal(b, 0);
        } else {
          b.closeRequested = true;
          if (b.queue.length === 0) closeReadable(b);
        }
      };
      const cancelBranch = (which) => (reason) => {
        if (which === 1) { canceled1 = true; reason1 = reason; } else { canceled2 = true; reason2 = reason; }
        if (canceled1 && canceled2) then(cancelReadable(rs, [reason1, reason2]), cancelDone.resolve, cancelDone.reject);
        return cancelDone.promise;
      };
      const source = (which) => ({ type: rs.bytes ? "bytes" : undefined, pull, cancel: cancelBranch(which) });
      b1 = new ReadableStream(source(1), { highWaterMark: 0 });
      b2 = new ReadableStream(source(2), { highWaterMark: 0 });
      then(reader.closed, noop, (e) => { errorReadable(WeakMapGet(streams, b1), e); errorReadable(WeakMapGet(streams, b2), e); });
      return [b1, b2];
    }
    values(options) {
      const reader = this.getReader();
      const preventCancel = !!(options && options.preventCancel);
      let finished = false;
      const it = ObjectCreate(asyncIteratorProto);
      const define = (k, f) => ObjectDefineProperty(it, k, { __proto__: null, value: f, writable: true, configurable: true });
      define("next", () => {
        if (finished) return resolved({ value: undefined, done: true });
        let p;
        try { p = readOnce(reader); } catch (e) { return rejected(e); }
        return then(p, (r) => {
          if (r.done) { finished = true; releaseReader(reader); }
          return r;
        }, (e) => { finished = true; releaseReader(reader); throw e; });
      });
      define("return", (value) => {
        if (finished) return resolved({ value, done: true });
        finished = true;
        if (!preventCancel) {
          const r = WeakMapGet(readers, reader);
          const p = r.rs ? cancelReadable(r.rs, value) : resolved(undefined);
          releaseReader(reader);
          return then(p, () => ({ value, done: true }));
        }
        releaseReader(reader);
        return resolved({ value, done: true });
      });
      return it;
    }
    [SymbolAsyncIterator](options) { return this.values(options); }
    pipeThrough(pair, options) {
      if (pair === null || typeof pair !== "object") throw invalidArgType("transform", "an object with readable and writable streams", pair);
      const readable = pair.readable, writable = pair.writable;
      if (!WeakMapHas(streams, readable) || !WeakMapHas(writables, writable))
        throw invalidArgType("transform", "an object with readable and writable streams", pair);
      if (rsOf(this).reader !== null) throw invalidState("ReadableStream is locked");
      handled(pipe(this, writable, options));
      return readable;
    }
    pipeTo(dest, options) {
      try {
        rsOf(this);
        if (!WeakMapHas(writables, dest)) throw invalidArgType("destination", "a WritableStream", dest);
        if (rsOf(this).reader !== null) throw invalidState("ReadableStream is locked");
        if (wsOf(dest).writer !== null) throw invalidState("WritableStream is locked");
      } catch (e) {
        return rejected(e);
      }
      return pipe(this, dest, options);
    }
    static from(iterable) {
      if (WeakMapHas(streams, iterable)) return iterable;
      if (iterable === null || iterable === undefined) throw invalidArgType("iterable", "an iterable", iterable);
      const m = iterable[SymbolAsyncIterator] !== undefined ? iterable[SymbolAsyncIterator] : iterable[SymbolIterator];
      if (typeof m !== "function") throw invalidArgType("iterable", "an iterable or async iterable", iterable);
      const it = ReflectApply(m, iterable, []);
      if (it === null || typeof it !== "object") throw new TypeErrorCtor("ReadableStream.from: the iterator is not an object");
      return new ReadableStream({
        pull(c) {
          return then(PromiseFrom(ReflectApply(it.next, it, [])), (r) => {
            if (r === null || typeof r !== "object") throw new TypeErrorCtor("ReadableStream.from: the iterator result is not an object");
            if (r.done) { c.close(); return undefined; }
            return then(PromiseFrom(r.value), (v) => { c.enqueue(v); });
          });
        },
        cancel(reason) {
          const ret = it.return;
          if (typeof ret !== "function") return undefined;
          return then(PromiseFrom(ReflectApply(ret, it, [reason])), (r) => {
            if (r === null || typeof r !== "object") throw new TypeErrorCtor("ReadableStream.from: the iterator's return() result is not an object");
          });
        },
      }, { highWaterMark: 0 });
    }
    get [SymbolToStringTag]() { return "ReadableStream"; }
  }

  // The spec's ReadableByteStreamTee: a branch with a BYOB read waiting has the source read into
  // that view (through a BYOB reader) and the other branch gets a copy; otherwise the source is
  // read with a default reader and both branches get the chunk (the second a copy).
  function teeBytes(stream) {
    let reader = new ReadableStreamDefaultReader(stream);
    let reading = false, readAgain1 = false, readAgain2 = false, canceled1 = false, canceled2 = false;
    let reason1, reason2, b1 = null, b2 = null;
    const cancelDone = deferred();
    const rec = (b) => WeakMapGet(streams, b);
    const clone = (v) => new Uint8ArrayCtor(BufferSlice(TABuffer(v), TAByteOffset(v), TAByteOffset(v) + TAByteLength(v)));
    const forwardError = (r) => {
      then(readerClosed(r, "reader"), noop, (e) => {
        if (r !== reader) return;
        errorReadable(rec(b1), e);
        errorReadable(rec(b2), e);
        if (!canceled1 || !canceled2) cancelDone.resolve(undefined);
      });
    };
    forwardError(reader);
    const closeBranch = (b) => { const x = rec(b); if (x.state === "readable" && !x.closeRequested) closeBytes(x); };
    const respondZero = (b) => { const x = rec(b); if (x.pullIntos.length > 0) respond(x, 0); };
    const again = () => {
      if (readAgain1) { readAgain1 = false; pullBranch(1); } else if (readAgain2) { readAgain2 = false; pullBranch(2); }
    };
    const useReader = (byob) => {
      const r = WeakMapGet(readers, reader);
      if (r.byob === byob) return;
      releaseReader(reader);
      reader = byob ? new ReadableStreamBYOBReader(stream) : new ReadableStreamDefaultReader(stream);
      forwardError(reader);
    };
    const pullDefault = () => {
      useReader(false);
      then(readFrom(rsOf(stream)), (r) => {
        readAgain1 = readAgain2 = false;
        if (r.done) {
          reading = false;
          if (!canceled1) closeBranch(b1);
          if (!canceled2) closeBranch(b2);
          if (!canceled1) respondZero(b1);
          if (!canceled2) respondZero(b2);
          if (!canceled1 || !canceled2) cancelDone.resolve(undefined);
          return;
        }
        let c1 = r.value, c2 = r.value;
        if (!canceled1 && !canceled2) c2 = clone(r.value);
        if (!canceled1) enqueueReadable(rec(b1), c1);
        if (!canceled2) enqueueReadable(rec(b2), c2);
        reading = false;
        again();
      }, () => { reading = false; });
    };
    const pullByob = (view, forBranch2) => {
      useReader(true);
      const byobBranch = forBranch2 ? b2 : b1, otherBranch = forBranch2 ? b1 : b2;
      then(readInto(rsOf(stream), viewInfo(view)), (r) => {
        readAgain1 = readAgain2 = false;
        const byobCanceled = forBranch2 ? canceled2 : canceled1, otherCanceled = forBranch2 ? canceled1 : canceled2;
        if (r.done) {
          reading = false;
          if (!byobCanceled) closeBranch(byobBranch);
          if (!otherCanceled) closeBranch(otherBranch);
          if (r.value !== undefined) {
            if (!byobCanceled) respondWithNewView(rec(byobBranch), viewInfo(r.value));
            if (!otherCanceled) respondZero(otherBranch);
          }
          if (!byobCanceled || !otherCanceled) cancelDone.resolve(undefined);
          return;
        }
        if (!otherCanceled) {
          const copy = clone(r.value);
          if (!byobCanceled) respondWithNewView(rec(byobBranch), viewInfo(r.value));
          enqueueReadable(rec(otherBranch), copy);
        } else if (!byobCanceled) {
          respondWithNewView(rec(byobBranch), viewInfo(r.value));
        }
        reading = false;
        again();
      }, () => { reading = false; });
    };
    const pullBranch = (which) => {
      if (reading) {
        if (which === 1) readAgain1 = true; else readAgain2 = true;
        return resolved(undefined);
      }
      reading = true;
      const req = rec(which === 1 ? b1 : b2).controller.byobRequest;
      if (req === null) pullDefault();
      else pullByob(WeakMapGet(byobRequests, req).view, which === 2);
      return resolved(undefined);
    };
    const cancelBranch = (which) => (reason) => {
      if (which === 1) { canceled1 = true; reason1 = reason; } else { canceled2 = true; reason2 = reason; }
      if (canceled1 && canceled2) then(cancelReadable(rsOf(stream), [reason1, reason2]), cancelDone.resolve, cancelDone.reject);
      return cancelDone.promise;
    };
    b1 = new ReadableStream({ type: "bytes", pull: () => pullBranch(1), cancel: cancelBranch(1) });
    b2 = new ReadableStream({ type: "bytes", pull: () => pullBranch(2), cancel: cancelBranch(2) });
    return [b1, b2];
  }

  // pipeTo's loop: read, wait for the writer's ready, write; the end, an error on either side or
  // the signal stop it as the options say.
  function pipe(source, dest, options) {
    const o = options || {};
    const preventClose = !!o.preventClose, preventAbort = !!o.preventAbort, preventCancel = !!o.preventCancel;
    const signal = o.signal;
    const reader = new ReadableStreamDefaultReader(source);
    const writer = new WritableStreamDefaultWriter(dest);
    const rs = rsOf(source), ws = wsOf(dest);
    const done = deferred();
    let stop = null;
    const onAbort = () => { stop = { __proto__: null, reason: signal.reason }; };
    if (signal) {
      if (signal.aborted) stop = { __proto__: null, reason: signal.reason };
      else signal.addEventListener("abort", onAbort, { once: true });
    }
    let settled = false;
    const finish = (ok, value) => {
      if (settled) return;
      settled = true;
      if (signal) signal.removeEventListener("abort", onAbort);
      releaseWriter(writer);
      releaseReader(reader);
      if (ok) done.resolve(value); else done.reject(value);
    };
    // runs the given promises (in any order) and then fails with `reason`
    const failAfter = (tasks, reason) => {
      let left = tasks.length;
      if (left === 0) { finish(false, reason); return; }
      const one = () => { if (--left === 0) finish(false, reason); };
      for (let i = 0; i < tasks.length; i++) then(tasks[i], one, (e) => finish(false, e));
    };
    const step = () => {
      if (stop !== null) {
        const tasks = list();
        if (!preventAbort && ws.state === "writable") ArrayPush(tasks, abortWritable(ws, stop.reason));
        if (!preventCancel) ArrayPush(tasks, cancelReadable(rs, stop.reason));
        failAfter(tasks, stop.reason);
        return;
      }
      if (ws.state !== "writable") {
        const e = ws.state === "errored" ? ws.error : new TypeErrorCtor("WritableStream: the destination is closed");
        const tasks = list();
        if (!preventCancel) ArrayPush(tasks, cancelReadable(rs, e));
        failAfter(tasks, e);
        return;
      }
      then(ws.ready.promise, () => {
        if (stop !== null) { step(); return; }
        then(readFrom(rs), (r) => {
          if (r.done) {
            if (preventClose) { finish(true, undefined); return; }
            then(closeWritable(ws), () => finish(true, undefined), (e) => finish(false, e));
            return;
          }
          handled(writeTo(ws, r.value));
          step();
        }, (e) => {
          const tasks = list();
          if (!preventAbort) ArrayPush(tasks, abortWritable(ws, e));
          failAfter(tasks, e);
        });
      }, () => step());
    };
    step();
    return done.promise;
  }

  /* ---- WritableStream ---- */

  const writables = new WeakMapCtor(); // WritableStream -> ws
  const writers = new WeakMapCtor();   // writer -> ws | null (released)
  const wcontrollers = new WeakMapCtor();

  function wsOf(x) {
    const ws = WeakMapGet(writables, x);
    if (!ws) throw invalidThis("WritableStream");
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
    if (back && !ws.ready.pending) { ws.ready = deferred(); ws.ready.pending = true; handled(ws.ready.promise); }
    else if (!back && ws.ready.pending) { ws.ready.pending = false; ws.ready.resolve(undefined); }
  }

  function errorWritable(ws, e) {
    if (ws.state === "errored" || ws.state === "closed") return;
    ws.state = "errored";
    ws.error = e;
    const q = ws.queue;
    ws.queue = list();
    for (let i = 0; i < q.length; i++) q[i].d.reject(e);
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
        then(promiseCall(ws.sink, "close", []), () => {
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
    then(promiseCall(ws.sink, "write", [w.chunk, ws.controller]), () => {
      ws.busy = false;
      ArrayShift(ws.queue);
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
      size = NumberCtor(ws.size(chunk));
      if (NumberIsNaN(size) || size < 0 || size === Infinity) throw new RangeErrorCtor("a chunk's size must be a finite, non-negative number");
    } catch (e) {
      errorWritable(ws, e);
      return rejected(e);
    }
    const d = deferred();
    ArrayPush(ws.queue, { __proto__: null, chunk, size, d });
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
    ws.aborted = true;
    ws.abortReason = reason;
    if (ws.abort !== null) ws.abort.abort(reason);
    errorWritable(ws, reason);
    return then(promiseCall(ws.sink, "abort", [reason]), () => undefined);
  }

  function releaseWriter(writer) {
    const ws = WeakMapGet(writers, writer);
    if (!ws) return;
    ws.writer = null;
    WeakMapSet(writers, writer, null);
  }

  class WritableStreamDefaultController {
    constructor() { if (!creating) throw illegal("WritableStreamDefaultController"); }
    error(e) { const ws = WeakMapGet(wcontrollers, this); if (ws.state === "writable") errorWritable(ws, e); }
    get signal() {
      const ws = WeakMapGet(wcontrollers, this);
      if (ws.abort === null) {
        ws.abort = new (require("internal/abort").AbortController)();
        if (ws.aborted) ws.abort.abort(ws.abortReason);
      }
      return ws.abort.signal;
    }
    get [SymbolToStringTag]() { return "WritableStreamDefaultController"; }
  }

  class WritableStreamDefaultWriter {
    constructor(stream) {
      const ws = wsOf(stream);
      if (ws.writer) throw invalidState("WritableStream is locked");
      ws.writer = this;
      WeakMapSet(writers, this, ws);
    }
    #ws(what) {
      const ws = WeakMapGet(writers, this);
      if (!ws) throw invalidState("the writer was released; " + what + " needs a locked writer");
      return ws;
    }
    get closed() { try { return this.#ws("closed").closed.promise; } catch (e) { return rejected(e); } }
    get ready() { try { return this.#ws("ready").ready.promise; } catch (e) { return rejected(e); } }
    get desiredSize() { return wsDesired(this.#ws("desiredSize")); }
    write(chunk) { try { return writeTo(this.#ws("write"), chunk); } catch (e) { return rejected(e); } }
    close() { try { return closeWritable(this.#ws("close")); } catch (e) { return rejected(e); } }
    abort(reason) { try { return abortWritable(this.#ws("abort"), reason); } catch (e) { return rejected(e); } }
    releaseLock() { releaseWriter(this); }
    get [SymbolToStringTag]() { return "WritableStreamDefaultWriter"; }
  }

  class WritableStream {
    constructor(sink, strategy) {
      if (sink === undefined) sink = null;
      if (sink !== null && typeof sink !== "object") throw invalidArgType("sink", "an object", sink);
      if (sink !== null && sink.type !== undefined) throw new RangeErrorCtor("WritableStream: the sink's type must be undefined");
      const st = strategyOf(strategy, 1);
      const ws = {
        __proto__: null,
        state: "writable", error: undefined, writer: null, sink, hwm: st.hwm, size: st.size,
        queue: list(), queueSize: 0, started: false, busy: false, closeRequested: false, closeD: null,
        closed: deferred(), ready: deferred(), controller: null,
        abort: null, aborted: false, abortReason: undefined, // the controller's AbortController, made when its signal is first read
      };
      handled(ws.closed.promise);
      ws.ready.resolve(undefined);
      creating = true;
      try { ws.controller = new WritableStreamDefaultController(); } finally { creating = false; }
      WeakMapSet(wcontrollers, ws.controller, ws);
      WeakMapSet(writables, this, ws);
      updateReady(ws);
      const start = sink && sink.start !== undefined ? ReflectApply(sink.start, sink, [ws.controller]) : undefined;
      then(PromiseFrom(start), () => { ws.started = true; advance(ws); }, (e) => errorWritable(ws, e));
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
    get [SymbolToStringTag]() { return "WritableStream"; }
  }

  /* ---- TransformStream ---- */

  const tcontrollers = new WeakMapCtor(); // controller -> {rs, ws}

  class TransformStreamDefaultController {
    constructor() { if (!creating) throw illegal("TransformStreamDefaultController"); }
    get desiredSize() { return desiredSize(WeakMapGet(tcontrollers, this).rs()); }
    enqueue(chunk) { enqueueReadable(WeakMapGet(tcontrollers, this).rs(), chunk); }
    error(e) { const t = WeakMapGet(tcontrollers, this); errorReadable(t.rs(), e); errorWritable(t.ws(), e); }
    terminate() {
      const t = WeakMapGet(tcontrollers, this);
      const rs = t.rs();
      if (rs.state === "readable" && !rs.closeRequested) { rs.closeRequested = true; if (rs.queue.length === 0) closeReadable(rs); }
      errorWritable(t.ws(), new TypeErrorCtor("TransformStream: the stream was terminated"));
    }
    get [SymbolToStringTag]() { return "TransformStreamDefaultController"; }
  }

  class TransformStream {
    #readable; #writable;
    constructor(transformer, writableStrategy, readableStrategy) {
      if (transformer === undefined) transformer = null;
      if (transformer !== null && typeof transformer !== "object") throw invalidArgType("transformer", "an object", transformer);
      const tr = transformer || {};
      if (tr.readableType !== undefined || tr.writableType !== undefined) throw new RangeErrorCtor("TransformStream: readableType and writableType must be undefined");
      let controller;
      creating = true;
      try { controller = new TransformStreamDefaultController(); } finally { creating = false; }
      let pullWaiter = null; // resolved when the readable side asks for more
      const self = this;
      const rsRec = () => WeakMapGet(streams, self.#readable);
      const wsRec = () => WeakMapGet(writables, self.#writable);
      WeakMapSet(tcontrollers, controller, { __proto__: null, rs: rsRec, ws: wsRec });
      const startD = deferred();
      const closeReadableSide = () => {
        const rs = rsRec();
        if (rs.state === "readable" && !rs.closeRequested) { rs.closeRequested = true; if (rs.queue.length === 0) closeReadable(rs); }
      };
      const transformOne = (chunk) => {
        if (tr.transform === undefined) { enqueueReadable(rsRec(), chunk); return undefined; }
        return promiseCall(tr, "transform", [chunk, controller]);
      };
      this.#readable = new ReadableStream({
        start: () => startD.promise,
        pull: () => { if (pullWaiter) { const w = pullWaiter; pullWaiter = null; w.resolve(undefined); } },
        cancel: (reason) => {
          errorWritable(wsRec(), reason === undefined ? new TypeErrorCtor("TransformStream: the readable side was canceled") : reason);
          return promiseCall(tr, "cancel", [reason]);
        },
      }, readableStrategy === undefined ? { highWaterMark: 0 } : readableStrategy);
      this.#writable = new WritableStream({
        start: () => startD.promise,
        write: (chunk) => {
          const rs = rsRec();
          if (rs.state === "readable" && desiredSize(rs) <= 0 && pendingReads(rs) === 0) {
            pullWaiter = deferred();
            return then(pullWaiter.promise, () => transformOne(chunk));
          }
          return transformOne(chunk);
        },
        close: () => then(promiseCall(tr, "flush", [controller]), closeReadableSide),
        abort: (reason) => { errorReadable(rsRec(), reason); return promiseCall(tr, "cancel", [reason]); },
      }, writableStrategy);
      const start = tr.start !== undefined ? ReflectApply(tr.start, tr, [controller]) : undefined;
      then(PromiseFrom(start), () => startD.resolve(undefined), (e) => startD.reject(e));
    }
    get readable() { return this.#readable; }
    get writable() { return this.#writable; }
    get [SymbolToStringTag]() { return "TransformStream"; }
  }

  /* ---- text streams ---- */

  class TextEncoderStream {
    #t;
    constructor() {
      const enc = new text.TextEncoder();
      this.#t = new TransformStream({
        transform(chunk, c) { const s = StringCtor(chunk); if (s.length) c.enqueue(enc.encode(s)); },
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

  // A stream over bytes that are all there already (a fetch body): one chunk, then the end. The
  // chunk is a copy, so the caller's bytes stay attached (enqueue transfers its buffer).
  function readableOfBytes(bytes) {
    return new ReadableStream({
      type: "bytes",
      start(c) {
        const v = viewInfo(bytes);
        if (v.byteLength) c.enqueue(new Uint8ArrayCtor(BufferSlice(v.buffer, v.byteOffset, v.byteOffset + v.byteLength)));
        c.close();
      },
    });
  }
  // Every chunk of a stream, concatenated (a request body given as a stream).
  function bytesOfReadable(stream, what, limit) {
    const reader = stream.getReader();
    const parts = list();
    let total = 0;
    const done = deferred();
    const next = () => {
      then(PromiseFrom(reader.read()), (r) => {
        try { take(r); } catch (e) { done.reject(e); }
      }, done.reject);
    };
    const take = (r) => {
        if (r.done) {
          const out = new Uint8ArrayCtor(total);
          let at = 0;
          for (let i = 0; i < parts.length; i++) { TASet(out, parts[i], at); at += TAByteLength(parts[i]); }
          done.resolve(out);
          return;
        }
        const value = r.value;
        let b;
        if (typeof value === "string") b = text.utf8Encode(value);
        else if (ArrayBufferIsView(value)) { const v = viewInfo(value); b = new Uint8ArrayCtor(v.buffer, v.byteOffset, v.byteLength); }
        else if (value instanceof ArrayBufferCtor) b = new Uint8ArrayCtor(value);
        else throw new TypeErrorCtor(what + ": a body stream must give Uint8Array chunks");
        total += TAByteLength(b);
        if (total > limit) {
          then(PromiseFrom(reader.cancel()), () => done.reject(new RangeErrorCtor(what + ": the body stream is larger than " + limit + " bytes")), done.reject);
          return;
        }
        ArrayPush(parts, b);
        next();
    };
    next();
    return done.promise;
  }
  const isReadableStream = (x) => WeakMapHas(streams, x);
  const isDisturbed = (x) => { const rs = WeakMapGet(streams, x); return rs !== undefined && rs.disturbed; };

  const web = ObjectFreeze({
    ReadableStream, ReadableStreamDefaultReader, ReadableStreamDefaultController,
    ReadableStreamBYOBReader, ReadableStreamBYOBRequest, ReadableByteStreamController,
    WritableStream, WritableStreamDefaultWriter, WritableStreamDefaultController,
    TransformStream, TransformStreamDefaultController,
    ByteLengthQueuingStrategy, CountQueuingStrategy, TextEncoderStream, TextDecoderStream,
  });
  // `web` is what guests see (node:stream/web, the globals); the rest is for fetch, Blob and node:stream.
  return ObjectFreeze({ __proto__: null, web, readableOfBytes, bytesOfReadable, isReadableStream, isDisturbed, SP });
})
