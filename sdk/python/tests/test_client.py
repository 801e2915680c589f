"""test_client.py — the client's HTTP behaviour (retry rule, timeouts, error mapping, SSE reading)
against a scripted local server on 127.0.0.1. The real server is in test_e2e.py."""
import json
import os
import socket
import sys
import threading
import time
import unittest
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import chidori_sdk  # noqa: E402
from chidori_sdk import AgentClient, ChidoriConnectionError, ChidoriTimeoutError, HttpError  # noqa: E402


class FakeServer:
    """Runs `route(handler, hits)` for every request; handler has .send_json / .send_sse."""

    def __init__(self, route, port=0):
        self.hits = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a):
                pass

            def handle_any(self):
                n = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(n).decode() if n else ""
                outer.hits.append({"method": self.command, "path": self.path, "headers": dict(self.headers), "body": body})
                route(self, outer.hits)

            do_GET = do_POST = handle_any

            def send_json(self, status, body, headers=None):
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

            def send_sse(self, parts, end=True, gap=0.005):
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Connection", "close")
                self.end_headers()
                for p in parts:
                    self.wfile.write(p.encode())
                    self.wfile.flush()
                    time.sleep(gap)
                if not end:
                    time.sleep(2)
                self.close_connection = True

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class ClientTest(unittest.TestCase):
    def serve(self, route):
        srv = FakeServer(route)
        self.addCleanup(srv.close)
        return srv

    def test_http_error(self):
        srv = self.serve(lambda h, hits: h.send_json(404, {"error": "Session not found"}))
        with self.assertRaises(HttpError) as cm:
            AgentClient(srv.url, retries=0).get_session("nope")
        e = cm.exception
        self.assertEqual((e.status, e.error, e.body), (404, "Session not found", {"error": "Session not found"}))
        self.assertIn("GET /sessions/nope: 404 Session not found", str(e))

    def test_auth_and_body(self):
        srv = self.serve(lambda h, hits: h.send_json(201, {"id": "s1", "status": "completed"}))
        s = AgentClient(srv.url + "/", api_key="k3y").run({"a": 1}, policy_profile="supervised", session_id="s1")
        self.assertEqual(s["id"], "s1")
        hit = srv.hits[0]
        self.assertEqual(hit["path"], "/sessions")
        self.assertEqual(hit["headers"]["Authorization"], "Bearer k3y")
        self.assertEqual(json.loads(hit["body"]), {"input": {"a": 1}, "policy_profile": "supervised", "session_id": "s1"})
        c = AgentClient(srv.url)
        c.run({}, wait=True)
        c.run({}, wait=False)
        c.approve("s1", "deny", wait=False)
        c.replay("s1")
        self.assertEqual([json.loads(h["body"]) for h in srv.hits[1:]],
                         [{"input": {}}, {"input": {}, "wait": False}, {"decision": "deny", "wait": False}, {}])

    def test_id_escaped(self):
        srv = self.serve(lambda h, hits: h.send_json(200, {"id": "x", "status": "paused"}))
        AgentClient(srv.url).resume("a/b ?", "yes")
        self.assertEqual(srv.hits[0]["path"], "/sessions/a%2Fb%20%3F/resume")
        with self.assertRaises(ValueError):
            AgentClient(srv.url).approve("x", "maybe")

    def test_get_retried_on_503(self):
        def route(h, hits):
            if len(hits) < 3:
                h.send_json(503, {"error": "busy"}, {"Retry-After": "0"})
            else:
                h.send_json(200, {"sessions": []})
        srv = self.serve(route)
        self.assertEqual(AgentClient(srv.url, retries=2, retry_delay=0.01).list_sessions(), [])
        self.assertEqual(len(srv.hits), 3)

    def test_get_gives_up(self):
        srv = self.serve(lambda h, hits: h.send_json(502, {"error": "bad gateway"}))
        with self.assertRaises(HttpError) as cm:
            AgentClient(srv.url, retries=1, retry_delay=0.005).get_session("s")
        self.assertEqual(cm.exception.status, 502)
        self.assertEqual(len(srv.hits), 2)

    def test_post_never_resent(self):
        def route(h, hits):
            if h.path.endswith("/approve"):
                h.send_json(503, {"error": "busy"}, {"Retry-After": "1"})
            elif h.path.endswith("/resume"):
                h.connection.shutdown(socket.SHUT_RDWR)
                h.close_connection = True
            else:
                time.sleep(1)  # never answers in time
        srv = self.serve(route)
        c = AgentClient(srv.url, retries=3, retry_delay=0.005, timeout=0.3)
        with self.assertRaises(HttpError) as cm:
            c.approve("s", "allow")
        self.assertEqual(cm.exception.retry_after, 1.0)
        with self.assertRaises(ChidoriConnectionError) as cm2:
            c.resume("s", "x")
        self.assertFalse(cm2.exception.not_sent)
        with self.assertRaises(ChidoriTimeoutError):
            c.run({})
        self.assertEqual([h["path"] for h in srv.hits], ["/sessions/s/approve", "/sessions/s/resume", "/sessions"])

    def test_get_retried_after_drop_and_timeout(self):
        def route(h, hits):
            if len(hits) == 1:
                h.connection.shutdown(socket.SHUT_RDWR)
                h.close_connection = True
            elif len(hits) == 2:
                time.sleep(0.6)
                h.close_connection = True
            else:
                h.send_json(200, {"status": "ok"})
        srv = self.serve(route)
        self.assertEqual(AgentClient(srv.url, retries=2, retry_delay=0.005, timeout=0.3).health(), {"status": "ok"})
        self.assertEqual(len(srv.hits), 3)

    def test_refused_then_post_retried_once(self):
        port = free_port()
        with self.assertRaises(ChidoriConnectionError) as cm:
            AgentClient(f"http://127.0.0.1:{port}", retries=0).run({})
        self.assertTrue(cm.exception.not_sent)
        self.assertIsInstance(cm.exception, ConnectionError)  # the builtin, too
        self.assertIs(chidori_sdk.ConnectionError, ChidoriConnectionError)
        holder = {}
        timer = threading.Timer(0.1, lambda: holder.setdefault("srv", FakeServer(
            lambda h, hits: h.send_json(201, {"id": "s", "status": "completed"}), port)))
        timer.start()
        try:
            s = AgentClient(f"http://127.0.0.1:{port}", retries=5, retry_delay=0.08).run({})
            self.assertEqual(s["status"], "completed")
            self.assertEqual([h["path"] for h in holder["srv"].hits], ["/sessions"])
        finally:
            timer.join()
            if "srv" in holder:
                holder["srv"].close()

    def test_wait_polls(self):
        polls = []

        def route(h, hits):
            if h.command == "POST":
                return h.send_json(201, {"id": "s", "status": "running"})
            if h.path == "/sessions/forever":
                return h.send_json(200, {"id": "forever", "status": "running"})
            polls.append(1)
            h.send_json(200, {"id": "s", "status": "running" if len(polls) < 3 else "paused"})
        srv = self.serve(route)
        self.assertEqual(AgentClient(srv.url).run({}, wait=True)["status"], "paused")
        self.assertEqual(len(polls), 3)
        with self.assertRaises(ChidoriTimeoutError) as cm:
            AgentClient(srv.url).wait_for("forever", timeout=0.1)
        self.assertIsInstance(cm.exception, TimeoutError)  # the builtin, too

    def test_stream(self):
        srv = self.serve(lambda h, hits: h.send_sse([
            ": keep-alive\n\n",
            'event: call\ndata: {"seq":0,"function":"log",',
            '"args":{}}\n\nevent: prompt_delta\r\ndata: {"delta":"hi"}\r\n\r\n',
            'event: call\ndata: {"seq":1,"function":"mark"}\n\n',
            'event: done\ndata: {"id":"s","status":"completed","output":1}\n\n',
            'event: call\ndata: {"seq":99}\n\n',
        ]))
        evs = list(AgentClient(srv.url, api_key="k").stream({"x": 1}, policy_profile="supervised"))
        self.assertEqual([e.type for e in evs], ["call", "prompt_delta", "call", "done"])
        self.assertEqual(evs[0].record["function"], "log")
        self.assertEqual(evs[1].delta, "hi")
        self.assertEqual(evs[3].status, "completed")
        self.assertEqual(srv.hits[0]["headers"]["Accept"], "text/event-stream")

    def test_stream_ends_early(self):
        srv = self.serve(lambda h, hits: h.send_sse(['event: call\ndata: {"seq":0}\n\n']))
        evs = []
        with self.assertRaises(ChidoriConnectionError):
            for ev in AgentClient(srv.url).attach("s"):
                evs.append(ev)
        self.assertEqual(len(evs), 1)
        self.assertEqual(srv.hits[0]["path"], "/sessions/s/stream")

    def test_stream_idle_timeout_and_keepalives(self):
        def route(h, hits):
            if h.path == "/sessions/quiet/stream":
                h.send_sse(["event: call\ndata: {}\n\n"], end=False)
            else:
                h.send_sse([": ka\n\n"] * 4 + ["event: done\ndata: {}\n\n"], gap=0.06)
        srv = self.serve(route)
        c = AgentClient(srv.url, timeout=0.15, retries=0)
        with self.assertRaises(ChidoriTimeoutError):
            for _ in c.attach("quiet"):
                pass
        self.assertEqual([e.type for e in c.attach("chatty")], ["done"])

    def test_stream_http_error(self):
        srv = self.serve(lambda h, hits: h.send_json(400, {"error": "unknown policy profile"}))
        with self.assertRaises(HttpError) as cm:
            list(AgentClient(srv.url, retries=0).stream({}, policy_profile="nope"))
        self.assertEqual(cm.exception.error, "unknown policy profile")


if __name__ == "__main__":
    unittest.main()
