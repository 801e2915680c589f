"""tests/cases_replay_from.py — `replay_from`, `agent` and `attempt_number` on POST /sessions
(docs/http-api.md, *Starting from a given call log*): a session started from a given call log
answers the calls the log holds from it (no live effect), runs the rest live, fails on a
divergence; a log the call-log loader refuses is a 422 that creates nothing. Served by
tests/serve/agent.js, isolated and in-process.
"""
import json
import os
import socket

from cases_serve import Server, create, serving

WRITE_LOG_MODE = {"mode": "input-write"}  # log, input("Ship it?"), workspace.write("shipped.txt", answer)


def sessions(s):
    status, _, got = s.request("GET", "/sessions")
    assert status == 200, (status, got)
    return [x["id"] for x in got["sessions"]]


def log_of(s, sid):
    status, _, cp = s.request("GET", f"/sessions/{sid}/checkpoint")
    assert status == 200, (status, cp)
    return cp["call_log"]


def replay_from_a_checkpoint(v, mode):
    with serving(v, mode, "--trusted") as s:
        # a recorded session: log, the answered input, a workspace write
        first = create(s, {"input": WRITE_LOG_MODE})
        assert first["status"] == "paused", first
        status, _, done = s.request("POST", f"/sessions/{first['id']}/resume", {"response": "yes"})
        assert status == 200 and done["status"] == "completed", done
        recorded = log_of(s, first["id"])
        assert [r["function"] for r in recorded] == ["log", "input", "workspace"], recorded
        shipped = os.path.join(s.folder, "shipped.txt")
        os.remove(shipped)

        # the whole log given: every call answers from it, nothing is performed again
        view = create(s, {"input": WRITE_LOG_MODE, "replay_from": recorded, "attempt_number": 2})
        assert view["status"] == "completed" and view["output"] == {"answer": "yes"}, (view, s.stderr())
        assert view["id"] != first["id"] and view["run_id"] != first["run_id"], view
        assert view["call_count"] == 3 and "replayed_from" not in view, view
        assert not os.path.exists(shipped), "a call answered from replay_from was performed again"
        assert log_of(s, view["id"]) == recorded, "the session's log is not the given one"

        # a prefix given: the calls past it run live (here: the input pauses as usual)
        view = create(s, {"input": WRITE_LOG_MODE, "replay_from": recorded[:1]})
        assert view["status"] == "paused" and view["pending_prompt"] == "Ship it?", view
        status, _, done = s.request("POST", f"/sessions/{view['id']}/resume", {"response": "no"})
        assert status == 200 and done["output"] == {"answer": "no"}, done
        with open(shipped) as f:
            assert f.read() == "no", "the live call past the given log did not run"
        assert [r["function"] for r in log_of(s, view["id"])] == ["log", "input", "workspace"]

        # another agent path: a divergence fails the run, and the answer is still 201
        view = create(s, {"input": {"name": "Ada"}, "replay_from": recorded})
        assert view["status"] == "failed" and "divergence at seq 1" in view["error"], view

        # records in the original's shape load (RFC 3339 timestamp, integer duration, token usage)
        theirs = [dict(r, timestamp="2026-07-08T03:57:42.291916Z", duration_ms=int(r["duration_ms"]),
                       extra_key="ignored") for r in recorded]
        view = create(s, {"input": WRITE_LOG_MODE, "replay_from": theirs})
        assert view["status"] == "completed" and view["output"] == {"answer": "yes"}, view

        # POST /sessions/stream ignores replay_from (as the original does): a fresh run pauses
        events = s.events("POST", "/sessions/stream", {"input": WRITE_LOG_MODE, "replay_from": recorded,
                                                        "agent": "nosuch.js"})
        assert events[-1][0] == "done" and events[-1][1]["status"] == "paused", events


def case_serve_replay_from_isolated(v):
    replay_from_a_checkpoint(v, "--isolate")


def case_serve_replay_from_in_process(v):
    replay_from_a_checkpoint(v, "--no-isolate")


GOOD = {"seq": 1, "function": "log", "args": {"message": "hi"}, "result": None, "duration_ms": 0,
        "timestamp": 1796012481207}


