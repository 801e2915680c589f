"""tests/cases_replay_ahead.py — replay ahead (src/isolate/ahead.h): an isolated replay whose worker
answers recorded calls from the answers the parent offered, without waiting, while the parent
checks each call after.

It must change nothing but the time: a resume and a replay print the same bytes and write the same
records as the in-process run and as an isolated run whose calls wait (CHIDORI_ISOLATE_AHEAD=0);
the worker does answer ahead (CHIDORI_ISOLATE_SELFTEST=ahead_stats makes it say how many calls);
and a worker that lies about what it answered ahead (CHIDORI_ISOLATE_SELFTEST=frame_ahead_*) fails
its run with a precise error, nothing performed or recorded for the lie.
"""
import datetime
import json
import os
import shutil
import tempfile
import time

from cases import chidori
from cases_effects import run_id_of
from cases_isolation import PINNED, records_without_timing
from run import ROOT

FIXTURES = os.path.join(ROOT, "tests", "replay_ahead")
ANSWERED = "worker: {} calls answered ahead"


def project():
    d = tempfile.mkdtemp(prefix="chidori-ahead-")
    for name in os.listdir(FIXTURES):
        shutil.copy(os.path.join(FIXTURES, name), d)
    return d


def paused_run(v, d, agent, *args):
    """Record a run of agent in-process up to its question; its state folder and run id."""
    state = os.path.join(d, "state")
    env = dict(PINNED, CHIDORI_WORKSPACE_ROOT=d)
    code, out, err = chidori(v, "run", "--no-isolate", os.path.join(d, agent), *args, env=env, state=state)
    assert code == 3, f"exit {code}\n{err[-2000:]}"
    return state, run_id_of(err)


def answered_ahead(err):
    """Calls the worker answered from an offer."""
    lines = [l for l in err.splitlines() if l.startswith("worker: ") and l.endswith("calls answered ahead")]
    assert len(lines) == 1, err[-2000:]
    return int(lines[0].split()[1])


def went_on(err):
    """Trace calls (mark) the worker went on past without an offer or a wait."""
    lines = [l for l in err.splitlines() if l.startswith("worker: went on past ") and l.endswith(" trace calls")]
    assert len(lines) == 1, err[-2000:]
    return int(lines[0].split()[4])


def not_waited(err):
    return answered_ahead(err) + went_on(err)


def case_replay_ahead_resume_and_replay_match_waiting_and_in_process(v):
    """mixed.js pauses after plain effects, recorded failures, console output, cached steps, concurrent
    calls, a nested agent and refused actor calls. Its resume, then its replay, in-process, isolated
    with answers ahead and isolated waiting, print the same and leave the same records."""
    d = project()
    state, rid = paused_run(v, d, "mixed.js")
    results = {}
    counts = {}
    for mode, extra in (("in-process", {}), ("ahead", {"CHIDORI_ISOLATE_SELFTEST": "ahead_stats"}),
                        ("waiting", {"CHIDORI_ISOLATE_SELFTEST": "ahead_stats", "CHIDORI_ISOLATE_AHEAD": "0"})):
        st = os.path.join(d, "state-" + mode)
        shutil.copytree(state, st)
        env = dict(PINNED, CHIDORI_WORKSPACE_ROOT=d, **extra)
        flag = "--no-isolate" if mode == "in-process" else "--isolate"
        agent = os.path.join(d, "mixed.js")
        code, out, err = chidori(v, "resume", flag, agent, rid, "--response", "yes", env=env, state=st)
        failure = [l for l in err.splitlines() if l.startswith("chidori: ")]
        resumed = (code, out, failure, records_without_timing(st, rid))
        if mode != "in-process":
            counts[mode] = [not_waited(err)]
        code, out2, err = chidori(v, "replay", flag, agent, rid, env=env, state=st)
        failure = [l for l in err.splitlines() if l.startswith("chidori: ")]
        replayed = (code, out2, failure)
        if mode != "in-process":
            counts[mode].append(not_waited(err))
        results[mode] = (resumed, replayed)
    a = results["in-process"]
    assert a[0][0] == 0 and a[1][0] == 0 and json.loads(a[0][1])["answer"] == "yes", a
    assert a[1][1] == a[0][1], a
    for mode in ("ahead", "waiting"):
        assert results[mode] == a, f"{mode}:\n{results[mode]!r}\nin-process:\n{a!r}"
    # Not waited for on resume: the 30 marks (trace calls, offered or not), the recorded failures, the
    # memory calls and the log (not the steps' records, the nested agent's, the refused spawn or the
    # console output, and not the first call after each of those, which waits for the next offer);
    # on the replay also the answer and most of what follows it.
    assert counts["waiting"] == [0, 0], counts
    assert counts["ahead"][0] >= 35 and counts["ahead"][1] > counts["ahead"][0], counts
    shutil.rmtree(d)


