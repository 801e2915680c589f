"""tests/cases_isolate_forkserver_seccomp.py — the fork server's own seccomp filter
(sandbox_seccomp_forkserver in src/isolate/sandbox_seccomp.c): the fork server runs under a filter
(/proc/PID/status `Seccomp: 2`), a syscall outside it ends the fork server by SIGSYS (test-only
CHIDORI_ISOLATE_SELFTEST=forkserver_forbidden_syscall tries a socket) and the server says so and
goes on with exec'd workers, and workers forked under it still run (their stacked filter names a
blocked syscall as an exec'd worker's does).
"""
import os

from cases_forkserver import fork_servers, status_field, wait_until
from cases_serve import Server, create
from run import ROOT

AGENT = os.path.join(ROOT, "tests", "load", "agent.js")


def case_forkserver_runs_under_a_seccomp_filter(v):
    srv = Server(v, "--trusted", env={"CHIDORI_SERVE_WARM_WORKERS": "0"}, agent=AGENT)
    try:
        srv.start()
        pids = wait_until(v, "a fork server", lambda: fork_servers(srv))
        assert pids, "no fork server"
        assert status_field(pids[0], "Seccomp") == "2", status_field(pids[0], "Seccomp")
        for n in range(3):
            got = create(srv, {"input": {"n": n}})
            assert got["status"] == "completed", (got, srv.stderr())
        assert "blocked syscall" not in srv.stderr(), srv.stderr()
        srv.stop()
    finally:
        srv.cleanup()


def case_forkserver_forbidden_syscall_is_killed(v):
    env = {"CHIDORI_ISOLATE_SELFTEST": "forkserver_forbidden_syscall", "CHIDORI_SERVE_WARM_WORKERS": "0"}
    srv = Server(v, "--trusted", env=env, agent=AGENT)
    try:
        srv.start()
        got = create(srv, {"input": {"n": 1}})
        # the exec'd worker that runs the session instead knows no such probe: it says so
        assert got["status"] == "completed" and \
            got["output"] == {"probe": "forkserver_forbidden_syscall", "outcome": "unknown probe"}, got
        # the server tries a few fork servers before it gives up on them: wait for its verdict
        wait_until(v, "the server's verdict", lambda: "killed by SIGSYS: its seccomp filter refused a syscall"
                   in srv.stderr() and not fork_servers(srv), seconds=20)
        err = srv.stderr()
        assert "chidori-sandbox: blocked syscall socket" in err, err
        assert "killed by SIGSYS: its seccomp filter refused a syscall" in err, err
        assert not fork_servers(srv), "a fork server still runs"
        srv.stop()
    finally:
        srv.cleanup()


def case_forkserver_workers_under_both_filters_name_a_blocked_syscall(v):
    env = {"CHIDORI_ISOLATE_SELFTEST": "socket", "CHIDORI_SERVE_WARM_WORKERS": "0"}
    srv = Server(v, "--trusted", env=env, agent=AGENT)
    try:
        srv.start()
        assert fork_servers(srv), "no fork server"
        got = create(srv, {"input": {"n": 1}})
        assert got["status"] == "failed" and "sandbox violation: blocked syscall socket" in got["error"], got
        srv.stop()
    finally:
        srv.cleanup()


INTL_AGENT = os.path.join(ROOT, "tests", "forkserver", "intl-agent.js")


def case_forkserver_workers_use_intl(v):
    """A worker forked from the fork server runs under both filters; the first Intl use makes ICU's
    mutexes through pthread_once, which ends with a futex wake that both filters must refuse with
    EINVAL (the worker's own does), not kill."""
    srv = Server(v, "--trusted", env={"CHIDORI_SERVE_WARM_WORKERS": "0"}, agent=INTL_AGENT)
    try:
        srv.start()
        wait_until(v, "a fork server", lambda: fork_servers(srv))
        for _ in range(2):
            got = create(srv, {"input": {}})
            assert got["status"] == "completed", (got, srv.stderr())
            assert got["output"] == {"date": "January 1, 1970", "number": "1.234,5"}, got
        assert "blocked syscall" not in srv.stderr(), srv.stderr()
        srv.stop()
    finally:
        srv.cleanup()
