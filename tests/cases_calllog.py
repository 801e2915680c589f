"""tests/cases_calllog.py — the CLI's call log and run files under pressure (docs/durable-runs.md).

Caps on a run's records (CHIDORI_LOG_MAX_RECORDS, CHIDORI_LOG_MAX_BYTES): a clear failure that a
replay reaches at the same call; the parent's memory staying flat through a storm of records;
a torn last record cut off before a resume appends; a FIFO, symbolic link or directory in place of
a run file refused instead of hanging or being followed; a paused run's pending call checked
against its log. The agents are written by the tests into throwaway project folders.
"""
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile

import cases
from cases import chidori
from cases_effects import run_id_of
from run import ROOT

MARKS = """export default async (input, chidori) => {
  const pad = "x".repeat(input.pad || 0);
  for (let i = 0; i < (input.n || 10); i++) await chidori.mark("m", { i, pad });
  return "done";
};
"""

# marks, an input, marks, a second input, marks: two pauses to resume through
PAUSES = """export default async (input, chidori) => {
  for (let i = 0; i < 3; i++) await chidori.mark("a", { i });
  const first = await chidori.input("first?");
  for (let i = 0; i < 2; i++) await chidori.mark("b", { i, first });
  const second = await chidori.input("second?");
  await chidori.mark("c", { second });
  return { first, second };
};
"""

PARENT = """export default async (input, chidori) => {
  for (let i = 0; i < 5; i++) await chidori.mark("parent", { i });
  return await chidori.callAgent("child.js", { n: input.n || 30 });
};
"""

CHILD = """export default async (input, chidori) => {
  for (let i = 0; i < input.n; i++) await chidori.mark("child", { i });
  return "child done";
};
"""

# a nested agent pauses: the pending call has an open call (the callAgent) under it
NESTED_PARENT = """export default async (input, chidori) => {
  await chidori.mark("before", {});
  const out = await chidori.callAgent("ask.js", {});
  await chidori.mark("after", { out });
  return out;
};
"""

NESTED_ASK = """export default async (input, chidori) => {
  await chidori.mark("child", {});
  return await chidori.input("child asks?");
};
"""


def project(agents):
    tmp = tempfile.mkdtemp(prefix="chidori-calllog-")
    for name, text in agents.items():
        with open(os.path.join(tmp, name), "w") as f:
            f.write(text)
    return tmp


def fast_state():
    """A state folder on tmpfs when there is one (each record is flushed with fdatasync, which
    costs milliseconds on a disk and nothing there), inside the run's own folder there (run.py
    removes it at the end, whatever a case left)."""
    base = getattr(cases, "SHM_TMP", None)
    if not base and os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK):
        base = "/dev/shm"
    return tempfile.mkdtemp(prefix="chidori-calllog-state-", dir=base)


def lines_of(path):
    with open(path) as f:
        text = f.read()
    return text, [json.loads(line) for line in text.splitlines()]


def check_loadable(path):
    """Every line of a call log is a whole record and no seq repeats."""
    text, recs = lines_of(path)
    assert text.endswith("\n"), "the log ends in a fragment"
    seqs = [r["seq"] for r in recs]
    assert len(seqs) == len(set(seqs)), f"a seq repeats in {seqs}"
    return recs


def replay_loads(v, agent, rid, state, paused):
    """Replay the run; the log must load, and the replay end as the run did (a paused run's replay
    pauses again at the input it paused on, exit 3)."""
    code, out, err = chidori(v, "replay", agent, rid, state=state)
    assert "records.jsonl" not in err, err
    if paused:
        assert code == 3 and "waiting for input" in err and "differs" not in err, err
    else:
        assert code == 0 and "differs" not in err, err
    return out


