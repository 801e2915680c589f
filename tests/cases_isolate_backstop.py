"""tests/cases_isolate_backstop.py — the supervisor's backstop (src/isolate/supervisor.c,
docs/limits.md): an isolated run ends at its own limits even when its engine never polls.

The workers here really do not poll: CHIDORI_ISOLATE_SELFTEST=hang_spin spins in C and
hang_block waits on its pipe (src/isolate/worker.c), so only the parent can end the run. It must
end by the deadline + 1 s with the engine's own leading text (`wall-clock deadline exceeded:`,
`CPU budget exhausted:`) and say that the supervisor stopped the worker; in `chidori run` and in
`chidori serve` (fork-server, warm and exec'd workers alike).
"""
import json
import os
import subprocess
import tempfile
import threading
import time

from cases import chidori
from cases_serve import Server, create
from run import ROOT, sanitizer_report

AGENT = os.path.join(ROOT, "tests", "load", "agent.js")
DEADLINE_MS = 1000


def startup_allowance(v):
    """What a sanitizer build adds to a process's end, and a session's start in serve (not to the
    limit)."""
    return 0.3 * v.slow


def hello_agent(d):
    path = os.path.join(d, "agent.js")
    with open(path, "w") as f:
        f.write("export default async () => 1;\n")
    return path


