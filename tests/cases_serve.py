"""tests/cases_serve.py — `chidori serve` end to end: a real server on a free loopback port,
driven over HTTP/1.1 with the standard library, serving tests/serve/agent.js (whose input.mode
picks what it does: greet, wait for an input, write to the workspace, call a counting MCP tool,
spin the CPU, fail).

Each case starts its own server with its own database and workspace, and stops it with SIGTERM
(it must exit 0, with no sanitizer report) — or kills it with SIGKILL to test recovery.
"""
import contextlib
import http.client
import json
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

import serve_db
from cases import Skip
from cases_isolation import FORKSERVER_NAME
from run import ROOT, sanitizer_report

AGENT = os.path.join(ROOT, "tests", "serve", "agent.js")
PY = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
VIEW_KEYS = {"id", "run_id", "status", "input", "output", "error", "call_count", "pending_prompt",
             "pending_approval", "policy_profile", "created_at",
             "pending_seq", "pending_signal_name", "pending_signal_names", "pending_signal_deadline", "node"}


def json_headers(data, headers):
    """The request's headers: a body is declared JSON (the server answers 415 otherwise) unless the
    caller says what it is."""
    out = dict(headers or {})
    if data is not None and not any(k.lower() == "content-type" for k in out):
        out["Content-Type"] = "application/json"
    return out


