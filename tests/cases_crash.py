"""tests/cases_crash.py — the crash test (issue 23, "Must show"): `chidori run` / `resume` and
`chidori serve` killed with SIGKILL at random points; after every kill, every log loads and the
run resumes or replays to the outcome of an uninterrupted run.

The points are drawn from a seeded generator: the seed is printed (and in every failure), and
CHIDORI_CRASH_SEED=N reruns the same points. The suite's version kills 60 CLI runs and 40 times a
server (100 points); CHIDORI_CRASH_POINTS=N (N/100 scale) runs a bigger one (tests/load/ style).

CLI (tests/crash/agent.js, rounds of a mark, a step, a memory write, a workspace write, a big
record now and then, and a pause on input()): half the points kill `chidori run`, half kill
`chidori resume` of a paused run; a point is a random delay within the uninterrupted run's time
or a random size the log must reach first. After the kill:
  - `chidori replay` must load the log: it may end as the recording (completed, paused) or stop
    where the log stops (a run cut off has no outcome to match), never on a malformed or
    duplicated record, never on a divergence;
  - a run that is paused (run.json) is resumed and must complete with the uninterrupted output;
    a completed run's replay must print that output.
A run killed while running (a run, or a resume: run.json says `running`) must replay as far as its
log goes, and `resume` (no --response) must continue it from its log, to the pause or to the end.

serve: sessions of the same agent (with an MCP counter tool, each call logged with the server's
generation; a quarter under the supervised profile, which asks before each effect) are started,
resumed, approved and left running; the server is SIGKILLed at a random moment and
restarted on the same database, again and again. After each kill the database is read directly:
every session's row and records parse, no seq repeats. At the end every session settles — paused
ones are resumed — and completes with the expected output, its replay agrees, and no tool call
whose record was in the database at a kill was performed again after it.
"""
import json
import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

from run import ROOT, sanitizer_report

AGENT = os.path.join(ROOT, "tests", "crash", "agent.js")
PY = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
SCALE = max(1, int(os.environ.get("CHIDORI_CRASH_POINTS", "100"))) / 100.0
CLI_POINTS = int(round(60 * SCALE))
SERVE_POINTS = int(round(40 * SCALE))
# a big record now and then: a kill that lands while it is being written leaves a torn last line
CLI_INPUT = {"n": 24, "pause_at": 11, "big_every": 8, "big": 300000}
ANSWER = "onward"
# what a failed replay of a log that loaded may say: the run was cut off before its outcome
CUT_SHORT = ("differs from the recording", "the log does not have")
# what it must never say: the log did not load, or does not agree with the agent
BROKEN = ("records.jsonl:", "duplicate `seq`", "divergence", "not JSON", "is malformed", "cannot read")


def crash_seed(salt):
    given = os.environ.get("CHIDORI_CRASH_SEED")
    seed = int(given) if given else random.SystemRandom().randrange(1 << 32)
    print(f"crash test ({salt}): seed {seed} (CHIDORI_CRASH_SEED={seed} reproduces it)")
    return seed


def scratch_root():
    """A memory file system when there is one: a SIGKILL loses nothing the process wrote, whatever
    the disk, so the points are about the process; fsync on tmpfs is free, which keeps them cheap."""
    shm = "/dev/shm"
    return shm if os.path.isdir(shm) and os.access(shm, os.W_OK) else None


# ---------- chidori run / resume ----------

