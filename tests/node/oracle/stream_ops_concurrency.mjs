// Oracle: the stream operators' `concurrency` (callbacks overlap up to it, results keep the
// source's order) and their `signal` (aborted when the operator stops early; options.signal
// ends the operator with an AbortError), and the option checks.
import { Readable } from "node:stream";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const attempt = async (f) => { try { return { ok: await f() }; } catch (e) { return { name: e.name, code: e.code }; } };
const from = (xs) => Readable.from(xs);

function tracker() {
  const t = { now: 0, max: 0, order: [] };
  t.run = async (x, ms) => {
    t.now++; t.max = Math.max(t.max, t.now); t.order.push("start" + x);
    await sleep(ms);
    t.now--; t.order.push("end" + x);
  };
  return t;
}

export async function agent() {
  const out = {};
  {
    const t = tracker();
    const delays = { 1: 30, 2: 10, 3: 20, 4: 5, 5: 1 };
    out.map3 = await from([1, 2, 3, 4, 5]).map(async (x) => { await t.run(x, delays[x]); return x * 10; }, { concurrency: 3 }).toArray();
    out.map3max = t.max;
    const t1 = tracker();
    out.map1 = await from([1, 2, 3]).map(async (x) => { await t1.run(x, 4 - x); return x; }).toArray();
    out.map1 = [out.map1, t1.max, t1.order];
  }
  {
    const t = tracker();
    out.filter2 = await from([1, 2, 3, 4]).filter(async (x) => { await t.run(x, 5 - x); return x % 2 === 0; }, { concurrency: 2 }).toArray();
    out.filter2max = t.max;
    const t2 = tracker();
    const seen = [];
    await from([1, 2, 3, 4, 5, 6]).forEach(async (x) => { await t2.run(x, 7 - x); seen.push(x); }, { concurrency: 4 });
    out.forEach4 = [t2.max, seen.length];
  }
  {
    // some stops early (the callbacks still running keep their signal, as in Node 20)
    const signals = [];
    const found = await from([1, 2, 3, 4, 5]).some(async (x, { signal }) => {
      signals.push(signal);
      await sleep(x === 2 ? 1 : 20);
      return x === 2;
    }, { concurrency: 3 });
    await sleep(30);
    out.some = [found, signals.length >= 2, signals.map((s) => s.aborted).includes(true)];
    out.find = await from([5, 6, 7]).find(async (x) => { await sleep(8 - x); return x > 5; }, { concurrency: 3 });
    out.every = await from([2, 4, 5]).every(async (x) => x % 2 === 0, { concurrency: 2 });
  }
  {
    // options.signal: aborting it ends the operator with an AbortError
    const ac = new AbortController();
    const p = from([1, 2, 3]).map(async (x) => { await sleep(10); return x; }).toArray({ signal: ac.signal });
    setTimeout(() => ac.abort(), 5);
    out.abortedToArray = await attempt(() => p);
    const ac2 = new AbortController();
    const s = from([1, 2, 3]).map(async (x) => { await sleep(10); return x; }, { signal: ac2.signal });
    setTimeout(() => ac2.abort(), 5);
    out.abortedMap = await attempt(() => s.toArray());
    out.preAborted = await attempt(() => from([1]).forEach(() => {}, { signal: AbortSignal.abort() }));
  }
  out.errors = [
    await attempt(() => from([1]).map((x) => x, { concurrency: 0 })),
    await attempt(() => from([1, 2]).map((x) => x, { concurrency: 1.5 }).toArray()),
    await attempt(() => from([1, 2]).map((x) => x, { concurrency: "2" }).toArray()),
    await attempt(() => from([1]).map((x) => x, { concurrency: NaN })),
    await attempt(() => from([1]).map((x) => x, { signal: "no" })),
    await attempt(() => from([1]).forEach((x) => x, { concurrency: -1 })),
  ];
  return out;
}
