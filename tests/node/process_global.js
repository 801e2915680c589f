//! mode: eval
//! isolation: both
//! stdout-file: process_global.out
//! stderr: Warning: careful
// The global `process` packages lean on: fixed values (nothing of the host), an empty writable
// env, nextTick as a microtask, emitWarning on the console's warn channel (and the 'warning'
// event), an EventEmitter, exit() refused; `global` is globalThis.
const order = [];
process.nextTick((a, b) => order.push("tick " + a + b), 1, 2);
Promise.resolve().then(() => order.push("promise"));
console.log(global === globalThis, typeof process, process instanceof (Object.getPrototypeOf(process).constructor));
console.log(process.platform, process.arch, process.version, process.versions.node, process.pid, process.cwd());
console.log(JSON.stringify(process.env), process.argv.length, process.title);
process.env.MY_FLAG = "1";
console.log(process.env.MY_FLAG, Object.keys(process.env));
console.log(typeof process.on, typeof process.once, typeof process.off, typeof process.emit);
try { process.exit(3); } catch (e) { console.log("exit:", e.code, e.message.split(":")[0]); }
const [s, ns] = process.hrtime();
console.log(typeof s, typeof ns, typeof process.hrtime.bigint(), process.uptime() >= 0);
process.on("warning", (w) => console.log("warning event:", w.name, w.message));
process.emitWarning("careful");
queueMicrotask(() => queueMicrotask(() => console.log(order.join(", "))));
