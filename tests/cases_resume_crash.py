"""tests/cases_resume_crash.py — `chidori run` / `resume` after a SIGKILL, at chosen points
(docs/durable-runs.md, "After a crash"; the random points are tests/cases_crash.py's).

- a resume killed right after it recorded the input's answer, by hand (the answer appended to a
  paused run's log, as a killed resume of an older chidori left it) and for real (a SIGKILL once the
  answer is in the log): the next resume completes from the log, the answer recorded once;
- a run killed mid-run (run.json `running`, nobody holding its lock) is continued by `resume` from
  its log, and the effects recorded before the kill are not performed again;
- the run folder's lock: a second resume, or a resume of a run still running, is refused at once
  naming the process that holds it; replay takes no lock.
The agents are written by the tests into throwaway project folders; everything runs in-process
(the crash test also kills isolated runs).
"""
import json
import os
import shutil
import signal
import subprocess
import time

from cases import chidori
from cases_calllog import check_loadable, fast_state, project, run_id_of

# marks, an input, then (after the answer is recorded) a pure computation a kill can land in, and
# marks; the answer "spin" computes forever
ASK = """export default async (input, chidori) => {
  for (let i = 0; i < 3; i++) await chidori.mark("before", { i });
  const answer = await chidori.input("go on?");
  let x = 0;
  if (answer === "spin") for (;;) x++;
  for (let i = 0; i < (input.spin || 0); i++) x = (x + i) % 1000003;
  for (let i = 0; i < 3; i++) await chidori.mark("after", { i, answer });
  return { answer, x };
};
"""

# a workspace file per round, and a pure computation between rounds for a kill to land in
WRITER = """export default async (input, chidori) => {
  let x = 0;
  for (let i = 0; i < input.n; i++) {
    await chidori.workspace.write(`w${i}.txt`, `round ${i}`);
    for (let k = 0; k < input.spin; k++) x = (x + k) % 1000003;
  }
  return { n: input.n, x };
};
"""

# a nested agent whose first call is another nested agent, which pauses: two open calls, the
# outer one with no record of its own
OUTER = """export default async (input, chidori) => {
  await chidori.mark("outer", {});
  const out = await chidori.callAgent("mid.js", {});
  await chidori.mark("outer done", { out });
  return { answer: out.answer, x: 0 };
};
"""
MID = """export default async (input, chidori) => await chidori.callAgent("inner.js", {});
"""
INNER = """export default async (input, chidori) => {
  await chidori.mark("inner", {});
  const answer = await chidori.input("inner asks?");
  await chidori.mark("inner done", { answer });
  return { answer };
};
"""

FLAGS = ("--no-isolate",)


def records(folder):
    path = os.path.join(folder, "records.jsonl")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(line) for line in f.read().splitlines() if line.endswith("}")]


def meta(folder):
    with open(os.path.join(folder, "run.json")) as f:
        return json.load(f)


def tree(root):
    """Every file under root: its bytes and modification time (a replay must change none)."""
    found = {}
    for folder, _, names in os.walk(root):
        for name in names:
            path = os.path.join(folder, name)
            with open(path, "rb") as f:
                found[os.path.relpath(path, root)] = (f.read(), os.stat(path).st_mtime_ns)
    return found


def start(v, *args, state, extra=None):
    env = {"CHIDORI_STATE_DIR": state, **(extra or {})}
    return subprocess.Popen([v.chidori, *args, *FLAGS], env=v.env(env), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def wait_for(cond, p, v, what):
    """Poll cond() until it holds; the process must still be running then."""
    deadline = time.monotonic() + 30 * v.slow
    while not cond():
        assert p.poll() is None, f"the process ended before {what}: {p.communicate()}"
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.002)


def kill(p):
    if p.poll() is None:
        p.send_signal(signal.SIGKILL)
    return p.communicate()


def paused_ask(v, state, spin=0):
    proj = project({"ask.js": ASK})
    agent = os.path.join(proj, "ask.js")
    code, _, err = chidori(v, "run", agent, "-i", json.dumps({"spin": spin}), *FLAGS, state=state)
    assert code == 3, err
    rid = run_id_of(err)
    return proj, agent, rid, os.path.join(state, "runs", rid)


def inputs_of(recs):
    return [r for r in recs if r["function"] == "input"]


