"""tests/cases_branch_doc.py — the branch store's files edited by hand, as `chidori branches` and
`branch-resume` read them (src/cli/branch_doc.c; docs/cli.md#branches): a branch.json missing its
fields is listed with nulls (before, `branches` read through the missing values and crashed), and a
paused branch whose pending input has no args is refused with an error naming the file (before,
its answer's record had no args and the record loader read through it). Found by
tests/fuzz/fuzz_branch_store.c. Real processes.
"""
import json
import os
import tempfile

from cases import chidori
from cases_branch import ASKS, PAUSES, TWO_LOGS, project
from cases_effects import run_id_of


def _paused_run(v, state):
    d = project({"agent.js": PAUSES, "strategies/asks.js": ASKS, "strategies/two_logs.js": TWO_LOGS})
    code, out, err = chidori(v, "run", os.path.join(d, "agent.js"), state=state, timeout=60)
    assert code == 0, err[-3000:]
    rid = run_id_of(err)
    return rid, os.path.join(state, "runs", rid, "branches", "op-00000000000000000001")


def case_branch_store_sparse_branch_json_lists_with_nulls(v):
    with tempfile.TemporaryDirectory() as state:
        rid, store = _paused_run(v, state)
        with open(os.path.join(store, "branch-001", "branch.json"), "w") as f:
            f.write('{"label": "bare"}')
        code, listed, err = chidori(v, "branches", rid, state=state)
        assert code == 0, (code, err[-2000:])
        rows = json.loads(listed)
        assert [r["label"] for r in rows] == ["asks", "bare"], listed
        bare = rows[1]
        assert bare["branchId"] is None and bare["status"] is None and bare["source"] is None, bare
        assert sorted(bare) == sorted(rows[0]), (bare, rows[0])


def case_branch_store_pending_input_without_args_is_refused(v):
    with tempfile.TemporaryDirectory() as state:
        rid, store = _paused_run(v, state)
        bpath = os.path.join(store, "branch-000", "branch.json")
        with open(bpath) as f:
            b = json.load(f)
        assert b["status"] == "paused" and b["pending"]["function"] == "input", b
        del b["pending"]["args"]
        with open(bpath, "w") as f:
            json.dump(b, f)
        with open(os.path.join(store, "branch-000", "checkpoint.json")) as f:
            before = f.read()
        code, out, err = chidori(v, "branch-resume", rid, f"{rid}-op1-branch-0", "-v", "x", state=state)
        assert code == 1 and "branch-000/branch.json: its pending call is malformed" in err, (code, err[-2000:])
        with open(os.path.join(store, "branch-000", "checkpoint.json")) as f:
            assert f.read() == before, "the checkpoint changed"
