"""tests/cases_park.py — parked runs of the command line (CHIDORI_PARK_MS;
docs/durable-runs.md#parked-runs-on-the-command-line).

- a run that pauses on an input leaves a parked process; `chidori resume` hands it the answer and
  the run goes on there (the run's lock names that process, not the resume): the resume prints
  what a resume by replay prints, to the byte, on stdout and stderr, its exit code is the run's,
  the log is the one a replay resume writes (times aside), and a second pause parks again; in a
  worker (isolated) and in-process;
- a resume that differs (another environment), an agent edited since the pause, a parked time
  that ran out: the resume replays as always, and the parked process is gone;
- a resume killed while its run goes on in the parked process kills that process too: the run is
  left interrupted, as the resume's own run would be;
- no parked process: with parking off (the default), under a wall-clock deadline, past
  CHIDORI_PARK_MAX, or when the socket folder is open to others;
- bytes on the socket that are not a resume (garbage, a length past the cap, a silent peer) are
  dropped, and the parked process still takes the real resume.
"""
import fcntl
import functools
import hashlib
import json
import os
import shutil
import signal
import socket
import struct
import subprocess
import tempfile
import threading
import time

from cases import chidori
from run import ROOT
from cases_calllog import fast_state, project
from cases_effects import run_id_of

TWO = """export default async (input, chidori) => {
  console.log("before", input.n);
  for (let i = 0; i < input.n; i++) await chidori.mark("tick", { i });
  let w = 0;  // work a replay does again, and a hand-over does not
  for (let i = 0; i < (input.work || 0); i++) w = (w + i) % 1000003;
  const a = await chidori.input("first?");
  console.log("after first", a);
  let x = 0;
  if (a === "spin") for (;;) x++;
  const b = await chidori.input("second?");
  console.error("after second", b);
  return { a, b, x };
};
"""

PARK = {"CHIDORI_PARK_MS": "30000"}
LOCAL = threading.local()  # .runs: the runs the case on this thread made


def made(rid):
    LOCAL.runs.append(rid)
    return rid


def reaped(case):
    """The case, then whatever it left parked killed (a parked process would otherwise wait out
    CHIDORI_PARK_MS after the suite)."""
    @functools.wraps(case)
    def wrapped(v):
        LOCAL.runs = []
        try:
            case(v)
        finally:
            for rid in LOCAL.runs:
                for pid in parked_pids(rid):
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
    return wrapped


