#!/usr/bin/env python3
"""marker.py — a well-behaved fake MCP server that notes every start: it appends one line to the
file named by argv[1] as soon as it runs (before any message), so a test can tell whether chidori
started it at all. Tools: `read` and `write` (both answer "done"). Python 3 stdlib only."""
import sys

from fakemcp import serve, text_result

with open(sys.argv[1], "a") as f:
    f.write("started\n")

TOOLS = [{"name": "read", "description": "reads a thing", "inputSchema": {"type": "object"}},
         {"name": "write", "description": "writes a thing", "inputSchema": {"type": "object"}}]

serve(lambda m: text_result(m["id"], "done"), tools=TOOLS)
