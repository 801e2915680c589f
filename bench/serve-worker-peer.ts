// bench/serve-worker-peer.ts — the second peer of bench/serve: a Deno HTTP server that answers
// each POST /sessions by starting a fresh module Web Worker with no permissions at all
// (`deno: { permissions: "none" }`, which Deno gates behind --unstable-worker-options), handing
// it the session's input, waiting for the hello agent's result (bench/serve-worker.js) and
// terminating the worker. One V8 isolate per session on a thread of the server's process: the
// lightest per-session separation Deno offers, lighter than a process per request.
const url = new URL("./serve-worker.js", import.meta.url).href;

function session(input: unknown): Promise<unknown> {
  const w = new Worker(url, { type: "module", deno: { permissions: "none" } } as WorkerOptions);
  return new Promise<unknown>((resolve, reject) => {
    w.onmessage = (e: MessageEvent) => resolve(e.data);
    w.onerror = (e: ErrorEvent) => { e.preventDefault(); reject(new Error(e.message)); };
    w.postMessage(input);
  }).finally(() => w.terminate());
}

const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: ({ port }) => console.log(port) }, async (req) => {
  if (req.method !== "POST") return new Response("not found", { status: 404 });
  const body = await req.json();
  const output = await session(body.input ?? {});
  return new Response(JSON.stringify({ status: "completed", output }), {
    status: 201,
    headers: { "content-type": "application/json" },
  });
});
await server.finished;
