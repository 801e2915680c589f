#!/usr/bin/env python3
"""counter.py — a well-behaved fake MCP server that counts its tool calls, for the durability
tests: every tools/call of `count` appends one line to the log file named by argv[1] and answers
with the running total. Python 3 stdlib only."""
import json
import sys

from fakemcp import serve, text_result

LOG = sys.argv[1]
TOOLS = [{"name": "count", "description": "adds n to a counter and returns the total",
          "inputSchema": {"type": "object", "properties": {"n": {"type": "number"}}}}]


def on_call(m):
    args = m["params"].get("arguments") or {}
    with open(LOG, "a") as f:
        f.write(json.dumps(args) + "\n")
    with open(LOG) as f:
        total = sum(json.loads(line).get("n", 0) for line in f)
    text_result(m["id"], str(total))


serve(on_call, tools=TOOLS)
