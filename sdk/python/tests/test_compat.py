"""test_compat.py — the interface of the original chidori Python SDK, against a scripted server:
the `chidori` import name, Session (a dict that reads as attributes, ok, checkpoint, replay),
Checkpoint (save/load), replay(checkpoint) as replay_from, signal, the snapshot manifest, the
error classes and their fields, the original keyword names, and events that read as dicts."""
import json
import os
import socketserver
import sys
import tempfile
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import chidori  # noqa: E402
import chidori_sdk  # noqa: E402
from chidori import (AgentClient, AgentClientError, Checkpoint, ConnectionError, HttpError, Session,  # noqa: E402
                     SignalQueued, TimeoutError)
from tests.test_client import FakeServer  # noqa: E402

RECORD = {"seq": 1, "function": "prompt", "args": {"text": "hi"}, "result": "there", "duration_ms": 3,
          "timestamp": "2026-01-02T03:04:05.000Z"}
MANIFEST = {"run_id": "r-1", "abi": {"engine_fork": "chidori-c"}, "policy": {}, "snapshot_file": "runtime.snapshot"}


class CompatTest(unittest.TestCase):
    def serve(self, route):
        srv = FakeServer(route)
        self.addCleanup(srv.close)
        return srv

    def test_same_names_under_both_packages(self):
        for name in ("AgentClient", "Session", "Checkpoint", "SignalQueued", "AgentClientError", "HttpError",
                     "TimeoutError", "ConnectionError"):
            self.assertIs(getattr(chidori, name), getattr(chidori_sdk, name), name)
        from chidori.client import AgentClient as A2, Checkpoint as C2  # the original's module path
        self.assertIs(A2, AgentClient)
        self.assertIs(C2, Checkpoint)
        self.assertTrue(issubclass(AgentClientError, RuntimeError))
        for cls in (HttpError, TimeoutError, ConnectionError):
            self.assertTrue(issubclass(cls, AgentClientError), cls)

    def test_session_is_the_view_and_reads_as_attributes(self):
        view = {"id": "s1", "status": "paused", "input": {"a": 1}, "output": None, "error": None,
                "pending_prompt": "Ship it?", "run_id": "r-1", "call_count": 2}
        srv = self.serve(lambda h, hits: h.send_json(201, view))
        s = AgentClient(srv.url).run({"a": 1})
        self.assertIsInstance(s, Session)
        self.assertEqual(s, view)  # still the dict the server sent
        self.assertEqual((s.id, s.status, s.pending_prompt, s.run_id, s.input), ("s1", "paused", "Ship it?", "r-1", {"a": 1}))
        self.assertEqual(s["pending_prompt"], "Ship it?")
        self.assertFalse(s.ok)
        # fields the server did not send read as the original's defaults
        self.assertEqual((s.pending_seq, s.pending_details, s.snapshot_manifest, s.call_log, s.pending_signal_names),
                         (None, None, None, [], []))
        with self.assertRaises(AttributeError):
            s.no_such_field  # noqa: B018
        done = Session("x", "completed", {"q": 1}, {"v": 2})
        self.assertTrue(done.ok)
        self.assertEqual(dict(done), {"id": "x", "status": "completed", "input": {"q": 1}, "output": {"v": 2}})

    def test_checkpoint_fetched_lazily_saved_and_loaded(self):
        def route(h, hits):
            if h.path == "/sessions":
                h.send_json(201, {"id": "s7", "status": "completed", "input": {"q": 1}, "output": {"ok": True}})
            else:
                h.send_json(200, {"id": "s7", "run_id": "r", "status": "completed", "input": {"q": 1},
                                  "call_log": [RECORD], "snapshot_manifest": MANIFEST})
        srv = self.serve(route)
        s = AgentClient(srv.url).run({"q": 1})
        self.assertEqual(s.call_log, [])
        cp = s.checkpoint()
        self.assertIsInstance(cp, Checkpoint)
        self.assertEqual((cp.session_id, cp.input, cp.call_log, cp.snapshot_manifest), ("s7", {"q": 1}, [RECORD], MANIFEST))
        self.assertEqual([h["path"] for h in srv.hits], ["/sessions", "/sessions/s7/checkpoint"])
        s.checkpoint()  # held now: not fetched again
        self.assertEqual(len(srv.hits), 2)
        by_id = AgentClient(srv.url).get_checkpoint("s7")
        self.assertEqual((by_id.session_id, by_id["call_log"], by_id["status"]), ("s7", [RECORD], "completed"))
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "cp.json")
            cp.save(path)
            with open(path) as f:
                self.assertEqual(json.load(f), {"session_id": "s7", "input": {"q": 1}, "call_log": [RECORD],
                                                "snapshot_manifest": MANIFEST})
            back = Checkpoint.load(path)
            self.assertEqual((back.session_id, back.input, back.call_log, back.snapshot_manifest),
                             ("s7", {"q": 1}, [RECORD], MANIFEST))
            with open(path, "w") as f:
                f.write('{"session_id": "x"}')
            with self.assertRaises(ValueError):
                Checkpoint.load(path)

    def test_replay_of_a_checkpoint_sends_replay_from(self):
        srv = self.serve(lambda h, hits: h.send_json(201, {"id": "new", "status": "completed", "output": 1}))
        c = AgentClient(srv.url)
        r = c.replay(Checkpoint("old", {"q": 1}, [RECORD]))
        self.assertEqual((r.id, r.status, r.ok), ("new", "completed", True))
        c.replay({"input": {"q": 2}, "call_log": []}, wait=False)
        c.replay("old")  # a session id: the server's own replay route, as before
        self.assertEqual([(h["path"], json.loads(h["body"])) for h in srv.hits],
                         [("/sessions", {"input": {"q": 1}, "replay_from": [RECORD]}),
                          ("/sessions", {"input": {"q": 2}, "replay_from": [], "wait": False}),
                          ("/sessions/old/replay", {})])
        with self.assertRaises(ValueError):
            c.replay(42)
        with self.assertRaises(RuntimeError):
            Session("x", "completed", {}).replay()

    def test_session_replay_goes_through_its_checkpoint(self):
        def route(h, hits):
            if h.path.endswith("/checkpoint"):
                h.send_json(200, {"call_log": [RECORD], "snapshot_manifest": MANIFEST})
            else:
                h.send_json(201, {"id": f"s{len(hits)}", "status": "completed", "input": {"q": 1}})
        srv = self.serve(route)
        s = AgentClient(srv.url).run({"q": 1})
        again = s.replay()
        self.assertEqual(again.id, "s3")
        self.assertEqual(json.loads(srv.hits[2]["body"]), {"input": {"q": 1}, "replay_from": [RECORD]})

    def test_run_fills_in_the_input_when_the_view_leaves_it_out(self):
        srv = self.serve(lambda h, hits: h.send_json(201, {"id": "r", "status": "completed"}))
        c = AgentClient(srv.url)
        self.assertEqual(c.run({"q": 1}).input, {"q": 1})
        self.assertEqual(c.replay(Checkpoint("x", {"q": 2}, [])).input, {"q": 2})

    def test_signal_outcomes(self):
        answers = [(200, {"id": "s", "status": "completed", "output": {"d": 1}}),
                   (202, {"id": "s", "status": "queued", "name": "steer", "delivery_seq": 7}),
                   (200, {"id": "s", "status": "delivered_live", "name": "steer", "delivery_seq": 8}),
                   (409, {"error": "run is terminal"})]
        srv = self.serve(lambda h, hits: h.send_json(*answers[len(hits) - 1]))
        c = AgentClient(srv.url, retries=0)
        done = c.signal("s", "review", payload={"decision": "ok"}, from_={"kind": "human"})
        self.assertIsInstance(done, Session)
        self.assertEqual(done.output, {"d": 1})
        q = c.signal("s", "steer")
        self.assertEqual(q, SignalQueued(id="s", name="steer", delivery_seq=7, status="queued"))
        self.assertEqual(c.signal("s", "steer").status, "delivered_live")
        with self.assertRaises(HttpError) as cm:
            c.signal("s", "review")
        self.assertEqual((cm.exception.status, cm.exception.detail), (409, "run is terminal"))
        self.assertIn("409", str(cm.exception))
        self.assertEqual([json.loads(h["body"]) for h in srv.hits[:2]],
                         [{"name": "review", "payload": {"decision": "ok"}, "from": {"kind": "human"}},
                          {"name": "steer", "payload": None, "from": None}])
        self.assertEqual(srv.hits[0]["path"], "/sessions/s/signal")

    def test_snapshot_manifest_unwrapped(self):
        srv = self.serve(lambda h, hits: h.send_json(200, {"id": "s", "run_id": "r-1", "snapshot_manifest": MANIFEST}))
        self.assertEqual(AgentClient(srv.url).get_snapshot_manifest("s"), MANIFEST)
        self.assertEqual(srv.hits[0]["path"], "/sessions/s/snapshot")

    def test_original_keyword_names_and_error_fields(self):
        srv = self.serve(lambda h, hits: h.send_json(503, {"error": "warming up"}) if len(hits) < 2
                         else h.send_json(200, {"status": "ok"}))
        c = AgentClient(srv.url, api_key="k", headers={"Authorization": "Bearer mine"},
                        timeout_seconds=5, retries=2, retry_delay_seconds=0.01)
        self.assertEqual((c.timeout_seconds, c.retry_delay_seconds), (5, 0.01))
        self.assertEqual(c.health(), {"status": "ok"})
        self.assertEqual(len(srv.hits), 2)
        self.assertEqual(srv.hits[0]["headers"]["Authorization"], "Bearer mine")  # explicit headers win
        self.assertEqual(AgentClient(srv.url, timeout_seconds=0).timeout, None)  # 0: no timeout

        with self.assertRaises(ConnectionError) as cm:
            AgentClient("http://127.0.0.1:1", retries=0, timeout_seconds=2).health()
        self.assertEqual((cm.exception.method, cm.exception.path), ("GET", "/health"))
        self.assertIsNotNone(cm.exception.reason)

        class Silent(socketserver.BaseRequestHandler):
            def handle(self):
                time.sleep(2)
        silent = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Silent)
        silent.daemon_threads = True
        threading.Thread(target=silent.serve_forever, daemon=True).start()
        self.addCleanup(silent.server_close)
        self.addCleanup(silent.shutdown)
        with self.assertRaises(TimeoutError) as cm:
            AgentClient(f"http://127.0.0.1:{silent.server_address[1]}", retries=0, timeout_seconds=0.3).run({"q": 1})
        e = cm.exception
        self.assertEqual((e.method, e.path, e.timeout_seconds), ("POST", "/sessions", 0.3))

    def test_events_read_as_the_original_dicts(self):
        frames = [("call", {"seq": 1, "function": "prompt"}), ("prompt_delta", {"delta": "hi"}),
                  ("paused", {"id": "s-1", "status": "paused", "pending_seq": 2}),
                  ("done", {"id": "s-1", "status": "completed", "output": {"ok": True}})]
        body = "".join(f"event: {n}\ndata: {json.dumps(p)}\n\n" for n, p in frames)
        srv = self.serve(lambda h, hits: h.send_sse([body]))
        events = list(AgentClient(srv.url).stream({"q": 1}))
        self.assertEqual([e["type"] for e in events], ["call", "prompt_delta", "paused", "done"])
        self.assertEqual(events[0]["record"], {"seq": 1, "function": "prompt"})
        self.assertEqual(events[1]["delta"], "hi")
        self.assertEqual((events[2]["status"], events[2]["pending_seq"]), ("paused", 2))
        self.assertEqual((events[3]["id"], events[3]["output"]), ("s-1", {"ok": True}))
        self.assertIsNone(events[3].id)  # the attribute stays the SSE id
        self.assertIn("output", events[3])
        self.assertEqual(events[3].as_dict(), {"id": "s-1", "status": "completed", "output": {"ok": True}, "type": "done"})


if __name__ == "__main__":
    unittest.main()
