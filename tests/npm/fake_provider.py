#!/usr/bin/env python3
"""fake_provider.py — a local stand-in for the OpenAI and Anthropic HTTP APIs, for the SDK tests
(tests/cases_npm_sdks.py). Python 3 stdlib only.

    python3 tests/npm/fake_provider.py

Binds 127.0.0.1 on a free port, prints the port as its first stdout line, and exits when its stdin
reaches end of file. It answers deterministically (fixed ids and timestamps) from what the request
holds, so chidori and Node running the same agent get the same results. Every request but
GET /__requests is counted and kept ({method, path, headers, body}); GET /__requests answers
{"total": N, "requests": [...]}. Routes:
    POST /v1/chat/completions   OpenAI chat completion; "stream": true answers server-sent events
    GET  /v1/models             a page of two models (after=... gives the second, last page)
    POST /v1/files              multipart upload: echoes the file's name, size and purpose
    POST /v1/embeddings         one vector per input, from its characters
    POST /v1/messages           Anthropic message; "stream": true answers its event stream;
                                a model named "overloaded" gets 429 with an error body
    anything else               404 with an OpenAI-style error body
"""
import json
import re
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

LOCK = threading.Lock()
SEEN = []


def multipart_fields(ctype, body):
    """{name: (filename | None, bytes)} of a multipart/form-data body."""
    m = re.search(r'boundary=("?)([^";]+)\1', ctype or "")
    if not m:
        return {}
    sep = b"--" + m.group(2).encode()
    out = {}
    for part in body.split(sep)[1:]:
        if part.startswith(b"--"):
            break
        head, _, data = part.partition(b"\r\n\r\n")
        name = re.search(rb'name="([^"]*)"', head)
        fname = re.search(rb'filename="([^"]*)"', head)
        if name:
            out[name.group(1).decode()] = (fname.group(1).decode() if fname else None, data[:-2])
    return out


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, obj=None, raw=None, ctype="application/json", headers=()):
        body = raw if raw is not None else json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def sse(self, events):
        body = "".join(events).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def handle_any(self):
        parts = urlsplit(self.path)
        path, query = parts.path, parse_qs(parts.query)
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b""
        if path == "/__requests":
            with LOCK:
                return self.send(200, {"total": len(SEEN), "requests": list(SEEN)})
        ctype = self.headers.get("Content-Type") or ""
        body = json.loads(raw) if raw and ctype.startswith("application/json") else None
        with LOCK:
            SEEN.append({"method": self.command, "path": path, "query": parts.query,
                         "headers": {k.lower(): v for k, v in self.headers.items()},
                         "body": body if body is not None else raw.decode("utf-8", "replace")})
        if self.command == "POST" and path == "/v1/chat/completions":
            last = body["messages"][-1]["content"]
            if body.get("stream"):
                words = ["echo", ": ", last]
                events = []
                for i, w in enumerate(words):
                    delta = {"role": "assistant", "content": w} if i == 0 else {"content": w}
                    events.append("data: " + json.dumps({"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1700000000,
                                                         "model": body["model"], "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}) + "\n\n")
                events.append("data: " + json.dumps({"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1700000000,
                                                     "model": body["model"], "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}) + "\n\n")
                events.append("data: [DONE]\n\n")
                return self.sse(events)
            return self.send(200, {"id": "chatcmpl-1", "object": "chat.completion", "created": 1700000000, "model": body["model"],
                                   "choices": [{"index": 0, "message": {"role": "assistant", "content": "echo: " + last, "refusal": None},
                                                "finish_reason": "stop", "logprobs": None}],
                                   "usage": {"prompt_tokens": len(last), "completion_tokens": 2, "total_tokens": len(last) + 2}},
                             headers=[("x-request-id", "req-chat-1")])
        if self.command == "GET" and path == "/v1/models":
            if query.get("after") == ["model-b"]:
                return self.send(200, {"object": "list", "data": [{"id": "model-c", "object": "model", "created": 3, "owned_by": "t"}], "has_more": False})
            return self.send(200, {"object": "list", "data": [{"id": "model-a", "object": "model", "created": 1, "owned_by": "t"},
                                                              {"id": "model-b", "object": "model", "created": 2, "owned_by": "t"}], "has_more": True})
        if self.command == "POST" and path == "/v1/files":
            f = multipart_fields(ctype, raw)
            fname, data = f.get("file", (None, b""))
            return self.send(200, {"id": "file-1", "object": "file", "bytes": len(data), "created_at": 1700000000,
                                   "filename": fname, "purpose": f.get("purpose", (None, b""))[1].decode(), "status": "processed",
                                   "content": data.decode("utf-8", "replace")})
        if self.command == "POST" and path == "/v1/embeddings":
            inputs = body["input"] if isinstance(body["input"], list) else [body["input"]]
            return self.send(200, {"object": "list", "model": body["model"], "usage": {"prompt_tokens": 1, "total_tokens": 1},
                                   "data": [{"object": "embedding", "index": i, "embedding": [len(s), ord(s[0]) if s else 0, 0.5]}
                                            for i, s in enumerate(inputs)]})
        if self.command == "POST" and path == "/v1/messages":
            if body["model"] == "overloaded":
                return self.send(429, {"type": "error", "error": {"type": "rate_limit_error", "message": "slow down"}},
                                 headers=[("request-id", "req-429")])
            last = body["messages"][-1]["content"]
            if body.get("stream"):
                def ev(name, data):
                    return "event: " + name + "\ndata: " + json.dumps(data) + "\n\n"
                return self.sse([
                    ev("message_start", {"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant", "model": body["model"],
                                                                               "content": [], "stop_reason": None, "stop_sequence": None,
                                                                               "usage": {"input_tokens": len(last), "output_tokens": 1}}}),
                    ev("content_block_start", {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
                    ev("ping", {"type": "ping"}),
                    ev("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "echo: "}}),
                    ev("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": last}}),
                    ev("content_block_stop", {"type": "content_block_stop", "index": 0}),
                    ev("message_delta", {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None}, "usage": {"output_tokens": 3}}),
                    ev("message_stop", {"type": "message_stop"}),
                ])
            return self.send(200, {"id": "msg_1", "type": "message", "role": "assistant", "model": body["model"],
                                   "content": [{"type": "text", "text": "echo: " + last}], "stop_reason": "end_turn", "stop_sequence": None,
                                   "usage": {"input_tokens": len(last), "output_tokens": 3}})
        return self.send(404, {"error": {"message": "no route " + self.command + " " + path, "type": "invalid_request_error", "code": "not_found"}})

    do_GET = do_POST = do_DELETE = handle_any


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass


def main():
    srv = Server(("127.0.0.1", 0), Handler)
    print(srv.server_address[1], flush=True)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    sys.stdin.read()
    srv.shutdown()


if __name__ == "__main__":
    main()