class Server:
    """A `chidori serve` process: start() waits for its `Listening on` line."""

    def __init__(self, v, *args, env=None, folder=None, agent=AGENT):
        self.v = v
        self.folder = folder or tempfile.mkdtemp(prefix="chidori-serve-")
        self.env = {"CHIDORI_STATE_DIR": os.path.join(self.folder, "state"),
                    "CHIDORI_WORKSPACE_ROOT": self.folder}
        self.env.update(env or {})
        self.args = args
        self.agent = agent
        self.proc = None

    def start(self, expect_listen=True):
        self.lines = []
        listening = threading.Event()
        self.proc = subprocess.Popen([self.v.chidori, "serve", "--port", "0", *self.args, self.agent],
                                     env=self.v.env(self.env), stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

        def drain(proc=self.proc, lines=self.lines):
            for line in proc.stderr:
                lines.append(line)
                m = re.match(r"^Listening on http://(.*):(\d+)$", line.strip())
                if m:
                    self.host, self.port = m.group(1).strip("[]"), int(m.group(2))
                    listening.set()
            listening.set()
        self.reader = threading.Thread(target=drain, daemon=True)
        self.reader.start()
        if not expect_listen:
            return self
        listening.wait(20 * self.v.slow)
        assert self.proc.poll() is None and hasattr(self, "port"), "server did not start:\n" + self.stderr()
        return self

    def stderr(self):
        return "".join(self.lines)

    def request(self, method, path, body=None, headers=None, timeout=30):
        """(status, headers, parsed JSON or text)."""
        conn = http.client.HTTPConnection(self.host, self.port, timeout=timeout * self.v.slow)
        data = body
        if isinstance(body, (dict, list)):
            data = json.dumps(body)
        conn.request(method, path, body=data, headers=json_headers(data, headers))
        r = conn.getresponse()
        raw = r.read().decode("utf-8", "replace")
        hdrs = {k.lower(): v for k, v in r.getheaders()}
        conn.close()
        try:
            parsed = json.loads(raw) if raw else None
        except ValueError:
            parsed = raw
        return r.status, hdrs, parsed

    def events(self, method, path, body=None, headers=None, timeout=30):
        """An SSE response as [(event, data)], read until the stream ends."""
        conn = http.client.HTTPConnection(self.host, self.port, timeout=timeout * self.v.slow)
        data = json.dumps(body) if body is not None else None
        conn.request(method, path, body=data, headers=json_headers(data, headers))
        r = conn.getresponse()
        assert r.status == 200, (r.status, r.read())
        assert r.getheader("Content-Type") == "text/event-stream", r.getheaders()
        out, event = [], None
        for raw in r:
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: "):
                out.append((event, json.loads(line[6:])))
        conn.close()
        return out

    def wait_for(self, sid, pred, what, seconds=20):
        deadline = time.monotonic() + seconds * self.v.slow
        while time.monotonic() < deadline:
            _, _, view = self.request("GET", f"/sessions/{sid}")
            if pred(view):
                return view
            time.sleep(0.05)
        raise AssertionError(f"session {sid} never became {what}: {view}\n{self.stderr()}")

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        code = self.proc.wait(timeout=30 * self.v.slow)
        self.reader.join(timeout=5)
        assert code == 0, f"server exited {code}:\n{self.stderr()}"
        assert not sanitizer_report(self.stderr()), "sanitizer report:\n" + self.stderr()[-4000:]

    def kill(self):
        self.proc.kill()
        self.proc.wait(timeout=10)
        self.reader.join(timeout=5)

    def cleanup(self):
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


@contextlib.contextmanager
def serving(v, *args, env=None):
    s = Server(v, *args, env=env)
    try:
        s.start()
        yield s
        s.stop()
    finally:
        s.cleanup()


def create(s, body, want=201):
    status, hdrs, view = s.request("POST", "/sessions", body)
    assert status == want, (status, view, s.stderr())
    return view


# ---------- routes and statuses ----------

def case_serve_sessions_run_list_view_checkpoint(v):
    with serving(v) as s:
        status, _, body = s.request("GET", "/health")
        assert status == 200 and body == {"status": "ok"}, (status, body)
        view = create(s, {"input": {"name": "Ada"}})
        assert set(view) == VIEW_KEYS, sorted(view)
        assert view["status"] == "completed" and view["output"] == {"greeting": "Hello, Ada!"}, view
        assert view["call_count"] == 2 and view["error"] is None and view["pending_approval"] is None, view
        assert re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$", view["created_at"]), view
        assert view["id"] != view["run_id"], view
        sid = view["id"]
        status, _, got = s.request("GET", f"/sessions/{sid}")
        assert status == 200 and got == view, (status, got)
        status, _, listing = s.request("GET", "/sessions")
        assert status == 200 and [x["id"] for x in listing["sessions"]] == [sid], listing
        status, _, cp = s.request("GET", f"/sessions/{sid}/checkpoint")
        assert status == 200 and cp["id"] == sid and cp["status"] == "completed", cp
        assert [r["function"] for r in cp["call_log"]] == ["log", "mark"], cp
        assert [r["seq"] for r in cp["call_log"]] == [1, 2], cp
        # a caller-chosen id; reusing it is a conflict
        view = create(s, {"input": {"mode": "fail"}, "session_id": "my-session.1"})
        assert view["id"] == "my-session.1" and view["status"] == "failed", view
        assert "failed on purpose" in view["error"], view
        status, _, body = s.request("POST", "/sessions", {"input": {}, "sessionId": "my-session.1"})
        assert status == 409 and "already exists" in body["error"], (status, body)
        # wait: false answers at once, with the session running
        view = create(s, {"input": {"mode": "spin", "loops": 3000000}, "wait": False})
        assert view["status"] == "running", view
        s.wait_for(view["id"], lambda x: x["status"] == "completed", "completed")
    assert "Policy: untrusted (default for serve; --trusted to allow all)" in s.stderr(), s.stderr()
    assert f"[session {sid}] [log] hello {{\"name\":\"Ada\"}}\n" in s.stderr(), s.stderr()
    assert re.search(r"^Isolation: ", s.stderr(), re.M), s.stderr()


def case_serve_input_pause_resume(v):
    with serving(v) as s:
        view = create(s, {"input": {"mode": "input"}})
        assert view["status"] == "paused" and view["pending_prompt"] == "Ship it?", view
        sid = view["id"]
        for body, words in [({}, "`response` must be a string"), ({"response": 7}, "`response` must be a string"),
                            ({"response": "yes", "extra": 1}, "unknown field `extra`")]:
            status, _, got = s.request("POST", f"/sessions/{sid}/resume", body)
            assert status == 400 and words in got["error"], (body, status, got)
        status, _, got = s.request("POST", f"/sessions/{sid}/approve", {"decision": "allow"})
        assert status == 409 and "not awaiting an approval" in got["error"], (status, got)
        status, _, got = s.request("POST", f"/sessions/{sid}/resume", {"response": "yes"})
        assert status == 200 and got["status"] == "completed" and got["output"] == {"answer": "yes"}, got
        assert got["call_count"] == 3 and got["pending_prompt"] is None, got
        status, _, got = s.request("POST", f"/sessions/{sid}/resume", {"response": "again"})
        assert status == 409 and "not paused" in got["error"], (status, got)
        _, _, cp = s.request("GET", f"/sessions/{sid}/checkpoint")
        assert [(r["function"], r.get("result")) for r in cp["call_log"]] == \
            [("log", None), ("input", "yes"), ("mark", None)], cp


def case_serve_approval_allow_deny_and_profiles(v):
    """A session profile layered stricter-wins on the server's policy: supervised asks before a
    workspace write; allow runs it (and remembers it: the identical second write does not ask
    again); deny fails the session. Unknown profiles are a 400."""
    with serving(v, "--trusted") as s:
        status, _, body = s.request("POST", "/sessions", {"input": {}, "policy_profile": "nosuch"})
        assert status == 400 and "unknown policy_profile" in body["error"], (status, body)
        status, _, body = s.request("POST", "/sessions", {"input": {}, "policy_profile": "supervised",
                                                          "policyProfile": "untrusted"})
        assert status == 400 and "disagree" in body["error"], (status, body)
        view = create(s, {"input": {"mode": "write"}, "policyProfile": "supervised"})
        assert view["status"] == "awaitingapproval" and view["policy_profile"] == "supervised", view
        pa = view["pending_approval"]
        assert pa["target"] == "workspace:write" and pa["args"]["path"] == "out.txt", pa
        assert isinstance(pa["reason"], str) and "supervised" in pa["reason"], pa
        sid = view["id"]
        status, _, got = s.request("POST", f"/sessions/{sid}/resume", {"response": "x"})
        assert status == 409, (status, got)
        for body in [{"decision": "yes"}, {"decision": True}]:  # no decision allows: tests/cases_serve_compat.py
            status, _, got = s.request("POST", f"/sessions/{sid}/approve", body)
            assert status == 400 and "`decision`" in got["error"], (body, status, got)
        assert not os.path.exists(os.path.join(s.folder, "out.txt")), "wrote before the approval"
        status, _, got = s.request("POST", f"/sessions/{sid}/approve", {"decision": "allow"})
        assert status == 200 and got["status"] == "completed", got
        assert got["output"]["wrote"] is True and got["policy_profile"] == "supervised", got
        with open(os.path.join(s.folder, "out.txt")) as f:
            assert f.read() == "hello"
        status, _, got = s.request("POST", f"/sessions/{sid}/approve", {"decision": "allow"})
        assert status == 409 and "not awaiting" in got["error"], (status, got)

        view = create(s, {"input": {"mode": "write"}, "policy_profile": "supervised"})
        status, _, got = s.request("POST", f"/sessions/{view['id']}/approve", {"decision": "deny"})
        assert status == 200 and got["status"] == "failed", got
        assert got["error"] == "policy: `workspace:write` denied by operator", got
        assert got["pending_approval"] is None, got
        # the untrusted server default wins over a permissive session profile
    with serving(v) as s:
        view = create(s, {"input": {"mode": "write"}, "policy_profile": "permissive"})
        assert view["status"] == "failed" and "policy: `workspace:write` denied" in view["error"], view


def case_serve_policy_file_ask_before(v):
    """The server's own policy (CHIDORI_POLICY_FILE) may ask before a workspace write; a broken
    policy configuration fails closed to untrusted."""
    folder = tempfile.mkdtemp(prefix="chidori-policy-")
    try:
        policy = os.path.join(folder, "policy.json")
        with open(policy, "w") as f:
            json.dump({"rules": [{"target": "workspace:write", "decision": "ask_before", "reason": "writes are reviewed"}]}, f)
        # CHIDORI_POLICY_AUTO_APPROVE is a command-line setting: the server still asks
        with serving(v, env={"CHIDORI_POLICY_FILE": policy, "CHIDORI_POLICY_AUTO_APPROVE": "1"}) as s:
            view = create(s, {"input": {"mode": "write"}})
            assert view["status"] == "awaitingapproval", view
            assert view["pending_approval"]["reason"] == "writes are reviewed", view
            assert view["policy_profile"] is None, view
        assert f"Policy: custom (CHIDORI_POLICY_FILE={policy})" in s.stderr(), s.stderr()
        with serving(v, "--trusted", env={"CHIDORI_POLICY_FILE": os.path.join(folder, "missing.json")}) as s:
            view = create(s, {"input": {"mode": "write"}})
            assert view["status"] == "failed" and "denied" in view["error"], view
        assert "fail-closed" in s.stderr(), s.stderr()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def case_serve_cancel(v):
    with serving(v) as s:
        view = create(s, {"input": {"mode": "input"}})
        sid = view["id"]
        status, _, got = s.request("POST", f"/sessions/{sid}/cancel")
        assert status == 200 and got["status"] == "cancelled" and got["pending_prompt"] is None, got
        status, _, got = s.request("POST", f"/sessions/{sid}/cancel")
        assert status == 409, (status, got)
        status, _, got = s.request("POST", f"/sessions/{sid}/resume", {"response": "yes"})
        assert status == 409, (status, got)
        done = create(s, {"input": {}})
        status, _, got = s.request("POST", f"/sessions/{done['id']}/cancel", {})
        assert status == 409 and "completed" in got["error"], (status, got)
        # a running session: the isolated worker is stopped at once
        view = create(s, {"input": {"mode": "spin", "loops": 2000000000}, "wait": False})
        t0 = time.monotonic()
        status, _, got = s.request("POST", f"/sessions/{view['id']}/cancel")
        assert status == 200 and got["status"] == "cancelled", got
        got = s.wait_for(view["id"], lambda x: x["status"] == "cancelled" and x["call_count"] == 0, "cancelled")
        _, _, listing = s.request("GET", "/sessions")
        events = s.events("GET", f"/sessions/{view['id']}/stream")
        assert [e for e, _ in events] == ["done"] and events[-1][1]["status"] == "cancelled", events
        assert time.monotonic() - t0 < 10 * v.slow, "the cancelled run went on"


def case_serve_settled_sessions_leave_memory_and_come_back_whole(v):
    """A session stays in the server's memory only while something uses it (its run, a stream, a
    request); a settled one is read back from the database when asked for. Settled sessions, one
    paused on input() and a failed one: each is found again by id, in GET /sessions (oldest
    first) and in its stream, all as they were; the paused one is resumed by id; a reused id is
    still a conflict; and a restarted server finds everything. That a settled session really left
    memory shows when its row is edited in the database under the running server: the next GET
    answers the edit."""
    folder = tempfile.mkdtemp(prefix="chidori-serve-evict-")
    first = Server(v, folder=folder)
    second = Server(v, folder=folder)
    try:
        first.start()
        done = [create(first, {"input": {"name": f"n{i}"}, "session_id": f"done-{i}"}) for i in range(6)]
        assert all(x["status"] == "completed" for x in done), done
        paused = create(first, {"input": {"mode": "input"}, "session_id": "waits"})
        failed = create(first, {"input": {"mode": "fail"}})
        assert paused["status"] == "paused" and failed["status"] == "failed", (paused, failed)
        views = done + [paused, failed]
        for view in views:
            status, _, got = first.request("GET", f"/sessions/{view['id']}")
            assert status == 200 and got == view, (status, got, view)
        _, _, listing = first.request("GET", "/sessions")
        assert listing["sessions"] == views, listing
        events = first.events("GET", "/sessions/done-3/stream")
        assert [e for e, _ in events] == ["call", "call", "done"] and events[-1][1] == done[3], events
        events = first.events("GET", "/sessions/waits/stream")
        assert [e for e, _ in events] == ["call", "paused", "done"] and events[-1][1] == paused, events
        status, _, got = first.request("POST", "/sessions", {"input": {}, "session_id": "done-2"})
        assert status == 409 and "already exists" in got["error"], (status, got)

        state = os.path.join(folder, "state")
        serve_db.set_session_column(v, state, "done-1", "output", json.dumps({"edited": True}))
        status, _, got = first.request("GET", "/sessions/done-1")
        assert status == 200 and got["output"] == {"edited": True}, ("still in memory", got)
        serve_db.set_session_column(v, state, "done-1", "output", json.dumps(done[1]["output"]))

        status, _, got = first.request("POST", "/sessions/waits/resume", {"response": "yes"})
        assert status == 200 and got["status"] == "completed" and got["output"] == {"answer": "yes"}, got
        assert got["call_count"] == 3 and got["pending_prompt"] is None, got
        paused = got
        views = done + [paused, failed]
        _, _, listing = first.request("GET", "/sessions")
        assert listing["sessions"] == views, listing
        first.stop()

        second.start()
        assert f"Sessions: {len(views)} in " in second.stderr(), second.stderr()
        for view in views:
            status, _, got = second.request("GET", f"/sessions/{view['id']}")
            assert status == 200 and got == view, (status, got, view)
        _, _, listing = second.request("GET", "/sessions")
        assert listing["sessions"] == views, listing
        _, _, cp = second.request("GET", "/sessions/waits/checkpoint")
        assert [r["function"] for r in cp["call_log"]] == ["log", "input", "mark"], cp
        second.stop()
    finally:
        first.cleanup()
        second.cleanup()


def case_serve_one_session_hammered_while_it_leaves_memory(v):
    """Several clients at once read the same settled sessions — the view, the stream, the
    checkpoint, the list — so each is dropped from memory and loaded again many times while other
    requests hold it: every answer is whole and right (and, under ASan, nothing is used after it
    was freed)."""
    with serving(v) as s:
        done = create(s, {"input": {"name": "Hal"}})
        paused = create(s, {"input": {"mode": "input"}})
        want_events = {done["id"]: (["call", "call", "done"], done), paused["id"]: (["call", "paused", "done"], paused)}
        errors = []

        def client(k):
            try:
                for i in range(12):
                    view = done if (i + k) % 2 else paused
                    sid = view["id"]
                    kind = (i + k) % 4
                    if kind == 0:
                        status, _, got = s.request("GET", f"/sessions/{sid}")
                        assert status == 200 and got == view, (status, got)
                    elif kind == 1:
                        events = s.events("GET", f"/sessions/{sid}/stream")
                        names, last = want_events[sid]
                        assert [e for e, _ in events] == names and events[-1][1] == last, events
                    elif kind == 2:
                        status, _, cp = s.request("GET", f"/sessions/{sid}/checkpoint")
                        assert status == 200 and len(cp["call_log"]) == view["call_count"], (status, cp)
                    else:
                        status, _, listing = s.request("GET", "/sessions")
                        assert status == 200 and listing["sessions"] == [done, paused], (status, listing)
            except Exception as e:  # noqa: BLE001 - reported below
                errors.append(f"client {k}: {type(e).__name__}: {e}")

        threads = [threading.Thread(target=client, args=(k,)) for k in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120 * v.slow)
        assert not errors, errors
        status, _, got = s.request("POST", f"/sessions/{paused['id']}/resume", {"response": "no"})
        assert status == 200 and got["output"] == {"answer": "no"}, got


def case_serve_replay(v):
    with serving(v) as s:
        orig = create(s, {"input": {"name": "Lin"}})
        status, _, copy = s.request("POST", f"/sessions/{orig['id']}/replay")
        assert status == 201, (status, copy)
        assert copy["id"] != orig["id"] and copy["replayed_from"] == orig["id"], copy
        assert copy["status"] == "completed" and copy["output"] == orig["output"], copy
        assert copy["call_count"] == orig["call_count"], copy
        _, _, a = s.request("GET", f"/sessions/{orig['id']}/checkpoint")
        _, _, b = s.request("GET", f"/sessions/{copy['id']}/checkpoint")
        assert a["call_log"] == b["call_log"], "the replay performed calls again"
        paused = create(s, {"input": {"mode": "input"}})
        status, _, copy = s.request("POST", f"/sessions/{paused['id']}/replay", {})
        assert status == 201 and copy["status"] == "paused" and copy["pending_prompt"] == "Ship it?", copy
        status, _, got = s.request("POST", f"/sessions/{copy['id']}/resume", {"response": "no"})
        assert got["status"] == "completed" and got["output"] == {"answer": "no"}, got
        _, _, still = s.request("GET", f"/sessions/{paused['id']}")
        assert still["status"] == "paused", "resuming the replay touched the original"
        status, _, got = s.request("POST", f"/sessions/{orig['id']}/replay", {"wait": "no"})
        assert status == 400, (status, got)


def case_serve_sse_stream_and_reattach(v):
    with serving(v) as s:
        events = s.events("POST", "/sessions/stream", {"input": {"name": "Bo"}})
        assert [e for e, _ in events] == ["call", "call", "done"], events
        assert [d["function"] for e, d in events if e == "call"] == ["log", "mark"], events
        done = events[-1][1]
        assert set(done) == VIEW_KEYS and done["status"] == "completed", done
        assert done["output"] == {"greeting": "Hello, Bo!"}, done
        again = s.events("GET", f"/sessions/{done['id']}/stream")
        assert again == events, (again, events)
        # a session that waits: the records, then `paused`, then `done`
        events = s.events("POST", "/sessions/stream", {"input": {"mode": "input"}})
        assert [e for e, _ in events] == ["call", "paused", "done"], events
        sid = events[-1][1]["id"]
        assert events[1][1]["pending_prompt"] == "Ship it?", events
        status, _, got = s.request("POST", f"/sessions/{sid}/resume", {"response": "yes", "wait": False})
        assert status == 200, got
        # re-attach (while it runs, or after): every record, then done
        events = s.events("GET", f"/sessions/{sid}/stream")
        assert [e for e, _ in events] == ["call", "call", "call", "done"], events
        assert [d["function"] for e, d in events if e == "call"] == ["log", "input", "mark"], events
        assert events[-1][1]["status"] == "completed", events
        # a stream follows a run live, with keep-alives meanwhile ignored by the client
        events = s.events("POST", "/sessions/stream", {"input": {"mode": "spin", "loops": 2000000}})
        assert [e for e, _ in events] == ["call", "done"] and events[0][1]["args"]["message"] == "spun", events


def case_serve_bad_requests_keep_the_server_alive(v):
    with serving(v) as s:
        checks = [
            ("POST", "/sessions", "{not json", 400, "not valid JSON"),
            ("POST", "/sessions", "[1, 2]", 400, "must be a JSON object"),
            ("POST", "/sessions", {"input": [1]}, 400, "`input` must be a JSON object"),
            ("POST", "/sessions", {"input": {}, "policy_profle": "untrusted"}, 400, "unknown field `policy_profle`"),
            ("POST", "/sessions", {"input": {}, "session_id": "../etc"}, 400, "`session_id`"),
            ("POST", "/sessions", {"input": {}, "session_id": 5}, 400, "`session_id` must be a string"),
            ("POST", "/sessions", {"input": {}, "wait": 1}, 400, "`wait` must be true or false"),
            ("POST", "/sessions", "{" * 100 + "}" * 100, 400, "not valid JSON"),
            ("GET", "/nowhere", None, 404, "no route"),
            ("GET", "/sessions/", None, 404, "no route"),
            ("GET", "/sessions/x/y", None, 404, "no route"),
            ("GET", "/sessions/nosuch", None, 404, "session `nosuch` not found"),
            ("POST", "/sessions/nosuch/resume", {"response": "x"}, 404, "not found"),
            ("GET", "/sessions/nosuch/checkpoint", None, 404, "not found"),
            ("DELETE", "/sessions", None, 405, "not allowed"),
            ("GET", "/sessions/stream", None, 405, "not allowed"),
            ("POST", "/health", None, 405, "not allowed"),
            ("GET", "/sessions/nosuch/resume", None, 405, "not allowed"),
        ]
        for method, path, body, want, words in checks:
            status, hdrs, got = s.request(method, path, body)
            assert status == want and isinstance(got, dict) and words in got.get("error", ""), \
                (method, path, body, status, got)
            if want == 405:
                assert "allow" in hdrs, hdrs
        # a Content-Length over the cap is answered from the headers, before the body is sent
        with socket.create_connection((s.host, s.port), timeout=30 * v.slow) as sock:
            sock.sendall(b"POST /sessions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                         b"Content-Length: %d\r\n\r\n" % (2 << 20))
            reply = b""
            while b"}" not in reply:
                chunk = sock.recv(4096)
                if not chunk:
                    break
                reply += chunk
        assert reply.startswith(b"HTTP/1.1 413") and b"larger than 1 MiB" in reply, reply
        # a chunked body (no Content-Length) is counted as it arrives
        conn = http.client.HTTPConnection(s.host, s.port, timeout=30)
        conn.putrequest("POST", "/sessions")
        conn.putheader("Transfer-Encoding", "chunked")
        conn.endheaders()
        chunk = b"x" * 65536
        try:
            for _ in range(24):
                conn.send(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            conn.send(b"0\r\n\r\n")
            r = conn.getresponse()
            assert r.status == 413, r.status
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server may close the connection on us: also a refusal
        conn.close()
        # a request's headers share the connection's 32 KiB memory pool (docs/http-api.md,
        # "Connections and threads"): 24 KiB of them are served, 40 KiB answered 431
        status, _, got = s.request("POST", "/sessions", {"input": {"name": "padded"}}, headers={"X-Pad": "p" * (24 << 10)})
        assert status == 201 and got["output"] == {"greeting": "Hello, padded!"}, (status, got)
        status, _, got = s.request("GET", "/health", headers={"X-Pad": "p" * (40 << 10)})
        assert status == 431, (status, got)
        status, _, got = s.request("GET", "/health")
        assert status == 200, "the server did not survive bad requests"
        view = create(s, {"input": {"name": "still here"}})
        assert view["status"] == "completed", view


def case_serve_auth(v):
    with serving(v, env={"CHIDORI_API_KEY": "k-one, k-two"}) as s:
        status, _, got = s.request("GET", "/health")
        assert status == 200, "health needs no key"
        for headers in [{}, {"Authorization": "Bearer wrong"}, {"Authorization": "k-one"},
                        {"Authorization": "Bearer k-one-and-more"}, {"Authorization": "Basic k-one"}]:
            status, hdrs, got = s.request("GET", "/sessions", headers=headers)
            assert status == 401 and got["error"] == "missing or invalid bearer token", (headers, status, got)
            assert hdrs.get("www-authenticate") == "Bearer", hdrs
        status, _, got = s.request("POST", "/nosuch", headers={})
        assert status == 401, "an unknown route is not revealed without a key"
        for key in ["k-one", "k-two"]:
            status, _, got = s.request("GET", "/sessions", headers={"Authorization": f"Bearer {key}"})
            assert status == 200, (key, status, got)
    # binding a non-loopback address without a key is refused before anything listens
    srv = Server(v, "--host", "0.0.0.0")
    try:
        srv.start(expect_listen=False)
        code = srv.proc.wait(timeout=20 * v.slow)
        srv.reader.join(timeout=5)
        assert code == 2 and "not a loopback address, without an API key" in srv.stderr(), (code, srv.stderr())
        assert "Listening" not in srv.stderr(), srv.stderr()
    finally:
        srv.cleanup()


def case_serve_cors(v):
    with serving(v) as s:
        status, hdrs, _ = s.request("GET", "/sessions", headers={"Origin": "http://app.test"})
        assert status == 200 and "access-control-allow-origin" not in hdrs, hdrs
        status, hdrs, _ = s.request("OPTIONS", "/sessions", headers={"Origin": "http://app.test"})
        assert status == 405 and "access-control-allow-origin" not in hdrs, (status, hdrs)
    with serving(v, env={"CHIDORI_CORS_ORIGINS": "http://app.test, http://other.test"}) as s:
        status, hdrs, _ = s.request("GET", "/sessions", headers={"Origin": "http://app.test"})
        assert status == 200 and hdrs.get("access-control-allow-origin") == "http://app.test", hdrs
        status, hdrs, _ = s.request("OPTIONS", "/sessions", headers={
            "Origin": "http://other.test", "Access-Control-Request-Method": "POST"})
        assert status == 200 and hdrs.get("access-control-allow-origin") == "http://other.test", (status, hdrs)
        assert "POST" in hdrs.get("access-control-allow-methods", ""), hdrs
        assert "Authorization" in hdrs.get("access-control-allow-headers", ""), hdrs
        status, hdrs, _ = s.request("GET", "/sessions", headers={"Origin": "http://evil.test"})
        assert "access-control-allow-origin" not in hdrs, hdrs
        status, hdrs, _ = s.request("OPTIONS", "/sessions", headers={"Origin": "http://evil.test"})
        assert status == 403 and "access-control-allow-origin" not in hdrs, (status, hdrs)


def case_serve_concurrency_cap(v):
    with serving(v, env={"CHIDORI_MAX_CONCURRENT_SESSIONS": "1"}) as s:
        busy = create(s, {"input": {"mode": "spin", "loops": 2000000000}, "wait": False})
        status, hdrs, got = s.request("POST", "/sessions", {"input": {}})
        assert status == 503 and hdrs.get("retry-after") == "1", (status, hdrs, got)
        assert "CHIDORI_MAX_CONCURRENT_SESSIONS" in got["error"], got
        paused_ok = s.request("GET", "/sessions")[0]
        assert paused_ok == 200
        s.request("POST", f"/sessions/{busy['id']}/cancel")
        s.wait_for(busy["id"], lambda x: x["call_count"] == 0 and x["status"] == "cancelled", "cancelled")
        deadline = time.monotonic() + 20 * v.slow
        while True:  # the slot frees once the cancelled run has ended
            status, _, got = s.request("POST", "/sessions", {"input": {}})
            if status == 201 or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert status == 201 and got["status"] == "completed", (status, got)
    srv = Server(v, env={"CHIDORI_MAX_CONCURRENT_SESSIONS": "0"})
    try:
        srv.start(expect_listen=False)
        assert srv.proc.wait(timeout=20 * v.slow) == 2
        srv.reader.join(timeout=5)
        assert "CHIDORI_MAX_CONCURRENT_SESSIONS must be" in srv.stderr(), srv.stderr()
    finally:
        srv.cleanup()


def case_serve_memory_in_the_database(v):
    """chidori.memory under serve lives in the session database, and concurrent sessions do not
    lose each other's writes (each operation is one statement)."""
    with serving(v, env={"CHIDORI_MAX_CONCURRENT_SESSIONS": "32"}) as s:
        first = create(s, {"input": {"mode": "remember", "key": "a", "n": 1}})
        assert first["output"] == {"before": None, "got": {"n": 1}, "keys": ["a"], "gone": None}, first
        views = [None] * 12
        def one(i):
            views[i] = s.request("POST", "/sessions", {"input": {"mode": "remember", "key": f"k{i}", "n": i}})[2]
        threads = [threading.Thread(target=one, args=(i,)) for i in range(len(views))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60 * v.slow)
        assert all(x and x["status"] == "completed" for x in views), views
        last = create(s, {"input": {"mode": "remember", "key": "a", "n": 2, "forget": True}})
        out = last["output"]
        assert out["before"] == {"n": 1} and out["got"] == {"n": 2} and out["gone"] is True, out
        assert out["keys"][0] == "a" and sorted(out["keys"]) == sorted(["a"] + [f"k{i}" for i in range(12)]), out
        # a replay answers memory from the log: it does not write again
        replay = s.request("POST", f"/sessions/{last['id']}/replay")[2]
        assert replay["output"] == out, replay
        db = sqlite3.connect(os.path.join(s.folder, "state", "sessions.sqlite3"))
        rows = db.execute("SELECT key FROM memory WHERE namespace = 'serve-test' ORDER BY key").fetchall()
        db.close()
        assert sorted(r[0] for r in rows) == sorted(f"k{i}" for i in range(12)), rows
        assert not os.path.exists(os.path.join(s.folder, "state", "memory.json")), "memory went to memory.json"


def wall_clock_blanked(value):
    """A workspace write's result holds the time of the write (updatedAt, the generation manifest's
    field), in the log and in an output that returns it: checked to be one, then blanked, so two
    live runs compare."""
    if isinstance(value, list):
        return [wall_clock_blanked(x) for x in value]
    if not isinstance(value, dict):
        return value
    out = {k: wall_clock_blanked(x) for k, x in value.items()}
    if "updatedAt" in value and "sha256" in value:
        assert re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$", value["updatedAt"]), value
        out["updatedAt"] = "<time>"
    return out


def case_serve_in_process_matches_isolated(v):
    """--no-isolate sessions behave as isolated ones: same statuses, outputs and call logs."""
    logs = {}
    for mode in ("--isolate", "--no-isolate"):
        with serving(v, mode, "--trusted") as s:
            a = create(s, {"input": {"name": "Ida"}})
            b = create(s, {"input": {"mode": "input"}})
            b = s.request("POST", f"/sessions/{b['id']}/resume", {"response": "no"})[2]
            c = create(s, {"input": {"mode": "write"}, "policy_profile": "supervised"})
            c = s.request("POST", f"/sessions/{c['id']}/approve", {"decision": "allow"})[2]
            got = []
            for view in (a, b, c):
                cp = s.request("GET", f"/sessions/{view['id']}/checkpoint")[2]
                got.append((view["status"], wall_clock_blanked(view["output"]),
                            [(r["seq"], r["function"], r["args"], wall_clock_blanked(r.get("result"))) for r in cp["call_log"]]))
            logs[mode] = got
        if mode == "--no-isolate":
            assert "Isolation: off" in s.stderr(), s.stderr()
    assert logs["--isolate"] == logs["--no-isolate"], logs


def case_serve_warm_workers(v):
    """Isolated sessions take a warm worker (spawned and confined ahead of time) when one is
    ready and a cold one otherwise; each worker runs one session. Same results either way."""
    outputs = {}
    for warm in ("0", "1", "3"):
        with serving(v, env={"CHIDORI_SERVE_WARM_WORKERS": warm}) as s:
            got = []
            for i in range(4):  # more sessions than workers: the pool refills, or runs start cold
                view = create(s, {"input": {"name": f"n{i}"}})
                got.append((view["status"], wall_clock_blanked(view["output"]), view["call_count"]))
            view = create(s, {"input": {"mode": "input"}})
            view = s.request("POST", f"/sessions/{view['id']}/resume", {"response": "yes"})[2]
            got.append((view["status"], view["output"], view["call_count"]))
            outputs[warm] = got
        has_line = "Warm workers: " in s.stderr()
        assert has_line == (warm != "0"), s.stderr()
    assert outputs["0"] == outputs["1"] == outputs["3"], outputs
    assert all(x[0] == "completed" for x in outputs["0"]), outputs
    srv = Server(v, env={"CHIDORI_SERVE_WARM_WORKERS": "lots"})
    try:
        srv.start(expect_listen=False)
        assert srv.proc.wait(timeout=20 * v.slow) == 2
        srv.reader.join(timeout=5)
        assert "CHIDORI_SERVE_WARM_WORKERS must be" in srv.stderr(), srv.stderr()
    finally:
        srv.cleanup()


# ---------- durability ----------

def mcp_env(log):
    return json.dumps({"mcpServers": {"counter": {"command": PY,
                                                  "args": [os.path.join(ROOT, "tests/mcp/counter.py"), log]}}})


def case_serve_survives_kill_9(v):
    crash_and_recover(v, "slow")


def case_serve_survives_kill_9_inside_a_nested_agent(v):
    """The same, with the run killed inside a nested agent (callAgent): the nested agent's
    recorded call belongs to a call_agent that has no record yet; the re-run gives that call its
    seq again, so the nested record answers instead of the tool running twice."""
    crash_and_recover(v, "nested")


def crash_and_recover(v, mode):
    """kill -9 of the server with one session paused, one awaiting approval, one completed and one
    running (between two MCP calls); the restarted server keeps the first three as they were and
    re-runs the fourth by replaying its log: the first call is not performed again, the second
    runs live, and every call was performed exactly once."""
    folder = tempfile.mkdtemp(prefix="chidori-serve-crash-")
    calls = os.path.join(folder, "mcp-calls.log")
    open(calls, "w").close()
    env = {"CHIDORI_MCP_CONFIG": mcp_env(calls)}
    first = Server(v, "--trusted", env=env, folder=folder)
    second = Server(v, "--trusted", env=env, folder=folder)
    try:
        first.start()
        paused = create(first, {"input": {"mode": "input"}})
        waiting = create(first, {"input": {"mode": "write"}, "policy_profile": "supervised"})
        done = create(first, {"input": {"name": "Kim"}})
        assert (paused["status"], waiting["status"], done["status"]) == ("paused", "awaitingapproval", "completed")
        loops = 50000000 if not v.sanitized else 6000000
        running = create(first, {"input": {"mode": mode, "loops": loops}, "wait": False})
        first.wait_for(running["id"], lambda x: x["call_count"] >= (1 if mode == "slow" else 2), "one tool call in")
        view = first.request("GET", f"/sessions/{running['id']}")[2]
        assert view["status"] == "running", f"the slow session finished before the kill: {view}"
        # the list is read from the database, but a running session's count is live (in memory)
        listed = {x["id"]: x for x in first.request("GET", "/sessions")[2]["sessions"]}
        assert listed[running["id"]]["status"] == "running" and listed[running["id"]]["call_count"] >= 1, listed
        assert [listed[x["id"]] for x in (paused, waiting, done)] == [paused, waiting, done], listed
        first.kill()

        second.start()
        assert "1 were running when the server stopped" in second.stderr(), second.stderr()
        got = second.request("GET", f"/sessions/{paused['id']}")[2]
        assert got == paused, (got, paused)
        got = second.request("GET", f"/sessions/{waiting['id']}")[2]
        assert got == waiting, (got, waiting)
        got = second.request("GET", f"/sessions/{done['id']}")[2]
        assert got == done, (got, done)
        got = second.wait_for(running["id"], lambda x: x["status"] != "running", "settled", seconds=60)
        assert got["status"] == "completed", got
        out = got["output"] if mode == "slow" else got["output"]["child"]
        texts = [out[k]["content"][0]["text"] for k in ("first", "second")]
        assert texts == ["1", "3"], got
        with open(calls) as f:
            performed = [json.loads(line)["n"] for line in f]
        assert performed == [1, 2], f"MCP calls performed: {performed} (wanted each once)"
        _, _, cp = second.request("GET", f"/sessions/{running['id']}/checkpoint")
        want = [(1, "tool"), (2, "tool")] if mode == "slow" else \
            [(1, "log"), (2, "call_agent"), (3, "tool"), (4, "tool")]
        assert sorted((r["seq"], r["function"]) for r in cp["call_log"]) == want, cp
        if mode == "nested":
            assert all(r.get("parent_seq") == 2 for r in cp["call_log"] if r["function"] == "tool"), cp
        # and the waiting ones still settle
        got = second.request("POST", f"/sessions/{paused['id']}/resume", {"response": "yes"})[2]
        assert got["status"] == "completed" and got["output"] == {"answer": "yes"}, got
        got = second.request("POST", f"/sessions/{waiting['id']}/approve", {"decision": "allow"})[2]
        assert got["status"] == "completed", got
        second.stop()
    finally:
        first.cleanup()
        second.cleanup()


def case_serve_stored_profile_that_no_longer_resolves_fails_closed(v):
    folder = tempfile.mkdtemp(prefix="chidori-serve-profile-")
    first = Server(v, "--trusted", folder=folder)
    second = Server(v, "--trusted", folder=folder)
    try:
        first.start()
        view = create(first, {"input": {"mode": "input-write"}, "policy_profile": "permissive"})
        assert view["status"] == "paused", view
        first.stop()
        serve_db.set_session_column(v, os.path.join(folder, "state"), view["id"], "policy_profile", "retired")
        second.start()
        got = second.request("POST", f"/sessions/{view['id']}/resume", {"response": "yes"})[2]
        assert got["status"] == "failed" and "policy: `workspace:write` denied" in got["error"], got
        second.stop()  # its stderr read to the end (the reader may lag behind the response)
        assert "`retired` is unknown; running it under untrusted" in second.stderr(), second.stderr()
    finally:
        first.cleanup()
        second.cleanup()


def case_serve_damaged_call_log_in_the_database_is_reported(v):
    """Records read back from the database are checked like the lines of a records.jsonl: a
    damaged one fails the session with an error naming it, and the server carries on."""
    folder = tempfile.mkdtemp(prefix="chidori-serve-damaged-")
    first = Server(v, folder=folder)
    second = Server(v, folder=folder)
    try:
        first.start()
        view = create(first, {"input": {"mode": "input"}})
        first.stop()
        db = sqlite3.connect(os.path.join(folder, "state", "sessions.sqlite3"))
        db.execute("UPDATE records SET record = ? WHERE session_id = ? AND seq = 1",
                   (json.dumps({"seq": "one", "function": "log", "args": {}}), view["id"]))
        db.commit()
        db.close()
        second.start()
        status, _, got = second.request("POST", f"/sessions/{view['id']}/resume", {"response": "yes"})
        assert status == 200 and got["status"] == "failed", (status, got)
        assert "record 1: `seq` must be a positive integer" in got["error"], got
        assert second.request("POST", "/sessions", {"input": {}})[2]["status"] == "completed"
        second.stop()
    finally:
        first.cleanup()
        second.cleanup()


def case_serve_database_of_a_newer_schema_is_refused(v):
    folder = tempfile.mkdtemp(prefix="chidori-serve-schema-")
    try:
        os.makedirs(os.path.join(folder, "state"))
        db = sqlite3.connect(os.path.join(folder, "state", "sessions.sqlite3"))
        db.execute("PRAGMA user_version = 99")
        db.commit()
        db.close()
        srv = Server(v, folder=folder)
        srv.start(expect_listen=False)
        assert srv.proc.wait(timeout=20 * v.slow) == 1
        srv.reader.join(timeout=5)
        assert "schema version 99" in srv.stderr(), srv.stderr()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def descendants(pid):
    """Every live descendant of pid (from /proc/<pid>/task/*/children)."""
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        try:
            tasks = os.listdir(f"/proc/{p}/task")
        except OSError:
            continue  # it ended meanwhile
        for task in tasks:
            try:
                kids = open(f"/proc/{p}/task/{task}/children").read().split()
            except OSError:
                continue
            for k in kids:
                found.append(int(k))
                todo.append(int(k))
    return found


def case_serve_workers_share_one_empty_network_namespace(v):
    """A server running as root makes one empty network namespace and its workers join it instead
    of each making one (src/isolate/shared_netns.c): every worker is in it, it is not the host's,
    it holds a loopback device and nothing else, and no worker keeps a namespace descriptor."""
    if os.geteuid() != 0:
        raise Skip("the shared network namespace is made only by a server running as root")
    with serving(v, env={"CHIDORI_SERVE_WARM_WORKERS": "2"}) as s:
        view = create(s, {"input": {"name": "x"}})
        assert view["status"] == "completed", view
        host_net = os.readlink("/proc/self/ns/net")

        def look():
            """(problem or None, nets): the fork server and the warm workers it forked as they are."""
            nets, seen, forkservers = set(), 0, 0
            for p in descendants(s.proc.pid):
                try:
                    forkservers += open(f"/proc/{p}/comm").read().strip() == FORKSERVER_NAME
                    net = os.readlink(f"/proc/{p}/ns/net")
                    fds = [os.readlink(f"/proc/{p}/fd/{fd}") for fd in os.listdir(f"/proc/{p}/fd")]
                    devices = [l.split(":")[0].strip() for l in open(f"/proc/{p}/net/dev").read().splitlines()[2:]]
                except OSError:
                    continue  # it ended meanwhile
                seen += 1
                nets.add(net)
                if any(f.startswith("net:") for f in fds):
                    return f"{p} holds a namespace descriptor: {fds}", nets
                if devices != ["lo"]:
                    return f"{p} sees the devices {devices}", nets
            if seen < 3 or forkservers != 1:
                return f"{seen} processes ({forkservers} fork servers), not the fork server and 2 workers yet", nets
            if len(nets) != 1 or host_net in nets:
                return f"workers in {nets} (the host's is {host_net})", nets
            return None, nets

        deadline = time.time() + 10 * v.slow
        problem, nets = look()
        while problem and time.time() < deadline:  # a worker just started is still confining itself
            time.sleep(0.05)
            problem, nets = look()
        assert not problem, problem
        server_fds = set()
        for fd in os.listdir(f"/proc/{s.proc.pid}/fd"):
            try:
                server_fds.add(os.readlink(f"/proc/{s.proc.pid}/fd/{fd}"))
            except OSError:
                pass  # closed meanwhile (the server keeps working)
        assert nets <= server_fds, (nets, server_fds)  # the one the server holds


def case_serve_no_isolate_cancel_stops_a_pure_computation(v):
    """In-process (`--no-isolate`), a cancelled session that computes without effects stops at its
    engine's next interrupt poll, not only at its next effect or a limit (here none: no budget, no
    deadline). Before, its thread spun on after the cancel; now the server uses no CPU once the
    cancel is answered."""
    from cases_isolate_backstop import cpu_seconds as cpu_of
    env = {"CHIDORI_JS_OP_BUDGET": "0", "CHIDORI_JS_DEADLINE_MS": "0"}
    with serving(v, "--no-isolate", env=env) as s:
        view = create(s, {"input": {"mode": "spin", "loops": 10**15}, "wait": False})
        time.sleep(0.3)
        status, _, got = s.request("POST", f"/sessions/{view['id']}/cancel")
        assert status == 200 and got["status"] == "cancelled", got
        time.sleep(0.3 * v.slow)  # the engine's next poll comes within microseconds; this is slack
        before = cpu_of(s.proc.pid)
        time.sleep(1.0)
        spent = cpu_of(s.proc.pid) - before
        assert spent < 0.3, f"the server used {spent:.2f} s of CPU in the second after the cancel"
        done = create(s, {"input": {}})
        assert done["status"] == "completed", done


def case_serve_no_isolate_cancel_inside_a_nested_agent_records_no_failure(v):
    """In-process, a cancel that halts a nested agent (callAgent) in the middle of a computation
    ends the run there: the call_agent is not recorded as a failed call (a re-run of the log would
    replay a failure that never happened), and the server stops computing."""
    folder = tempfile.mkdtemp(prefix="chidori-serve-nested-cancel-")
    calls = os.path.join(folder, "mcp-calls.log")
    open(calls, "w").close()
    env = {"CHIDORI_MCP_CONFIG": mcp_env(calls), "CHIDORI_JS_OP_BUDGET": "0", "CHIDORI_JS_DEADLINE_MS": "0"}
    s = Server(v, "--trusted", "--no-isolate", env=env, folder=folder)
    try:
        s.start()
        view = create(s, {"input": {"mode": "nested", "loops": 10**15}, "wait": False})
        s.wait_for(view["id"], lambda x: x["call_count"] >= 2, "the child's first tool call in")
        time.sleep(0.2)
        status, _, got = s.request("POST", f"/sessions/{view['id']}/cancel")
        assert status == 200 and got["status"] == "cancelled", got
        time.sleep(0.5 * v.slow)
        _, _, cp = s.request("GET", f"/sessions/{view['id']}/checkpoint")
        failed = [r for r in cp["call_log"] if r.get("error")]
        assert not failed, f"records of failures that never happened: {failed}"
        assert [r["function"] for r in sorted(cp["call_log"], key=lambda r: r["seq"])] == ["log", "tool"], cp
        s.stop()
    finally:
        s.cleanup()
