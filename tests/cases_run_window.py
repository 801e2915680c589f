"""tests/cases_run_window.py — a run killed in the window between writing its run.json (status
`running`) and opening its call log has a run folder but no records.jsonl. The crash test reaches
that window by chance (tests/cases_crash.py); this file makes it on purpose: replay must say the
run was cut short (not that the log failed to load), and resume must continue it from its empty
log to the end.
"""
import json
import os
import tempfile

from cases import chidori
from run import ROOT

AGENT = os.path.join(ROOT, "tests", "crash", "agent.js")
INPUT = {"n": 2, "tag": "w"}


def case_a_run_killed_before_its_log_was_opened_replays_as_cut_short_and_resumes(v):
    with tempfile.TemporaryDirectory() as state:
        code, out, err = chidori(v, "run", "--no-isolate", AGENT, "-i", json.dumps(INPUT), state=state)
        assert code == 0, err
        reference = json.loads(out)
        runs = os.path.join(state, "runs")
        (rid,) = os.listdir(runs)
        # the state the kill leaves: run.json says running, the log was never created
        os.unlink(os.path.join(runs, rid, "records.jsonl"))
        meta_path = os.path.join(runs, rid, "run.json")
        with open(meta_path) as f:
            meta = json.load(f)
        meta["status"] = "running"
        for k in ("output", "error", "ended_at_ms", "pending"):
            meta.pop(k, None)
        with open(meta_path, "w") as f:
            json.dump(meta, f)
        code, out, err = chidori(v, "replay", AGENT, rid, state=state)
        assert code == 1 and "records.jsonl" not in err and "differs from the recording" in err \
            and "cut off while running" in err, (code, err)
        code, out, err = chidori(v, "resume", AGENT, rid, state=state)
        assert code == 0 and json.loads(out) == reference, (code, out, err)
        code, out, err = chidori(v, "replay", AGENT, rid, state=state)
        assert code == 0 and json.loads(out) == reference, (code, out, err)