def case_serve_replay_from_refuses_what_does_not_load(v):
    """Each malformed log is a 422 naming what is wrong; no session is created, and the server
    goes on serving."""
    with serving(v, env={"CHIDORI_LOG_MAX_RECORDS": "5"}) as s:
        bad = [
            ("not an array", {"records": []}, "must be an array"),
            ("a string", "[]", "must be an array"),
            ("not an object", [GOOD, 7], "record 2"),
            ("no function", [{k: x for k, x in GOOD.items() if k != "function"}], "record 1"),
            ("no seq", [{k: x for k, x in GOOD.items() if k != "seq"}], "record 1"),
            ("a negative seq", [dict(GOOD, seq=-1)], "record 1"),
            ("a function that is a number", [dict(GOOD, function=5)], "record 1"),
            ("args a list", [dict(GOOD, args=[None, 1])], "record 1"),
            ("args of junk", [dict(GOOD, args={"a": [None, {"k\u0000": 1}], "b": 1e300})], None),
            ("garbage", [[], {}, "", None, 1e308], "record 1"),
            ("too many", [dict(GOOD, seq=i + 1) for i in range(6)], "CHIDORI_LOG_MAX_RECORDS"),
            # numbered with a gap, or far past the rest: a session from it could pause and never resume
            ("a gap", [GOOD, dict(GOOD, seq=3)], "numbered 1 to 2 without gaps"),
            ("a gap, with duplicates", [dict(GOOD, seq=q, timestamp="2026-07-08T03:57:42.291Z") for q in (1, 3, 3, 3)],
             "no record of seq 2"),  # the original's shape: the first of a seq wins, 4 records, 2 seqs
            ("a seq far past the rest", [dict(GOOD, seq=9007199254740991)], "numbered 1 to 1"),
            ("not from 1", [dict(GOOD, seq=2)], "numbered 1 to 1"),
        ]
        for what, value, words in bad:
            status, _, got = s.request("POST", "/sessions", {"input": {}, "replay_from": value})
            if what == "args of junk":  # args may hold any JSON: this one loads, and diverges
                assert status == 201 and got["status"] == "failed" and "divergence" in got["error"], (what, got)
                continue
            assert status == 422 and isinstance(got, dict) and "replay_from" in got["error"], (what, status, got)
            if words:
                assert words in got["error"], (what, got)
        assert len(sessions(s)) == 1, "a refused replay_from created a session"
        # raw garbage bytes where the log goes: the body is not JSON (400), the server lives on
        status, _, got = s.request("POST", "/sessions", b'{"input": {}, "replay_from": [\xff\xfe{]}')
        assert status == 400, (status, got)
        # a log over the body cap (1 MiB): its Content-Length is answered 413 before the body is sent
        big = json.dumps({"input": {}, "replay_from": [dict(GOOD, args={"message": "x" * 1000}, seq=i + 1)
                                                       for i in range(1100)]}).encode()
        assert len(big) > 1 << 20
        with socket.create_connection((s.host, s.port), timeout=30 * v.slow) as sock:
            sock.sendall(b"POST /sessions HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                         b"Content-Length: %d\r\n\r\n" % len(big))
            reply = b""
            while b"}" not in reply:
                chunk = sock.recv(4096)
                if not chunk:
                    break
                reply += chunk
        assert reply.startswith(b"HTTP/1.1 413"), reply
        status, _, got = s.request("GET", "/health")
        assert status == 200, (status, got)


def case_serve_create_agent_and_attempt_number(v):
    with serving(v) as s:
        view = create(s, {"input": {"name": "Ada"}, "agent": "agent.js", "attemptNumber": 4})
        assert view["status"] == "completed" and view["output"] == {"greeting": "Hello, Ada!"}, view
        for body, words in [({"agent": "other.js"}, "runs one agent"), ({"agent": "../agent.js"}, "bare file name"),
                            ({"agent": ""}, "bare file name"), ({"agent": 3}, "bare file name"),
                            ({"attempt_number": -1}, "non-negative integer"),
                            ({"attempt_number": 1.5}, "non-negative integer"),
                            ({"attemptNumber": "2"}, "non-negative integer")]:
            status, _, got = s.request("POST", "/sessions", dict(body, input={}))
            assert status == 400 and words in got["error"], (body, status, got)
        assert len(sessions(s)) == 1
