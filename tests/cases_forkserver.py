"""tests/cases_forkserver.py — a server's workers forked from its fork server
(src/isolate/forkserver.c): each worker is a child of the server and pid 1 of a pid namespace of its
own, in the namespaces the fork server entered; the fork server runs no run and is replaced after
its quota of forks or when it dies; a worker's CPU limit is still named; a fork server that names a
process which is not the server's child is refused (the worker is exec'd instead);
with CHIDORI_SERVE_FORKSERVER=0 workers are exec'd one by one; a warm worker readies its engine
while it waits, a copy of the fork server's or one of its own (CHIDORI_SERVE_FORKSERVER_ENGINE).
"""
import os
import re
import threading
import time

from cases_isolation import FORKSERVER_NAME, KILLED_PROBES, REFUSED_PROBES
from cases_serve import Server, create
from run import ROOT

AGENT = os.path.join(ROOT, "tests", "load", "agent.js")


def processes():
    """{pid: (name, ppid, [NSpid...], pid ns, user ns)} of every live, non-zombie process."""
    out = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            stat = open(f"/proc/{name}/stat").read()
            status = open(f"/proc/{name}/status").read()
            pidns, userns = os.readlink(f"/proc/{name}/ns/pid"), os.readlink(f"/proc/{name}/ns/user")
        except OSError:
            continue  # it ended meanwhile
        fields = stat[stat.rindex(")") + 2:].split()
        if fields[0] == "Z":
            continue
        nspid = next(l.split()[1:] for l in status.splitlines() if l.startswith("NSpid:"))
        out[int(name)] = (stat[stat.index("(") + 1:stat.rindex(")")], int(fields[1]), nspid, pidns, userns)
    return out


def status_field(pid, name):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith(name + ":"):
            return line.split()[1]
    raise AssertionError(f"no {name} in /proc/{pid}/status")


def shut_off(pid):
    """(problem or None) for a process that must hold no capability (none it could regain by exec
    either) and not be dumpable (its /proc files belong to root, not to its own uid)."""
    uid = int(status_field(pid, "Uid"))
    caps = {name: int(status_field(pid, name), 16) for name in ("CapEff", "CapPrm", "CapBnd")}
    owner = os.stat(f"/proc/{pid}/mem").st_uid
    if caps["CapBnd"] or owner == uid:
        return f"{pid}: {caps}, /proc/{pid}/mem owned by {owner} (its uid {uid})"
    return None


def children_of(pid):
    return {p: info for p, info in processes().items() if info[1] == pid}


def fork_servers(srv):
    return [p for p, info in children_of(srv.proc.pid).items() if info[0] == FORKSERVER_NAME]


def wait_until(v, what, probe, seconds=10):
    deadline = time.monotonic() + seconds * v.slow
    while time.monotonic() < deadline:
        got = probe()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError(f"never: {what}")


def case_serve_forks_each_worker_into_a_pid_namespace_of_its_own(v):
    srv = Server(v, "--trusted", env={"CHIDORI_SERVE_WARM_WORKERS": "2"}, agent=AGENT)
    try:
        srv.start()
        for n in range(3):
            got = create(srv, {"input": {"n": n}})
            assert got["status"] == "completed" and got["output"] == {"greeting": f"Hello, {n}!"}, got
        me = processes()[os.getpid()]

        def settled():
            kids = children_of(srv.proc.pid)
            servers = [p for p, i in kids.items() if i[0] == FORKSERVER_NAME]
            workers = {p: i for p, i in kids.items() if i[0] != FORKSERVER_NAME}
            return (servers, workers, kids) if len(servers) == 1 and len(workers) == 2 else None
        servers, workers, kids = wait_until(v, "one fork server and two warm workers", settled)
        fs = kids[servers[0]]
        # the fork server: in the server's pid namespace, in a user namespace of its own
        assert len(fs[2]) == 1 and fs[3] == me[3] and fs[4] != me[4], (fs, me)
        pid_namespaces = set()
        for pid, (name, ppid, nspid, pidns, userns) in workers.items():
            # a child of the server (not of the fork server), pid 1 of its own pid namespace, in the
            # fork server's user namespace, with no child of its own (no pid-namespace stub)
            assert name == "chidori-worker" and ppid == srv.proc.pid, (pid, name, ppid)
            assert len(nspid) == 2 and nspid[-1] == "1", (pid, nspid)
            assert pidns not in (me[3], fs[3]) and userns == fs[4], (pid, pidns, userns, fs)
            assert not children_of(pid), (pid, children_of(pid))
            pid_namespaces.add(pidns)
        assert len(pid_namespaces) == 2, pid_namespaces
        # each worker made its own cgroup namespace (once in its slot), not the fork server
        cgroup_ns = [os.readlink(f"/proc/{p}/ns/cgroup") for p in [servers[0], *workers]]
        assert len(set(cgroup_ns)) == 3, cgroup_ns
        # no capability left to regain, no memory any process of their uid could reach
        problems = [shut_off(p) for p in [servers[0], *workers]]
        assert not any(problems), problems
        for pid in workers:
            assert int(status_field(pid, "CapEff"), 16) == 0, (pid, status_field(pid, "CapEff"))
        srv.stop()
    finally:
        srv.cleanup()


