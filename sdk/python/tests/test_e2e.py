"""test_e2e.py — the client against a real `chidori serve` (tests/server.py): every route, both
waiting states (input → paused → resume; supervised → awaitingapproval → approve), streams."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from chidori_sdk import AgentClient, CallEvent, DoneEvent, HttpError  # noqa: E402
from tests.server import ServerTestCase  # noqa: E402


class EndToEndTest(ServerTestCase):
    @staticmethod
    def make_client(srv):
        return AgentClient(srv.url, api_key=srv.api_key, timeout=60)

    def test_auth(self):
        self.assertEqual(AgentClient(self.srv.url).health(), {"status": "ok"})
        with self.assertRaises(HttpError) as cm:
            AgentClient(self.srv.url, retries=0).list_sessions()
        self.assertEqual(cm.exception.status, 401)

    def test_run_completed(self):
        s = self.client.run({"name": "Ada"}, wait=True)
        self.assertEqual(s["status"], "completed")
        self.assertEqual(s["output"], {"greeting": "Hello, Ada!", "n": 2})
        self.assertEqual(self.client.get_session(s["id"]), s)
        self.assertTrue(any(x["id"] == s["id"] for x in self.client.list_sessions()))
        cp = self.client.get_checkpoint(s["id"])
        self.assertEqual([r["function"] for r in cp["call_log"]], ["log", "mark", "step", "mark"])

    def test_paused_then_resumed(self):
        s = self.client.run({"mode": "ask"}, session_id="py-ask-1")
        self.assertEqual((s["id"], s["status"], s["pending_prompt"]), ("py-ask-1", "paused", "Your name?"))
        done = self.client.resume(s["id"], "Grace", wait=True)
        self.assertEqual(done["status"], "completed")
        self.assertEqual(done["output"], {"greeting": "Hello, Grace!", "n": 2})
        with self.assertRaises(HttpError) as cm:
            self.client.resume(s["id"], "again")
        self.assertEqual(cm.exception.status, 409)

    def test_awaiting_approval_then_approved(self):
        s = self.client.run({"mode": "write"}, policy_profile="supervised")
        self.assertEqual(s["status"], "awaitingapproval")
        self.assertEqual(s["pending_approval"]["target"], "workspace:write")
        out = os.path.join(self.srv.dir, "out.txt")
        self.assertFalse(os.path.exists(out))
        done = self.client.approve(s["id"], "allow", wait=True)
        self.assertEqual(done["status"], "completed")
        with open(out) as f:
            self.assertEqual(f.read(), "hello from the agent\n")

    def test_denied(self):
        s = self.client.run({"mode": "write"}, policy_profile="supervised")
        denied = self.client.approve(s["id"], "deny", wait=True)
        self.assertEqual(denied["status"], "failed")
        self.assertIn("denied", denied["error"])

    def test_stream_every_record_then_done(self):
        events = list(self.client.stream({"name": "Lin"}))
        self.assertIsInstance(events[-1], DoneEvent)
        self.assertEqual(events[-1].status, "completed")
        calls = [e for e in events if isinstance(e, CallEvent)]
        self.assertEqual(len(calls), len(events) - 1)
        sid = events[-1].data["id"]
        self.assertEqual([e.record for e in calls], self.client.get_checkpoint(sid)["call_log"])
        again = list(self.client.attach(sid))
        self.assertEqual([e.data for e in again], [e.data for e in events[:-1]] + [again[-1].data])
        self.assertEqual(again[-1].type, "done")

    def test_stream_pauses_and_cancel(self):
        events = list(self.client.stream({"mode": "ask"}))
        self.assertEqual([e.type for e in events], ["call", "call", "call", "paused", "done"])
        self.assertEqual(events[-1].status, "paused")
        sid = events[-1].data["id"]
        self.assertEqual(self.client.cancel(sid)["status"], "cancelled")
        self.assertEqual(self.client.get_session(sid)["status"], "cancelled")

    def test_wait_false_then_wait_for(self):
        s = self.client.run({"mode": "ask"}, wait=False)
        self.assertEqual(s["status"], "running")
        self.assertEqual(self.client.wait_for(s["id"])["status"], "paused")
        r = self.client.resume(s["id"], "Lee", wait=False)
        self.assertEqual(r["status"], "running")
        self.assertEqual(self.client.wait_for(s["id"])["output"]["greeting"], "Hello, Lee!")

    def test_replay(self):
        s = self.client.run({"name": "Kay"})
        r = self.client.replay(s["id"], wait=True)
        self.assertNotEqual(r["id"], s["id"])
        self.assertEqual((r["status"], r["output"]), ("completed", s["output"]))

    def test_errors(self):
        with self.assertRaises(HttpError) as cm:
            self.client.run({}, policy_profile="nope")
        self.assertEqual(cm.exception.status, 400)
        with self.assertRaises(HttpError) as cm:
            self.client.get_session("no-such-session")
        self.assertEqual(cm.exception.status, 404)
        f = self.client.run({"mode": "fail"})
        self.assertEqual(f["status"], "failed")
        self.assertIn("asked to fail", f["error"])


if __name__ == "__main__":
    unittest.main()