def run_hung(v, mode, env, cpu=None):
    """(exit code, stderr, seconds from the `Isolation:` line to the end): that line is printed when
    the worker is confined and its run starts, which is when the run's deadline starts too (the
    process's own start-up before it is not the run's time). With a list `cpu`, the most CPU time
    (seconds) the run's worker processes were seen to have used together is appended to it."""
    with tempfile.TemporaryDirectory() as d, tempfile.TemporaryDirectory() as state:
        full = {"CHIDORI_ISOLATE_SELFTEST": mode, "CHIDORI_STATE_DIR": state}
        full.update(env)
        p = subprocess.Popen([v.chidori, "run", "--isolate", hello_agent(d)], env=v.env(full),
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        lines, started = [], None
        # a run that never ends (a backstop missing) is killed, so that the reading below ends
        stop = threading.Timer(60 * v.slow, p.kill)
        stop.start()
        seen = [0.0]
        sampler = None
        if cpu is not None:
            def sample():
                while p.poll() is None:
                    seen[0] = max(seen[0], sum(cpu_seconds(k) for k in descendants(p.pid)))
                    time.sleep(0.02)
            sampler = threading.Thread(target=sample, daemon=True)
            sampler.start()
        try:
            for line in p.stderr:
                if started is None and line.startswith("Isolation: "):
                    started = time.monotonic()
                lines.append(line)
            p.wait(timeout=60 * v.slow)
        finally:
            stop.cancel()
            if p.poll() is None:
                p.kill()
                p.wait()
        ended = time.monotonic()
        if sampler:
            sampler.join()
            cpu.append(seen[0])
        err = "".join(lines)
        assert started is not None, err
        assert not sanitizer_report(err), err[-3000:]
        return p.returncode, err, ended - started


def case_backstop_ends_a_worker_that_spins_without_polling_at_the_deadline(v):
    code, err, secs = run_hung(v, "hang_spin", {"CHIDORI_JS_DEADLINE_MS": str(DEADLINE_MS)})
    assert code == 1 and "wall-clock deadline exceeded: the run passed 1000 ms (CHIDORI_JS_DEADLINE_MS)" in err \
        and "the supervisor stopped it" in err, err
    assert secs <= DEADLINE_MS / 1000 + 1 + startup_allowance(v), f"ended after {secs:.2f} s"


def case_backstop_ends_a_worker_that_blocks_at_the_deadline(v):
    code, err, secs = run_hung(v, "hang_block", {"CHIDORI_JS_DEADLINE_MS": str(DEADLINE_MS)})
    assert code == 1 and "wall-clock deadline exceeded:" in err and "the supervisor stopped it" in err, err
    assert secs <= DEADLINE_MS / 1000 + 1 + startup_allowance(v), f"ended after {secs:.2f} s"


def case_backstop_ends_a_worker_that_stops_reading_its_replies_at_the_deadline(v):
    """A worker that sends calls and never reads their replies (CHIDORI_ISOLATE_SELFTEST=frame_deaf)
    fills the pipe to it; the parent's next reply then waits for room only until the run's
    deadline, and the worker (blocked on its own full pipe by then) is killed. Before that wait was
    bounded, the parent blocked in the write for good and the run never ended."""
    code, err, secs = run_hung(v, "frame_deaf", {"CHIDORI_JS_DEADLINE_MS": str(DEADLINE_MS)})
    assert code == 1 and "wall-clock deadline exceeded: the run passed 1000 ms (CHIDORI_JS_DEADLINE_MS)" in err \
        and "the supervisor stopped it" in err, err
    assert secs <= DEADLINE_MS / 1000 + 1 + startup_allowance(v), f"ended after {secs:.2f} s"


def case_backstop_ends_a_worker_that_stops_reading_and_spins_at_its_cpu_budget(v):
    """The same with a worker that then spins in C (frame_deaf_spin): while the parent waits for
    room it still checks the worker's CPU time, so the run ends at the backstop's CPU limit and not
    at the RLIMIT_CPU the worker set on itself, three seconds of CPU later (as it did before; the
    message is the same, so the worker's CPU time is what tells them apart, sampled from /proc:
    wall time would depend on the machine's load)."""
    used = []
    code, err, secs = run_hung(v, "frame_deaf_spin", {"CHIDORI_JS_OP_BUDGET": "10000000"}, cpu=used)
    limit = cpu_limit_ms(v, 10**7)
    assert code == 1 and f"CPU budget exhausted: the run used {limit} ms of CPU time" in err \
        and "the supervisor stopped it" in err, err
    # the RLIMIT_CPU's SIGKILL comes at limit + 3 s (whole seconds + 2, hard one more)
    assert limit / 1000 - 0.5 <= used[0] < limit / 1000 + 1.5, f"the worker used {used[0]:.2f} s of CPU"


def case_serve_cancel_ends_a_worker_that_stops_reading_its_replies(v):
    """Serve: a session whose worker stopped reading its replies is cancelled, and its worker is
    killed and gone at once, long before the deadline (5 s, there only because the server's
    `Isolation:` probe runs the same misbehaving worker and must end; no CPU budget)."""
    from cases_forkserver import wait_until, workers_of
    deadline_s = 5
    env = {"CHIDORI_ISOLATE_SELFTEST": "frame_deaf", "CHIDORI_JS_OP_BUDGET": "0",
           "CHIDORI_JS_DEADLINE_MS": str(deadline_s * 1000), "CHIDORI_SERVE_WARM_WORKERS": "0"}
    srv = Server(v, "--trusted", env=env, agent=AGENT)
    try:
        srv.start()
        view = create(srv, {"input": {"n": 1}, "wait": False})
        wait_until(v, "the session's worker started", lambda: workers_of(srv))
        time.sleep(0.3)  # its replies fill the pipe
        start = time.monotonic()
        status, _, got = srv.request("POST", f"/sessions/{view['id']}/cancel")
        assert status == 200 and got["status"] == "cancelled", (status, got)
        wait_until(v, "the cancelled session's worker killed and reaped", lambda: not workers_of(srv), seconds=10)
        secs = time.monotonic() - start
        assert secs < deadline_s - 1, f"the worker was gone {secs:.2f} s after the cancel: at the deadline, not the cancel"
        srv.stop()
    finally:
        srv.cleanup()


def case_backstop_a_big_reply_after_a_slow_effect_reaches_an_honest_worker(v):
    """An effect that ends past the deadline (a fetch answered after 1.8 s, the deadline 1 s) gives
    the engine one grace to notice; its reply (300 KB, more than the pipe holds) must then wait for
    room until the limits as they are after the effect, not as they were before it: the worker
    reads it and the run ends with the engine's own deadline message, as in-process. (While the
    wait used the kill time from before the effect, it gave up at once and said the worker "went
    quiet".)"""
    from cases_http import server
    with tempfile.TemporaryDirectory() as d, server() as (port, _):
        agent = os.path.join(d, "agent.js")
        with open(agent, "w") as f:
            f.write("export default async (input) => {\n"
                    "  const body = await (await fetch(input.url)).text();\n"
                    "  return body.length;\n"
                    "};\n")
        url = f"http://127.0.0.1:{port}/big?n=300000&ms=1800"
        env = {"CHIDORI_HTTP_ALLOW_HOSTS": "127.0.0.1", "CHIDORI_JS_DEADLINE_MS": str(DEADLINE_MS)}
        for mode in ("--isolate", "--no-isolate"):
            code, _, err = chidori(v, "run", mode, agent, "-i", json.dumps({"url": url}), env=env)
            assert code == 1 and "wall-clock deadline exceeded: the run passed 1000 ms (CHIDORI_JS_DEADLINE_MS)" in err \
                and "went quiet" not in err and "the supervisor stopped it" not in err, (mode, err)


def cpu_limit_ms(v, ticks):
    """The backstop's CPU limit for a tick budget: 100 ns a tick (800 in sanitizer builds, whose
    ticks are 3-5 times slower) plus 1 s of start-up (src/isolate/supervisor.c)."""
    ns = 800 if v.sanitized else 100
    return ticks * ns // 1000000 + 1000


def case_backstop_ends_a_worker_that_spins_at_its_cpu_budget(v):
    """10^7 ticks at 100 ns + 1 s of start-up: 2 s of CPU time. Without the backstop the only end
    would be the `went quiet` limit (30 s)."""
    code, err, secs = run_hung(v, "hang_spin", {"CHIDORI_JS_OP_BUDGET": "10000000"})
    assert code == 1 and f"CPU budget exhausted: the run used {cpu_limit_ms(v, 10**7)} ms of CPU time" in err \
        and "(CHIDORI_JS_OP_BUDGET)" in err and "the supervisor stopped it" in err, err
    assert secs < 25, f"ended after {secs:.2f} s"


def case_backstop_explicit_isolate_settings_still_override(v):
    """CHIDORI_ISOLATE_DEADLINE_MS replaces the derived deadline (and keeps its own message)."""
    code, err, secs = run_hung(v, "hang_block", {"CHIDORI_JS_DEADLINE_MS": "60000",
                                                 "CHIDORI_ISOLATE_DEADLINE_MS": "300"})
    assert code == 1 and "isolation deadline exceeded" in err and "300 ms" in err, err
    assert secs < 10, f"ended after {secs:.2f} s"


def serve_hung(v, env, mode="hang_spin"):
    full = {"CHIDORI_ISOLATE_SELFTEST": mode, "CHIDORI_JS_DEADLINE_MS": str(DEADLINE_MS)}
    full.update(env)
    srv = Server(v, "--trusted", env=full, agent=AGENT)
    try:
        srv.start()
        for n in range(2):
            start = time.monotonic()
            view = create(srv, {"input": {"n": n}, "wait": False})
            got = srv.wait_for(view["id"], lambda x: x["status"] != "running", "settled", seconds=30)
            secs = time.monotonic() - start
            assert got["status"] == "failed" and "wall-clock deadline exceeded:" in got["error"] \
                and "the supervisor stopped it" in got["error"], got
            # from the request: the session's start (its worker's exec, for exec'd ones) comes first
            assert secs <= DEADLINE_MS / 1000 + 1 + 0.5 * v.slow, f"settled after {secs:.2f} s"
        srv.stop()
    finally:
        srv.cleanup()


def case_serve_backstop_ends_forked_workers_at_the_deadline(v):
    serve_hung(v, {"CHIDORI_SERVE_WARM_WORKERS": "0"})


def case_serve_backstop_ends_warm_workers_at_the_deadline(v):
    serve_hung(v, {"CHIDORI_SERVE_FORKSERVER": "0", "CHIDORI_SERVE_WARM_WORKERS": "2"}, mode="hang_block")


def case_serve_backstop_ends_execd_workers_at_the_deadline(v):
    serve_hung(v, {"CHIDORI_SERVE_FORKSERVER": "0", "CHIDORI_SERVE_WARM_WORKERS": "0"})


def case_serve_backstop_ends_a_spinning_worker_at_its_cpu_budget(v):
    """Serve's default: no deadline, the CPU backstop from the tick budget (10^7 ticks: 2 s)."""
    env = {"CHIDORI_ISOLATE_SELFTEST": "hang_spin", "CHIDORI_JS_OP_BUDGET": "10000000",
           "CHIDORI_SERVE_WARM_WORKERS": "0"}
    srv = Server(v, "--trusted", env=env, agent=AGENT)
    try:
        srv.start()
        start = time.monotonic()
        view = create(srv, {"input": {"n": 1}, "wait": False})
        got = srv.wait_for(view["id"], lambda x: x["status"] != "running", "settled", seconds=30)
        secs = time.monotonic() - start
        assert got["status"] == "failed" and \
            f"CPU budget exhausted: the run used {cpu_limit_ms(v, 10**7)} ms of CPU time" in got["error"] \
            and "the supervisor stopped it" in got["error"], got
        assert secs < 25, f"settled after {secs:.2f} s"
        srv.stop()
    finally:
        srv.cleanup()


def descendants(pid):
    kids, todo = [], [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/task/{p}/children") as f:
                found = [int(x) for x in f.read().split()]
        except OSError:
            continue
        kids += found
        todo += found
    return kids


def cpu_seconds(pid):
    """User + system CPU time of a process, in seconds (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def cpu_rlimit(pid):
    try:
        with open(f"/proc/{pid}/limits") as f:
            for line in f:
                if line.startswith("Max cpu time"):
                    return line.split()[3:5]
    except OSError:
        return None


def case_backstop_gives_the_engine_a_cpu_rlimit_for_while_an_effect_runs(v):
    """The supervisor checks nothing while it performs an effect, so the engine's process also gets
    an RLIMIT_CPU from the parent: 10^7 ticks = 2 s of CPU, whole seconds + 2 → soft 4, hard 5."""
    with tempfile.TemporaryDirectory() as d, tempfile.TemporaryDirectory() as state:
        env = v.env({"CHIDORI_ISOLATE_SELFTEST": "hang_block", "CHIDORI_JS_OP_BUDGET": "10000000",
                     "CHIDORI_JS_DEADLINE_MS": "3000", "CHIDORI_STATE_DIR": state})
        p = subprocess.Popen([v.chidori, "run", "--isolate", hello_agent(d)], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        soft = cpu_limit_ms(v, 10**7) // 1000 + 2  # release: 4 (hard 5)
        want = [str(soft), str(soft + 1)]
        try:
            seen = []
            until = time.monotonic() + 2.5 * v.slow
            while time.monotonic() < until and want not in seen:
                seen = [cpu_rlimit(k) for k in descendants(p.pid)]
                time.sleep(0.05)
            err = p.communicate(timeout=30 * v.slow)[1]
        finally:
            if p.poll() is None:
                p.kill()
                p.wait()
        assert want in seen, (want, seen)
        assert "wall-clock deadline exceeded:" in err, err


def case_inproc_backstop_ends_eval_blocked_on_a_full_pipe(v):
    """`chidori eval` has no worker: its own watchdog (src/isolate/inproc_backstop.c) is the
    backstop. A script that writes to a stdout nobody reads blocks in write(2), where the engine
    cannot poll; it must end at the deadline plus its grace with the deadline message and status 1
    (before the watchdog it blocked for ever)."""
    with tempfile.TemporaryDirectory() as state:
        env = v.env({"CHIDORI_JS_DEADLINE_MS": str(DEADLINE_MS), "CHIDORI_STATE_DIR": state})
        start = time.monotonic()
        p = subprocess.Popen([v.chidori, "eval", 'for (;;) console.log("x".repeat(100000));'], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            p.wait(timeout=30 * v.slow)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
        secs = time.monotonic() - start
        err = p.stderr.read().decode("utf-8", "replace")
        p.stdout.close()
        p.stderr.close()
        assert p.returncode == 1, (p.returncode, err[-2000:])
        assert f"wall-clock deadline exceeded: the run passed {DEADLINE_MS} ms (CHIDORI_JS_DEADLINE_MS)" in err \
            and "the backstop ended the process" in err, err[-2000:]
        assert secs < 10 * v.slow, f"ended after {secs:.2f} s"
