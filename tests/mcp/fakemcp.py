"""fakemcp.py — the shared loop of the hostile fake MCP servers used by tests/unit/test_mcp.c.

Each fake server (dies.py, garbage.py, silent.py, flood.py, requests.py) is a well-behaved MCP
stdio server until a tool is called, and then misbehaves in its own way. Python 3 stdlib only.
"""
import json
import sys


def send(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def read():
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    return json.loads(line)


def text_result(msg_id, text, is_error=False):
    result = {"content": [{"type": "text", "text": text}]}
    if is_error:
        result["isError"] = True
    send({"jsonrpc": "2.0", "id": msg_id, "result": result})


DEFAULT_TOOLS = [
    {"name": "ok", "description": "answers 'ok'", "inputSchema": {"type": "object"}},
    {"name": "misbehave", "description": "misbehaves", "inputSchema": {"type": "object"}},
]


def serve(on_call, tools=None, pages=None):
    """on_call(msg) handles tools/call; "ok" is answered here. pages: list of tool lists."""
    pages = pages or [tools or DEFAULT_TOOLS]
    while True:
        m = read()
        method = m.get("method")
        if method == "initialize":
            send({"jsonrpc": "2.0", "id": m["id"], "result": {
                "protocolVersion": m["params"]["protocolVersion"],
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "fake", "version": "0"}}})
        elif method == "tools/list":
            cursor = (m.get("params") or {}).get("cursor")
            page = int(cursor) if cursor else 0
            result = {"tools": pages[page]}
            if page + 1 < len(pages):
                result["nextCursor"] = str(page + 1)
            send({"jsonrpc": "2.0", "id": m["id"], "result": result})
        elif method == "tools/call":
            if m["params"]["name"] == "ok":
                text_result(m["id"], "ok")
            else:
                on_call(m)
        elif method is not None and "id" in m:
            send({"jsonrpc": "2.0", "id": m["id"], "error": {"code": -32601, "message": "no " + method}})