def case_serve_replaces_its_fork_server_after_its_quota_and_when_it_dies(v):
    """CHIDORI_SERVE_FORKSERVER_FORKS=3: a fresh fork server (a fresh memory layout) every three
    workers. A fork server killed from outside is replaced too, and no session notices."""
    env = {"CHIDORI_SERVE_WARM_WORKERS": "0", "CHIDORI_SERVE_FORKSERVER_FORKS": "3"}
    srv = Server(v, "--trusted", env=env, agent=AGENT)
    try:
        srv.start()
        seen = set()
        for n in range(8):
            seen.update(fork_servers(srv))
            got = create(srv, {"input": {"n": n}})
            assert got["status"] == "completed", got
        # the banner's probe and 8 sessions: 9 workers, so at least 3 fork servers
        seen.update(wait_until(v, "a fork server", lambda: fork_servers(srv)))
        assert len(seen) >= 3, seen
        before = wait_until(v, "a fork server", lambda: fork_servers(srv))
        os.kill(before[0], 9)
        for n in range(3):
            got = create(srv, {"input": {"n": n}})
            assert got["status"] == "completed", (got, srv.stderr())
        after = wait_until(v, "a new fork server", lambda: [p for p in fork_servers(srv) if p != before[0]])
        assert after and before[0] not in fork_servers(srv), (before, after)
        srv.stop()
    finally:
        srv.cleanup()


def case_serve_names_the_cpu_limit_of_a_forked_worker(v):
    """A forked worker is pid 1 of its pid namespace, which ignores SIGXCPU: its CPU limit ends it
    with the hard limit's SIGKILL, and the server still says which limit it was."""
    env = {"CHIDORI_SERVE_WARM_WORKERS": "0", "CHIDORI_JS_OP_BUDGET": "0", "CHIDORI_ISOLATE_CPU_SECS": "1"}
    srv = Server(v, "--trusted", env=env, agent=AGENT)
    try:
        srv.start()
        assert fork_servers(srv), "no fork server"
        view = create(srv, {"input": {"spin": True}, "wait": False})
        got = srv.wait_for(view["id"], lambda x: x["status"] != "running", "settled", seconds=30)
        assert got["status"] == "failed" and "CPU limit exceeded" in got["error"], got
        srv.stop()
    finally:
        srv.cleanup()


def case_serve_refuses_a_fork_server_that_names_a_stranger(v):
    """A fork server that answers with a pid which is not the server's own child (test-only
    CHIDORI_ISOLATE_SELFTEST=forkserver_foreign_pid: its parent's) is not believed: nothing is
    signalled or waited for under that pid, the fork server is replaced, and the session's worker
    is exec'd on fresh pipes instead (a worker the liar may have forked gets end of file)."""
    env = {"CHIDORI_ISOLATE_SELFTEST": "forkserver_foreign_pid", "CHIDORI_SERVE_WARM_WORKERS": "0"}
    srv = Server(v, "--trusted", env=env, agent=AGENT)
    try:
        srv.start()
        for n in range(2):
            got = create(srv, {"input": {"n": n}})
            # the selftest reaches the exec'd worker too, which knows no such probe: it says so
            assert got["status"] == "completed" and \
                got["output"] == {"probe": "forkserver_foreign_pid", "outcome": "unknown probe"}, got
        assert "is not this server's child; replacing it" in srv.stderr(), srv.stderr()
        srv.stop()
    finally:
        srv.cleanup()


def case_serve_without_a_fork_server_execs_each_worker(v):
    env = {"CHIDORI_SERVE_FORKSERVER": "0", "CHIDORI_SERVE_WARM_WORKERS": "1"}
    srv = Server(v, "--trusted", env=env, agent=AGENT)
    try:
        srv.start()
        got = create(srv, {"input": {"n": 1}})
        assert got["status"] == "completed", got

        def one_warm_worker():
            kids = children_of(srv.proc.pid)
            return kids if len(kids) == 1 else None
        kids = wait_until(v, "one warm worker", one_warm_worker)
        assert not fork_servers(srv), kids
        # an exec'd worker: cloned by the server straight into a pid namespace of its own, as its
        # pid 1 (root may make one: spawn.c), with no pid-namespace child (no stub) and nothing
        # shared with the server's namespaces but the user namespace it starts in
        me = processes()[os.getpid()]
        ((worker, (name, ppid, nspid, pidns, userns)),) = kids.items()
        assert len(nspid) == 2 and nspid[-1] == "1", kids
        assert pidns != me[3] and not children_of(worker), (kids, children_of(worker))
        assert shut_off(worker) is None, shut_off(worker)
        srv.stop()
    finally:
        srv.cleanup()


