//! mode: eval
//! stdout: no ambient I/O
// A bare run holds no I/O capability: none of the names other runtimes use for files, network,
// processes, clocks or native code exist, and what remains cannot block or observe the GC
// (WeakRef and FinalizationRegistry exist but hold their targets for the whole run and never call
// a cleanup: checked below and in tests/cases_lang.py).
// (Buffer, fetch and setImmediate are captured surface — pure code, the gated `http` effect and a
// virtual-time timer — and are checked by their own tests.)
const forbidden = [
  "require", "module", "exports", "XMLHttpRequest", "WebSocket",
  "print", "std", "os", "scriptArgs", "Deno", "Bun", "navigator", "performance", "importScripts",
  "Worker", "SharedWorker", "__filename",
  "__dirname", "chidori", "run", "host", "natives",
];
const present = forbidden.filter((n) => typeof globalThis[n] !== "undefined" || n in globalThis);
if (present.length) throw new Error("ambient names present: " + present.join(", "));
// `process` and `global` exist for packages (issue 24; this fixture asserted their absence before),
// but nothing of the host reaches them: no environment variable, no real pid, argv or working
// folder, and no way to exit or signal the host.
if (global !== globalThis) throw new Error("global is not globalThis");
const envKeys = Object.keys(process.env);
if (envKeys.length) throw new Error("process.env leaks host variables: " + envKeys.join(", "));
if (process.env.PATH !== undefined || process.env.HOME !== undefined) throw new Error("process.env has PATH/HOME");
if (process.pid !== 1 || process.ppid !== 0) throw new Error("process.pid is not the fixed 1: " + process.pid);
if (process.argv.length !== 0 || process.execArgv.length !== 0) throw new Error("process.argv leaks: " + process.argv);
if (process.cwd() !== "/") throw new Error("process.cwd() leaks: " + process.cwd());
for (const f of ["exit", "abort", "kill", "chdir", "reallyExit"]) {
  let refused = false;
  try { process[f](0); } catch (e) { refused = /not available inside a chidori run/.test(e.message); }
  if (!refused) throw new Error("process." + f + "() was not refused");
}
if (typeof process.binding !== "undefined" || typeof process.dlopen !== "undefined") throw new Error("native hooks present");
// Atomics.wait must not block the run.
let blocked = "threw";
try {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10000);
  blocked = "returned";
} catch (e) {
  if (!(e instanceof TypeError)) blocked = "threw " + e.name;
}
if (blocked !== "threw") throw new Error("Atomics.wait " + blocked);
// WeakRef and FinalizationRegistry cannot observe the collector: a dropped target still derefs
// after a lot of garbage, and no cleanup callback is ever called.
let cleanups = 0;
const registry = new FinalizationRegistry(() => { cleanups++; });
const ref = (() => { const target = { kept: true }; registry.register(target, "t"); return new WeakRef(target); })();
for (let i = 0; i < 200000; i++) { const a = {}; a.self = a; }
setTimeout(() => {  // after the jobs a collection could have queued (an exception here fails the run)
  if (!ref.deref() || ref.deref().kept !== true || cleanups !== 0) throw new Error("the GC is observable");
}, 1);
// Function constructors work but see the same global: nothing new appears.
const g = new Function("return this")();
if (g !== globalThis) throw new Error("Function('return this') is a different global");
// The clock does not move while code runs; only virtual timers move it.
const t0 = Date.now();
for (let i = 0; i < 1e6; i++);
if (Date.now() !== t0) throw new Error("the clock moved during computation");
console.log("no ambient I/O");
