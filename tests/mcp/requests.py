"""requests.py — an MCP server that, inside a tools/call, sends the client requests of its own
(ping, roots/list, sampling/createMessage, one with a bad id), a notification and a response with
an unknown id, waits for the client's answers, and returns them as the tool's text. It also pages
tools/list over three pages (with one invalid tool name to skip), offers a tool whose result is
isError:true and one that fails with a JSON-RPC error."""
import json
import sys
import fakemcp

PAGES = [
    [{"name": "ok", "description": "answers 'ok'", "inputSchema": {"type": "object"}}],
    [{"name": "misbehave", "inputSchema": {"type": "object"}},
     {"name": "bad name!", "inputSchema": {"type": "object"}}],
    [{"name": "fails", "description": "isError", "inputSchema": {"type": "object"}},
     {"name": "rpcerror", "description": "JSON-RPC error"}],
]


def on_call(m):
    name = m["params"]["name"]
    if name == "fails":
        fakemcp.text_result(m["id"], "it broke", is_error=True)
        return
    if name == "rpcerror":
        fakemcp.send({"jsonrpc": "2.0", "id": m["id"], "error": {"code": -32602, "message": "bad arguments"}})
        return
    fakemcp.send({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 1, "progress": 1}})
    fakemcp.send({"jsonrpc": "2.0", "id": 999999, "result": {"stale": True}})
    fakemcp.send({"jsonrpc": "2.0", "id": "p1", "method": "ping"})
    fakemcp.send({"jsonrpc": "2.0", "id": 7, "method": "roots/list"})
    fakemcp.send({"jsonrpc": "2.0", "id": 8, "method": "sampling/createMessage", "params": {"messages": []}})
    fakemcp.send({"jsonrpc": "2.0", "id": {"bad": 1}, "method": "ping"})
    answers = []
    while len(answers) < 4:
        a = fakemcp.read()
        if "method" in a:
            continue
        answers.append(a)
    fakemcp.text_result(m["id"], json.dumps(answers, sort_keys=True))


fakemcp.serve(on_call, pages=PAGES)