class CliPoint:
    def __init__(self, v, folder, isolated):
        self.v, self.folder = v, folder
        self.runs = os.path.join(folder, "runs")
        self.env = v.env({"CHIDORI_STATE_DIR": os.path.join(folder, "state"),
                          "CHIDORI_WORKSPACE_ROOT": os.path.join(folder, "ws"),
                          "CHIDORI_SEED": "7", "CHIDORI_CLOCK_START_MS": "1700000000000"})
        os.makedirs(os.path.join(folder, "ws"), exist_ok=True)
        self.flags = [] if isolated else ["--no-isolate"]

    def argv(self, *args):
        return [self.v.chidori, *args, "--runs-dir", self.runs, *self.flags]

    def run(self, *args, timeout=60):
        p = subprocess.run(self.argv(*args), env=self.env, capture_output=True, text=True,
                           timeout=timeout * self.v.slow)
        assert not sanitizer_report(p.stderr), "sanitizer report:\n" + p.stderr[-3000:]
        assert p.returncode >= 0, f"{args[0]} died of signal {-p.returncode}: {p.stderr[-2000:]}"
        return p.returncode, p.stdout, p.stderr

    def start(self, *args):
        return subprocess.Popen(self.argv(*args), env=self.env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)

    def run_ids(self):
        return sorted(os.listdir(self.runs)) if os.path.isdir(self.runs) else []

    def meta(self, rid):
        with open(os.path.join(self.runs, rid, "run.json")) as f:
            return json.load(f)

    def log_size(self, rid):
        try:
            return os.path.getsize(os.path.join(self.runs, rid, "records.jsonl"))
        except OSError:
            return 0


def kill_at(p, point, pt):
    """SIGKILL p at the point: ("time", seconds) or ("bytes", n: once the run's log holds n bytes).
    True when it was killed, False when it ended first."""
    kind, amount = point
    deadline = time.monotonic() + 30 * pt.v.slow
    if kind == "time":
        end = time.monotonic() + amount
        while time.monotonic() < end and p.poll() is None:
            time.sleep(min(0.002, max(0.0, end - time.monotonic())))
    else:
        records = None
        while p.poll() is None and time.monotonic() < deadline:
            if records is None:
                ids = pt.run_ids()
                records = os.path.join(pt.runs, ids[0], "records.jsonl") if ids else None
                continue
            try:
                if os.stat(records).st_size >= amount:
                    break
            except OSError:
                pass
    if p.poll() is not None:
        p.communicate()
        return False
    p.send_signal(signal.SIGKILL)
    p.communicate()
    return True


def torn_tail(path):
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            if f.tell() == 0:
                return False
            f.seek(-1, os.SEEK_END)
            return f.read(1) != b"\n"
    except OSError:
        return False


def check_replay(pt, rid, reference, where):
    """The log loads and replays: as recorded, or as far as it goes."""
    code, out, err = pt.run("replay", AGENT, rid)
    assert not any(b in err for b in BROKEN), f"{where}: the log does not load or replay:\n{err[-2000:]}"
    status = pt.meta(rid)["status"]
    if status == "completed":
        assert code == 0 and json.loads(out) == reference, f"{where}: replay of the completed run: {code} {out} {err}"
    elif status == "paused":
        assert code in (1, 3), f"{where}: replay of a paused run exited {code}: {err[-2000:]}"
        if code == 1:  # a killed resume appended past the pause: the log goes further than run.json says
            assert any(c in err for c in CUT_SHORT), f"{where}: {err[-2000:]}"
    else:
        assert code == 1 and any(c in err for c in CUT_SHORT), f"{where}: replay of a cut-off run: {code} {err[-2000:]}"
    return status


def finish(pt, rid, reference, where):
    """An interrupted run (killed while running: its run or its resume) resumes from its log, to a
    pause or to the end; a paused run resumes to the uninterrupted output; every completed run
    replays to it."""
    status = check_replay(pt, rid, reference, where)
    if status == "running":
        code, out, err = pt.run("resume", AGENT, rid)
        assert not any(b in err for b in BROKEN), f"{where}: resume of the interrupted run:\n{err[-2000:]}"
        assert code in (0, 3), f"{where}: resume of the interrupted run exited {code}:\n{err[-2000:]}"
        if code == 0:
            assert json.loads(out) == reference, f"{where}: resume of the interrupted run printed {out}"
        status = check_replay(pt, rid, reference, where + ", after continuing the interrupted run")
        assert status in ("paused", "completed"), f"{where}: the interrupted run ended {status}"
        label = "interrupted, then " + status
    else:
        label = status
    if status == "paused":
        code, out, err = pt.run("resume", AGENT, rid, "--response", ANSWER)
        assert not any(b in err for b in BROKEN), f"{where}: resume after the kill:\n{err[-2000:]}"
        assert code == 0 and json.loads(out) == reference, f"{where}: resume after the kill exited {code}:\n{err[-2000:]}"
        status = check_replay(pt, rid, reference, where + ", after the resume")
        assert status == "completed", f"{where}: the resumed run ended {status}"
    return label