def finishes_and_replays(v, agent, rid, folder, state, answer):
    recs = check_loadable(os.path.join(folder, "records.jsonl"))
    assert len(inputs_of(recs)) == 1, f"the answer is recorded {len(inputs_of(recs))} times"
    assert meta(folder)["status"] == "completed", meta(folder)
    code, out, err = chidori(v, "replay", agent, rid, *FLAGS, state=state)
    assert code == 0 and json.loads(out)["answer"] == answer, (code, out, err)
    return out


def case_resume_crash_answer_already_in_the_log_replays_and_is_not_appended_twice(v):
    """A paused run whose log already holds the answer (a resume killed right after recording it,
    before run.json changed: what every killed resume used to leave) resumes from the log: the
    recorded answer is used, not the --response given now (said on stderr), nothing is appended
    twice, and the run completes and replays; also when it paused two nested agents deep, the outer
    one with no record of its own (its seq comes from the pending call's open calls). Before: refused (`its seq N is not newer than the
    log's last record … the run folder was changed`), and the run could never finish."""
    state = fast_state()
    nested = project({"outer.js": OUTER, "mid.js": MID, "inner.js": INNER})
    code, _, err = chidori(v, "run", os.path.join(nested, "outer.js"), *FLAGS, state=state)
    assert code == 3, err
    rid = run_id_of(err)
    paused = [paused_ask(v, state),
              (nested, os.path.join(nested, "outer.js"), rid, os.path.join(state, "runs", rid))]
    assert len(meta(paused[1][3])["pending"]["open_calls"]) == 2, meta(paused[1][3])
    for proj, agent, rid, folder in paused:
        pending = meta(folder)["pending"]
        answer = {"seq": pending["seq"], "function": "input", "args": pending["args"],
                  "result": "recorded", "duration_ms": 0, "timestamp": 1700000000000}
        if pending.get("parent_seq"):
            answer["parent_seq"] = pending["parent_seq"]
        with open(os.path.join(folder, "records.jsonl"), "a") as f:
            f.write(json.dumps(answer) + "\n")
        code, out, err = chidori(v, "resume", agent, rid, "--response", "given now", *FLAGS, state=state)
        assert code == 0, f"resume of {agent} exited {code}:\n{err}"
        assert json.loads(out)["answer"] == "recorded", out
        assert "already answered" in err and "not the --response given now" in err, err
        finishes_and_replays(v, agent, rid, folder, state, "recorded")
        shutil.rmtree(proj)
    shutil.rmtree(state)


def case_resume_crash_resume_killed_after_its_answer_then_resumed_completes(v):
    """A resume SIGKILLed once its answer is in the log (the agent is computing after it): run.json
    says `running` (the resume marked it before appending); `resume --response` is refused (exit
    2: the run is not paused), and `resume` alone continues it with the recorded answer, which is
    not appended again. Before: run.json stayed `paused` and every later resume was refused."""
    state = fast_state()
    proj, agent, rid, folder = paused_ask(v, state, spin=60_000_000)
    p = start(v, "resume", agent, rid, "--response", "yes", state=state)
    wait_for(lambda: inputs_of(records(folder)), p, v, "the answer was recorded")
    kill(p)
    assert records(folder)[-1]["function"] == "input", "the kill landed too late: raise the agent's spin"
    assert meta(folder)["status"] == "running", meta(folder)
    log = open(os.path.join(folder, "records.jsonl")).read()
    code, _, err = chidori(v, "resume", agent, rid, "--response", "yes", *FLAGS, state=state)
    assert code == 2 and "without --response" in err, (code, err)
    assert open(os.path.join(folder, "records.jsonl")).read() == log, "a refused resume changed the log"
    code, out, err = chidori(v, "resume", agent, rid, *FLAGS, state=state, timeout=60)
    assert code == 0, f"resume of the interrupted resume exited {code}:\n{err}"
    assert "interrupted" in err, err
    assert json.loads(out)["answer"] == "yes", out
    finishes_and_replays(v, agent, rid, folder, state, "yes")
    shutil.rmtree(proj)
    shutil.rmtree(state)


