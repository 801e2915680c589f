#!/usr/bin/env python3
"""tests/load/load.py — load and fault tests of `chidori serve`, with the standard library only
(http.client in threads). Serves tests/load/agent.js from a throwaway folder on 127.0.0.1.

    python3 tests/load/load.py load  [--sessions 10000] [--concurrency 64]
    python3 tests/load/load.py fault [--sessions 10000] [--concurrency 64] [--hits 3]

`load`: N sessions (isolated runs, the default) at concurrency C against one server, each
`POST /sessions` answered once it has completed. Prints sessions/s, p50/p99 latency, errors and
the server's RSS (VmRSS of /proc/<pid>/status) as the sessions complete. Fails on any error (a
non-201, a session that did not complete with the right output, a transport error; a 503 counts:
the cap is set to C) and when the RSS grows by more than the bound between the warm-up point
and the end, both taken with the server idle (see run_load and rss_bound_kib).

`fault`: the same with an agent that makes --hits fetches per session against a counting HTTP
server in this process; the server is killed with SIGKILL halfway, restarted on the same
database, and the load continues. Then every session is checked against what its agent must have
done: all completed, none missing from GET /sessions, each call log holding each fetch once, and
each fetch performed exactly once — except a fetch that was in flight at the instant of the kill
(performed, not yet recorded), which the re-run performs again: the documented at-least-once
window of that one call. Such a repeat is accepted only when it is provably that call: the
session was running at the kill, the fetch is the one after its last stored record, its first
performance reached the counter before the restart and its second after it.

Exit status 0 when every assertion holds. tests/cases_load.py runs small versions of these in the
test command; `make load` runs the full size. Figures and what they mean: docs/reliability.md.
(Workers killed under a session: tests/cases_serve_faults.py.)
"""
import argparse
import collections
import http.client
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
AGENT = os.path.join(ROOT, "tests", "load", "agent.js")
SANITIZER_MARKERS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:", "UndefinedBehaviorSanitizer")


# ---------- the server under test ----------

class Server:
    """One `chidori serve` process on a free loopback port; folder holds its database."""

    def __init__(self, chidori, folder, env=None, args=("--trusted",)):
        self.chidori, self.folder, self.args = chidori, folder, list(args)
        self.env = dict(os.environ)
        self.env.update({"CHIDORI_STATE_DIR": os.path.join(folder, "state"), "CHIDORI_WORKSPACE_ROOT": folder})
        self.env.update(env or {})
        self.proc = None

    def start(self, timeout=60):
        self.head = []                                   # the start-up lines, kept whole
        self.tail = collections.deque(maxlen=400)        # the last lines (agent logs follow)
        listening = threading.Event()
        self.proc = subprocess.Popen([self.chidori, "serve", "--port", "0", *self.args, AGENT], env=self.env,
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                     text=True, errors="replace")

        self.sanitizer = []                              # sanitizer report lines, kept whole

        def drain(proc=self.proc):
            for line in proc.stderr:
                (self.tail if listening.is_set() else self.head).append(line)
                if any(m in line for m in SANITIZER_MARKERS) or self.sanitizer:
                    if len(self.sanitizer) < 200:
                        self.sanitizer.append(line)
                m = re.match(r"^Listening on http://(.*):(\d+)$", line.strip())
                if m:
                    self.port = int(m.group(2))
                    listening.set()
            listening.set()
        self.reader = threading.Thread(target=drain, daemon=True)
        self.reader.start()
        listening.wait(timeout)
        if self.proc.poll() is not None or not hasattr(self, "port"):
            raise AssertionError("the server did not start:\n" + self.stderr())
        return self

    def stderr(self):
        return "".join(self.head) + "".join(self.tail)

    def rss_kib(self):
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return -1

    def connection(self, timeout=120):
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)

    def request(self, method, path, body=None, timeout=120):
        conn = self.connection(timeout)
        try:
            return request(conn, method, path, body)
        finally:
            conn.close()

    def stop(self, timeout=60):
        """SIGTERM; the exit code (0 expected)."""
        self.proc.send_signal(signal.SIGTERM)
        code = self.proc.wait(timeout=timeout)
        self.reader.join(timeout=10)
        return code

    def kill(self):
        self.proc.kill()
        self.proc.wait(timeout=30)
        self.reader.join(timeout=10)

    def cleanup(self):
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def request(conn, method, path, body=None):
    """(status, parsed JSON or text) over a kept-alive connection."""
    data = json.dumps(body) if body is not None else None
    conn.request(method, path, body=data, headers={"Content-Type": "application/json"} if data else {})
    r = conn.getresponse()
    raw = r.read().decode("utf-8", "replace")
    try:
        return r.status, json.loads(raw) if raw else None
    except ValueError:
        return r.status, raw


