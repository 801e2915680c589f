#!/usr/bin/env python3
"""tests/load/serve_log_memory.py — what one long session costs `chidori serve` in memory: starts
a server of tests/serve_bounds/agent.js, runs one warm-up session, then one session of N
chidori.mark calls, and prints the server's RSS and peak RSS growth over it (docs/reliability.md,
"A session's stored log, bounded").

    python3 tests/load/serve_log_memory.py [--chidori build/chidori] [--marks 100000] [K=V ...]

K=V pairs are added to the server's environment (e.g. CHIDORI_LOG_MAX_RECORDS=200000). The
database goes to a throwaway folder on /dev/shm when there is one, so fsync does not pace the run.
"""
import argparse
import http.client
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def kib(pid, field):
    with open(f"/proc/{pid}/status") as f:
        return int(re.search(field + r":\s+(\d+)", f.read()).group(1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--chidori", default=os.path.join(ROOT, "build", "chidori"))
    ap.add_argument("--marks", type=int, default=100000)
    ap.add_argument("env", nargs="*")
    a = ap.parse_args()
    shm = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
    folder = tempfile.mkdtemp(prefix="chidori-log-memory-", dir=shm)
    env = dict(os.environ, CHIDORI_STATE_DIR=os.path.join(folder, "state"), CHIDORI_WORKSPACE_ROOT=folder)
    env.update(kv.split("=", 1) for kv in a.env)
    p = subprocess.Popen([a.chidori, "serve", "--port", "0", os.path.join(ROOT, "tests", "serve_bounds", "agent.js")],
                         env=env, stderr=subprocess.PIPE, text=True)
    try:
        port = None
        for line in p.stderr:
            m = re.match(r"Listening on http://.*:(\d+)", line)
            if m:
                port = int(m.group(1))
                break
        assert port, "the server did not start"
        threading.Thread(target=lambda: [None for _ in p.stderr], daemon=True).start()

        def post(n):
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=3600)
            c.request("POST", "/sessions", json.dumps({"input": {"n": n}}))
            view = json.loads(c.getresponse().read())
            c.close()
            return view

        post(10)
        rss0, peak0 = kib(p.pid, "VmRSS"), kib(p.pid, "VmHWM")
        t = time.monotonic()
        view = post(a.marks)
        secs = time.monotonic() - t
        rss1, peak1 = kib(p.pid, "VmRSS"), kib(p.pid, "VmHWM")
        print(f"session: {view['status']}, {view['call_count']} records, {secs:.1f} s"
              + (f", error: {view['error']}" if view.get("error") else ""))
        print(f"server RSS {rss0} -> {rss1} KiB (+{rss1 - rss0}); peak {peak0} -> {peak1} KiB (+{peak1 - peak0})")
    finally:
        p.terminate()
        p.wait()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
