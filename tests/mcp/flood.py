"""flood.py — an MCP server that floods: `misbehave` with {"kind": "huge"} writes one line larger
than the client's message cap; {"kind": "notifications"} writes notifications forever;
{"kind": "stderr"} writes a lot to stderr (with terminal escapes) and then answers."""
import sys
import fakemcp


def on_call(m):
    kind = m["params"]["arguments"].get("kind")
    if kind == "huge":
        size = int(m["params"]["arguments"].get("size", 17 << 20))
        chunk = "x" * 65536
        sys.stdout.write('{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"' % m["id"])
        for _ in range(size // len(chunk) + 1):
            sys.stdout.write(chunk)
        sys.stdout.write('"}]}}\n')
        sys.stdout.flush()
    elif kind == "notifications":
        note = '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"%s"}}\n' % ("y" * 1000)
        while True:
            sys.stdout.write(note * 64)
    elif kind == "stderr":
        for i in range(2000):
            sys.stderr.write("noise \x1b[2J line %d %s\n" % (i, "z" * 100))
        sys.stderr.flush()
        fakemcp.text_result(m["id"], "done")


fakemcp.serve(on_call)
