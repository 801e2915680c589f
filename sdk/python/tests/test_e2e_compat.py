"""test_e2e_compat.py — the original SDK's interface against a real `chidori serve`
(tests/server.py): Session attributes through a pause and resume, checkpoint() and
get_checkpoint() as Checkpoint objects saved and loaded, an input the agent's inputSchema rejects
(400, with the stored session), get_snapshot_manifest() and the manifest in a checkpoint, and
replay(checkpoint): the recorded calls answer from the checkpoint's log (POST /sessions with
replay_from), calls past its end run live."""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from chidori import AgentClient, AgentClientError, Checkpoint, HttpError, Session  # noqa: E402
from tests.server import ServerTestCase  # noqa: E402


class CompatEndToEndTest(ServerTestCase):
    @staticmethod
    def make_client(srv):
        return AgentClient(srv.url, api_key=srv.api_key, timeout_seconds=60)

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


    def test_manifest_by_route_and_in_the_checkpoint(self):
        s = self.client.run({"name": "Manifest"})
        manifest = self.client.get_snapshot_manifest(s.id)
        for key in ("run_id", "abi", "policy", "entry", "snapshot_file"):
            self.assertIn(key, manifest)
        self.assertEqual(manifest["run_id"], s.run_id)
        self.assertEqual(manifest["snapshot_file"], "runtime.snapshot")
        self.assertIsInstance(manifest["abi"].get("engine_fork"), str)
        cp = s.checkpoint()
        self.assertIsNotNone(cp.snapshot_manifest)
        self.assertEqual(cp.snapshot_manifest["run_id"], s.run_id)
        with self.assertRaises(HttpError) as cm:
            self.client.get_snapshot_manifest("no-such-session")
        self.assertEqual(cm.exception.status, 404)


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


    def test_signal_queued_before_the_listen_point_then_resumes_the_pause(self):
        from chidori_sdk import SignalQueued
        # before the listen point: the session waits on an input; the signal is queued for later
        asked = self.client.run({"mode": "ask"})
        queued = self.client.signal(asked.id, "review", {"decision": "early"})
        self.assertIsInstance(queued, SignalQueued)
        self.assertEqual((queued.status, queued.name, queued.delivery_seq), ("queued", "review", 1))
        # at the listen point: the pause and its fields, then the signal resumes it
        paused = self.client.run({"mode": "signal"})
        self.assertEqual((paused.status, paused.pending_prompt), ("paused", None))
        self.assertEqual((paused.pending_signal_name, paused.pending_signal_names, paused.pending_signal_deadline),
                         ("review", ["review"], None))
        done = self.client.signal(paused.id, "review", {"decision": "ship"}, {"kind": "human", "id": "ana"})
        self.assertIsInstance(done, Session)
        self.assertTrue(done.ok, done)
        self.assertEqual(done.output, {"decision": "ship", "from": {"kind": "human", "id": "ana"}, "n": 2})
        rec = [r for r in done.checkpoint().call_log if r["function"] == "signal"][0]
        self.assertEqual((rec["args"], rec["result"]["payload"]), ({"name": "review"}, {"decision": "ship"}))
        with self.assertRaises(HttpError) as cm:
            self.client.signal(paused.id, "review")
        self.assertEqual((cm.exception.status, cm.exception.detail), (409, "session is Completed; cannot accept signals"))


if __name__ == "__main__":
    import unittest
    unittest.main()
