"""garbage.py — an MCP server that answers a tools/call with a line that is not JSON."""
import sys
import fakemcp


def on_call(m):
    sys.stdout.write("Traceback (most recent call last): \x1b[31mnot json\x1b[0m\n")
    sys.stdout.flush()


fakemcp.serve(on_call)