def failure_kind(message):
    """A failure's kind, for the summary of a run of points."""
    for kind in ("duplicate `seq`", "divergence", "not JSON", "records.jsonl:", "timed out"):
        if kind in message:
            return kind.strip("`:")
    return message.split(":")[-1].strip()[:60] if ":" in message else message[:60]


def case_crash_cli_run_and_resume_killed_at_random_points(v):
    seed = crash_seed("chidori run/resume")
    rng = random.Random(seed)
    root = tempfile.mkdtemp(prefix="chidori-crash-cli-", dir=scratch_root())
    try:
        # the uninterrupted run: pause, resume, output; and a paused copy to resume from
        ref = CliPoint(v, os.path.join(root, "ref"), isolated=False)
        t0 = time.monotonic()
        code, _, err = ref.run("run", AGENT, "-i", json.dumps(CLI_INPUT))
        run_secs = time.monotonic() - t0
        assert code == 3, f"the reference run did not pause: {code} {err}"
        rid = ref.run_ids()[0]
        shutil.copytree(ref.folder, os.path.join(root, "paused"))
        paused_log = ref.log_size(rid)
        t0 = time.monotonic()
        code, out, err = ref.run("resume", AGENT, rid, "--response", ANSWER)
        resume_secs = time.monotonic() - t0
        assert code == 0, f"the reference resume: {code} {err}"
        reference = json.loads(out)
        full_log = ref.log_size(rid)
        outcomes, failures, torn = {}, [], 0
        for i in range(CLI_POINTS):
            during_resume = i % 2 == 1
            isolated = i % 5 == 4
            by_bytes = rng.random() < 0.5
            folder = os.path.join(root, f"p{i}")
            if during_resume:
                shutil.copytree(os.path.join(root, "paused"), folder)
                pt = CliPoint(v, folder, isolated)
                point = ("bytes", rng.randrange(paused_log, full_log + 1)) if by_bytes else \
                    ("time", rng.uniform(0, resume_secs * 1.2))
                p = pt.start("resume", AGENT, rid, "--response", ANSWER)
            else:
                pt = CliPoint(v, folder, isolated)
                point = ("bytes", rng.randrange(1, paused_log + 1)) if by_bytes else \
                    ("time", rng.uniform(0, run_secs * 1.2))
                p = pt.start("run", AGENT, "-i", json.dumps(CLI_INPUT))
            killed = kill_at(p, point, pt)
            where = (f"seed {seed}, point {i} ({'resume' if during_resume else 'run'}, "
                     f"{'isolated' if isolated else 'in-process'}, {point[0]} {point[1]:.4g}, "
                     f"{'killed' if killed else 'ended first'}) in {folder}")
            try:
                ids = pt.run_ids()
                torn += bool(ids) and torn_tail(os.path.join(pt.runs, ids[0], "records.jsonl"))
                if not ids or not os.path.exists(os.path.join(pt.runs, ids[0], "run.json")):
                    assert not during_resume, where
                    assert not ids or pt.log_size(ids[0]) == 0, f"{where}: records without a run.json"
                    status = "not started"
                else:
                    status = finish(pt, ids[0], reference, where)
                shutil.rmtree(folder, ignore_errors=True)
            except AssertionError as e:
                failures.append(re.sub(r"(.)\1{80,}", r"\1\1\1…", str(e)))
                status = "failed: " + failure_kind(str(e))
            outcomes[status] = outcomes.get(status, 0) + 1
        print(f"crash test (chidori run/resume): {CLI_POINTS} points; after the kill: {outcomes}; "
              f"{torn} left a torn last record")
        assert not failures, f"{len(failures)} of {CLI_POINTS} points failed (seed {seed}): {outcomes}; the first:\n" + \
            "\n".join(f[:1500] for f in failures[:3])
    finally:
        shutil.rmtree(root, ignore_errors=True)


