"""tests/cases_issue16_review.py — a hostile worker against the frames issue 16 added (review of the refactor).

- An Isolation frame (the confinement report) counts only as a new worker's first frame: one sent
  later, mid-run, is refused as out of order, and nothing of it is printed.
- Internal frames carry chidori's own ops only: an agent's op (workspace) or an unknown op in one is
  refused; a module load through one cannot read outside the project folder (`..`, absolute
  paths, a hostile importer, symlinks) nor its `.chidori` state folder; nothing of it is recorded.

Both use the test-only hostile-worker modes of src/isolate/worker.c (CHIDORI_ISOLATE_SELFTEST=frame_*).
"""
import glob
import json
import os
import tempfile

from cases import chidori
from cases_serve import Server, create
from run import ROOT

HELLO = os.path.join(ROOT, "examples", "hello.js")


def case_a_second_isolation_frame_fails_the_run_and_prints_nothing_forged(v):
    """CHIDORI_ISOLATE_SELFTEST=frame_isolation_again: after its real report the worker sends
    another one, mid-run, claiming every layer, then an outcome. The run fails as out of order and
    the forged summary appears nowhere (without the check the run completed with "forged")."""
    code, out, err = chidori(v, "run", "--isolate", HELLO, env={"CHIDORI_ISOLATE_SELFTEST": "frame_isolation_again"},
                             timeout=20)
    assert code == 1 and out == "", (code, out, err)
    assert "the worker sent a frame out of order: a confinement report (isolation) after its first frame" in err, err
    assert "FORGED-REPORT" not in err, err


def case_serve_a_cold_workers_second_isolation_frame_fails_its_session(v):
    """The same forged report from cold workers (no warm pool, no fork server: each session's worker
    is exec'd and reports first in the run's own frames): each session fails as out of order, the
    server carries on, and the forged summary reaches neither the sessions nor the server's log."""
    env = {"CHIDORI_ISOLATE_SELFTEST": "frame_isolation_again", "CHIDORI_SERVE_WARM_WORKERS": "0",
           "CHIDORI_SERVE_FORKSERVER": "0"}
    srv = Server(v, "--trusted", env=env, agent=HELLO)
    try:
        srv.start()
        for n in range(2):
            got = create(srv, {"input": {"name": str(n)}})
            assert got["status"] == "failed" and "a confinement report (isolation) after its first frame" in got["error"], got
            assert "FORGED-REPORT" not in json.dumps(got), got
        status, _, health = srv.request("GET", "/health")
        assert status == 200 and health == {"status": "ok"}, (status, health)
        srv.stop()
        assert "FORGED-REPORT" not in srv.stderr(), srv.stderr()
    finally:
        srv.cleanup()


def case_internal_frames_reach_nothing_but_module_loads_inside_the_project(v):
    """CHIDORI_ISOLATE_SELFTEST=frame_internal_probe: Internal frames naming an agent's op or an
    unknown op, and module loads aimed outside the project or at its state folder, are refused;
    the control load of the agent's own file succeeds; no secret is read; nothing is recorded."""
    with tempfile.TemporaryDirectory(prefix="chidori-review-") as top:
        proj = os.path.join(top, "proj")
        os.makedirs(os.path.join(proj, ".chidori"))
        os.makedirs(os.path.join(proj, "a"))
        with open(os.path.join(proj, "agent.js"), "w") as f:
            f.write("export async function agent() { return 1; }\n")
        for where in (os.path.join(top, "outside.js"), os.path.join(proj, ".chidori", "secret.js")):
            with open(where, "w") as f:
                f.write("export const s = 'SECRET_MARKER';\n")
        os.symlink(os.path.join(top, "outside.js"), os.path.join(proj, "link_out.js"))
        os.symlink(".chidori", os.path.join(proj, "state_link"))
        state = os.path.join(proj, ".chidori")
        code, out, err = chidori(v, "run", "--isolate", os.path.join(proj, "agent.js"), state=state,
                                 env={"CHIDORI_ISOLATE_SELFTEST": "frame_internal_probe"}, timeout=20)
        assert code == 0, (code, out, err)
        got = json.loads(out)
        assert got["control"].startswith("ok: export async function agent()"), got
        refused = {
            "op_workspace": "host operation `workspace` is not one of chidori's own",
            "op_unknown": "unknown host operation `no_such_op`",
            "dotdot": "it resolves outside the agent's folder",
            "absolute": "absolute paths are not allowed",
            "state_dir": "cannot find module `./.chidori/secret.js`",
            "state_dir_dotted": "cannot find module `./a/../.chidori/secret.js`",
            "symlink_out": "it leads outside the agent's folder",
            "symlink_state": "cannot find module `./state_link/secret.js`",
            "absolute_importer": "cannot find module `./passwd`",
            "dotdot_importer": "it resolves outside the agent's folder",
        }
        for probe, words in refused.items():
            assert got[probe].startswith("err: ") and words in got[probe], (probe, got[probe])
        assert "SECRET_MARKER" not in out + err, (out, err)
        assert "root:" not in out, out  # /etc/passwd
        assert not os.path.exists(os.path.join(proj, "pwned.txt"))
        for records in glob.glob(os.path.join(state, "runs", "*", "records.jsonl")):
            with open(records) as f:
                text = f.read()
            assert "workspace" not in text and "__module_load" not in text, text
