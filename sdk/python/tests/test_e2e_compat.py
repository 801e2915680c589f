"""test_e2e_compat.py — the original SDK's interface against a real `chidori serve`
(tests/server.py): Session attributes through a pause and resume, checkpoint() and
get_checkpoint() as Checkpoint objects saved and loaded, and an input the agent's inputSchema
rejects (400, with the stored session). The routes still being added (snapshot, replay_from)
are in test_e2e_snapshot.py and test_e2e_replay.py."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from chidori import AgentClient, AgentClientError, Checkpoint, HttpError, Session  # noqa: E402
from tests.server import BINARY, Server  # noqa: E402


@unittest.skipUnless(os.path.exists(BINARY), f"{BINARY} is missing (make build)")
class CompatEndToEndTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.srv = Server()
        cls.client = AgentClient(cls.srv.url, api_key=cls.srv.api_key, timeout_seconds=60)

    @classmethod
    def tearDownClass(cls):
        cls.srv.stop()
        log = "".join(cls.srv.stderr)
        for marker in ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:"):
            assert marker not in log, log[-4000:]

    def test_pause_resume_as_attributes(self):
        paused = self.client.run({"mode": "ask"})
        self.assertIsInstance(paused, Session)
        self.assertEqual((paused.status, paused.pending_prompt, paused.ok), ("paused", "Your name?", False))
        self.assertTrue(paused.run_id)
        done = self.client.resume(paused.id, "Ada")
        self.assertTrue(done.ok)
        self.assertEqual(done.output, {"greeting": "Hello, Ada!", "n": 2})
        self.assertEqual(self.client.get_session(paused.id).status, "completed")

    def test_checkpoint_objects(self):
        s = self.client.run({"name": "Ola"})
        cp = s.checkpoint()
        self.assertIsInstance(cp, Checkpoint)
        self.assertEqual(cp.session_id, s.id)
        self.assertEqual(cp.input, {"name": "Ola"})
        self.assertEqual([r["function"] for r in cp.call_log], ["log", "mark", "step", "mark"])
        self.assertEqual(s.call_log, cp.call_log)
        by_id = self.client.get_checkpoint(s.id)
        self.assertEqual((by_id.session_id, by_id.call_log), (s.id, cp.call_log))
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "cp.json")
            cp.save(path)
            back = Checkpoint.load(path)
            self.assertEqual((back.session_id, back.input, back.call_log), (s.id, cp.input, cp.call_log))

    def test_input_schema_rejection_is_400_with_the_session(self):
        with self.assertRaises(HttpError) as cm:
            self.client.run({"name": 5, "extra": True})
        e = cm.exception
        self.assertIsInstance(e, AgentClientError)
        self.assertEqual(e.status, 400)
        self.assertTrue(e.detail.startswith("InputValidationError: invalid input:"), e.detail)
        self.assertIn("  - name: expected string, got integer", e.detail)
        self.assertIn("  - input.extra: unexpected property", e.detail)
        stored = self.client.get_session(e.body["session"]["id"])
        self.assertEqual((stored.status, stored.error, stored.call_count), ("failed", e.detail, 0))


if __name__ == "__main__":
    unittest.main()
