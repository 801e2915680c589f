'use strict';
// tools/node-tests/stream_surface.js — what node:stream offers on this side (run.py runs it under
// Node and under chidori): the names reachable on the module, its classes and their prototype
// chains, and which of the module names the stream test files require can be loaded. run.py
// leaves out a stream file that uses a name or module Node has and chidori lacks. Written for
// this project.
module.exports = function surface(specs) {
  const names = {};
  const chain = (label, obj) => {
    const seen = new Set();
    for (let o = obj; o && o !== Object.prototype && o !== Function.prototype; o = Object.getPrototypeOf(o)) {
      for (const k of Object.getOwnPropertyNames(o)) seen.add(k);
    }
    names[label] = [...new Set([...(names[label] || []), ...seen])];
  };
  const S = require('stream');
  chain('stream', S);
  const make = {
    Readable: () => new S.Readable({ read() {} }),
    Writable: () => new S.Writable({ write(c, e, cb) { cb(); } }),
    Duplex: () => new S.Duplex({ read() {}, write(c, e, cb) { cb(); } }),
    Transform: () => new S.Transform(),
    PassThrough: () => new S.PassThrough(),
  };
  for (const k of ['Readable', 'Writable', 'Duplex', 'Transform', 'PassThrough', 'Stream']) {
    if (typeof S[k] !== 'function') continue;
    chain(k, S[k]);
    let instance = null;
    try { instance = make[k] ? make[k]() : null; } catch (_) { /* not constructible here */ }
    if (instance) chain('instance', instance); // every kind's members under one label
  }
  const loads = {};
  for (const spec of specs) {
    try { require(spec); loads[spec] = true; } catch (_) { loads[spec] = false; }
  }
  return { names, loads };
};