def case_every_forbidden_act_of_a_forked_worker_is_stopped(v):
    """The probes of tests/cases_isolation.py, tried by workers a fork server forked (one server
    per probe, CHIDORI_ISOLATE_SELFTEST being the server's): the same kills, the same refusals."""
    problems = []

    def one(probe, expect):
        srv = Server(v, "--trusted", env={"CHIDORI_ISOLATE_SELFTEST": probe, "CHIDORI_SERVE_WARM_WORKERS": "0"},
                     agent=AGENT)
        try:
            srv.start()
            if not fork_servers(srv):
                problems.append(f"{probe}: no fork server")
            got = create(srv, {"input": {"n": 1}})
            if got["status"] != expect[0] or (got["error"] if expect[0] == "failed" else got["output"]) != expect[1]:
                problems.append(f"{probe}: {got}")
            srv.stop()
        except Exception as e:  # noqa: BLE001 - reported below, with the others
            problems.append(f"{probe}: {e}")
        finally:
            srv.cleanup()

    expected = {p: ("failed", f"sandbox violation: blocked syscall {s}") for p, s in KILLED_PROBES.items()}
    expected.update({p: ("completed", {"probe": p, "outcome": o}) for p, o in REFUSED_PROBES.items()})
    probes = list(expected.items())
    for start in range(0, len(probes), 4):  # four servers at a time
        threads = [threading.Thread(target=one, args=item) for item in probes[start:start + 4]]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert not problems, "\n".join(problems)


def case_serve_refuses_a_bad_fork_server_quota(v):
    """CHIDORI_SERVE_FORKSERVER_FORKS that is not a whole number from 0 to 1000000: a usage
    error (exit 2) naming the setting, before anything starts."""
    for bad in ("x", "-1", "1000001", ""):
        srv = Server(v, "--trusted", env={"CHIDORI_SERVE_FORKSERVER_FORKS": bad}, agent=AGENT)
        try:
            srv.start(expect_listen=False)
            code = srv.proc.wait(timeout=20 * v.slow)
            srv.reader.join(timeout=5)
            assert code == 2 and f"CHIDORI_SERVE_FORKSERVER_FORKS must be a whole number from 0 to 1000000, got `{bad}`" \
                in srv.stderr(), (bad, code, srv.stderr())
        finally:
            srv.cleanup()


def rollup(pid):
    """{field: kB} of a live process's /proc/PID/smaps_rollup ({} once it is gone)."""
    out = {}
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                m = re.match(r"^(\w+):\s+(\d+) kB$", line.strip())
                if m:
                    out[m.group(1)] = int(m.group(2))
    except OSError:
        pass
    return out


SERVE_AGENT = os.path.join(ROOT, "tests", "serve", "agent.js")
ENGINE_BANNER = re.compile(r"^Fork server: (each worker builds its engine|workers copy its prepared engine)"
                           r"(?: \(a first write to a page costs ([0-9.]+) us here\))?$", re.M)


