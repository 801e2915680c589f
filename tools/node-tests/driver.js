'use strict';
// tools/node-tests/driver.js — runs one test file that run.py rewrote (each top-level statement in
// a try of its own, numbered) and collects which statements failed, the same way under Node and
// under `chidori run`. Owns the record of failures (globalThis.__nodetests), the wrapping of timer
// and tick callbacks (so an assertion failing in a callback counts against the statement that
// scheduled it instead of ending the process) and the final count of expected calls. Trusts
// nothing of the test: every callback it runs is in a try. Written for this project; nothing of
// Node's test harness is copied here.

const fails = new Map();      // statement index -> first error message
const ran = new Set();        // statements whose synchronous part ran
const calls = [];             // expected-call records made by common.mustCall and its kin
const recorded = new WeakSet();
let current = -1;
let skipped = null;
// Progress lines, so that a run which ends early (chidori ends a run on an exception no handler
// takes) still tells which statements ran, failed or were left waiting for calls.
const log = console.log.bind(console);
function progress(kind, i, text) {
  log('\n@@NT-' + kind + ' ' + i + (text === undefined ? '' : ' ' + JSON.stringify(text)));
}

function message(e) {
  if (e && typeof e === 'object') {
    const name = e.name || 'Error';
    return (name + ': ' + String(e.message)).split('\n')[0].slice(0, 300);
  }
  return ('thrown: ' + String(e)).split('\n')[0].slice(0, 300);
}

function fail(i, e) {
  if (e && typeof e === 'object') {
    if (recorded.has(e)) return;
    try { recorded.add(e); } catch (_) { /* a frozen or exotic value */ }
  }
  if (e && e.__nodetestsSkip) { if (skipped === null) skipped = e.message; return; }
  if (i < 0) i = current;
  if (!fails.has(i)) {
    fails.set(i, message(e));
    progress('F', i, fails.get(i));
  }
}

// Run fn as statement i would: failures go to i, and `current` is i while it runs.
function within(i, fn, self, args) {
  const saved = current;
  current = i;
  try {
    return fn.apply(self, args);
  } catch (e) {
    fail(i, e);
    return undefined;
  } finally {
    current = saved;
  }
}

function wrapScheduler(holder, name) {
  const orig = holder[name];
  if (typeof orig !== 'function') return;
  holder[name] = function (cb, ...rest) {
    if (typeof cb !== 'function') return orig.call(this, cb, ...rest);
    const at = current;
    const wrapped = function (...a) { return within(at, cb, this, a); };
    return orig.call(this, wrapped, ...rest);
  };
}

const h = {
  get skipped() { return skipped; },
  get current() { return current; },
  enter(i) {
    if (current >= 0 && ran.has(current)) progress('R', current);
    current = i;
    ran.add(i);
    return skipped === null;
  },
  fail,
  within,
  // An expression statement's value: a promise that rejects later fails its statement.
  track(i, v) {
    if (v !== null && (typeof v === 'object' || typeof v === 'function') && typeof v.then === 'function') {
      try { v.then(undefined, (e) => fail(i, e)); } catch (e) { fail(i, e); }
    }
    return v;
  },
  expectCalls(exact, min, fn, label) {
    const rec = { at: current, exact, min, n: 0, label };
    calls.push(rec);
    progress('X', current);
    return rec;
  },
};

function results() {
  for (const rec of calls) {
    if (rec.exact !== undefined && rec.n !== rec.exact) {
      fail(rec.at, new Error(`${rec.label}: expected ${rec.exact} call(s), got ${rec.n}`));
    } else if (rec.min !== undefined && rec.n < rec.min) {
      fail(rec.at, new Error(`${rec.label}: expected at least ${rec.min} call(s), got ${rec.n}`));
    }
  }
  return { fails: Object.fromEntries(fails), ran: [...ran], skipped };
}

function pending() {
  return calls.some((rec) => (rec.exact !== undefined ? rec.n < rec.exact : rec.min !== undefined && rec.n < rec.min));
}

function tick() {
  return new Promise((resolve) => setTimeout(resolve, 1));
}

module.exports = async function run(file) {
  globalThis.__nodetests = h;
  wrapScheduler(globalThis, 'setTimeout');
  wrapScheduler(globalThis, 'setInterval');
  wrapScheduler(globalThis, 'setImmediate');
  wrapScheduler(globalThis, 'queueMicrotask');
  if (typeof process === 'object' && process) {
    wrapScheduler(process, 'nextTick');
    if (typeof process.on === 'function') {
      process.on('unhandledRejection', (e) => fail(-1, e));
      try { process.on('uncaughtException', (e) => fail(-1, e)); } catch (_) { /* not offered */ }
    }
  }
  try {
    require(file);
  } catch (e) {
    fail(current, e);
  }
  if (current >= 0) progress('R', current);
  current = -1;
  // Let callbacks, ticks and timers run: a fixed number of rounds, then on while expected calls
  // are still missing, up to a time cap (the same on both sides).
  for (let k = 0; k < 20; k++) await tick();
  const deadline = Date.now() + 2000;
  while (pending() && Date.now() < deadline) await tick();
  for (let k = 0; k < 5; k++) await tick();
  return results();
};
