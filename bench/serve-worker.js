// bench/serve-worker.js — the session of bench/serve-worker-peer.ts, run in a fresh
// permission-less Web Worker: the hello agent's work (bench/hello-agent.js, bench/hello.js) on
// the input the server posts, its result posted back.
self.onmessage = (e) => {
  self.postMessage({ greeting: `Hello, ${e.data?.name ?? "world"}!` });
};