def case_replay_ahead_answers_a_long_log_in_growing_offers(v):
    """300 template renders (not a trace op: only an offer answers them ahead) and the answer to the
    question: all but two are answered ahead, in offers of 64, 128 and 256 (the call after an offer
    is used up waits, and its reply brings the next), and the records are those of a waiting
    resume."""
    d = project()
    state, rid = paused_run(v, d, "templates.js", "-i", "n=300")
    got = {}
    for ahead in ("1", "0"):
        st = os.path.join(d, "state-" + ahead)
        shutil.copytree(state, st)
        env = dict(PINNED, CHIDORI_ISOLATE_SELFTEST="ahead_stats", CHIDORI_ISOLATE_AHEAD=ahead)
        code, out, err = chidori(v, "resume", "--isolate", os.path.join(d, "templates.js"), rid, "--response", "go",
                                 env=env, state=st)
        assert code == 0 and json.loads(out) == {"answer": "go"}, err[-2000:]
        got[ahead] = (answered_ahead(err), went_on(err), records_without_timing(st, rid))
    assert got["1"][:2] == (299, 0) and got["0"][:2] == (0, 0), (got["1"][:2], got["0"][:2])
    assert got["1"][2] == got["0"][2] and len(got["1"][2]) == 301
    shutil.rmtree(d)


def case_isolated_marks_go_on_without_waiting_live_and_on_resume(v):
    """mark is a trace op: an isolated run's worker goes on past each mark (its answer is null
    whenever it is taken) and the parent records it after, stamped with when the worker made it.
    Live and on a resume, every mark goes on (none with CHIDORI_ISOLATE_AHEAD=0), and the records
    are those of an in-process run and of a waiting one, timestamps in order within the run."""
    d = project()
    agent = os.path.join(d, "marks.js")
    live = {}
    for mode, flag, extra in (("in-process", "--no-isolate", {}),
                              ("ahead", "--isolate", {"CHIDORI_ISOLATE_SELFTEST": "ahead_stats"}),
                              ("waiting", "--isolate", {"CHIDORI_ISOLATE_SELFTEST": "ahead_stats",
                                                        "CHIDORI_ISOLATE_AHEAD": "0"})):
        st = os.path.join(d, "live-" + mode)
        env = dict(PINNED, **extra)
        before = time.time()
        code, out, err = chidori(v, "run", flag, agent, "-i", "n=500", env=env, state=st)
        after = time.time()
        assert code == 3, f"{mode}: exit {code}\n{err[-2000:]}"
        rid = run_id_of(err)
        stamps = []
        with open(os.path.join(st, "runs", rid, "records.jsonl")) as f:
            for line in f:
                stamps.append(json.loads(line)["timestamp"])
        assert len(stamps) == 500 and stamps == sorted(stamps), (mode, len(stamps))
        first = datetime.datetime.fromisoformat(stamps[0].replace("Z", "+00:00")).timestamp()
        last = datetime.datetime.fromisoformat(stamps[-1].replace("Z", "+00:00")).timestamp()
        assert before - 1 <= first <= last <= after + 1, (mode, before, stamps[0], stamps[-1], after)
        live[mode] = (records_without_timing(st, rid),
                      None if mode == "in-process" else (answered_ahead(err), went_on(err)))
        if mode == "ahead":
            resumed_state, resumed_rid = st, rid
    assert live["ahead"][1] == (0, 500) and live["waiting"][1] == (0, 0), live["ahead"][1]
    assert live["ahead"][0] == live["in-process"][0] == live["waiting"][0]
    # a resume of the 500-mark run replays them (offered, or went on and checked against the log)
    for ahead in ("1", "0"):
        st = os.path.join(d, "resumed-" + ahead)
        shutil.copytree(resumed_state, st)
        env = dict(PINNED, CHIDORI_ISOLATE_SELFTEST="ahead_stats", CHIDORI_ISOLATE_AHEAD=ahead)
        code, out, err = chidori(v, "resume", "--isolate", agent, resumed_rid, "--response", "go", env=env, state=st)
        assert code == 0 and json.loads(out) == {"answer": "go"}, err[-2000:]
        assert len(records_without_timing(st, resumed_rid)) == 501
        if ahead == "1":
            assert not_waited(err) == 500, err[-2000:]
        else:
            assert not_waited(err) == 0, err[-2000:]
    shutil.rmtree(d)


