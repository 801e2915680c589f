// bench/serve-peer.ts — the peer of bench/serve: a small Deno HTTP server that answers each
// POST /sessions by spawning `deno run` on bench/hello.js (a fresh process per request, the
// usual way to keep one request's code away from another's) and returning its JSON output.
const deno = Deno.execPath();
const script = new URL("./hello.js", import.meta.url).pathname;
const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: ({ port }) => console.log(port) }, async (req) => {
  if (req.method !== "POST") return new Response("not found", { status: 404 });
  await req.arrayBuffer();
  const out = await new Deno.Command(deno, { args: ["run", "--quiet", "--no-prompt", script], stdout: "piped" }).output();
  return new Response(JSON.stringify({ status: "completed", output: JSON.parse(new TextDecoder().decode(out.stdout)) }), {
    status: 201,
    headers: { "content-type": "application/json" },
  });
});
await server.finished;
