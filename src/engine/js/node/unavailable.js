/* node/unavailable.js — the Node modules that cannot work inside a chidori run (processes,
 * sockets, servers, threads, the host's OS). Each resolves, so code that merely imports one still
 * loads; every function it exports throws a clear error naming the module and what to use
 * instead. The exported names are the module's common entry points, so `import { spawn } from
 * "node:child_process"` links and fails only when called. */
(function (require, natives, name) {
  "use strict";
  const NAMES = {
    child_process: ["exec", "execSync", "execFile", "execFileSync", "spawn", "spawnSync", "fork"],
    net: ["createServer", "createConnection", "connect", "Socket", "Server", "isIP", "isIPv4", "isIPv6"],
    tls: ["connect", "createServer", "createSecureContext", "TLSSocket"],
    dns: ["lookup", "resolve", "resolve4", "resolve6", "reverse", "promises"],
    "dns/promises": ["lookup", "resolve", "resolve4", "resolve6", "reverse"],
    dgram: ["createSocket"],
    worker_threads: ["Worker", "isMainThread", "parentPort", "workerData"],
    cluster: ["fork", "isPrimary", "isMaster"],
    vm: ["runInNewContext", "runInThisContext", "createContext", "Script", "compileFunction"],
    v8: ["serialize", "deserialize", "getHeapStatistics"],
    inspector: ["open", "Session"],
    module: ["createRequire", "builtinModules"],
    readline: ["createInterface"],
    repl: ["start"],
    http2: ["connect", "createServer", "createSecureServer"],
    os: ["platform", "cpus", "totalmem", "freemem", "homedir", "tmpdir", "hostname", "networkInterfaces", "userInfo", "type", "release", "arch"],
    process: ["exit", "cwd", "env", "argv", "nextTick", "hrtime"],
    perf_hooks: ["performance", "PerformanceObserver"],
    async_hooks: ["AsyncLocalStorage", "createHook", "AsyncResource"],
    zlib: ["gzip", "gunzip", "gzipSync", "gunzipSync", "deflate", "inflate", "deflateSync", "inflateSync", "createGzip", "createGunzip"],
    sqlite: ["DatabaseSync"],
    test: ["test", "describe", "it"],
    wasi: ["WASI"],
    trace_events: ["createTracing"],
  };
  const WHY = "agents in chidori have no processes, sockets, threads or host OS; " +
    "use chidori.* effects (tool, callAgent, workspace) and fetch instead";

  function unavailable() {
    const err = new Error("node:" + name + " is not available in chidori: " + WHY);
    err.code = "ERR_CHIDORI_UNAVAILABLE";
    throw err;
  }

  const exports = {};
  const names = NAMES[name] || [];
  for (let i = 0; i < names.length; i++) exports[names[i]] = unavailable;
  exports.default = new Proxy({}, { get: unavailable, set: unavailable, has: unavailable, ownKeys: unavailable });
  return Object.freeze(exports);
})
