#!/usr/bin/env python3
"""server.py — a local HTTP server for the `http` effect's tests. Python 3 stdlib only.

    python3 tests/http/server.py

Binds 127.0.0.1 (and ::1 on the same port when it can) on a free port, prints the port as its
first stdout line, and exits when its stdin reaches end of file (so a test that dies takes the
server with it). It never binds anything but loopback.

Every request is counted (by path, without the query) except GET /__requests, which answers
{"total": N, "paths": {path: N}}. Routes:
    /echo                 200 JSON {method, path, query, headers (lower-case names), body (text)}
    /raw                  200 with the request body as it came
    /redirect?to=URL&status=N   a redirect (default 302) to URL
    /loop                 302 to /loop, forever
    /chain/N              302 to /chain/N-1; /chain/0 answers 200 "end of chain"
    /big?n=N              200 with N bytes of 'x' (&unsized: without Content-Length; &ms=M: after M ms)
    /slow?ms=N            sleeps N ms, then 200 "slow"
    /gate?name=G          waits until /open?name=G is asked (at most 300 s), then 200 "open"
    /open?name=G          opens gate G (now, or for a /gate that comes later): 200 "opened"
    /headers              200 with repeated headers (set-cookie twice, x-multi twice)
    /manyheaders?n=N      200 with N extra headers
    /status/N             status N with a short body (none for 204/304)
    anything else         404
"""
import json
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

LOCK = threading.Lock()
COUNTS = {}
GATES = {}  # name -> threading.Event


def gate(name):
    with LOCK:
        return GATES.setdefault(name, threading.Event())


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "chidori-test"
    sys_version = ""

    def log_message(self, *args):
        pass

    def reply(self, status, body=b"", headers=(), reason=None):
        self.send_response(status, reason)
        for k, v in headers:
            self.send_header(k, v)
        if status not in (204, 304):
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD" and status not in (204, 304):
            self.wfile.write(body)

    def handle_any(self):
        parts = urlsplit(self.path)
        path, query = parts.path, parse_qs(parts.query)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        if path == "/__requests":
            with LOCK:
                data = {"total": sum(COUNTS.values()), "paths": dict(COUNTS)}
            return self.reply(200, json.dumps(data).encode(), [("Content-Type", "application/json")])
        with LOCK:
            COUNTS[path] = COUNTS.get(path, 0) + 1
        if path == "/echo":
            data = {"method": self.command, "path": path, "query": parts.query,
                    "headers": {k.lower(): ", ".join(self.headers.get_all(k)) for k in self.headers.keys()},
                    "body": body.decode("utf-8", "replace")}
            return self.reply(200, json.dumps(data, sort_keys=True).encode(),
                              [("Content-Type", "application/json"), ("X-Echo", "yes")])
        if path == "/raw":
            return self.reply(200, body, [("Content-Type", "application/octet-stream")])
        if path == "/redirect":
            status = int(query.get("status", ["302"])[0])
            return self.reply(status, b"moved", [("Location", query["to"][0])])
        if path == "/loop":
            return self.reply(302, b"again", [("Location", "/loop")])
        if path.startswith("/chain/"):
            n = int(path[7:])
            if n <= 0:
                return self.reply(200, b"end of chain", [("Content-Type", "text/plain")])
            return self.reply(302, b"", [("Location", f"/chain/{n - 1}")])
        if path == "/big":
            n = int(query["n"][0])
            if "ms" in query:
                time.sleep(int(query["ms"][0]) / 1000)
            if "unsized" in query:  # no Content-Length: the body ends when the connection closes
                self.send_response(200)
                self.send_header("Connection", "close")
                self.end_headers()
                self.close_connection = True
                for _ in range(n // 65536):
                    self.wfile.write(b"x" * 65536)
                return self.wfile.write(b"x" * (n % 65536))
            return self.reply(200, b"x" * n, [("Content-Type", "text/plain")])
        if path == "/gate":
            opened = gate(query["name"][0]).wait(timeout=300)
            return self.reply(200 if opened else 504, b"open" if opened else b"never opened")
        if path == "/open":
            gate(query["name"][0]).set()
            return self.reply(200, b"opened")
        if path == "/slow":
            time.sleep(int(query["ms"][0]) / 1000)
            return self.reply(200, b"slow")
        if path == "/headers":
            return self.reply(200, b"{}", [("Content-Type", "application/json"), ("Set-Cookie", "a=1"),
                                          ("Set-Cookie", "b=2"), ("X-Multi", "one"), ("X-Multi", "two"),
                                          ("X-Latin1", "caf\u00e9")])
        if path == "/manyheaders":
            return self.reply(200, b"ok", [(f"X-H{i}", "v") for i in range(int(query["n"][0]))])
        if path.startswith("/status/"):
            status = int(path[8:])
            return self.reply(status, b"" if status in (204, 304) else f"status {status}".encode(),
                              [("Content-Type", "text/plain")], reason="Custom Reason" if status == 299 else None)
        return self.reply(404, b"not found")

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = do_OPTIONS = handle_any


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass  # a client that hangs up early (a cap, a timeout) is expected here


class V6Server(Server):
    address_family = socket.AF_INET6


def main():
    v4 = Server(("127.0.0.1", 0), Handler)
    port = v4.server_address[1]
    servers = [v4]
    try:
        v6 = V6Server(("::1", port), Handler)
        servers.append(v6)
    except OSError:
        pass
    for s in servers:
        threading.Thread(target=s.serve_forever, daemon=True).start()
    print(port, flush=True)
    if sys.stdin.isatty():
        threading.Event().wait()
    else:
        sys.stdin.read()


if __name__ == "__main__":
    main()
