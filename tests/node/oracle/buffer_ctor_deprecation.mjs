// Oracle: the deprecated Buffer() / new Buffer() emit DEP0005 as Node does — one
// DeprecationWarning per run, on the first call from code outside node_modules, delivered to
// process 'warning' listeners with its name, code and message; the buffers made are unchanged.
// Buffer.of and the methods that make a buffer of the same kind never warn. (Before: no warning
// at all.)
export async function agent() {
  const seen = [];
  process.on("warning", (w) => {
    if (w.code === "DEP0005") seen.push([w.name, w.code, w.message, w instanceof Error]);
  });
  const viaOf = [Buffer.of(0, 1, 256, -1).toString("hex"), Buffer.of().length, Buffer.of.length, Buffer.of.name,
    Buffer.from([1]).map((x) => x + 1)[0], Buffer.from([1, 2]).filter(() => true).length];
  await new Promise((r) => setTimeout(r, 5));
  const beforeDirect = seen.length; // Buffer.of and the species paths never warn
  const made = [new Buffer(3).length, Buffer(2).length, Buffer("hi").toString(), new Buffer([1, 2]).length];
  await new Promise((r) => setTimeout(r, 5));
  const after = Buffer.from("ok").toString() + Buffer.alloc(1).length;
  await new Promise((r) => setTimeout(r, 5));
  return JSON.stringify({ viaOf, beforeDirect, made, seen, after }, null, 1);
}