def percentile(values, p):
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100.0 * (len(s) - 1))))]


# ---------- the counting server (fault) ----------

class Counter:
    """GET /hit/<tag>/<k>: counts each (tag, k) and answers the count so far, as text; notes the
    monotonic time of every hit. Loopback only."""

    def __init__(self):
        self.lock = threading.Lock()
        self.hits = collections.defaultdict(list)  # (tag, k) -> [time, ...]
        counter = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                m = re.match(r"^/hit/([A-Za-z0-9_-]+)/(\d+)$", self.path)
                if not m:
                    body, status = b"no such path", 404
                else:
                    with counter.lock:
                        times = counter.hits[(m.group(1), int(m.group(2)))]
                        times.append(time.monotonic())
                        body, status = str(len(times)).encode(), 200
                self.send_response(status)
                self.send_header("Content-Type", "text/plain")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        class Server_(ThreadingHTTPServer):
            daemon_threads = True
            request_queue_size = 256

            def handle_error(self, request, client_address):
                pass  # a fetch cut off by the kill

        self.httpd = Server_(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def of(self, tag):
        with self.lock:
            return {k: list(t) for (g, k), t in self.hits.items() if g == tag}

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


# ---------- driving sessions ----------

class Driver:
    """Hands out session numbers 0..n-1 to `concurrency` client threads, each with its own kept-alive
    connection; measures each POST /sessions; samples the server's RSS at milestones."""

    def __init__(self, n, concurrency, make_input, check_view, milestones=()):
        self.n, self.concurrency = n, concurrency
        self.make_input, self.check_view = make_input, check_view
        self.lock = threading.Lock()
        self.next = 0
        self.completed = 0
        self.latencies = []
        self.errors = []
        self.busy = 0                 # 503 answers (retried only when allow_busy)
        self.allow_busy = False
        self.milestones = sorted(set(milestones))
        self.rss = []                 # (completed, kib)
        self.server = None
        self.up = threading.Event()   # cleared while the server is down (fault)
        self.stopped = False          # set when the fault's restart failed: the clients give up
        self.up.set()
        self.down = False
        self.interrupted = []         # session ids whose POST died with the server
        self.on_completed = None

    def session_id(self, i):
        return f"s{i:06d}"

    def error(self, message):
        with self.lock:
            self.errors.append(message)

    def take(self):
        with self.lock:
            if self.next >= self.n:
                return None
            self.next += 1
            return self.next - 1

    def done_one(self, seconds):
        with self.lock:
            self.completed += 1
            self.latencies.append(seconds)
            done = self.completed
            sample = self.milestones and done >= self.milestones[0]
            if sample:
                while self.milestones and done >= self.milestones[0]:
                    self.milestones.pop(0)
        if sample:
            try:
                kib = self.server.rss_kib()
                with self.lock:
                    self.rss.append((done, kib))
            except OSError:
                pass
        if self.on_completed:
            self.on_completed(done)

    def client(self):
        conn = None
        conn_server = None
        while True:
            i = self.take()
            if i is None:
                break
            sid = self.session_id(i)
            body = {"session_id": sid, "input": self.make_input(i, sid)}
            while True:
                while not self.up.wait(1):
                    if self.stopped:
                        return
                if self.stopped:
                    return
                if conn is None or conn_server is not self.server:
                    if conn:
                        conn.close()
                    conn_server = self.server
                    conn = conn_server.connection()
                t0 = time.monotonic()
                try:
                    status, view = request(conn, "POST", "/sessions", body)
                except (OSError, http.client.HTTPException) as e:
                    conn.close()
                    conn = None
                    if self.down or not self.up.is_set():
                        with self.lock:
                            self.interrupted.append(sid)
                        break  # settled after the restart (see fault)
                    self.error(f"{sid}: {type(e).__name__}: {e}")
                    break
                seconds = time.monotonic() - t0
                if status == 503 and self.allow_busy:
                    with self.lock:
                        self.busy += 1
                    time.sleep(0.05)
                    continue
                if status == 503:
                    with self.lock:
                        self.busy += 1
                if status != 201:
                    self.error(f"{sid}: POST /sessions answered {status}: {view}")
                    break
                why = self.check_view(i, sid, view)
                if why:
                    self.error(f"{sid}: {why}")
                    break
                self.done_one(seconds)
                break
        if conn:
            conn.close()

    def run(self, server):
        self.server = server
        threads = [threading.Thread(target=self.client, daemon=True) for _ in range(self.concurrency)]
        t0 = time.monotonic()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return time.monotonic() - t0


def hello_input(i, sid):
    return {"n": i}


def hello_check(i, sid, view):
    if not isinstance(view, dict) or view.get("status") != "completed":
        return f"not completed: {view}"
    if view.get("output") != {"greeting": f"Hello, {i}!"} or view.get("call_count") != 1 or view.get("id") != sid:
        return f"wrong view: {view}"
    return None


# ---------- load ----------

def rss_bound_kib(sessions_after_warmup, slack_kib, per_session_bytes):
    """The RSS growth allowed between the warm-up point and the end. The server keeps nothing per
    session once the session has settled and nobody uses it (sessions.c: a session is in memory
    only while its run, a stream or a request holds it; the database keeps the rest), so nothing
    is allowed per session by default: everything a session used — its in-memory entry, its run
    thread, its worker's pipes and frames, its host, its call log in memory, its connection's pool
    in libmicrohttpd — must be given back. What is bounded rather than freed is the fixed slack:
    SQLite's page cache (its default cache_size, about 2 MiB, one connection), which fills as the
    database grows; malloc's arenas once every thread has used one; glibc's cache of thread
    stacks."""
    return slack_kib + sessions_after_warmup * per_session_bytes / 1024.0


def idle_rss_kib(server, seconds=0.6):
    """The server's RSS once no client is connected: the smallest of a few samples while the
    connections' threads end, so that the two points compared are in the same state."""
    least = server.rss_kib()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        time.sleep(0.1)
        least = min(least, server.rss_kib())
    return least


def run_load(chidori, sessions=10000, concurrency=64, warmup=None, slack_kib=4096, per_session_bytes=0,
             env=None, check_rss=True):
    """The load test. Returns a dict of figures; 'failures' lists what did not hold.

    The RSS check compares two idle points: the load stops at the warm-up point (every client
    finishes its session and closes its connection) and the server's RSS is taken, then the load
    runs to the end and it is taken again. Both points are without connections, so the difference
    is what the sessions after warm-up left behind."""
    warmup = warmup if warmup is not None else max(concurrency * 4, sessions // 5)
    warmup = min(warmup, sessions)
    folder = tempfile.mkdtemp(prefix="chidori-load-")
    env = dict(env or {})
    env.setdefault("CHIDORI_MAX_CONCURRENT_SESSIONS", str(concurrency))
    server = Server(chidori, folder, env)
    step = max(1, sessions // 20)
    milestones = sorted(set([warmup, sessions] + list(range(step, sessions + 1, step))))
    d = Driver(sessions, concurrency, hello_input, hello_check, milestones)
    out = {"sessions": sessions, "concurrency": concurrency, "warmup": warmup, "failures": []}
    try:
        server.start()
        out["rss_start_kib"] = server.rss_kib()
        d.n = warmup
        seconds = d.run(server)
        out["rss_warm_idle_kib"] = idle_rss_kib(server)
        d.n = sessions
        seconds += d.run(server)
        out["rss_end_kib"] = idle_rss_kib(server)
        out["seconds"] = seconds
        out["sessions_per_s"] = d.completed / seconds if seconds else 0
        out["p50_ms"] = percentile(d.latencies, 50) * 1000
        out["p99_ms"] = percentile(d.latencies, 99) * 1000
        out["max_ms"] = max(d.latencies) * 1000 if d.latencies else float("nan")
        out["completed"] = d.completed
        out["errors"] = len(d.errors)
        out["busy"] = d.busy
        out["rss"] = d.rss
        if d.errors:
            out["failures"].append(f"{len(d.errors)} error(s), first: " + "; ".join(d.errors[:3]))
        if d.completed != sessions:
            out["failures"].append(f"{d.completed} of {sessions} sessions completed")
        growth = out["rss_end_kib"] - out["rss_warm_idle_kib"]
        bound = rss_bound_kib(sessions - warmup, slack_kib, per_session_bytes)
        out["rss_growth_kib"], out["rss_bound_kib"] = growth, bound
        if check_rss and growth > bound:
            out["failures"].append(f"RSS grew by {growth} KiB from {warmup} to {sessions} sessions, idle to idle "
                                   f"(bound {bound:.0f} KiB): {out['rss_warm_idle_kib']} -> {out['rss_end_kib']}; "
                                   f"under load: {d.rss}")
        db = os.path.join(folder, "state", "sessions.sqlite3")
        out["db_kib"] = os.path.getsize(db) // 1024
        out["wal_kib"] = os.path.getsize(db + "-wal") // 1024 if os.path.exists(db + "-wal") else 0
        status, listing = server.request("GET", "/sessions")
        ids = [v["id"] for v in listing["sessions"]] if status == 200 else []
        if sorted(ids) != [d.session_id(i) for i in range(sessions)] or \
                any(v["status"] != "completed" for v in listing["sessions"]):
            out["failures"].append(f"GET /sessions does not list exactly the {sessions} completed sessions "
                                   f"({len(ids)} listed)")
        code = server.stop()
        out["exit"] = code
        if code != 0:
            out["failures"].append(f"the server exited {code} on SIGTERM:\n{server.stderr()[-3000:]}")
        if server.sanitizer:
            out["failures"].append("sanitizer report:\n" + "".join(server.sanitizer))
        out["stderr"] = server.stderr()
    finally:
        server.cleanup()
        shutil.rmtree(folder, ignore_errors=True)
    return out


# ---------- fault ----------

def db_snapshot(path):
    """{session id: (status, number of records)} as the killed server left the database."""
    db = sqlite3.connect(path, timeout=30)
    try:
        counts = dict(db.execute("SELECT session_id, count(*) FROM records GROUP BY session_id"))
        return {sid: (status, counts.get(sid, 0)) for sid, status in db.execute("SELECT id, status FROM sessions")}
    finally:
        db.close()


def run_fault(chidori, sessions=10000, concurrency=64, hits=3, kill_after=None, env=None, settle_seconds=300):
    """The fault test. Returns a dict of figures; 'failures' lists what did not hold."""
    kill_after = kill_after if kill_after is not None else sessions // 2
    folder = tempfile.mkdtemp(prefix="chidori-fault-")
    counter = Counter()
    env = dict(env or {})
    env.setdefault("CHIDORI_MAX_CONCURRENT_SESSIONS", str(concurrency))
    env["CHIDORI_HTTP_ALLOW_HOSTS"] = "127.0.0.1"
    first, second = Server(chidori, folder, env), Server(chidori, folder, env)
    out = {"sessions": sessions, "concurrency": concurrency, "hits": hits, "failures": []}
    fail = out["failures"].append

    def make_input(i, sid):
        return {"hits": hits, "base": counter.base, "tag": sid}

    def check(i, sid, view):
        # a POST answered by either server: the session completed with one answer per fetch
        if not isinstance(view, dict) or view.get("status") != "completed":
            return f"not completed: {view}"
        seen = (view.get("output") or {}).get("seen")
        if not isinstance(seen, list) or len(seen) != hits:
            return f"wrong output: {view}"
        return None

    d = Driver(sessions, concurrency, make_input, check)
    kill = {}
    killed = threading.Event()

    def on_completed(done):
        if done >= kill_after and not kill:
            with d.lock:
                if kill:
                    return
                kill["at"] = done
            killed.set()
    d.on_completed = on_completed

    try:
        first.start()
        d.server = first

        def killer():
            try:
                restart()
            except BaseException as e:  # a restart that fails must fail the test, not hang it
                kill["error"] = f"{type(e).__name__}: {e}"
                d.stopped = True
                d.up.set()

        def restart():
            killed.wait()
            d.down = True
            d.up.clear()
            kill["time"] = time.monotonic()
            first.kill()
            db = os.path.join(folder, "state", "sessions.sqlite3")
            kill["snapshot"] = db_snapshot(db)
            # Let the counter finish what the dead server had already sent, then mark the restart:
            # a performance before the mark is the first server's, after it the second's.
            time.sleep(1.0)
            kill["restart"] = time.monotonic()
            second.start()
            d.server = second
            d.allow_busy = True  # the re-run sessions may fill the cap for a moment
            d.down = False
            d.up.set()
        k = threading.Thread(target=killer, daemon=True)
        k.start()
        t0 = time.monotonic()
        d.run(first)
        k.join(timeout=120)
        out["seconds"] = time.monotonic() - t0
        if "error" in kill:
            fail(f"the kill and restart failed: {kill['error']}")
            return out
        if "restart" not in kill:
            fail(f"the server was never killed ({d.completed} sessions completed)")
            return out
        snap = kill["snapshot"]
        running_at_kill = {sid for sid, (status, _) in snap.items() if status == "running"}
        out["killed_after"] = kill["at"]
        out["running_at_kill"] = len(running_at_kill)
        out["interrupted_posts"] = len(d.interrupted)
        m = re.search(r"\((\d+) were running when the server stopped", second.stderr())
        out["rerun"] = int(m.group(1)) if m else 0
        if out["rerun"] != len(running_at_kill):
            fail(f"the restarted server re-ran {out['rerun']} sessions; {len(running_at_kill)} were running")

        # The POSTs the kill cut off: a session the first server had not stored yet must have done
        # nothing at all (then it is posted again); a stored one is being re-run.
        reposted = 0
        for sid in d.interrupted:
            if sid in snap:
                continue
            if counter.of(sid):
                fail(f"{sid} was never stored, yet its agent reached the counter: {counter.of(sid)}")
            i = int(sid[1:])
            while True:
                status, view = second.request("POST", "/sessions", {"session_id": sid, "input": make_input(i, sid)})
                if status != 503:
                    break
                time.sleep(0.05)
            why = check(i, sid, view) if status == 201 else f"answered {status}: {view}"
            if why:
                fail(f"{sid} posted again: {why}")
            reposted += 1
        out["reposted"] = reposted

        # Every session settles; none is missing, none is extra.
        deadline = time.monotonic() + settle_seconds
        while True:
            status, listing = second.request("GET", "/sessions")
            views = {v["id"]: v for v in listing["sessions"]} if status == 200 else {}
            if status == 200 and not any(v["status"] == "running" for v in views.values()):
                break
            if time.monotonic() > deadline:
                fail(f"sessions still running {settle_seconds} s after the restart")
                break
            time.sleep(0.2)
        want = {d.session_id(i) for i in range(sessions)}
        if set(views) != want:
            fail(f"GET /sessions: missing {sorted(want - set(views))[:10]}, extra {sorted(set(views) - want)[:10]}")
        repeats = 0
        conn = second.connection()
        for sid in sorted(want & set(views)):
            v = views[sid]
            if v["status"] != "completed":
                fail(f"{sid} is {v['status']}: {v.get('error')}")
                continue
            status, cp = request(conn, "GET", f"/sessions/{sid}/checkpoint")
            log_urls = [r["args"].get("url") if isinstance(r.get("args"), dict) else None for r in cp["call_log"]]
            want_urls = [f"{counter.base}/hit/{sid}/{k}" for k in range(1, hits + 1)]
            if [r["function"] for r in cp["call_log"]] != ["http"] * hits or log_urls != want_urls:
                fail(f"{sid}: the call log is not one fetch of each URL in order: "
                     f"{[(r['function'], r.get('args')) for r in cp['call_log']]}")
                continue
            performed = counter.of(sid)
            seen = v["output"]["seen"]
            for k in range(1, hits + 1):
                times = performed.get(k, [])
                if len(times) == 1 and seen[k - 1] == 1:
                    continue
                stored = snap.get(sid, (None, 0))[1]
                in_flight = (len(times) == 2 and sid in running_at_kill and k == stored + 1 and
                             times[0] < kill["restart"] < times[1] and seen[k - 1] == 2)
                if in_flight:
                    repeats += 1
                    continue
                fail(f"{sid}: fetch {k} performed {len(times)} time(s) (answers seen {seen}, "
                     f"{stored} records at the kill, running then: {sid in running_at_kill}, "
                     f"times from the kill {[round(t - kill['time'], 4) for t in times]}, "
                     f"restart at {kill['restart'] - kill['time']:.4f})")
        conn.close()
        out["in_flight_repeats"] = repeats
        out["completed"] = sum(1 for v in views.values() if v["status"] == "completed")
        extra = set(g for (g, _) in counter.hits) - want
        if extra:
            fail(f"the counter was reached for unknown tags {sorted(extra)[:5]}")
        if d.errors:
            fail(f"{len(d.errors)} error(s), first: " + "; ".join(d.errors[:3]))
        code = second.stop()
        if code != 0:
            fail(f"the restarted server exited {code} on SIGTERM:\n{second.stderr()[-3000:]}")
        for server in (first, second):
            if server.sanitizer:
                fail("sanitizer report:\n" + "".join(server.sanitizer))
        out["stderr"] = first.stderr() + second.stderr()
    finally:
        first.cleanup()
        second.cleanup()
        counter.close()
        shutil.rmtree(folder, ignore_errors=True)
    return out


# ---------- command line ----------

def report(name, out):
    keep = {k: v for k, v in out.items() if k not in ("stderr", "rss", "failures")}
    print(f"{name}: " + json.dumps(keep, default=str))
    if out.get("rss"):
        print("RSS (sessions completed, KiB): " + " ".join(f"{n}:{kib}" for n, kib in out["rss"]))
    for f in out["failures"]:
        print("FAIL " + f)
    print("ok" if not out["failures"] else f"{len(out['failures'])} failure(s)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("what", choices=["load", "fault"])
    ap.add_argument("--chidori", default=os.path.join(ROOT, "build", "chidori"))
    ap.add_argument("--sessions", type=int, default=10000)
    ap.add_argument("--concurrency", type=int, default=64)
    ap.add_argument("--warmup", type=int, default=None, help="sessions before the RSS reference (load)")
    ap.add_argument("--hits", type=int, default=3, help="fetches per session (fault)")
    ap.add_argument("--rss-slack-kib", type=int, default=4096, help="RSS growth allowed in all (bounded caches: see rss_bound_kib)")
    ap.add_argument("--rss-per-session", type=int, default=0, help="bytes of RSS allowed per session (none: see rss_bound_kib)")
    ap.add_argument("--no-rss-check", action="store_true")
    a = ap.parse_args()
    if a.what == "load":
        out = run_load(a.chidori, a.sessions, a.concurrency, a.warmup, a.rss_slack_kib, a.rss_per_session,
                       check_rss=not a.no_rss_check)
    else:
        out = run_fault(a.chidori, a.sessions, a.concurrency, a.hits)
    report(a.what, out)
    return 1 if out["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
