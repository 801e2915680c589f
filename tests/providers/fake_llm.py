#!/usr/bin/env python3
"""fake_llm.py — a local stand-in for the LLM providers, for tests. Python 3 stdlib only.

    python3 tests/providers/fake_llm.py SCRIPT.json

Binds 127.0.0.1 on a free port and prints the port as its first stdout line. When its stdin is a
pipe it exits at end of file (so a test that dies takes the server with it); otherwise it runs
until SIGTERM or Ctrl-C.

It speaks both wire formats, chosen by the request path:
    POST .../chat/completions   OpenAI chat completions
    POST .../v1/messages        Anthropic messages

SCRIPT.json is a list of canned responses, consumed one per POST in order (whatever the format).
Each entry is an object; the keys it may use:
    "text": "..."                 the assistant's text reply
    "toolCalls": [{"id", "name", "input"}]   tool calls (input is any JSON; OpenAI gets it as a
                                  JSON string in function.arguments, as the real API sends it)
    "argumentsRaw": "..."         OpenAI only: send this string as the first call's arguments
    "model": "...", "stopReason": "...", "usage": {"input": N, "output": N, "cacheRead"?: N, "cacheCreation"?: N}
                                  (cacheRead: OpenAI prompt_tokens_details.cached_tokens, Anthropic
                                  cache_read_input_tokens; cacheCreation: Anthropic cache_creation_input_tokens)
    "id": "..."                   the response id (default chatcmpl-fake / msg_fake)
    "pieces": N                   a streamed reply's text in N pieces (default 3)
    "sse": "..."                  answer a streamed request with exactly this event-stream body
    "noStream": true              answer a streamed request with the whole JSON reply
    "padBytes": N                 append N 'x' characters to the text (oversize responses)
    "status": N, "body": "..."    answer exactly this status and raw body (no rendering)
    "json": {...}                 answer this JSON as the body (with "status", default 200)
    "delayMs": N                  sleep this long before answering (combines with the others)
    "headers": {"Name": "value"}  add these headers to the answer (a 429's Retry-After, …)
A request whose body has "stream": true is answered as the provider streams (text/event-stream):
OpenAI-compatible chunks (choices[0].delta, tool calls by index with their arguments in two parts,
the usage in a last chunk when stream_options.include_usage, then [DONE]); Anthropic's message_start,
content_block_start/_delta/_stop, message_delta and message_stop events.
When the script is used up, every further POST gets 500 "fake_llm: script exhausted".

Every request is recorded (method, path, headers, JSON body — or the raw text if it is not JSON —
and atMs, when it arrived on the monotonic clock in ms).
GET /__requests answers {"counts": {"openai": N, "anthropic": N, "other": N}, "requests": [...]}.
"""
import json
import os
import stat
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOCK = threading.Lock()
SCRIPT = []
REQUESTS = []
COUNTS = {"openai": 0, "anthropic": 0, "other": 0}


def wire_format(path):
    p = path.split("?", 1)[0]
    if p.endswith("/chat/completions"):
        return "openai"
    if p.endswith("/v1/messages"):
        return "anthropic"
    return "other"


def render_openai(entry):
    text = entry.get("text")
    if entry.get("padBytes"):
        text = (text or "") + "x" * int(entry["padBytes"])
    calls = entry.get("toolCalls") or []
    message = {"role": "assistant", "content": text}
    if calls:
        out = []
        for i, c in enumerate(calls):
            args = json.dumps(c.get("input", {}))
            if i == 0 and "argumentsRaw" in entry:
                args = entry["argumentsRaw"]
            out.append({"id": c.get("id", "call_%d" % i), "type": "function",
                        "function": {"name": c.get("name"), "arguments": args}})
        message["tool_calls"] = out
    usage = entry.get("usage", {"input": 11, "output": 7})
    u = {"prompt_tokens": usage.get("input", 0), "completion_tokens": usage.get("output", 0),
         "total_tokens": usage.get("input", 0) + usage.get("output", 0)}
    if "cacheRead" in usage:
        u["prompt_tokens_details"] = {"cached_tokens": usage["cacheRead"]}
    return {
        "id": entry.get("id", "chatcmpl-fake"),
        "object": "chat.completion",
        "created": 0,
        "model": entry.get("model", "gpt-fake"),
        "choices": [{"index": 0, "message": message,
                     "finish_reason": entry.get("stopReason", "tool_calls" if calls else "stop")}],
        "usage": u,
    }


