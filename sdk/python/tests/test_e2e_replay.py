"""test_e2e_replay.py — replay(checkpoint) and Session.replay() against a real `chidori serve`:
the recorded calls answer from the checkpoint's log (POST /sessions with replay_from), calls past
its end run live. Needs `replay_from` on POST /sessions (docs/http-api.md); kept apart from the
other end-to-end tests for that reason."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from chidori import AgentClient, Checkpoint  # noqa: E402
from tests.server import BINARY, Server  # noqa: E402


@unittest.skipUnless(os.path.exists(BINARY), f"{BINARY} is missing (make build)")
class ReplayFromCheckpointTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.srv = Server()
        cls.client = AgentClient(cls.srv.url, api_key=cls.srv.api_key, timeout_seconds=60)

    @classmethod
    def tearDownClass(cls):
        cls.srv.stop()

    def test_replay_of_a_saved_checkpoint(self):
        s = self.client.run({"name": "Replay"})
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "cp.json")
            s.checkpoint().save(path)
            cp = Checkpoint.load(path)
        r = self.client.replay(cp)
        self.assertNotEqual(r.id, s.id)
        self.assertTrue(r.ok, r)
        self.assertEqual(r.output, s.output)
        self.assertEqual(self.client.get_checkpoint(r.id).call_log, cp.call_log)
        again = s.replay()
        self.assertTrue(again.ok)
        self.assertEqual(again.output, s.output)

    def test_a_cut_log_runs_on_live(self):
        s = self.client.run({"name": "Half"})
        cp = s.checkpoint()
        half = Checkpoint(cp.session_id, cp.input, cp.call_log[:2])
        r = self.client.replay(half)
        self.assertTrue(r.ok, r)
        self.assertEqual(r.output, s.output)
        self.assertEqual([x["function"] for x in self.client.get_checkpoint(r.id).call_log],
                         [x["function"] for x in cp.call_log])


if __name__ == "__main__":
    unittest.main()