def case_serve_fork_server_engine_is_copied_ahead_or_built_by_each_worker(v):
    """CHIDORI_SERVE_FORKSERVER_ENGINE (docs/http-api.md, "Warm workers"). `prepared`: the fork
    server builds the engine once, and a warm worker copies its pages while it waits for a session
    (they are its own before the session comes, not shared with the fork server); `own`: the fork
    server holds no engine and a warm worker builds its own while it waits; `auto`: the server
    measures what a first write to a page costs, says so, and picks `own` above 4 us. Sessions,
    one of them paused and resumed (a replay), give the same results whichever way."""
    results, forksrv_anon = {}, {}
    for mode in ("prepared", "own", "auto"):
        srv = Server(v, env={"CHIDORI_SERVE_WARM_WORKERS": "2", "CHIDORI_SERVE_FORKSERVER_ENGINE": mode},
                     agent=SERVE_AGENT)
        try:
            srv.start()
            got = []
            for i in range(3):
                view = create(srv, {"input": {"name": f"n{i}"}})
                got.append((view["status"], view["output"], view["call_count"]))
            view = create(srv, {"input": {"mode": "input"}})
            view = srv.request("POST", f"/sessions/{view['id']}/resume", {"response": "yes"})[2]
            got.append((view["status"], view["output"], view["call_count"]))
            results[mode] = got
            m = ENGINE_BANNER.search(srv.stderr())
            assert m, srv.stderr()
            if mode == "auto":
                assert m.group(2), srv.stderr()
                costly = float(m.group(2)) > 4.0
                assert (m.group(1) == "each worker builds its engine") == costly, srv.stderr()
                continue
            assert m.group(2) is None and m.group(1) == ("each worker builds its engine" if mode == "own" else
                                                         "workers copy its prepared engine"), srv.stderr()
            if v.sanitized:
                continue  # AddressSanitizer's allocator holds the engine there: no arena to find

            def ready():
                kids = children_of(srv.proc.pid)
                servers = [p for p, i in kids.items() if i[0] == FORKSERVER_NAME]
                workers = [p for p, i in kids.items() if i[0] != FORKSERVER_NAME]
                if len(servers) != 1 or len(workers) != 2:
                    return None
                fs, ws = rollup(servers[0]), [rollup(w) for w in workers]
                # a warm worker's engine, ready before its session: pages of its own (copied or built)
                if not all(w.get("Private_Dirty", 0) >= fs.get("Private_Dirty", 0) + 200 if mode == "own"
                           else w.get("Private_Dirty", 0) >= 256 for w in ws):
                    return None
                return fs, ws
            fs, _ = wait_until(v, f"{mode}: two warm workers with their engine's pages their own", ready)
            forksrv_anon[mode] = fs["Anonymous"]
        finally:
            srv.cleanup()
    assert results["prepared"] == results["own"] == results["auto"], results
    assert all(r[0] == "completed" for r in results["own"]), results
    if v.sanitized:
        print(f"fork server engine: memory checked on the release build only ({v.name}: AddressSanitizer's allocator)")
        return
    # the prepared engine lives in the fork server only when it is asked to prepare one
    assert forksrv_anon["prepared"] >= forksrv_anon["own"] + 256, forksrv_anon


def workers_of(srv):
    """The server's live workers (its children that are not its fork server)."""
    return [p for p, info in children_of(srv.proc.pid).items() if info[0] != FORKSERVER_NAME]


def case_serve_answers_a_session_before_its_worker_has_exited(v):
    """A worker's exit after its outcome (0.5-0.8 ms of the kernel's teardown here) is not waited
    for by the session: a kept thread of the server waits for it, kills a worker still there after
    the grace (250 ms) and reaps it (supervisor.c, end_after_done). Shown with workers that send
    their outcome and never exit (CHIDORI_ISOLATE_SELFTEST=frame_done_then_linger): each session is
    answered well within the grace, its worker is still alive then, and every such worker is gone
    soon after. At most as many ends as sessions may run at once (CHIDORI_MAX_CONCURRENT_SESSIONS,
    here 4; never more than 32) are waited for so at once: beyond them a session waits for its
    worker, so a burst of lingering workers never holds more than twice the session limit."""
    srv = Server(v, "--trusted", env={"CHIDORI_ISOLATE_SELFTEST": "frame_done_then_linger",
                                      "CHIDORI_SERVE_WARM_WORKERS": "0", "CHIDORI_MAX_CONCURRENT_SESSIONS": "4"},
                 agent=AGENT)
    try:
        srv.start()
        took = []
        for i in range(5):
            started = time.monotonic()
            view = create(srv, {"input": {"n": 1}})
            took.append(time.monotonic() - started)
            assert view["status"] == "completed" and view["output"] == "lingered", view
            if i == 0:
                assert workers_of(srv), "the lingering worker was already gone when its session was answered"
        # the grace itself is the bound: a session that waited for its worker takes at least 250 ms
        assert sorted(took)[2] < 0.2, took
        wait_until(v, "every lingering worker killed and reaped", lambda: not workers_of(srv), seconds=5)

        # a burst: 120 sessions, 4 at a time, each leaving a worker that lingers for the grace
        peak, stop = [0], threading.Event()

        def watch():
            while not stop.is_set():
                peak[0] = max(peak[0], len(workers_of(srv)))
                time.sleep(0.005)
        watcher = threading.Thread(target=watch)
        watcher.start()
        errors = []

        def client(k):
            try:
                for _ in range(30):
                    view = create(srv, {"input": {"n": 1}})
                    if view["output"] != "lingered":
                        errors.append(view)
            except Exception as e:  # noqa: BLE001 - reported below
                errors.append(repr(e))
        clients = [threading.Thread(target=client, args=(k,)) for k in range(4)]
        for t in clients:
            t.start()
        for t in clients:
            t.join()
        stop.set()
        watcher.join()
        assert not errors, errors[:3]
        assert peak[0] <= 4 + 4, f"{peak[0]} workers at once (4 running, at most 4 lingering)"
        print(f"    (a burst of 120 sessions: at most {peak[0]} lingering workers at once)")
        wait_until(v, "every lingering worker of the burst killed and reaped", lambda: not workers_of(srv), seconds=10)
        srv.stop()
    finally:
        srv.cleanup()