def parked_pids(rid):
    """The processes parked on run rid (their command line names it and --parked)."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")
        except OSError:
            continue
        if b"--parked" in argv and rid.encode() in argv:
            found.append(int(pid))
    return found


def wait_gone(rid, v, what):
    deadline = time.monotonic() + 20 * v.slow
    while parked_pids(rid):
        assert time.monotonic() < deadline, f"the parked process of {rid} is still there {what}"
        time.sleep(0.02)


def socket_of(state, rid):
    """Where the parked process of run rid listens: <state>/parked/<sha-256 of the run folder's real
    path, its first 32 hex digits>.sock."""
    folder = os.path.realpath(os.path.join(state, "runs", rid))
    return os.path.join(state, "parked", hashlib.sha256(folder.encode()).hexdigest()[:32] + ".sock")


def wait_parked(rid, v, state):
    deadline = time.monotonic() + 20 * v.slow
    while not parked_pids(rid) or not os.path.exists(socket_of(state, rid)):
        assert time.monotonic() < deadline, f"no parked process for run {rid}"
        time.sleep(0.01)


def wait_at_park(state, rid, v):
    """Until the parked process has replayed and waits at the input (it lets the run's lock go
    then, and names itself chidori-parked)."""
    deadline = time.monotonic() + 30 * v.slow
    while True:
        for pid in parked_pids(rid):
            try:
                with open(f"/proc/{pid}/comm") as f:
                    if f.read().strip() == "chidori-parked":
                        return pid
            except OSError:
                pass
        assert time.monotonic() < deadline, "the parked process never came to wait at the input"
        time.sleep(0.01)


def sockets(state):
    folder = os.path.join(state, "parked")
    return sorted(n for n in os.listdir(folder) if n.endswith(".sock")) if os.path.isdir(folder) else []


def measured(v, argv, env, preexec=None):
    """Run argv: (exit code, stdout, stderr, CPU seconds of it and the children it waited for)."""
    with tempfile.TemporaryFile() as o, tempfile.TemporaryFile() as e:
        p = subprocess.Popen(argv, env=env, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=o, stderr=e,
                             preexec_fn=preexec)
        deadline = time.monotonic() + 60 * v.slow
        while True:
            pid, status, usage = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            assert time.monotonic() < deadline, f"{argv} timed out"
            time.sleep(0.005)
        p.returncode = os.waitstatus_to_exitcode(status)
        o.seek(0)
        e.seek(0)
        return p.returncode, o.read(), e.read(), usage.ru_utime + usage.ru_stime


class Resumed:
    """A resume: its exit code, output, and whether the parked process took the run (the resume's
    own CPU time is then a fraction of the run's, which had to do the work the replay repeats)."""
    def __init__(self, code, out, err, cpu, run_cpu):
        self.code, self.out, self.err, self.cpu, self.run_cpu = code, out, err, cpu, run_cpu

    @property
    def handed(self):
        return self.cpu < self.run_cpu / 2

    def same(self, other):
        return (self.code, self.out, self.err) == (other.code, other.out, other.err)


def resume(v, agent, rid, answer, state, flags, run_cpu, extra=None, preexec=None):
    env = v.env({"CHIDORI_STATE_DIR": state, **PARK, **(extra or {})})
    code, out, err, cpu = measured(v, [v.chidori, "resume", agent, rid, "--response", answer, *flags], env, preexec)
    return Resumed(code, out, err, cpu, run_cpu)


def records(state, rid):
    with open(os.path.join(state, "runs", rid, "records.jsonl")) as f:
        recs = [json.loads(line) for line in f.read().splitlines()]
    for r in recs:
        for k in ("timestamp", "duration_ms", "duration_us"):
            r.pop(k, None)
    return recs


WORK = 6_000_000


class Paused:
    def __init__(self, v, flags, extra=None, n=3, work=WORK):
        self.proj = project({"two.js": TWO})
        self.agent = os.path.join(self.proj, "two.js")
        self.state = fast_state()
        env = v.env({"CHIDORI_STATE_DIR": self.state, **PARK, **(extra or {})})
        code, _, err, self.cpu = measured(v, [v.chidori, "run", self.agent, "-i", json.dumps({"n": n, "work": work}),
                                              *flags], env)
        assert code == 3, err
        self.rid = made(run_id_of(err.decode()))


def paused(v, flags, extra=None, n=3, work=WORK):
    p = Paused(v, flags, extra, n, work)
    return p.proj, p.agent, p.state, p.rid, p.cpu


def twin(state, rid):
    """A copy of the paused run in a state folder of its own, to resume by replay."""
    other = fast_state()
    shutil.copytree(os.path.join(state, "runs", rid), os.path.join(other, "runs", rid))
    return other


NO_PARK = {"CHIDORI_PARK_MS": "0"}


def same_as_a_replay(v, flags):
    proj, agent, state, rid, cpu = paused(v, flags)
    other = twin(state, rid)
    wait_parked(rid, v, state)
    # first answer: goes on in the parked process, and pauses again (which parks again)
    r = resume(v, agent, rid, "A", state, flags, cpu)
    assert r.code == 3, r.err
    assert r.handed, f"the resume ran the run itself ({r.cpu:.3f}s of CPU; the run took {cpu:.3f}s)"
    q = resume(v, agent, rid, "A", other, flags, cpu, NO_PARK)
    assert not q.handed, "the replay took no time: the test cannot tell a hand-over"
    assert r.same(q), f"parked:\n{r.out}\n{r.err}\nreplayed:\n{q.out}\n{q.err}"
    assert records(state, rid) == records(other, rid), "the parked run's log differs from the replay's"
    assert b"after first A" in r.err and b"before 3" in r.err, r.err
    # second answer: the run that parked at the second input ends there
    wait_parked(rid, v, state)
    r = resume(v, agent, rid, "B", state, flags, cpu)
    assert r.handed, "the second pause did not park"
    q = resume(v, agent, rid, "B", other, flags, cpu, NO_PARK)
    assert r.code == 0 and r.same(q), (r.out, r.err, q.out, q.err)
    assert json.loads(r.out) == {"a": "A", "b": "B", "x": 0}
    assert records(state, rid) == records(other, rid)
    code, out, err = chidori(v, "replay", agent, rid, *flags, state=state)
    assert code == 0 and "replay matched" in err, err
    wait_gone(rid, v, "after the run completed")
    shutil.rmtree(proj)


@reaped
def case_park_a_resume_goes_on_in_the_parked_process_as_a_replay_would_in_process(v):
    same_as_a_replay(v, ("--no-isolate",))


@reaped
def case_park_a_resume_goes_on_in_the_parked_process_as_a_replay_would_isolated(v):
    same_as_a_replay(v, ("--isolate",))


@reaped
def case_park_a_resume_from_another_environment_replays_and_the_parked_process_goes(v):
    flags = ("--no-isolate",)
    proj, agent, state, rid, cpu = paused(v, flags)
    wait_parked(rid, v, state)
    old = parked_pids(rid)
    r = resume(v, agent, rid, "A", state, flags, cpu, {"SOMETHING_ELSE": "1"})
    assert r.code == 3, r.err
    assert not r.handed, "a resume from another environment was handed to the parked process"
    # the parked process let the run go; the resume's own pause parks a new one, of its environment
    deadline = time.monotonic() + 20 * v.slow
    while set(parked_pids(rid)) & set(old):
        assert time.monotonic() < deadline, "the parked process that refused the resume is still there"
        time.sleep(0.02)
    wait_parked(rid, v, state)
    r = resume(v, agent, rid, "B", state, flags, cpu, {"SOMETHING_ELSE": "1"})
    assert r.code == 0 and json.loads(r.out)["b"] == "B", r.err
    assert r.handed, "the new pause (same environment as its resume) did not take the resume"
    shutil.rmtree(proj)


@reaped
def case_park_an_agent_edited_since_the_pause_is_refused_as_a_replay_refuses_it(v):
    flags = ("--no-isolate",)
    proj, agent, state, rid, cpu = paused(v, flags)
    other = twin(state, rid)
    wait_parked(rid, v, state)
    with open(agent, "a") as f:
        f.write("// edited\n")
    r = resume(v, agent, rid, "A", state, flags, cpu)
    q = resume(v, agent, rid, "A", other, flags, cpu, NO_PARK)
    assert r.code == 1 and r.same(q), (r.err, q.err)
    assert b"cannot be resumed" in r.err, r.err
    wait_gone(rid, v, "after a resume it refused")
    with open(os.path.join(state, "runs", rid, "run.json")) as f:
        assert json.load(f)["status"] == "paused"
    shutil.rmtree(proj)


@reaped
def case_park_the_parked_process_goes_when_its_time_runs_out(v):
    flags = ("--no-isolate",)
    proj, agent, state, rid, cpu = paused(v, flags, {"CHIDORI_PARK_MS": "300"})
    wait_parked(rid, v, state)
    wait_gone(rid, v, "after CHIDORI_PARK_MS")
    assert sockets(state) == [], sockets(state)
    r = resume(v, agent, rid, "A", state, flags, cpu, NO_PARK)
    assert r.code == 3 and not r.handed, r.err
    shutil.rmtree(proj)


@reaped
def case_park_a_killed_resume_kills_the_run_it_handed_over(v):
    flags = ("--no-isolate",)
    proj, agent, state, rid, cpu = paused(v, flags)
    wait_parked(rid, v, state)
    parked = parked_pids(rid)
    env = v.env({"CHIDORI_STATE_DIR": state, **PARK})
    p = subprocess.Popen([v.chidori, "resume", agent, rid, "--response", "spin", *flags], env=env, cwd=ROOT,
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    meta = os.path.join(state, "runs", rid, "run.json")
    deadline = time.monotonic() + 20 * v.slow
    while True:
        with open(meta) as f:
            if json.load(f)["status"] == "running":
                break
        assert time.monotonic() < deadline, "the run never went on"
        time.sleep(0.01)
    time.sleep(0.1)
    assert parked_pids(rid) == parked, "the parked process is not the one running the run"
    p.send_signal(signal.SIGKILL)
    p.wait()
    wait_gone(rid, v, "once the resume it served was killed (it spins forever)")
    with open(meta) as f:
        assert json.load(f)["status"] == "running", "the run is not left interrupted"
    shutil.rmtree(proj)


@reaped
def case_park_none_when_off_under_a_deadline_past_the_cap_or_in_an_open_folder(v):
    flags = ("--no-isolate",)
    for extra, why in ((NO_PARK, "off"), ({"CHIDORI_JS_DEADLINE_MS": "60000"}, "a deadline")):
        proj, agent, state, rid, _ = paused(v, flags, extra)
        time.sleep(0.3)
        assert not parked_pids(rid) and sockets(state) == [], f"a run parked with {why}"
        shutil.rmtree(proj)
    # the cap: one at a time
    proj, agent, state, rid, _ = paused(v, flags, {"CHIDORI_PARK_MAX": "1"})
    wait_parked(rid, v, state)
    code, _, err = chidori(v, "run", agent, "-i", '{"n": 1}', *flags, state=state,
                           env={**PARK, "CHIDORI_PARK_MAX": "1"})
    rid2 = made(run_id_of(err))
    time.sleep(0.3)
    assert code == 3 and not parked_pids(rid2) and len(sockets(state)) == 1, "a second run parked past the cap"
    for pid in parked_pids(rid):
        os.kill(pid, signal.SIGKILL)
    # a socket folder others may write to is not used
    state = fast_state()
    os.mkdir(os.path.join(state, "parked"), 0o777)
    os.chmod(os.path.join(state, "parked"), 0o777)
    code, _, err = chidori(v, "run", agent, "-i", '{"n": 1}', *flags, state=state, env=PARK)
    rid3 = made(run_id_of(err))
    time.sleep(0.3)
    assert code == 3 and not parked_pids(rid3) and sockets(state) == [], "parked in a folder open to others"
    shutil.rmtree(proj)


def closed_unanswered(s, v):
    """The peer closed the connection without a word (a reset: it left our bytes unread)."""
    s.settimeout(10 * v.slow)
    try:
        got = s.recv(100)
    except ConnectionResetError:
        got = b""
    s.close()
    return got == b""


@reaped
def case_park_bytes_that_are_not_a_resume_are_dropped(v):
    flags = ("--no-isolate",)
    proj, agent, state, rid, cpu = paused(v, flags)
    wait_parked(rid, v, state)
    path = socket_of(state, rid)
    for junk in (b"\x00\x00\x00\x05hello", b"\xff\xff\xff\xff" + b"x" * 64, b"\x00\x00\x00\x03[1]",
                 b"\x00\x00\x00\x02{}", b""):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(path)
        s.sendall(junk)
        s.shutdown(socket.SHUT_WR)
        assert closed_unanswered(s, v), "the parked process answered bytes that are not a resume"
    # a well-formed message without the streams passed along is not a resume either
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    body = json.dumps({"who": {}, "response": "x", "hint": None}).encode()
    s.sendall(struct.pack(">I", len(body)) + body)
    assert closed_unanswered(s, v)
    r = resume(v, agent, rid, "A", state, flags, cpu)
    assert r.code == 3 and r.handed, "after the junk, the parked process no longer took the resume"
    shutil.rmtree(proj)


def seqs(state, rid):
    return [r["seq"] for r in records(state, rid)]


@reaped
def case_park_a_resume_during_the_replay_waits_for_it_and_never_doubles_a_record(v):
    """The parked process holds the run's lock while it replays: a resume that comes then waits
    for it. One from another environment (it cannot be handed the run) waits until it lets the run
    go, then replays; one from the same environment is handed the run. The log keeps one record
    per seq either way."""
    flags = ("--no-isolate",)
    for extra, handed in (({"SOMETHING_ELSE": "1"}, False), ({}, True)):
        proj, agent, state, rid, cpu = paused(v, flags, n=3)
        wait_parked(rid, v, state)  # listening, the lock held, replaying
        r = resume(v, agent, rid, "A", state, flags, cpu, extra)
        assert r.code == 3, r.err
        assert r.handed == handed, (handed, r.cpu, cpu, r.err)
        s = seqs(state, rid)
        assert len(s) == len(set(s)) == 4, f"the log's seqs: {s}"
        shutil.rmtree(proj)


@reaped
def case_park_a_resume_killed_while_it_waits_for_the_replay_records_nothing(v):
    flags = ("--no-isolate",)
    proj, agent, state, rid, cpu = paused(v, flags, n=1)
    wait_parked(rid, v, state)  # listening, the lock held, replaying
    env = v.env({"CHIDORI_STATE_DIR": state, **PARK})
    p = subprocess.Popen([v.chidori, "resume", agent, rid, "--response", "WRONG", *flags], env=env, cwd=ROOT,
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(cpu / 8)
    assert p.poll() is None, "the resume did not wait for the replay"
    p.send_signal(signal.SIGKILL)
    p.wait()
    wait_at_park(state, rid, v)  # the replay is done: the killed resume's message was in the queue
    time.sleep(0.2)
    with open(os.path.join(state, "runs", rid, "run.json")) as f:
        meta = json.load(f)
    assert meta["status"] == "paused" and "response" not in meta, meta
    r = resume(v, agent, rid, "RIGHT", state, flags, cpu)
    assert r.code == 3 and r.handed, r.err
    assert b"after first RIGHT" in r.err, r.err
    shutil.rmtree(proj)


@reaped
def case_park_other_runs_do_not_wait_for_a_parked_process_that_replays(v):
    """Counting the parked processes reads their locks: a run's pause does not connect to one that
    is still replaying (whose backlog a connect would wait on)."""
    flags = ("--no-isolate",)
    p = Paused(v, flags, work=WORK * 20)
    wait_parked(p.rid, v, p.state)
    hello = os.path.join(p.proj, "hello.js")
    with open(hello, "w") as f:
        f.write('export default async (input, chidori) => (await chidori.input("q?"));\n')
    t = time.monotonic()
    for _ in range(12):
        code, _, err = chidori(v, "run", hello, *flags, state=p.state, env=PARK)
        assert code == 3, err
        made(run_id_of(err))
    took = time.monotonic() - t
    with open(os.path.join(p.state, "runs", p.rid, "run.lock"), "rb") as f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            replaying = False
        except BlockingIOError:
            replaying = True
    assert replaying, f"12 pausing runs took {took:.2f}s: they waited for the replay ({p.cpu:.2f}s) to end"
    shutil.rmtree(p.proj)


@reaped
def case_park_a_newer_parked_process_of_a_run_sends_the_older_away(v):
    flags = ("--no-isolate",)
    proj, agent, state, rid, cpu = paused(v, flags)
    wait_parked(rid, v, state)
    wait_at_park(state, rid, v)
    [old] = parked_pids(rid)
    env = v.env({"CHIDORI_STATE_DIR": state, **PARK})
    subprocess.Popen([v.chidori, "resume", agent, rid, "--runs-dir", os.path.join(state, "runs"), *flags, "--parked"],
                     env=env, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 20 * v.slow
    while old in parked_pids(rid) or not parked_pids(rid):
        assert time.monotonic() < deadline, f"still parked: {parked_pids(rid)} (the older was {old})"
        time.sleep(0.02)
    wait_parked(rid, v, state)
    assert len(parked_pids(rid)) == 1 and len(sockets(state)) == 1, (parked_pids(rid), sockets(state))
    r = resume(v, agent, rid, "A", state, flags, cpu)
    assert r.code == 3 and r.handed, r.err
    shutil.rmtree(proj)


@reaped
def case_park_a_resume_with_another_umask_replays(v):
    """The process's own standing (umask, limits, groups, namespaces) is the resume's too."""
    flags = ("--no-isolate",)
    proj, agent, state, rid, cpu = paused(v, flags)
    wait_parked(rid, v, state)
    r = resume(v, agent, rid, "A", state, flags, cpu, preexec=lambda: os.umask(0o077))
    assert r.code == 3 and not r.handed, "a resume with another umask was handed the run"
    shutil.rmtree(proj)


# an input, a mark, another input
MARKED = """export default async (input, chidori) => {
  const a = await chidori.input("first?");
  await chidori.mark("after", { a });
  const b = await chidori.input("second?");
  return { a, b };
};
"""


@reaped
def case_park_a_log_that_holds_more_than_the_pause_performs_nothing_before_a_resume(v):
    """A paused run whose log already holds the answer (a resume killed right after it appended
    it): the parked process replays it and stops before the next live call, writing nothing."""
    flags = ("--no-isolate",)
    proj = project({"marked.js": MARKED})
    agent = os.path.join(proj, "marked.js")
    state = fast_state()
    code, _, err = chidori(v, "run", agent, *flags, state=state, env=NO_PARK)
    assert code == 3, err
    rid = made(run_id_of(err))
    folder = os.path.join(state, "runs", rid)
    with open(os.path.join(folder, "run.json")) as f:
        seq = json.load(f)["pending"]["seq"]
    answer = {"seq": seq, "function": "input", "args": {"prompt": "first?", "opts": {}}, "result": "A",
              "duration_ms": 0, "timestamp": "2026-12-05T00:00:00.000Z", "duration_us": 0}
    with open(os.path.join(folder, "records.jsonl"), "a") as f:
        f.write(json.dumps(answer, separators=(",", ":")) + "\n")
    before = {n: open(os.path.join(folder, n), "rb").read() for n in ("records.jsonl", "run.json")}
    env = v.env({"CHIDORI_STATE_DIR": state, **PARK})
    code, out, err, _ = measured(v, [v.chidori, "resume", agent, rid, "--runs-dir", os.path.join(state, "runs"),
                                     *flags, "--parked"], env)
    assert code == 0, (code, err)
    after = {n: open(os.path.join(folder, n), "rb").read() for n in ("records.jsonl", "run.json")}
    assert after == before, "the parked process wrote to the run"
    assert sockets(state) == [], sockets(state)
    shutil.rmtree(proj)


@reaped
def case_park_a_resume_right_after_the_pause_or_the_hand_over_never_finds_the_run_locked(v):
    """The pausing process takes the parked process's place (its lock and socket) before it lets
    the run's lock go, and a parked process that went on hands its place on before it tells its
    resume: a resume that comes at once waits there instead of finding the run in progress."""
    flags = ("--no-isolate",)
    for _ in range(8):
        proj, agent, state, rid, cpu = paused(v, flags, n=1, work=0)
        r = resume(v, agent, rid, "A", state, flags, cpu)
        assert r.code == 3, r.err
        r = resume(v, agent, rid, "B", state, flags, cpu)
        assert r.code == 0 and json.loads(r.out)["b"] == "B", r.err
        shutil.rmtree(proj)


@reaped
def case_park_a_resume_that_answers_nothing_leaves_the_parked_process_alone(v):
    flags = ("--no-isolate",)
    proj, agent, state, rid, cpu = paused(v, flags)
    wait_parked(rid, v, state)
    wait_at_park(state, rid, v)
    before = parked_pids(rid)
    env = v.env({"CHIDORI_STATE_DIR": state, **PARK})
    code, _, err, _ = measured(v, [v.chidori, "resume", agent, rid, *flags], env)
    assert code == 2 and b"--response" in err, err
    assert parked_pids(rid) == before, "a refused resume sent the parked process away"
    r = resume(v, agent, rid, "A", state, flags, cpu)
    assert r.code == 3 and r.handed, r.err
    shutil.rmtree(proj)


def case_park_the_parked_flag_goes_with_resume_alone(v):
    proj = project({"two.js": TWO})
    agent = os.path.join(proj, "two.js")
    for args in (("run", agent, "--parked"), ("replay", agent, "0" * 36, "--parked"),
                 ("resume", agent, "0" * 36, "--response", "x", "--parked"),
                 ("resume", agent, "0" * 36, "--stream", "--parked")):
        code, out, err = chidori(v, *args, env=PARK)
        assert code == 2 and "--parked" in err, (args, code, err)
    shutil.rmtree(proj)


@reaped
def case_park_a_resume_that_cannot_be_handed_the_run_does_not_wait_for_its_replay(v):
    """While the parked process replays, a thread answers its socket: a resume from another
    environment (or one that asks it to leave) makes it go at once, and the resume replays the run
    itself instead of waiting for the parked process's replay first."""
    flags = ("--no-isolate",)
    p = Paused(v, flags, n=1, work=WORK * 20)
    wait_parked(p.rid, v, p.state)
    deadline = time.monotonic() + 20 * v.slow
    while not any(open(f"/proc/{pid}/comm").read().strip() != "chidori-parked" for pid in parked_pids(p.rid)):
        assert time.monotonic() < deadline, "no parked process replaying"
        time.sleep(0.005)
    [parked] = parked_pids(p.rid)
    env = v.env({"CHIDORI_STATE_DIR": p.state, **PARK, "SOMETHING_ELSE": "1"})
    proc = subprocess.Popen([v.chidori, "resume", p.agent, p.rid, "--response", "A", *flags], env=env, cwd=ROOT,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    t = time.monotonic()
    while os.path.exists(f"/proc/{parked}") and open(f"/proc/{parked}/stat").read().split()[2] != "Z":
        assert time.monotonic() - t < p.cpu / 3, "the parked process went on replaying for a resume it cannot take"
        time.sleep(0.005)
    _, err = proc.communicate(timeout=120 * v.slow)
    assert proc.returncode == 3 and b"paused, waiting for input: second?" in err, err
    shutil.rmtree(p.proj)


@reaped
def case_park_what_a_replay_prints_is_kept_only_up_to_its_cap(v):
    """The parked process keeps what the replay prints (for the resume's streams) in memory, at
    most 8 MiB a stream: an agent that printed more before its pause leaves no parked process
    holding it, and its resume replays."""
    flags = ("--no-isolate",)
    proj = project({"loud.js": """export default async (input, chidori) => {
  for (let i = 0; i < 1100; i++) console.error("x".repeat(10000));
  const a = await chidori.input("first?");
  return { a };
};
"""})
    agent = os.path.join(proj, "loud.js")
    state = fast_state()
    env = v.env({"CHIDORI_STATE_DIR": state, **PARK})
    code, _, err, cpu = measured(v, [v.chidori, "run", agent, *flags], env)
    assert code == 3 and len(err) > 10_000_000, (code, len(err))
    rid = made(run_id_of(err.decode()))
    deadline = time.monotonic() + 30 * v.slow
    while parked_pids(rid):  # it ends once its capture is full; until then it is never past the cap
        for pid in parked_pids(rid):
            for fd in (1, 2):
                try:
                    size = os.stat(f"/proc/{pid}/fd/{fd}").st_size
                except OSError:
                    continue
                assert size <= (8 << 20) + 1, f"the parked process holds {size} bytes of output"
        assert time.monotonic() < deadline, "a parked process holds more output than it may keep"
        time.sleep(0.01)
    r = resume(v, agent, rid, "A", state, flags, cpu)
    assert r.code == 0 and json.loads(r.out) == {"a": "A"} and len(r.err) > 10_000_000, (r.code, r.out[:200])
    shutil.rmtree(proj)
