'use strict';
// tools/node-tests/common/index.js — our own small stand-in for the `common` module Node's test
// files require (`require('../common')`), written for this project from what the tests call:
// expected-call checks (mustCall and kin, counted by driver.js when the file has settled), error
// expectations, the argument-type message tail, and the platform facts a run has (Linux, no
// crypto, no Windows). `skip` ends the file as skipped. Nothing of Node's own harness is copied.

const assert = require('assert');
const util = require('util');

const h = globalThis.__nodetests;

function withLength(wrapper, fn) {
  try {
    Object.defineProperty(wrapper, 'length', { value: fn.length, configurable: true });
    Object.defineProperty(wrapper, 'name', { value: fn.name, configurable: true });
  } catch (_) { /* keep the wrapper's own */ }
  return wrapper;
}

function expected(fn, exact, min, label) {
  if (typeof fn === 'number') { exact = fn; fn = undefined; }
  if (typeof fn !== 'function') fn = function () {};
  const rec = h.expectCalls(exact, min, fn, label);
  return withLength(function (...args) {
    rec.n++;
    if (rec.exact !== undefined && rec.n > rec.exact) {
      h.fail(rec.at, new Error(`${label}: expected ${rec.exact} call(s), got more`));
    }
    try {
      return fn.apply(this, args);
    } catch (e) {
      // A failed assertion fails the check that expected the call and goes no further (it would
      // end a chidori run, which has no 'uncaughtException'); any other error propagates.
      if (e && (e.code === 'ERR_ASSERTION' || e.name === 'AssertionError')) {
        h.fail(rec.at, e);
        return undefined;
      }
      throw e;
    }
  }, fn);
}

exports.mustCall = (fn, exact) => expected(fn, typeof fn === 'number' ? undefined : (exact === undefined ? 1 : exact), undefined, 'mustCall');
exports.mustCallAtLeast = (fn, min) => {
  if (typeof fn === 'number') { min = fn; fn = undefined; }
  return expected(fn, undefined, min === undefined ? 1 : min, 'mustCallAtLeast');
};
exports.mustNotCall = (msg) => {
  const at = h.current;
  return function mustNotCall() {
    h.fail(at, new Error(msg || 'mustNotCall: function should not have been called'));
  };
};
exports.mustSucceed = (fn, exact) => exports.mustCall(function (err, ...rest) {
  assert.ifError(err);
  if (typeof fn === 'function') return fn.apply(this, rest);
}, exact);

// A validator of a thrown or passed error: a class, a RegExp, a function, or an object whose
// properties the error must have (RegExp values test strings).
exports.expectsError = (validation, exact) => exports.mustCall((error) => {
  assert.throws(() => { throw error; }, validation);
  return true;
}, exact);

exports.expectWarning = (nameOrMap, expectedList, code) => {
  const want = new Map();
  const add = (name, list) => {
    if (typeof list === 'string') list = [[list, code]];
    else if (Array.isArray(list) && typeof list[0] === 'string') list = [list];
    want.set(name, (list || []).slice());
  };
  if (typeof nameOrMap === 'string') add(nameOrMap, expectedList);
  else for (const name of Object.keys(nameOrMap)) add(name, nameOrMap[name]);
  let total = 0;
  for (const list of want.values()) total += list.length;
  const rec = h.expectCalls(total, undefined, null, 'expectWarning');
  process.on('warning', (w) => {
    const list = want.get(w.name);
    if (!list) return;
    const next = list.shift();
    rec.n++;
    if (!next) { h.fail(rec.at, new Error(`unexpected ${w.name}: ${w.message}`)); return; }
    const [msg, c] = Array.isArray(next) ? next : [next];
    try {
      if (msg instanceof RegExp) assert.match(w.message, msg);
      else assert.strictEqual(w.message, msg);
      if (c !== undefined) assert.strictEqual(w.code, c);
    } catch (e) { h.fail(rec.at, e); }
  });
};

exports.invalidArgTypeHelper = (input) => {
  if (input === null || input === undefined) return ` Received ${input}`;
  if (typeof input === 'function' && input.name) return ` Received function ${input.name}`;
  if (typeof input === 'object') {
    if (input.constructor && input.constructor.name) return ` Received an instance of ${input.constructor.name}`;
    return ` Received ${util.inspect(input, { depth: -1 })}`;
  }
  let shown = util.inspect(input, { colors: false });
  if (shown.length > 28) shown = shown.slice(0, 25) + '...';
  return ` Received type ${typeof input} (${shown})`;
};

exports.getArrayBufferViews = (buf) => {
  const { buffer, byteOffset, byteLength } = buf;
  const kinds = [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array,
    Uint32Array, Float32Array, Float64Array, BigInt64Array, BigUint64Array, DataView];
  const out = [];
  for (const K of kinds) {
    const size = K.BYTES_PER_ELEMENT || 1;
    if (byteLength % size === 0) out.push(new K(buffer, byteOffset, byteLength / size));
  }
  return out;
};

exports.skip = (msg) => {
  const e = new Error(String(msg));
  e.__nodetestsSkip = true;
  throw e;
};
exports.printSkipMessage = (msg) => console.log('skipped: ' + msg);
exports.platformTimeout = (ms) => ms;
exports.allowGlobals = () => {};
exports.hasIntl = typeof Intl === 'object' && Intl !== null;
exports.hasCrypto = false;
exports.hasFipsCrypto = false;
exports.isWindows = false;
exports.isLinux = true;
exports.isOSX = false;
exports.isAIX = false;
exports.isSunOS = false;
exports.isFreeBSD = false;
exports.isOpenBSD = false;
exports.enoughTestMem = false; // a run's allocations are capped (CHIDORI_JS_MAX_ALLOC_MB)
exports.isMainThread = true;