def case_calllog_caps_end_the_run_clearly_and_replay_stops_at_the_same_call(v):
    proj = project({"marks.js": MARKS})
    agent = os.path.join(proj, "marks.js")
    state = fast_state()
    for flags in ([], ["--no-isolate"]):
        for env, word in (({"CHIDORI_LOG_MAX_RECORDS": "25"}, "CHIDORI_LOG_MAX_RECORDS"),
                          ({"CHIDORI_LOG_MAX_BYTES": "4096"}, "CHIDORI_LOG_MAX_BYTES")):
            code, out, err = chidori(v, "run", agent, *flags, "-i", "n=60", "-i", "pad=50", env=env, state=state)
            assert code == 1 and "call log limit reached" in err and word in err, (flags, env, code, err)
            rid = run_id_of(err)
            records = os.path.join(state, "runs", rid, "records.jsonl")
            recs = check_loadable(records)
            if word == "CHIDORI_LOG_MAX_RECORDS":
                assert len(recs) == 25, f"{len(recs)} records under a cap of 25"
            else:
                size = os.path.getsize(records)
                assert 4096 <= size < 4096 + 200, f"{size} bytes under a cap of 4096 (one record may pass it)"
            # the replay runs under the caps the run recorded, whatever the environment says now
            code, out2, err2 = chidori(v, "replay", agent, rid, *flags, state=state)
            assert code == 1 and "differs" not in err2 and word in err2, (flags, env, err2)
            failure = [line for line in err.splitlines() if "run failed" in line]
            assert failure and failure[0] in err2, f"the replay failed otherwise:\n{err2}\nthe run:\n{err}"
    # within the caps: a run completes
    code, out, err = chidori(v, "run", agent, "--no-isolate", "-i", "n=20", env={"CHIDORI_LOG_MAX_RECORDS": "20"},
                             state=state)
    assert code == 0 and out.strip() == '"done"', err
    shutil.rmtree(proj)
    shutil.rmtree(state)


def case_calllog_nested_agents_count_in_the_root_runs_log(v):
    proj = project({"parent.js": PARENT, "child.js": CHILD})
    agent = os.path.join(proj, "parent.js")
    state = fast_state()
    code, out, err = chidori(v, "run", agent, "-i", "n=30", env={"CHIDORI_LOG_MAX_RECORDS": "20"}, state=state)
    assert code == 1 and "call log limit reached" in err and "(20)" in err, err
    rid = run_id_of(err)
    recs = check_loadable(os.path.join(state, "runs", rid, "records.jsonl"))
    assert len(recs) == 20 and sum(1 for r in recs if r.get("parent_seq")) == 15, recs
    code, out2, err2 = chidori(v, "replay", agent, rid, state=state)
    assert code == 1 and "differs" not in err2 and "call log limit reached" in err2, err2
    code, out, err = chidori(v, "run", agent, "-i", "n=10", env={"CHIDORI_LOG_MAX_RECORDS": "16"}, state=state)
    assert code == 0 and "child done" in out, err
    shutil.rmtree(proj)
    shutil.rmtree(state)


def case_calllog_bad_cap_settings_are_usage_errors(v):
    proj = project({"marks.js": MARKS})
    agent = os.path.join(proj, "marks.js")
    for name, value in (("CHIDORI_LOG_MAX_RECORDS", "0"), ("CHIDORI_LOG_MAX_RECORDS", "-5"),
                        ("CHIDORI_LOG_MAX_RECORDS", "ten"), ("CHIDORI_LOG_MAX_RECORDS", "99999999999"),
                        ("CHIDORI_LOG_MAX_BYTES", "12k"), ("CHIDORI_LOG_MAX_BYTES", "100"),
                        ("CHIDORI_LOG_MAX_BYTES", str(1 << 30))):
        code, out, err = chidori(v, "run", agent, "--no-isolate", env={name: value})
        assert code == 2 and name in err and "Run id" not in err, (name, value, code, err)
    shutil.rmtree(proj)


