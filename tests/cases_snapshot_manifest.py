"""tests/cases_snapshot_manifest.py — a run's snapshot manifest and the source check a resume
makes with it (docs/http-api.md, *The snapshot manifest*; docs/durable-runs.md, *Resuming an
edited agent*).

The bug these guard: an agent edited while its run was paused, then resumed, used to fail the run
for good (`divergence at seq N`) with the answer already appended. Now the resume is refused
before anything is touched: the run stays paused, its log as it was, and resumes once the source
is back — or with allow_source_change / --allow-source-change, when the edit lies past the
recorded calls. Each case runs the agent isolated and in-process.
"""
import json
import os
import shutil
import tempfile

from cases import chidori
from cases_serve import Server, create

# Pauses on an input; what follows the answer is where the tests edit it.
AGENT = """import { run } from "chidori:agent";
run(async (input, chidori) => {
  await chidori.log("asking");
  const answer = await chidori.input("Ship it?");
  await chidori.mark("answered", { answer });
  return { answer, tail: "as recorded" };
});
"""
EDIT_PAST = AGENT.replace('tail: "as recorded"', 'tail: "edited"')   # past the recorded calls
EDIT_BEFORE = AGENT.replace('chidori.log("asking")', 'chidori.log("asking again")')  # a recorded call

# Waits on an approval (supervised asks before a workspace write).
WRITER = """import { run } from "chidori:agent";
run(async (input, chidori) => {
  await chidori.log("writing");
  await chidori.workspace.write("out.txt", "hello");
  return { wrote: "as recorded" };
});
"""

MANIFEST_KEYS = {"run_id", "abi", "snapshot_kind", "policy", "entry", "modules", "module_graph", "pending",
                 "host_promises", "branch", "capabilities", "vfs", "call_log_len", "snapshot_file", "created_at"}


def fnv1a64(data):
    h = 0xcbf29ce484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return f"fnv1a64:{h:016x}"


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def serve_agent(v, text, *args, env=None, folder=None):
    folder = folder or tempfile.mkdtemp(prefix="chidori-manifest-")
    agent = os.path.join(folder, "agent.js")
    if not os.path.exists(agent):
        write(agent, text)
    return Server(v, *args, env=env, folder=folder, agent=agent).start(), agent


def log_of(s, sid):
    status, _, cp = s.request("GET", f"/sessions/{sid}/checkpoint")
    assert status == 200, (status, cp)
    return cp["call_log"]


def case_serve_snapshot_manifest_route_and_checkpoint(v):
    env = {"CHIDORI_PRICING": '{"m": {"input_per_mtok": 1.5, "output_per_mtok": 3}}', "CHIDORI_MODEL": "test-model"}
    s, agent = serve_agent(v, AGENT, env=env)
    try:
        view = create(s, {"input": {}})
        assert view["status"] == "paused", view
        sid = view["id"]
        status, _, got = s.request("GET", f"/sessions/{sid}/snapshot")
        assert status == 200 and set(got) == {"id", "run_id", "snapshot_manifest"}, (status, got)
        m = got["snapshot_manifest"]
        assert got["id"] == sid and got["run_id"] == view["run_id"] == m["run_id"], got
        assert MANIFEST_KEYS <= set(m), sorted(MANIFEST_KEYS - set(m))
        assert m["abi"]["engine_fork"] == "chidori-quickjs" and m["snapshot_file"] == "runtime.snapshot", m
        with open(agent, "rb") as f:
            assert m["entry"] == {"path": "agent.js", "hash": fnv1a64(f.read())}, m["entry"]
        assert m["pricing"] == env["CHIDORI_PRICING"] and m["default_model"] == "test-model", m
        assert m["call_log_len"] == 1 and m["pending"]["kind"] == "input", m
        assert m["pending"]["args"]["prompt"] == "Ship it?" and m["pending"]["seq"] == 2, m
        assert isinstance(m["policy"], dict) and m["policy"]["date"] == "virtual", m
        status, _, cp = s.request("GET", f"/sessions/{sid}/checkpoint")
        assert status == 200 and cp["snapshot_manifest"] == m, (status, cp)
        status, _, got = s.request("GET", "/sessions/nosuch/snapshot")
        assert status == 404, (status, got)
        status, hdrs, got = s.request("POST", f"/sessions/{sid}/snapshot", {})
        assert status == 405 and hdrs.get("allow") == "GET", (status, hdrs, got)
        # resumed: the manifest follows the log, and says nothing is pending
        status, _, done = s.request("POST", f"/sessions/{sid}/resume", {"response": "yes"})
        assert status == 200 and done["status"] == "completed", done
        m = s.request("GET", f"/sessions/{sid}/snapshot")[2]["snapshot_manifest"]
        assert m["call_log_len"] == 3 and m["pending"] is None, m
        s.stop()
    finally:
        s.cleanup()
    # without CHIDORI_PRICING / CHIDORI_MODEL the two keys are left out
    s, _ = serve_agent(v, AGENT)
    try:
        view = create(s, {"input": {}})
        m = s.request("GET", f"/sessions/{view['id']}/snapshot")[2]["snapshot_manifest"]
        assert "pricing" not in m and "default_model" not in m, m
        s.stop()
    finally:
        s.cleanup()


