"""silent.py — an MCP server that never answers a tools/call and ignores SIGTERM (so stopping
it takes SIGKILL). It keeps reading its input."""
import signal
import fakemcp

signal.signal(signal.SIGTERM, signal.SIG_IGN)


def on_call(m):
    pass


fakemcp.serve(on_call)