# ---------- chidori serve ----------

SERVE_ROUNDS = 10


def expected_output(tag, answer):
    acc = sum((i * 7) % 11 for i in range(SERVE_ROUNDS))
    return {"tag": tag, "acc": acc, "answer": answer, "rounds": SERVE_ROUNDS}


def read_database(path, where):
    """Every session row and record as the next server would read them: JSON that parses, a seq
    that matches, no seq or append position twice. {id: (status, [records])}."""
    db = sqlite3.connect(path)
    try:
        sessions = {}
        for sid, status, inp in db.execute("SELECT id, status, input FROM sessions"):
            json.loads(inp)
            assert status in ("running", "queued", "completed", "failed", "cancelled", "paused", "awaitingapproval"), \
                f"{where}: session {sid} has status {status}"
            sessions[sid] = (status, [])
        seen = set()
        for sid, seq, text, pos in db.execute("SELECT session_id, seq, record, pos FROM records ORDER BY session_id, pos"):
            rec = json.loads(text)
            assert rec["seq"] == seq, f"{where}: session {sid}: record {seq} says seq {rec['seq']}"
            assert (sid, pos) not in seen, f"{where}: session {sid}: two records at position {pos}"
            seen.add((sid, pos))
            assert sid in sessions, f"{where}: records of an unknown session {sid}"
            sessions[sid][1].append(rec)
        for sid, (_, recs) in sessions.items():
            seqs = [r["seq"] for r in recs]
            assert len(seqs) == len(set(seqs)), f"{where}: session {sid}: a seq twice: {sorted(seqs)}"
        return sessions
    finally:
        db.close()


def tool_calls(records):
    return {(r["args"]["kwargs"]["tag"], r["args"]["kwargs"]["i"]) for r in records
            if r["function"] == "tool" and r.get("error") is None}


def performed(folder, generation):
    """The counter tool's calls in one server generation, as (tag, i)."""
    path = os.path.join(folder, f"calls-{generation}.log")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [(a["tag"], a["i"]) for a in map(json.loads, f)]