def case_a_worker_lying_about_answers_ahead_fails_its_run(v):
    """The parent offers the answers of the log (frame_ahead_probe sees them; none with
    CHIDORI_ISOLATE_AHEAD=0), and refuses a call answered ahead that was not offered, one of another
    op than offered, and one whose args differ from the record's: the run fails with why, and
    nothing of the lie is recorded."""
    d = project()
    state, rid = paused_run(v, d, "marks.js", "-i", "n=5")
    agent = os.path.join(d, "marks.js")

    def resume(mode, **extra):
        st = tempfile.mkdtemp(prefix="chidori-ahead-st-")
        shutil.rmtree(st)
        shutil.copytree(state, st)
        env = dict(PINNED, CHIDORI_ISOLATE_SELFTEST=mode, **extra)
        code, out, err = chidori(v, "resume", "--isolate", agent, rid, "--response", "yes", env=env, state=st,
                                 timeout=20)
        with open(os.path.join(st, "runs", rid, "records.jsonl")) as f:
            text = f.read()
        shutil.rmtree(st)
        return code, out, err, text

    code, out, err, _ = resume("frame_ahead_probe")
    assert code == 0 and json.loads(out) == ["mark"] * 5 + ["input"], (code, out, err[-2000:])
    code, out, err, _ = resume("frame_ahead_probe", CHIDORI_ISOLATE_AHEAD="0")
    assert code == 0 and json.loads(out) == [], (code, out, err[-2000:])
    expected = {
        "frame_ahead_unoffered": "the worker sent a frame out of order: a call answered ahead that it was not offered",
        # a trace op's call needs no offer: taken, so checked against the log like any call
        "frame_ahead_trace": "divergence at seq 1: the log has `mark` {\"label\":\"tick\"}, but the agent called "
                             "`mark` {\"label\":\"forged\"}",
        "frame_ahead_wrong_op": "the worker sent a frame out of order: a call of `log` answered ahead where it was "
                                "offered one of `mark`",
        "frame_ahead_forged": "divergence at seq 1: the log has `mark` {\"label\":\"tick\"}, but the agent called "
                              "`mark` {\"label\":\"forged\"}",
    }
    for mode, words in expected.items():
        code, out, err, records = resume(mode)
        assert code == 1 and words in err and out == "", f"{mode}: exit {code}\n{err[-2000:]}"
        assert "forged" not in records and '"function":"log"' not in records, f"{mode}: {records}"
    # with answers ahead off, the parent names no trace ops: such a call is one never offered
    code, out, err, records = resume("frame_ahead_trace", CHIDORI_ISOLATE_AHEAD="0")
    assert code == 1 and expected["frame_ahead_unoffered"] in err and out == "", f"exit {code}\n{err[-2000:]}"
    assert "forged" not in records
    shutil.rmtree(d)


def case_replay_ahead_offers_nothing_beside_a_large_answer(v):
    """A recorded answer of 1.1 M values is too large to offer, so it is answered by waiting; the next
    one (1.04 M values) could be offered, but not beside it: together they pass the 2 M values a
    frame may hold, and the worker would lose the host. The resume completes, as with answers waiting."""
    d = project()
    state, rid = paused_run(v, d, "big.js")
    env = dict(PINNED, CHIDORI_WORKSPACE_ROOT=d, CHIDORI_ISOLATE_SELFTEST="ahead_stats")
    code, out, err = chidori(v, "resume", "--isolate", os.path.join(d, "big.js"), rid, "--response", "yes", env=env,
                             state=state, timeout=120)
    assert code == 0 and json.loads(out) == {"a": 1100000, "b": 1040000, "answer": "yes"}, (code, out, err[-2000:])
    assert answered_ahead(err) >= 2, err[-2000:]
    shutil.rmtree(d)
