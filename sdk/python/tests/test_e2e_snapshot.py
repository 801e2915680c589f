"""test_e2e_snapshot.py — get_snapshot_manifest() and the manifest in a checkpoint, against a real
`chidori serve`. Needs the server's GET /sessions/{id}/snapshot and `snapshot_manifest` in
/checkpoint (docs/http-api.md); kept apart from the other end-to-end tests for that reason."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from chidori import AgentClient, HttpError  # noqa: E402
from tests.server import BINARY, Server  # noqa: E402


@unittest.skipUnless(os.path.exists(BINARY), f"{BINARY} is missing (make build)")
class SnapshotManifestTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.srv = Server()
        cls.client = AgentClient(cls.srv.url, api_key=cls.srv.api_key, timeout_seconds=60)

    @classmethod
    def tearDownClass(cls):
        cls.srv.stop()

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


if __name__ == "__main__":
    unittest.main()