def render_anthropic(entry):
    content = []
    text = entry.get("text")
    if entry.get("padBytes"):
        text = (text or "") + "x" * int(entry["padBytes"])
    if text:
        content.append({"type": "text", "text": text})
    calls = entry.get("toolCalls") or []
    for i, c in enumerate(calls):
        content.append({"type": "tool_use", "id": c.get("id", "toolu_%d" % i), "name": c.get("name"),
                        "input": c.get("input", {})})
    usage = entry.get("usage", {"input": 11, "output": 7})
    u = {"input_tokens": usage.get("input", 0), "output_tokens": usage.get("output", 0)}
    if "cacheRead" in usage:
        u["cache_read_input_tokens"] = usage["cacheRead"]
    if "cacheCreation" in usage:
        u["cache_creation_input_tokens"] = usage["cacheCreation"]
    return {
        "id": entry.get("id", "msg_fake"),
        "type": "message",
        "role": "assistant",
        "model": entry.get("model", "claude-fake"),
        "content": content,
        "stop_reason": entry.get("stopReason", "tool_use" if calls else "end_turn"),
        "stop_sequence": None,
        "usage": u,
    }


def pieces(text, n):
    """text cut in n pieces (fewer when it is shorter), concatenating to it."""
    if not text:
        return []
    n = max(1, min(n, len(text)))
    step = -(-len(text) // n)
    return [text[i:i + step] for i in range(0, len(text), step)]


def sse(events):
    out = []
    for name, data in events:
        if name:
            out.append("event: %s\n" % name)
        out.append("data: %s\n\n" % (data if isinstance(data, str) else json.dumps(data)))
    return "".join(out)


def stream_openai(entry, request):
    whole = render_openai(entry)
    msg, choice = whole["choices"][0]["message"], whole["choices"][0]
    head = {"id": whole["id"], "object": "chat.completion.chunk", "created": 0, "model": whole["model"]}
    events = [(None, dict(head, choices=[{"index": 0, "delta": {"role": "assistant"}, "finish_reason": None}]))]
    for p in pieces(msg.get("content") or "", int(entry.get("pieces", 3))):
        events.append((None, dict(head, choices=[{"index": 0, "delta": {"content": p}, "finish_reason": None}])))
    for i, c in enumerate(msg.get("tool_calls") or []):
        args = c["function"]["arguments"]
        half = len(args) // 2
        first = {"index": i, "id": c["id"], "type": "function", "function": {"name": c["function"]["name"], "arguments": args[:half]}}
        events.append((None, dict(head, choices=[{"index": 0, "delta": {"tool_calls": [first]}, "finish_reason": None}])))
        rest = {"index": i, "function": {"arguments": args[half:]}}
        events.append((None, dict(head, choices=[{"index": 0, "delta": {"tool_calls": [rest]}, "finish_reason": None}])))
    events.append((None, dict(head, choices=[{"index": 0, "delta": {}, "finish_reason": choice["finish_reason"]}])))
    if (request.get("stream_options") or {}).get("include_usage"):
        events.append((None, dict(head, choices=[], usage=whole["usage"])))
    events.append((None, "[DONE]"))
    return sse(events)


def stream_anthropic(entry):
    whole = render_anthropic(entry)
    usage = dict(whole["usage"])
    out_tokens = usage.pop("output_tokens", 0)
    start = {k: whole[k] for k in ("id", "type", "role", "model")}
    start.update(content=[], stop_reason=None, stop_sequence=None, usage=dict(usage, output_tokens=1))
    events = [("message_start", {"type": "message_start", "message": start}), ("ping", {"type": "ping"})]
    for i, b in enumerate(whole["content"]):
        if b["type"] == "text":
            events.append(("content_block_start", {"type": "content_block_start", "index": i, "content_block": {"type": "text", "text": ""}}))
            for p in pieces(b["text"], int(entry.get("pieces", 3))):
                events.append(("content_block_delta", {"type": "content_block_delta", "index": i, "delta": {"type": "text_delta", "text": p}}))
        else:
            events.append(("content_block_start", {"type": "content_block_start", "index": i,
                                                   "content_block": {"type": "tool_use", "id": b["id"], "name": b["name"], "input": {}}}))
            args = json.dumps(b["input"])
            half = len(args) // 2
            for p in (args[:half], args[half:]):
                events.append(("content_block_delta", {"type": "content_block_delta", "index": i, "delta": {"type": "input_json_delta", "partial_json": p}}))
        events.append(("content_block_stop", {"type": "content_block_stop", "index": i}))
    events.append(("message_delta", {"type": "message_delta", "delta": {"stop_reason": whole["stop_reason"], "stop_sequence": None},
                                     "usage": {"output_tokens": out_tokens}}))
    events.append(("message_stop", {"type": "message_stop"}))
    return sse(events)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "fake_llm/1"

    def log_message(self, fmt, *args):  # quiet
        pass

    def send(self, status, body, ctype="application/json"):
        if isinstance(body, str):
            body = body.encode("utf-8")
        try:
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            for k, v in (getattr(self, "extra_headers", None) or {}).items():
                self.send_header(k, str(v))
            self.end_headers()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def do_GET(self):
        if self.path.split("?", 1)[0] == "/__requests":
            with LOCK:
                body = json.dumps({"counts": COUNTS, "requests": REQUESTS})
            self.send(200, body)
        else:
            self.send(404, '{"error": {"message": "not found"}}')

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw)
        except ValueError:
            body = raw.decode("utf-8", "replace")
        fmt = wire_format(self.path)
        with LOCK:
            REQUESTS.append({"method": "POST", "path": self.path, "format": fmt,
                             "headers": {k.lower(): v for k, v in self.headers.items()}, "body": body,
                             "atMs": round(time.monotonic() * 1000, 1)})
            COUNTS[fmt] += 1
            entry = SCRIPT.pop(0) if SCRIPT else None
        if entry is None:
            self.send(500, "fake_llm: script exhausted", "text/plain")
            return
        if entry.get("delayMs"):
            time.sleep(entry["delayMs"] / 1000.0)
        self.extra_headers = entry.get("headers")
        if "body" in entry:
            self.send(int(entry.get("status", 200)), entry["body"], "text/plain")
        elif "json" in entry:
            self.send(int(entry.get("status", 200)), json.dumps(entry["json"]))
        elif isinstance(body, dict) and body.get("stream") is True and not entry.get("noStream") and fmt != "other":
            if "sse" in entry:
                text = entry["sse"]
            else:
                text = stream_openai(entry, body) if fmt == "openai" else stream_anthropic(entry)
            self.send(int(entry.get("status", 200)), text, "text/event-stream")
        elif fmt == "openai":
            self.send(int(entry.get("status", 200)), json.dumps(render_openai(entry)))
        elif fmt == "anthropic":
            self.send(int(entry.get("status", 200)), json.dumps(render_anthropic(entry)))
        else:
            self.send(404, '{"error": {"message": "unknown path"}}')


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: fake_llm.py SCRIPT.json\n")
        return 2
    with open(sys.argv[1], encoding="utf-8") as f:
        script = json.load(f)
    if not isinstance(script, list):
        sys.stderr.write("fake_llm: the script must be a JSON list\n")
        return 2
    SCRIPT.extend(script)
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sys.stdout.write("%d\n" % server.server_address[1])
    sys.stdout.flush()
    try:
        mode = os.fstat(0).st_mode
        if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
            while sys.stdin.buffer.read(4096):  # exit when the parent closes our stdin
                pass
        else:
            threading.Event().wait()  # run by hand: until SIGTERM or Ctrl-C
    except (KeyboardInterrupt, OSError):
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
