"""tests/cases_serve_faults.py — `chidori serve` when things go wrong under it: a session's worker
killed from outside (SIGKILL) or crashing (SIGSEGV) fails that session with the precise error while
the server carries on; a request path that hides a NUL (`/sessions/abc%00x`) names no session.
Serves tests/load/agent.js (input.spin: log once, then loop for ever). The load and kill -9 tests
of the server itself are tests/cases_load.py.
"""
import os
import signal
import time

from cases_isolation import worker_tree
from cases_serve import Server, create
from run import ROOT

AGENT = os.path.join(ROOT, "tests", "load", "agent.js")
KILLED = "engine killed: SIGKILL from outside chidori (an operator, or the system's OOM killer)"
# The server and its workers share ASAN_OPTIONS: a sanitizer build must let a worker die of the
# signal (the server's own leaks are still reported when it stops).
ENV = {"CHIDORI_JS_OP_BUDGET": "0", "CHIDORI_SERVE_WARM_WORKERS": "0",
       "ASAN_OPTIONS": "handle_segv=0:detect_leaks=1:allocator_may_return_null=1"}


def spinning_worker(srv, sid):
    """The worker process of the one running session, once its agent is in its loop."""
    srv.wait_for(sid, lambda x: x["call_count"] >= 1, "in its loop")
    deadline = time.monotonic() + 10 * srv.v.slow
    while time.monotonic() < deadline:
        workers = worker_tree(srv.proc.pid)
        if len(workers) == 1:
            return workers[0]
        time.sleep(0.05)
    raise AssertionError(f"not exactly one worker under the server: {worker_tree(srv.proc.pid)}")


def case_serve_a_worker_killed_or_crashed_fails_its_session_and_the_server_carries_on(v):
    srv = Server(v, "--trusted", env=ENV, agent=AGENT)
    try:
        srv.start()
        outcomes = []
        # A server's workers are forked by its fork server, each pid 1 of its own pid namespace:
        # from outside, only SIGKILL (and SIGSTOP) reach such a process. A real crash is the next
        # case; a SIGSEGV sent to an exec'd worker, tests/cases_isolation.py.
        for what, pick, sig, words in (
                ("kill -9 of the worker", lambda w: w[0], signal.SIGKILL, KILLED),
                ("kill -9 of the engine in its pid namespace", lambda w: (w[1] or w)[0], signal.SIGKILL, KILLED)):
            view = create(srv, {"input": {"spin": True}, "wait": False})
            os.kill(pick(spinning_worker(srv, view["id"])), sig)
            got = srv.wait_for(view["id"], lambda x: x["status"] != "running", "settled")
            assert got["status"] == "failed" and got["error"] == words, f"{what}: {got}\n{srv.stderr()}"
            outcomes.append(got)
            # the server carries on: a session after it completes
            after = create(srv, {"input": {"n": len(outcomes)}})
            assert after["status"] == "completed" and after["output"] == {"greeting": f"Hello, {len(outcomes)}!"}, \
                (what, after)
        listing = srv.request("GET", "/sessions")[2]["sessions"]
        failed = [x for x in listing if x["status"] == "failed"]
        assert [(x["id"], x["error"]) for x in failed] == [(o["id"], o["error"]) for o in outcomes], listing
        srv.stop()
    finally:
        srv.cleanup()


def case_serve_an_engine_that_crashes_fails_each_session_and_the_server_carries_on(v):
    """A real fault inside the engine (test-only CHIDORI_ISOLATE_SELFTEST=frame_crash: the worker
    writes through a bad pointer once it has confined itself), in every session of the server."""
    env = dict(ENV, CHIDORI_ISOLATE_SELFTEST="frame_crash", CHIDORI_SERVE_WARM_WORKERS="1")
    srv = Server(v, "--trusted", env=env, agent=AGENT)
    try:
        srv.start()
        for n in range(3):  # the first from the warm worker, the others cold or warm
            got = create(srv, {"input": {"n": n}})
            assert got["status"] == "failed" and got["error"] == "engine crashed: SIGSEGV", got
        status, _, health = srv.request("GET", "/health")
        assert status == 200 and health == {"status": "ok"}, (status, health)
        srv.stop()
    finally:
        srv.cleanup()


def case_serve_a_path_with_an_encoded_nul_names_no_session(v):
    """libmicrohttpd decodes the path into a C string, so `%00` used to end it early:
    `/sessions/abc%00x` answered as session `abc`. The server decodes the path itself and refuses a
    NUL or a broken escape with a 400; a good escape still decodes."""
    srv = Server(v, "--trusted", agent=AGENT)
    try:
        srv.start()
        create(srv, {"session_id": "abc", "input": {"n": 1}})
        assert srv.request("GET", "/sessions/abc")[0] == 200
        assert srv.request("GET", "/sessions/ab%63")[0] == 200  # %63 is "c"
        for method, path in (("GET", "/sessions/abc%00x"), ("GET", "/sessions/abc%00"),
                             ("GET", "/sessions/abc%00/checkpoint"), ("POST", "/sessions/abc%00/cancel"),
                             ("GET", "/health%00"), ("POST", "/sessions%00")):
            status, _, body = srv.request(method, path, {} if method == "POST" else None)
            assert status == 400 and body == {"error": "bad request path: an encoded NUL (%00)"}, \
                (method, path, status, body)
        for path in ("/sessions/abc%zz", "/sessions/abc%0", "/sessions/abc%"):
            status, _, body = srv.request("GET", path)
            assert status == 400 and "not followed by two hex digits" in body["error"], (path, status, body)
        assert srv.request("GET", "/sessions/abc%2500")[0] == 404  # a literal "%00" is no id either
        view = srv.request("GET", "/sessions/abc")[2]
        assert view["status"] == "completed", view  # the cancel above reached nothing
        srv.stop()
    finally:
        srv.cleanup()