PEAK_RSS = """import resource, subprocess, sys
p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
sys.stderr.write(p.stderr.decode("utf-8", "replace")[-2000:])
print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def peak_rss_kib(v, agent, n, state):
    """The peak resident memory of one in-process `chidori run` (it alone is this wrapper's child)."""
    env = v.env({"CHIDORI_STATE_DIR": state, "CHIDORI_JS_MEM_CAP_MB": "32", "CHIDORI_LOG_MAX_RECORDS": "1000000",
                 "ASAN_OPTIONS": "detect_leaks=0:quarantine_size_mb=4:allocator_may_return_null=1"})
    p = subprocess.run([sys.executable, "-c", PEAK_RSS, v.chidori, "run", agent, "--no-isolate", "-i", f"n={n}",
                        "-i", "pad=2000"], env=env, capture_output=True, timeout=300 * v.slow)
    parts = p.stdout.decode().split()
    assert len(parts) == 2 and parts[0] == "0", f"the run failed: {p.stdout!r}\n{p.stderr.decode()[-2000:]}"
    return int(parts[1])


def case_calllog_parent_memory_stays_flat_through_a_mark_storm(v):
    """30,000 marks of 2 KB each (60 MB of records) under a 32 MiB engine ceiling: the process
    holds no more than it does for 10 marks, give or take 40 MiB. It used to keep every record
    (about 2.5x their size on the heap)."""
    proj = project({"marks.js": MARKS})
    agent = os.path.join(proj, "marks.js")
    state = fast_state()
    small = peak_rss_kib(v, agent, 10, state)
    big = peak_rss_kib(v, agent, 30000, state)
    assert big - small < 40 * 1024, f"peak RSS {small} KiB for 10 marks, {big} KiB for 30,000"
    shutil.rmtree(proj)
    shutil.rmtree(state)


def tear(path, fragment='{"seq": 99, "function": "mark", "args": {"la'):
    with open(path, "a") as f:
        f.write(fragment)


def case_calllog_torn_tail_is_cut_before_resume_appends(v):
    """A crash mid-append leaves a fragment after the last record. Resume used to append after it,
    gluing the next record to it: the log never loaded again. Now the fragment is cut off (and
    the cut flushed) first; no complete record is lost, and the log loads every time."""
    proj = project({"pauses.js": PAUSES})
    agent = os.path.join(proj, "pauses.js")
    state = fast_state()
    code, out, err = chidori(v, "run", agent, state=state)
    assert code == 3, err
    rid = run_id_of(err)
    records = os.path.join(state, "runs", rid, "records.jsonl")
    before, recs = lines_of(records)
    tear(records)
    code, out, err = chidori(v, "resume", agent, rid, "--response", "one", state=state)
    assert code == 3 and "second?" in err, err
    after = check_loadable(records)
    assert after[:len(recs)] == recs and len(after) == len(recs) + 3, after  # input + 2 marks
    replay_loads(v, agent, rid, state, paused=True)
    tear(records, '{"seq"')
    code, out, err = chidori(v, "resume", agent, rid, "--response", "two", state=state)
    assert code == 0 and json.loads(out) == {"first": "one", "second": "two"}, err
    check_loadable(records)
    assert replay_loads(v, agent, rid, state, paused=False) == out
    # a log that is only a fragment: its records are lost, so the pending call comes after calls
    # the log does not have; the resume is refused (an answer appended after nothing would make a
    # log no replay can follow) and the file is left as it was, for the operator to restore
    code, out, err = chidori(v, "run", agent, "--no-isolate", state=state)
    rid = run_id_of(err)
    records = os.path.join(state, "runs", rid, "records.jsonl")
    fragment = '{"seq":1,"function":"mark","args":{"label":"a","data":{"i":0}},"resu'
    with open(records, "w") as f:
        f.write(fragment)
    code, out, err = chidori(v, "resume", agent, rid, "--response", "x", "--no-isolate", state=state)
    assert code != 0 and "no complete record of call 1" in err, f"exit {code}\n{out}\n{err}"
    with open(records) as f:
        assert f.read() == fragment, "a refused resume changed the log"
    shutil.rmtree(proj)
    shutil.rmtree(state)


def paused_run(v, agents, entry, state, flags=()):
    proj = project(agents)
    agent = os.path.join(proj, entry)
    code, out, err = chidori(v, "run", agent, *flags, state=state)
    assert code == 3, err
    rid = run_id_of(err)
    return proj, agent, rid, os.path.join(state, "runs", rid)


def case_calllog_fifo_symlink_or_directory_in_place_of_a_run_file_is_refused(v):
    """A FIFO in place of records.jsonl used to hang resume (and replay) forever on open; a
    symbolic link was followed. Each is now refused at once with an error naming the file."""
    state = fast_state()
    proj, agent, rid, folder = paused_run(v, {"pauses.js": PAUSES}, "pauses.js", state)
    for name in ("records.jsonl", "run.json"):
        path = os.path.join(folder, name)
        keep = path + ".keep"
        os.rename(path, keep)
        elsewhere = os.path.join(state, "elsewhere-" + name)
        shutil.copy(keep, elsewhere)
        for kind, make, word in (("fifo", lambda p: os.mkfifo(p), "FIFO"),
                                 ("symlink", lambda p: os.symlink(elsewhere, p), "symbolic link"),
                                 ("directory", lambda p: os.mkdir(p), "directory")):
            make(path)
            for cmd in (["replay", agent, rid], ["resume", agent, rid, "--response", "x"]):
                code, out, err = chidori(v, *cmd, state=state, timeout=15)
                assert code == 1 and name in err and word in err, (name, kind, cmd[0], code, err)
            if kind == "directory":
                os.rmdir(path)
            else:
                os.unlink(path)
        os.rename(keep, path)
        with open(elsewhere) as f, open(path) as g:
            assert f.read() == g.read(), f"{name} changed"
    # restored, the run resumes
    code, out, err = chidori(v, "resume", agent, rid, "--response", "x", state=state)
    assert code == 3 and "second?" in err, err
    shutil.rmtree(proj)
    shutil.rmtree(state)


def case_calllog_tampered_pending_call_is_refused_and_the_log_is_untouched(v):
    """run.json's pending call must agree with the log: an open call that already has a record
    (resume then wrote a second `seq 1`), a pending seq the log already has, open calls out of order
    or newer than the pending call, a parent that is not the innermost open call. Each is refused
    before anything is written; the untampered run then resumes and replays."""
    state = fast_state()
    for agents, entry in (({"pauses.js": PAUSES}, "pauses.js"),
                          ({"parent.js": NESTED_PARENT, "ask.js": NESTED_ASK}, "parent.js")):
        proj, agent, rid, folder = paused_run(v, agents, entry, state)
        meta_path = os.path.join(folder, "run.json")
        records = os.path.join(folder, "records.jsonl")
        with open(meta_path) as f:
            meta = json.load(f)
        pending = meta["pending"]
        seq, opened = pending["seq"], pending.get("open_calls", [])
        with open(records) as f:
            log_before = f.read()
        tampered = [
            {"open_calls": [1]},                          # a completed call reopened: a second seq 1
            {"seq": 1},                                   # the pending seq is already recorded
            {"seq": seq + 5, "open_calls": opened + [seq + 6]},  # an open call newer than the pending one
            {"open_calls": opened + [seq - 1, seq - 2]},  # out of order (and recorded)
            {"parent_seq": seq - 1},                      # not the innermost open call
            {"open_calls": []} if opened else {"parent_seq": 0, "open_calls": [seq - 1]},
        ]
        for change in tampered:
            bad = dict(meta, pending=dict(pending, **change))
            with open(meta_path, "w") as f:
                json.dump(bad, f)
            code, out, err = chidori(v, "resume", agent, rid, "--response", "x", state=state)
            assert code == 1 and "pending call" in err, (entry, change, code, err)
            with open(records) as f:
                assert f.read() == log_before, (entry, change, "the log changed")
        with open(meta_path, "w") as f:
            json.dump(meta, f)
        code, out, err = chidori(v, "resume", agent, rid, "--response", "x", state=state)
        assert code in (0, 3), (entry, err)
        check_loadable(records)
        assert replay_loads(v, agent, rid, state, paused=code == 3) == (out if code == 0 else "")
        shutil.rmtree(proj)
    shutil.rmtree(state)


def case_calllog_fifo_in_place_of_the_memory_store_is_refused(v):
    """memory.json is read like a run file: a FIFO in its place used to hang `chidori.memory.get`
    on open; it is now refused at once with an error naming the file, isolated and in-process."""
    state = fast_state()
    proj = project({"mem.js": """export default async (input, chidori) => {
  return await chidori.memory.get("k");
};
"""})
    try:
        os.mkfifo(os.path.join(state, "memory.json"))
        for iso in ("--no-isolate", "--isolate"):
            code, out, err = chidori(v, "run", iso, os.path.join(proj, "mem.js"), state=state, timeout=15)
            assert code == 1 and "memory.json" in err and "FIFO" in err, (iso, code, err)
    finally:
        shutil.rmtree(proj)
        shutil.rmtree(state)


def case_calllog_replay_of_a_paused_run_pauses_where_the_run_did(v):
    """A paused run replays to its pause (exit 3, the same question), top-level and inside a nested
    agent, isolated and in-process; it used to fail as a call the log does not have. An agent that
    asks something else there still diverges (exit 1), and the run still resumes afterwards."""
    state = fast_state()
    for agents, entry, question in (({"pauses.js": PAUSES}, "pauses.js", "first?"),
                                    ({"parent.js": NESTED_PARENT, "ask.js": NESTED_ASK}, "parent.js", "child asks?")):
        proj, agent, rid, folder = paused_run(v, agents, entry, state)
        with open(os.path.join(folder, "records.jsonl")) as f:
            before = f.read()
        for iso in ("--no-isolate", "--isolate"):
            code, out, err = chidori(v, "replay", iso, agent, rid, state=state)
            assert code == 3 and f"waiting for input: {question}" in err and "differs" not in err, (entry, iso, code, err)
        with open(os.path.join(folder, "records.jsonl")) as f:
            assert f.read() == before, "a replay wrote to the log"
        changed = os.path.join(proj, "ask.js" if "ask.js" in agents else entry)
        with open(changed) as f:
            text = f.read()
        with open(changed, "w") as f:
            f.write(text.replace(question, "something else?"))
        code, out, err = chidori(v, "replay", agent, rid, state=state)
        assert code == 1 and "differs from the recording" in err, (entry, code, err)
        with open(changed, "w") as f:
            f.write(text)
        code, out, err = chidori(v, "resume", agent, rid, "--response", "x", state=state)
        assert code in (0, 3) and "differs" not in err, (entry, code, err)
        shutil.rmtree(proj)
    shutil.rmtree(state)
