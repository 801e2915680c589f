"""dies.py — an MCP server that dies in the middle of a tools/call (half a line, exit 3)."""
import os
import sys
import fakemcp


def on_call(m):
    sys.stdout.write('{"jsonrpc":"2.0","id":%d,"res' % m["id"])
    sys.stdout.flush()
    os._exit(3)


fakemcp.serve(on_call)
