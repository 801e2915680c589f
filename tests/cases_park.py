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
import functools
import hashlib
import json
import os
import shutil
import signal
import socket
import struct
import subprocess
import threading
import time

from cases import chidori
from run import ROOT
from cases_calllog import fast_state, project
from cases_effects import run_id_of

TWO = """export default async (input, chidori) => {
  console.log("before", input.n);
  for (let i = 0; i < input.n; i++) await chidori.mark("tick", { i });
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


def sockets(state):
    folder = os.path.join(state, "parked")
    return sorted(n for n in os.listdir(folder) if n.endswith(".sock")) if os.path.isdir(folder) else []


def resume(v, agent, rid, answer, state, flags, extra=None):
    """A resume, its pid known: (code, out, err, pid)."""
    env = v.env({"CHIDORI_STATE_DIR": state, **PARK, **(extra or {})})
    p = subprocess.Popen([v.chidori, "resume", agent, rid, "--response", answer, *flags], env=env, cwd=ROOT,
                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = p.communicate(timeout=60 * v.slow)
    return p.returncode, out, err, p.pid


def lock_pid(state, rid):
    with open(os.path.join(state, "runs", rid, "run.lock")) as f:
        return int(f.read().strip())


def records(state, rid):
    with open(os.path.join(state, "runs", rid, "records.jsonl")) as f:
        recs = [json.loads(line) for line in f.read().splitlines()]
    for r in recs:
        for k in ("timestamp", "duration_ms", "duration_us"):
            r.pop(k, None)
    return recs


def paused(v, flags, extra=None, n=3):
    proj = project({"two.js": TWO})
    agent = os.path.join(proj, "two.js")
    state = fast_state()
    code, _, err = chidori(v, "run", agent, "-i", json.dumps({"n": n}), *flags, state=state,
                           env={**PARK, **(extra or {})})
    assert code == 3, err
    return proj, agent, state, made(run_id_of(err))


def twin(state, rid):
    """A copy of the paused run in a state folder of its own, to resume by replay."""
    other = fast_state()
    shutil.copytree(os.path.join(state, "runs", rid), os.path.join(other, "runs", rid))
    return other


def same_as_a_replay(v, flags):
    proj, agent, state, rid = paused(v, flags)
    other = twin(state, rid)
    wait_parked(rid, v, state)
    # first answer: goes on in the parked process, and pauses again (which parks again)
    code, out, err, pid = resume(v, agent, rid, "A", state, flags)
    assert code == 3, err
    assert lock_pid(state, rid) != pid, "the resume ran the run itself: the parked process did not take it"
    rcode, rout, rerr, rpid = resume(v, agent, rid, "A", other, flags, {"CHIDORI_PARK_MS": "0"})
    assert lock_pid(other, rid) == rpid
    assert (code, out, err) == (rcode, rout, rerr), f"parked:\n{out}\n{err}\nreplayed:\n{rout}\n{rerr}"
    assert records(state, rid) == records(other, rid), "the parked run's log differs from the replay's"
    assert b"after first A" in err and b"before 3" in err, err
    # second answer: the run that parked at the second input ends there
    wait_parked(rid, v, state)
    code, out, err, pid = resume(v, agent, rid, "B", state, flags)
    assert lock_pid(state, rid) != pid, "the second pause did not park"
    rcode, rout, rerr, _ = resume(v, agent, rid, "B", other, flags, {"CHIDORI_PARK_MS": "0"})
    assert code == 0 and (code, out, err) == (rcode, rout, rerr), (out, err, rout, rerr)
    assert json.loads(out) == {"a": "A", "b": "B", "x": 0}
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
    proj, agent, state, rid = paused(v, flags)
    wait_parked(rid, v, state)
    old = parked_pids(rid)
    code, out, err, pid = resume(v, agent, rid, "A", state, flags, {"SOMETHING_ELSE": "1"})
    assert code == 3, err
    assert lock_pid(state, rid) == pid, "a resume from another environment was handed to the parked process"
    # the parked process let the run go; the resume's own pause parks a new one, of its environment
    deadline = time.monotonic() + 20 * v.slow
    while set(parked_pids(rid)) & set(old):
        assert time.monotonic() < deadline, "the parked process that refused the resume is still there"
        time.sleep(0.02)
    wait_parked(rid, v, state)
    new = parked_pids(rid)
    code, out, err, pid = resume(v, agent, rid, "B", state, flags, {"SOMETHING_ELSE": "1"})
    assert code == 0 and json.loads(out)["b"] == "B", err
    assert lock_pid(state, rid) in new, "the new pause (same environment as its resume) did not take the resume"
    shutil.rmtree(proj)


@reaped
def case_park_an_agent_edited_since_the_pause_is_refused_as_a_replay_refuses_it(v):
    flags = ("--no-isolate",)
    proj, agent, state, rid = paused(v, flags)
    other = twin(state, rid)
    wait_parked(rid, v, state)
    with open(agent, "a") as f:
        f.write("// edited\n")
    code, out, err, pid = resume(v, agent, rid, "A", state, flags)
    rcode, rout, rerr, _ = resume(v, agent, rid, "A", other, flags, {"CHIDORI_PARK_MS": "0"})
    assert code == 1 and (code, out, err) == (rcode, rout, rerr), (err, rerr)
    assert b"cannot be resumed" in err, err
    wait_gone(rid, v, "after a resume it refused")
    with open(os.path.join(state, "runs", rid, "run.json")) as f:
        assert json.load(f)["status"] == "paused"
    shutil.rmtree(proj)


@reaped
def case_park_the_parked_process_goes_when_its_time_runs_out(v):
    flags = ("--no-isolate",)
    proj, agent, state, rid = paused(v, flags, {"CHIDORI_PARK_MS": "300"})
    wait_parked(rid, v, state)
    wait_gone(rid, v, "after CHIDORI_PARK_MS")
    assert sockets(state) == [], sockets(state)
    code, out, err, pid = resume(v, agent, rid, "A", state, flags, {"CHIDORI_PARK_MS": "0"})
    assert code == 3 and lock_pid(state, rid) == pid, err
    shutil.rmtree(proj)


@reaped
def case_park_a_killed_resume_kills_the_run_it_handed_over(v):
    flags = ("--no-isolate",)
    proj, agent, state, rid = paused(v, flags)
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
    for extra, why in (({"CHIDORI_PARK_MS": "0"}, "off"), ({"CHIDORI_JS_DEADLINE_MS": "60000"}, "a deadline")):
        proj, agent, state, rid = paused(v, flags, extra)
        time.sleep(0.3)
        assert not parked_pids(rid) and sockets(state) == [], f"a run parked with {why}"
        shutil.rmtree(proj)
    # the cap: one at a time
    proj, agent, state, rid = paused(v, flags, {"CHIDORI_PARK_MAX": "1"})
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
    proj, agent, state, rid = paused(v, flags)
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
    code, out, err, pid = resume(v, agent, rid, "A", state, flags)
    assert code == 3 and lock_pid(state, rid) != pid, "after the junk, the parked process no longer took the resume"
    shutil.rmtree(proj)