def case_crash_serve_killed_at_random_points(v):
    from cases_serve import Server  # the server driver of the serve tests
    seed = crash_seed("chidori serve")
    rng = random.Random(seed)
    folder = tempfile.mkdtemp(prefix="chidori-crash-serve-", dir=scratch_root())
    db_path = os.path.join(folder, "state", "sessions.sqlite3")
    recorded_at_kill = []  # per generation: the tool calls recorded when its server was killed
    answers = {}
    servers = []
    counter = os.path.join(ROOT, "tests", "mcp", "counter.py")

    def server(generation, isolated):
        env = {"CHIDORI_MCP_CONFIG": json.dumps({"mcpServers": {"counter": {
            "command": PY, "args": [counter, os.path.join(folder, f"calls-{generation}.log")]}}}),
            "CHIDORI_SERVE_WARM_WORKERS": "0"}
        s = Server(v, "--trusted", "--isolate" if isolated else "--no-isolate", env=env, folder=folder, agent=AGENT)
        servers.append(s)
        return s

    try:
        made = in_flight = 0
        for g in range(SERVE_POINTS):
            where = f"seed {seed}, kill {g + 1} of {SERVE_POINTS}"
            s = server(g, isolated=g % 4 == 3)
            s.start()
            # keep sessions in flight: new ones, and the paused ones resumed
            for _ in range(rng.randrange(0, 4)):
                tag = f"S{made}"
                made += 1
                pause = rng.random() < 0.5
                body = {"input": {"n": SERVE_ROUNDS, "tool": True, "tag": tag,
                                  "pause_at": rng.randrange(SERVE_ROUNDS) if pause else -1},
                        "session_id": tag, "wait": False}
                if rng.random() < 0.25:  # asks before each effect: approvals, and re-runs after them
                    body["policy_profile"] = "supervised"
                status, _, view = s.request("POST", "/sessions", body)
                assert status in (201, 503), f"{where}: POST /sessions: {status} {view}"
                if status == 201:
                    answers[tag] = f"a{tag}" if pause else None
            status, _, listing = s.request("GET", "/sessions")
            assert status == 200, f"{where}: {listing}"
            for view in listing["sessions"]:
                if view["status"] == "paused" and rng.random() < 0.7:
                    s.request("POST", f"/sessions/{view['id']}/resume", {"response": answers[view["id"]],
                                                                         "wait": False})
                elif view["status"] == "awaitingapproval" and rng.random() < 0.7:
                    s.request("POST", f"/sessions/{view['id']}/approve", {"decision": "allow", "wait": False})
            time.sleep(rng.uniform(0, 0.4))
            s.kill()
            stored = read_database(db_path, where)
            recorded_at_kill.append(set().union(*(tool_calls(r) for _, r in stored.values())) if stored else set())
            in_flight += any(st == "running" for st, _ in stored.values())

        # the last server: every session settles, paused ones are answered
        final = SERVE_POINTS
        s = server(final, isolated=True)
        s.start()
        where = f"seed {seed}, after {SERVE_POINTS} kills"
        deadline = time.monotonic() + 120 * v.slow
        while True:
            listing = s.request("GET", "/sessions")[2]["sessions"]
            pending = [x for x in listing if x["status"] in ("running", "queued", "paused", "awaitingapproval")]
            if not pending:
                break
            assert time.monotonic() < deadline, f"{where}: never settled: {pending}\n{s.stderr()}"
            for x in pending:
                if x["status"] == "paused":
                    s.request("POST", f"/sessions/{x['id']}/resume", {"response": answers[x["id"]], "wait": False})
                elif x["status"] == "awaitingapproval":
                    s.request("POST", f"/sessions/{x['id']}/approve", {"decision": "allow", "wait": False})
            time.sleep(0.05)
        assert len(listing) == len(answers), f"{where}: {len(listing)} sessions stored, {len(answers)} made"
        for x in listing:
            assert x["status"] == "completed", f"{where}: session {x['id']} ended {x['status']}: {x['error']}"
            assert x["output"] == expected_output(x["id"], answers[x["id"]]), f"{where}: {x}"
        stored = read_database(db_path, where)
        # replays agree, and perform nothing
        before = len(performed(folder, final))
        for x in rng.sample(listing, min(3, len(listing))):
            status, _, again = s.request("POST", f"/sessions/{x['id']}/replay")
            assert status == 201 and again["status"] == "completed" and again["output"] == x["output"], \
                f"{where}: replay of {x['id']}: {again}"
        assert len(performed(folder, final)) == before, f"{where}: a replay performed a tool call"
        s.stop()
        # no tool call recorded at a kill was performed again by a later server
        for g, recorded in enumerate(recorded_at_kill):
            for h in range(g + 1, final + 1):
                again = recorded & set(performed(folder, h))
                assert not again, f"{where}: recorded by kill {g + 1}, performed again by server {h + 1}: {sorted(again)}"
        every = set().union(*(tool_calls(r) for _, r in stored.values()))
        done = set().union(*(set(performed(folder, h)) for h in range(final + 1)))
        assert every <= done, f"{where}: recorded but never performed: {sorted(every - done)}"
        twice = sum(len(performed(folder, h)) for h in range(final + 1)) - len(done)
        print(f"crash test (chidori serve): {SERVE_POINTS} kills ({in_flight} with a session running), "
              f"{len(answers)} sessions, all completed; "
              f"{len(every)} tool calls recorded, {twice} performed twice (in flight at a kill, not recorded)")
    finally:
        for s in servers:
            if s.proc and s.proc.poll() is None:
                s.proc.kill()
                s.proc.wait()
        shutil.rmtree(folder, ignore_errors=True)