def case_resume_crash_run_killed_mid_run_is_continued_without_redoing_its_effects(v):
    """A `chidori run` SIGKILLed mid-run (three workspace writes recorded): `resume` with no
    --response continues it from its log, replaying what was recorded and running the rest live.
    The workspace files whose writes were recorded are changed by the test after the kill and must
    stay changed (their writes replay, they are not performed again); the later rounds are written.
    The replay afterwards changes no file (it takes no lock because it writes nothing). Before: `resume needs --response TEXT` / `run … is running, not paused`."""
    state, ws = fast_state(), fast_state()
    proj = project({"writer.js": WRITER})
    agent = os.path.join(proj, "writer.js")
    n = 8
    p = start(v, "run", agent, "-i", json.dumps({"n": n, "spin": 3_000_000}), state=state,
              extra={"CHIDORI_WORKSPACE_ROOT": ws})
    runs = os.path.join(state, "runs")
    folder = lambda: os.path.join(runs, os.listdir(runs)[0])  # noqa: E731
    writes = lambda: [r for r in records(folder()) if r["function"] == "workspace"]  # noqa: E731
    wait_for(lambda: os.path.isdir(runs) and os.listdir(runs) and len(writes()) >= 3, p, v, "three writes")
    kill(p)
    rid = os.path.basename(folder())
    done = writes()
    assert 3 <= len(done) < n, f"the kill landed too late ({len(done)} writes): raise the agent's spin"
    assert meta(folder())["status"] == "running", meta(folder())
    for i in range(len(done)):
        with open(os.path.join(ws, f"w{i}.txt"), "w") as f:
            f.write("changed after the kill")
    code, out, err = chidori(v, "resume", agent, rid, *FLAGS, state=state, env={"CHIDORI_WORKSPACE_ROOT": ws},
                             timeout=60)
    assert code == 0, f"resume of the interrupted run exited {code}:\n{err}"
    assert json.loads(out)["n"] == n, out
    for i in range(n):
        with open(os.path.join(ws, f"w{i}.txt")) as f:
            text = f.read()
        want = "changed after the kill" if i < len(done) else f"round {i}"
        assert text == want, f"w{i}.txt holds {text!r}, not {want!r}: a recorded write was performed again" \
            if i < len(done) else f"w{i}.txt holds {text!r}"
    recs = check_loadable(os.path.join(folder(), "records.jsonl"))
    assert len([r for r in recs if r["function"] == "workspace"]) == n, recs
    assert meta(folder())["status"] == "completed"
    before = tree(state), tree(ws)
    code, again, err = chidori(v, "replay", agent, rid, *FLAGS, state=state, env={"CHIDORI_WORKSPACE_ROOT": ws})
    assert code == 0 and again == out, (code, err)
    assert (tree(state), tree(ws)) == before, "the replay wrote to the run folder, the state or the workspace"
    shutil.rmtree(proj)
    shutil.rmtree(state)
    shutil.rmtree(ws)


def case_resume_crash_second_resume_is_refused_while_the_first_holds_the_lock(v):
    """Two resumes of one paused run: the second is refused at once, naming the first's pid, and
    changes nothing; a resume of a run that `chidori run` is still running is refused the same way;
    a replay meanwhile is not refused (it writes nothing and takes no lock). Before: nothing
    stopped a second command (it appended to the log the first was writing)."""
    state = fast_state()
    proj, agent, rid, folder = paused_ask(v, state)
    first = start(v, "resume", agent, rid, "--response", "spin", state=state)
    procs = [first]
    try:
        wait_for(lambda: inputs_of(records(folder)), first, v, "the first resume recorded its answer")
        log = open(os.path.join(folder, "records.jsonl")).read()
        t0 = time.monotonic()
        code, _, err = chidori(v, "resume", agent, rid, "--response", "other", *FLAGS, state=state)
        assert code == 1 and "in progress" in err and str(first.pid) in err, (code, err)
        assert time.monotonic() - t0 < 10 * v.slow, "the second resume waited for the lock"
        assert open(os.path.join(folder, "records.jsonl")).read() == log, "the refused resume changed the log"
        # the replay computes forever too, after the answer: a deadline ends it, not a lock
        code, _, err = chidori(v, "replay", agent, rid, *FLAGS, state=state, env={"CHIDORI_JS_DEADLINE_MS": "300"})
        assert code == 1 and "deadline" in err and "in progress" not in err, (code, err)
        # a run still running: `run` holds the lock from the start
        running = start(v, "run", agent, "--answer", "spin", state=state)
        procs.append(running)
        runs = os.path.join(state, "runs")
        other = lambda: [r for r in os.listdir(runs) if r != rid]  # noqa: E731
        wait_for(lambda: other() and inputs_of(records(os.path.join(runs, other()[0]))), running, v,
                 "the run answered its input")
        code, _, err = chidori(v, "resume", agent, other()[0], *FLAGS, state=state)
        assert code == 1 and "in progress" in err and str(running.pid) in err, (code, err)
    finally:
        for p in procs:
            kill(p)
    shutil.rmtree(proj)
    shutil.rmtree(state)
