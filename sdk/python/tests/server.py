"""server.py — starts a real `chidori serve` for the end-to-end tests: the test agent
(sdk/testdata/agent.ts) copied into a fresh folder, a free loopback port chosen by the server
(--port 0), an API key, and `--trusted` (permissive) so that a session's `supervised` profile
decides. The binary is $CHIDORI_BIN or build/chidori of the repository."""
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
import unittest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
BINARY = os.environ.get("CHIDORI_BIN") or os.path.join(REPO, "build", "chidori")


class Server:
    def __init__(self, api_key="test-key", args=("--trusted",), env=None):
        self.api_key = api_key
        self.dir = tempfile.mkdtemp(prefix="chidori-sdk-py-")
        shutil.copy(os.path.join(REPO, "sdk", "testdata", "agent.ts"), os.path.join(self.dir, "agent.ts"))
        full_env = dict(os.environ, CHIDORI_API_KEY=api_key, **(env or {}))
        self.proc = subprocess.Popen([BINARY, "serve", "agent.ts", "--host", "127.0.0.1", "--port", "0", *args],
                                     cwd=self.dir, env=full_env, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.stderr = []
        found = threading.Event()
        self.url = None

        def drain():  # the banner, "Listening on http://ADDR", then whatever the server logs
            for raw in self.proc.stderr:
                line = raw.decode("utf-8", "replace")
                self.stderr.append(line)
                m = re.search(r"Listening on (http://\S+)", line)
                if m and not found.is_set():
                    self.url = m.group(1)
                    found.set()
            found.set()

        threading.Thread(target=drain, daemon=True).start()
        found.wait(20)
        if not self.url:
            self.stop()
            raise RuntimeError("serve did not start:\n" + "".join(self.stderr))

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


@unittest.skipUnless(os.path.exists(BINARY), f"{BINARY} is missing (make build)")
class ServerTestCase(unittest.TestCase):
    """A test class with one server for its tests (cls.srv) and a client of it (cls.client, made by
    the class's make_client); after its tests, the server's log must hold no sanitizer report."""

    @staticmethod
    def make_client(srv):
        raise NotImplementedError

    @classmethod
    def setUpClass(cls):
        cls.srv = Server()
        cls.client = cls.make_client(cls.srv)

    @classmethod
    def tearDownClass(cls):
        cls.srv.stop()
        log = "".join(cls.srv.stderr)  # a sanitizer build of the server reports here
        for marker in ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:"):
            assert marker not in log, log[-4000:]