def refused_then_resumed(v, mode):
    s, agent = serve_agent(v, AGENT, mode, "--trusted")
    try:
        view = create(s, {"input": {}})
        sid = view["id"]
        before = log_of(s, sid)
        assert [r["function"] for r in before] == ["log"], before
        for edit in (EDIT_BEFORE, EDIT_PAST):
            write(agent, edit)
            status, _, got = s.request("POST", f"/sessions/{sid}/resume", {"response": "yes"})
            assert status == 409 and "allow_source_change" in got["error"], (status, got)
            assert "source changed" in got["error"], got
            now = s.request("GET", f"/sessions/{sid}")[2]
            assert now["status"] == "paused" and now["pending_prompt"] == "Ship it?", now
            assert now["error"] is None and now["call_count"] == 1, now
            assert log_of(s, sid) == before, "a refused resume changed the log"
        # with the flag, an edit of a recorded call: the replay diverges before anything runs live, and
        # the resume is undone — the session waits as it did, its log and manifest as they were
        manifest = s.request("GET", f"/sessions/{sid}/snapshot")[2]["snapshot_manifest"]
        write(agent, EDIT_BEFORE)
        status, _, got = s.request("POST", f"/sessions/{sid}/resume", {"response": "yes", "allow_source_change": True})
        assert status == 409 and "resume was refused" in got["error"] and "divergence at seq 1" in got["error"], \
            (status, got, s.stderr())
        now = s.request("GET", f"/sessions/{sid}")[2]
        assert now["status"] == "paused" and now["pending_prompt"] == "Ship it?" and now["call_count"] == 1, now
        assert "resume was refused" in now["error"], now
        assert log_of(s, sid) == before, "a refused resume changed the log"
        assert s.request("GET", f"/sessions/{sid}/snapshot")[2]["snapshot_manifest"] == manifest
        # the source back: the same resume goes through
        write(agent, AGENT)
        status, _, got = s.request("POST", f"/sessions/{sid}/resume", {"response": "yes"})
        assert status == 200 and got["status"] == "completed", (status, got)
        assert got["output"] == {"answer": "yes", "tail": "as recorded"}, got

        # an edit past the recorded calls, with the flag: it runs, against the edited agent
        sid = create(s, {"input": {}})["id"]
        write(agent, EDIT_PAST)
        status, _, got = s.request("POST", f"/sessions/{sid}/resume", {"response": "no", "allow_source_change": "yes"})
        assert status == 400 and "allow_source_change" in got["error"], (status, got)
        status, _, got = s.request("POST", f"/sessions/{sid}/resume", {"response": "no", "allow_source_change": True})
        assert status == 200 and got["status"] == "completed", (status, got, s.stderr())
        assert got["output"] == {"answer": "no", "tail": "edited"}, got
        assert "resuming against an edited agent" in s.stderr(), s.stderr()
        # the accepted edit is the session's source now: its manifest says so
        with open(agent, "rb") as f:
            want = fnv1a64(f.read())
        m = s.request("GET", f"/sessions/{sid}/snapshot")[2]["snapshot_manifest"]
        assert m["entry"]["hash"] == want, m

        # an approval is checked the same way
        write(agent, WRITER)
        sid = create(s, {"input": {}, "policy_profile": "supervised"})["id"]
        write(agent, WRITER.replace('"as recorded"', '"edited"'))
        status, _, got = s.request("POST", f"/sessions/{sid}/approve", {"decision": "allow"})
        assert status == 409 and "allow_source_change" in got["error"], (status, got)
        now = s.request("GET", f"/sessions/{sid}")[2]
        assert now["status"] == "awaitingapproval" and now["pending_approval"]["target"] == "workspace:write", now
        assert not os.path.exists(os.path.join(s.folder, "out.txt")), "a refused approval wrote"
        # with the flag, an edit before the gated call: undone, still waiting on the same approval
        awaiting = s.request("GET", f"/sessions/{sid}")[2]["pending_approval"]
        write(agent, WRITER.replace('"writing"', '"writing now"'))
        status, _, got = s.request("POST", f"/sessions/{sid}/approve", {"allow_source_change": True})
        assert status == 409 and "approval was refused" in got["error"], (status, got)
        now = s.request("GET", f"/sessions/{sid}")[2]
        assert now["status"] == "awaitingapproval" and now["pending_approval"] == awaiting, now
        assert not os.path.exists(os.path.join(s.folder, "out.txt")), "a refused approval wrote"
        write(agent, WRITER.replace('"as recorded"', '"edited"'))
        status, _, got = s.request("POST", f"/sessions/{sid}/approve",
                                   {"decision": "allow", "allow_source_change": True})
        assert status == 200 and got["status"] == "completed" and got["output"] == {"wrote": "edited"}, got
        assert got["error"] is None, got
        s.stop()
    finally:
        s.cleanup()


