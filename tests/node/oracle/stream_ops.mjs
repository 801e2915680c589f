// Oracle: the Readable stream operators (map, filter, flatMap, take, drop, forEach, toArray, some,
// every, find, reduce) over object and byte streams, with async callbacks, and their errors.
import { Readable } from "node:stream";

const attempt = async (f) => { try { return { ok: await f() }; } catch (e) { return { name: e.name, code: e.code, message: e.message }; } };
const from = (xs) => Readable.from(xs);

export async function agent() {
  const out = {};
  out.map = await from([1, 2, 3]).map((x) => x * 2).toArray();
  out.mapAsync = await from([1, 2, 3]).map(async (x) => { await new Promise((r) => setTimeout(r, 4 - x)); return "v" + x; }, { concurrency: 2 }).toArray();
  out.filter = await from([1, 2, 3, 4, 5]).filter((x) => x % 2).toArray();
  out.flatMap = await from([1, 2]).flatMap((x) => [x, x * 10]).toArray();
  out.take = await from([1, 2, 3, 4]).take(2).toArray();
  out.take0 = await from([1, 2]).take(0).toArray();
  out.drop = await from([1, 2, 3, 4]).drop(3).toArray();
  out.chain = await from([1, 2, 3, 4, 5, 6]).filter((x) => x > 1).map((x) => x * x).drop(1).take(3).toArray();
  const seen = [];
  out.forEach = [await from(["a", "b"]).forEach((x) => { seen.push(x); }), seen];
  out.some = [await from([1, 2, 3]).some((x) => x > 2), await from([1, 2]).some((x) => x > 2)];
  out.every = [await from([1, 2, 3]).every((x) => x > 0), await from([1, 2]).every((x) => x > 1)];
  out.find = [await from([1, 2, 3]).find((x) => x > 1), await from([1]).find((x) => x > 1)];
  out.reduce = [await from([1, 2, 3]).reduce((a, b) => a + b), await from([1, 2, 3]).reduce((a, b) => a + b, 10), await from([]).reduce((a, b) => a + b, 7)];
  out.bytes = (await Readable.from([Buffer.from("ab"), Buffer.from("c")], { objectMode: false }).map((b) => b.toString()).toArray());
  out.mapIsReadable = from([1]).map((x) => x) instanceof Readable;
  out.errors = [
    await attempt(() => from([]).reduce((a, b) => a + b)),
    await attempt(() => from([1]).map(5)),
    await attempt(() => from([1]).take(-1)),
    await attempt(() => from([1, 2]).drop("x").toArray()),
    await attempt(() => from([1, 2, 3]).take(1.5).toArray()),
    await attempt(() => from([1]).filter(() => true, 5)),
    await attempt(() => from([1, 2]).map((x) => { if (x === 2) throw new Error("boom"); return x; }).toArray()),
  ];
  out.names = ["map", "filter", "flatMap", "take", "drop", "forEach", "toArray", "some", "every", "find", "reduce"].map((k) => typeof Readable.prototype[k]);
  return out;
}
