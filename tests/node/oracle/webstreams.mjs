// Oracle: WHATWG streams (ReadableStream, WritableStream, TransformStream, the text streams),
// FormData and its multipart body, Blob#stream, fetch bodies as streams, and data: URLs, as the
// globals and node:stream/web. Error messages differ from Node's: only names are compared.
import * as web from "node:stream/web";

const attempt = async (f) => {
  try { return { ok: await f() }; } catch (e) { return { name: e.name, ctor: e.constructor.name }; }
};
const collect = async (stream) => { const out = []; for await (const c of stream) out.push(c); return out; };
const dec = (chunks) => chunks.map((c) => (typeof c === "string" ? c : new TextDecoder().decode(c))).join("");

export async function agent() {
  const out = {};
  out.globals = ["ReadableStream", "WritableStream", "TransformStream", "TextEncoderStream", "TextDecoderStream",
    "ByteLengthQueuingStrategy", "CountQueuingStrategy", "FormData"].map((n) => typeof globalThis[n]);
  out.sameAsModule = web.ReadableStream === ReadableStream && web.TransformStream === TransformStream;

  // pull-driven source, highWaterMark and desiredSize
  const log = [];
  let i = 0;
  const rs = new ReadableStream({
    start(c) { log.push("start:" + c.desiredSize); },
    pull(c) { log.push("pull:" + c.desiredSize); i++; if (i <= 3) c.enqueue(i); else c.close(); },
    cancel(r) { log.push("cancel:" + r); },
  }, { highWaterMark: 2 });
  const reader = rs.getReader();
  const reads = [];
  for (;;) { const r = await reader.read(); reads.push(r); if (r.done) break; }
  out.pull = { log, reads, locked: rs.locked };
  reader.releaseLock();
  out.released = [rs.locked, await attempt(() => reader.read())];

  // enqueue in start, close, then read; errors
  const s2 = new ReadableStream({ start(c) { c.enqueue("a"); c.enqueue("b"); c.close(); } });
  out.startQueue = await collect(s2);
  const s3 = new ReadableStream({ start(c) { c.enqueue("x"); c.error(new RangeError("boom")); } });
  out.errored = await attempt(() => collect(s3));
  const s4 = new ReadableStream({ pull() { throw new TypeError("pull failed"); } });
  out.pullThrows = await attempt(() => s4.getReader().read());

  // cancel and its reason; locked streams
  const clog = [];
  const s5 = new ReadableStream({ cancel(r) { clog.push(r); return new Promise((res) => setTimeout(res, 1)); } });
  out.cancel = [await s5.cancel("why"), clog];
  const s6 = new ReadableStream();
  s6.getReader();
  out.locked = [await attempt(() => s6.cancel()), await attempt(() => s6.getReader())];

  // async iteration that stops early cancels, unless preventCancel
  const ilog = [];
  const mk = () => new ReadableStream({ start(c) { c.enqueue(1); c.enqueue(2); }, cancel(r) { ilog.push("canceled"); } });
  for await (const v of mk()) { ilog.push(v); break; }
  const s7 = mk();
  for await (const v of s7.values({ preventCancel: true })) { ilog.push(v); break; }
  out.iterate = [ilog, s7.locked];

  // tee
  const [t1, t2] = new ReadableStream({ start(c) { c.enqueue("p"); c.enqueue("q"); c.close(); } }).tee();
  out.tee = [await collect(t1), await collect(t2)];

  // ReadableStream.from
  out.from = [await collect(ReadableStream.from([1, 2, 3])), await collect(ReadableStream.from((async function* () { yield "a"; yield "b"; })()))];

  // WritableStream: sequential writes, backpressure, close, abort
  const wlog = [];
  const ws = new WritableStream({
    start() { wlog.push("start"); },
    write(chunk) { wlog.push("write:" + chunk); return new Promise((r) => setTimeout(r, 1)); },
    close() { wlog.push("close"); },
    abort(r) { wlog.push("abort:" + r); },
  }, new CountQueuingStrategy({ highWaterMark: 2 }));
  const w = ws.getWriter();
  const sizes = [w.desiredSize];
  const p1 = w.write("a"); sizes.push(w.desiredSize);
  const p2 = w.write("b"); sizes.push(w.desiredSize);
  const p3 = w.write("c"); sizes.push(w.desiredSize);
  await Promise.all([p1, p2, p3]);
  sizes.push(w.desiredSize);
  await w.close();
  out.writable = { wlog, sizes, closed: await w.closed };
  // a write while closing fails (a write once closed trips an internal assertion in Node 20)
  const w3 = new WritableStream({}).getWriter();
  w3.write(0);
  w3.close();
  out.whileClosing = await w3.write(1).then(() => "written", (e) => [e.name, e.code]);
  const ws2 = new WritableStream({ abort(r) { wlog.push("aborted:" + r); } });
  out.abort = [await ws2.abort("stop"), wlog.at(-1), await attempt(() => ws2.getWriter().write(1))];

  // pipeThrough a TransformStream, pipeTo a WritableStream
  const upper = new TransformStream({
    transform(chunk, c) { c.enqueue(chunk.toUpperCase()); c.enqueue("|"); },
    flush(c) { c.enqueue("END"); },
  });
  const sink = [];
  await ReadableStream.from(["ab", "cd"]).pipeThrough(upper).pipeTo(new WritableStream({ write(c) { sink.push(c); } }));
  out.pipe = sink;
  const bytes = ReadableStream.from(["h\u00e9", "llo \u{1F600}"]).pipeThrough(new TextEncoderStream());
  const split = [];
  for await (const b of bytes) for (const x of b) split.push(new Uint8Array([x]));
  out.textStreams = await collect(ReadableStream.from(split).pipeThrough(new TextDecoderStream()));
  out.strategies = [new ByteLengthQueuingStrategy({ highWaterMark: 16 }).size(new Uint8Array(5)),
    new CountQueuingStrategy({ highWaterMark: 3 }).highWaterMark];

  // FormData
  const fd = new FormData();
  fd.append("a", "1");
  fd.append("a", "2");
  fd.append("file", new Blob(["hi"], { type: "text/plain" }), "x.txt");
  fd.set("b", "line1\nline2");
  const f = fd.get("file");
  out.formData = {
    all: fd.getAll("a"), has: [fd.has("a"), fd.has("z")], get: fd.get("z"),
    file: [f.constructor.name, f.name, f.type, f.size], keys: [...fd.keys()],
  };
  fd.delete("a");
  out.formData.afterDelete = [...fd.keys()];
  const req = new Request("http://example.test/", { method: "POST", body: fd });
  const ct = req.headers.get("content-type");
  const boundary = ct.slice(ct.indexOf("boundary=") + 9);
  out.multipart = [ct.startsWith("multipart/form-data; boundary="), (await req.text()).split(boundary).join("BOUNDARY")];

  // bodies as streams
  const blob = new Blob(["ab", new Uint8Array([99])]);
  out.blobStream = dec(await collect(blob.stream()));
  const res = new Response("body text");
  out.responseBody = [Object.prototype.toString.call(res.body), res.body === res.body, res.bodyUsed];
  out.responseStream = [dec(await collect(res.body)), res.bodyUsed, await attempt(() => res.text())];
  const fromStream = new Response(ReadableStream.from([new TextEncoder().encode("st"), new TextEncoder().encode("ream")]));
  out.streamResponse = await fromStream.text();
  const cloned = new Response(ReadableStream.from([new TextEncoder().encode("twice")]));
  const c2 = cloned.clone();
  out.clone = [await cloned.text(), await c2.text()];
  const sreq = new Request("http://example.test/", { method: "POST", body: ReadableStream.from([new TextEncoder().encode("up")]), duplex: "half" });
  out.streamRequest = [await sreq.text(), sreq.bodyUsed];
  out.blobBody = await new Response(new Blob(["bb"], { type: "x/y" })).blob().then(async (b) => [b.type, await b.text()]);

  // data: URLs are answered without the network
  const urls = ["data:,", "data:,Hello%2C%20World%21", "data:text/plain;base64,SGVsbG8sIFdvcmxkIQ==",
    "data:Text/HTML;Charset=UTF-8,<b>x</b>", "data:;base64,aGk=", "data:nocomma", "data:text/plain;base64,@@@",
    "data:image/png;foo=bar;base64,AAEC#frag", "data:,a b"];
  out.dataUrls = [];
  for (const u of urls) {
    try {
      const r = await fetch(u);
      out.dataUrls.push([u, r.status, r.statusText, r.headers.get("content-type"), Array.from(new Uint8Array(await r.arrayBuffer())).join(".")]);
    } catch (e) {
      out.dataUrls.push([u, e.name, e.message]);
    }
  }
  return out;
}