def case_serve_edited_agent_resume_is_refused_and_stays_resumable_isolated(v):
    refused_then_resumed(v, "--isolate")


def case_serve_edited_agent_resume_is_refused_and_stays_resumable_in_process(v):
    refused_then_resumed(v, "--no-isolate")


# An agent whose error text claims a divergence (the text is the agent's to write): after its
# approved write, and after its answered input. Neither is a refused resume: the agent ran on.
FORGER = """import { run } from "chidori:agent";
run(async (input, chidori) => {
  if (input.ask) {
    const answer = await chidori.input("Ship it?");
    console.log("got the answer " + answer); // ran with it: not a call, so only the text can tell
  } else {
    await chidori.workspace.write("out.txt", "written");
  }
  throw new Error("divergence at seq 1: the log has `x`, but the agent called `y`");
});
"""


def forged_divergence_is_not_undone(v, mode):
    s, agent = serve_agent(v, FORGER, mode, "--trusted")
    try:
        out = os.path.join(s.folder, "out.txt")
        sid = create(s, {"input": {}, "policy_profile": "supervised"})["id"]
        assert s.request("GET", f"/sessions/{sid}")[2]["status"] == "awaitingapproval"
        status, _, got = s.request("POST", f"/sessions/{sid}/approve", {"decision": "allow", "allow_source_change": True})
        assert status == 200 and got["status"] == "failed" and "divergence at seq 1" in got["error"], (status, got)
        assert os.path.exists(out), "the approved write did not run"
        assert [r["function"] for r in log_of(s, sid)] == ["workspace"], "the approved call's record was dropped"
        os.remove(out)
        status, _, got = s.request("POST", f"/sessions/{sid}/approve", {"decision": "allow"})
        assert status == 409 and not os.path.exists(out), ("approved and performed twice", status, got)

        sid = create(s, {"input": {"ask": True}})["id"]
        status, _, got = s.request("POST", f"/sessions/{sid}/resume", {"response": "yes", "allow_source_change": True})
        assert status == 200 and got["status"] == "failed", (status, got)
        assert [r["function"] for r in log_of(s, sid)] == ["input"], log_of(s, sid)
        s.stop()
    finally:
        s.cleanup()


def case_serve_forged_divergence_text_is_not_a_refused_resume_isolated(v):
    forged_divergence_is_not_undone(v, "--isolate")


def case_serve_forged_divergence_text_is_not_a_refused_resume_in_process(v):
    forged_divergence_is_not_undone(v, "--no-isolate")


def case_cli_forged_divergence_text_is_not_a_refused_resume(v):
    """The CLI reads the same structured outcome: an agent that throws a divergence-looking error
    after its answered input leaves a failed run with the answer recorded."""
    for mode in ("--isolate", "--no-isolate"):
        with tempfile.TemporaryDirectory(prefix="chidori-manifest-") as proj:
            agent = os.path.join(proj, "agent.js")
            state = os.path.join(proj, "state")
            write(agent, FORGER)
            code, out, err = chidori(v, "run", mode, "--trusted", agent, "-i", '{"ask": true}', state=state)
            assert code == 3, (code, out, err)
            rid = os.listdir(os.path.join(state, "runs"))[0]
            code, out, err = chidori(v, "resume", mode, "--trusted", agent, rid, "--response", "yes",
                                     "--allow-source-change", state=state)
            assert code == 1 and "was refused" not in err and "divergence at seq 1" in err, (mode, code, out, err)
            folder = os.path.join(state, "runs", rid)
            with open(os.path.join(folder, "run.json")) as f:
                assert json.load(f)["status"] == "failed", mode
            with open(os.path.join(folder, "records.jsonl")) as f:
                assert [json.loads(line)["function"] for line in f] == ["input"], mode


def case_serve_changed_surface_refuses_even_with_the_flag(v):
    """A resume under other CHIDORI_TS_* settings than the recording's is refused, flag or not."""
    folder = tempfile.mkdtemp(prefix="chidori-manifest-")
    try:
        s, _ = serve_agent(v, AGENT, folder=folder)
        try:
            sid = create(s, {"input": {}})["id"]
            s.stop()
        finally:
            s.proc.poll() is None and s.proc.kill()
        s, _ = serve_agent(v, AGENT, env={"CHIDORI_TS_DATE": "frozen"}, folder=folder)
        try:
            for body in ({"response": "yes"}, {"response": "yes", "allow_source_change": True}):
                status, _, got = s.request("POST", f"/sessions/{sid}/resume", body)
                assert status == 409 and "policy mismatch" in got["error"], (status, got)
            assert s.request("GET", f"/sessions/{sid}")[2]["status"] == "paused"
            s.stop()
        finally:
            s.proc.poll() is None and s.proc.kill()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# ---------- the CLI ----------

def cli_refused_then_resumed(v, mode):
    with tempfile.TemporaryDirectory(prefix="chidori-manifest-") as proj:
        agent = os.path.join(proj, "agent.js")
        state = os.path.join(proj, "state")
        write(agent, AGENT)
        code, out, err = chidori(v, "run", mode, agent, state=state)
        assert code == 3, (code, out, err)
        runs = os.path.join(state, "runs")
        rid = os.listdir(runs)[0]
        folder = os.path.join(runs, rid)
        with open(os.path.join(folder, "runtime.snapshot.json")) as f:
            m = json.load(f)
        with open(agent, "rb") as f:
            assert m["entry"] == {"path": "agent.js", "hash": fnv1a64(f.read())}, m
        assert m["run_id"] == rid and m["snapshot_file"] == "runtime.snapshot", m

        def snapshot():
            with open(os.path.join(folder, "records.jsonl"), "rb") as f:
                records = f.read()
            with open(os.path.join(folder, "run.json")) as f:
                meta = json.load(f)
            return records, meta

        before = snapshot()
        for edit in (EDIT_BEFORE, EDIT_PAST):
            write(agent, edit)
            code, out, err = chidori(v, "resume", mode, agent, rid, "--response", "yes", state=state)
            assert code == 1 and "--allow-source-change" in err and "source changed" in err, (code, out, err)
            assert snapshot() == before, "a refused resume changed the run"
        # with the flag, an edit of a recorded call: the replay diverges before anything runs live,
        # and the resume is undone (the answer it appended cut off, run.json and the manifest back)
        write(agent, EDIT_BEFORE)
        code, out, err = chidori(v, "resume", mode, agent, rid, "--response", "yes", "--allow-source-change",
                                 state=state)
        assert code == 1 and "resume of run" in err and "was refused: divergence at seq 1" in err, (code, out, err)
        assert snapshot() == before, "a refused resume changed the run"
        with open(os.path.join(folder, "runtime.snapshot.json")) as f:
            assert json.load(f) == m, "a refused resume changed the manifest"
        write(agent, AGENT)
        code, out, err = chidori(v, "resume", mode, agent, rid, "--response", "yes", state=state)
        assert code == 0 and json.loads(out) == {"answer": "yes", "tail": "as recorded"}, (code, out, err)

        # a second run, edited past its recorded calls, resumed with the flag
        code, out, err = chidori(v, "run", mode, agent, state=state)
        assert code == 3, (code, out, err)
        rid2 = [r for r in os.listdir(runs) if r != rid][0]
        write(agent, EDIT_PAST)
        code, out, err = chidori(v, "resume", mode, agent, rid2, "--response", "no", "--allow-source-change",
                                 state=state)
        assert code == 0 and json.loads(out) == {"answer": "no", "tail": "edited"}, (code, out, err)
        assert "against an edited agent" in err, err
        code, out, err = chidori(v, "run", mode, agent, "--allow-source-change", state=state)
        assert code == 2 and "--allow-source-change goes with resume" in err, (code, out, err)


def case_cli_edited_agent_resume_is_refused_and_stays_resumable_isolated(v):
    cli_refused_then_resumed(v, "--isolate")


def case_cli_edited_agent_resume_is_refused_and_stays_resumable_in_process(v):
    cli_refused_then_resumed(v, "--no-isolate")
