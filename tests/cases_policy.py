"""tests/cases_policy.py — the policy gate end to end: selection, banner, denials in the journal,
ask_before on the CLI. The rules themselves are table-tested in tests/unit/test_policy.c."""
import json
import os
import shutil
import tempfile

from cases import chidori
from cases_effects import project, run_id_of


def case_untrusted_flag_beats_a_permissive_policy_file(v):
    proj = project("policy_probe.js")
    permissive = os.path.join(proj, "allow-all.json")
    with open(permissive, "w") as f:
        json.dump({"rules": [], "default": "always_allow"}, f)
    agent = os.path.join(proj, "policy_probe.js")
    code, out, err = chidori(v, "run", agent, env={"CHIDORI_POLICY_FILE": permissive})
    assert code == 0 and json.loads(out)["write"] == "ok", (out, err)
    assert f"Policy: custom (CHIDORI_POLICY_FILE={permissive})" in err or "CHIDORI_POLICY_FILE" in err, err
    code, out, err = chidori(v, "run", agent, "--untrusted", env={"CHIDORI_POLICY_FILE": permissive})
    got = json.loads(out)
    assert code == 0 and got["write"].startswith("policy: `workspace:write` denied"), got
    assert got["read"] == "ok" and got["list"] == "ok", got
    assert got["tool"].startswith("policy: `tool:srv__echo` denied"), got
    assert "Policy: untrusted (--untrusted)" in err, err
    assert "chidori: policy: `workspace:write` denied" in err, "the denial was not reported on stderr"
    shutil.rmtree(proj)


def case_a_denial_is_recorded_and_replays_without_the_policy(v):
    proj = project("policy_probe.js")
    state = os.path.join(proj, "state")
    agent = os.path.join(proj, "policy_probe.js")
    code, out, err = chidori(v, "run", agent, "--untrusted", state=state)
    assert code == 0, err
    rid = run_id_of(err)
    with open(os.path.join(state, "runs", rid, "records.jsonl")) as f:
        records = [json.loads(l) for l in f]
    denied = [r for r in records if r["function"] == "workspace" and r["args"].get("action") == "write"]
    assert len(denied) == 1 and denied[0]["error"].startswith("policy: `workspace:write` denied"), records
    assert not os.path.exists(os.path.join(proj, "probe.txt")), "a denied write happened"
    code, out2, err2 = chidori(v, "replay", agent, rid, state=state)  # permissive now: the log decides
    assert code == 0 and out2 == out, (code, err2)
    shutil.rmtree(proj)


def case_ask_before_on_the_cli_is_an_error_unless_auto_approved(v):
    proj = project("policy_probe.js")
    agent = os.path.join(proj, "policy_probe.js")
    code, out, err = chidori(v, "run", agent, env={"CHIDORI_POLICY_PROFILE": "supervised"})
    got = json.loads(out)
    assert got["write"].startswith("policy: `workspace:write` needs approval (ask_before)"), got
    assert got["read"] == "ok", got
    code, out, err = chidori(v, "run", agent, env={"CHIDORI_POLICY_PROFILE": "supervised",
                                                    "CHIDORI_POLICY_AUTO_APPROVE": "1"})
    assert json.loads(out)["write"] == "ok", out
    shutil.rmtree(proj)


def case_a_malformed_policy_is_an_error_on_run(v):
    proj = project("policy_probe.js")
    agent = os.path.join(proj, "policy_probe.js")
    bad = os.path.join(proj, "bad.json")
    for text, words in [('{"rules": [{"target": "http", "decision": "maybe"}]}', "1:"),
                        ('{"rules": [{"target": "htp", "decision": "never_allow"}]}', "1:"),
                        ('', "CHIDORI_POLICY_FILE"), ('{"rules": [', "CHIDORI_POLICY_FILE")]:
        with open(bad, "w") as f:
            f.write(text)
        code, out, err = chidori(v, "run", agent, env={"CHIDORI_POLICY_FILE": bad})
        assert code == 2 and words in err and out == "", (text, code, err)
    code, out, err = chidori(v, "run", agent, env={"CHIDORI_POLICY_PROFILE": "nonesuch"})
    assert code == 2 and "nonesuch" in err, err
    code, out, err = chidori(v, "run", agent, env={"CHIDORI_POLICY": "{not json"})
    assert code == 2 and "CHIDORI_POLICY" in err, err
    shutil.rmtree(proj)


def case_template_files_are_workspace_reads_for_the_policy(v):
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "secret.txt"), "w") as f:
            f.write("secret={{ x }}")
        agent = os.path.join(d, "t.js")
        with open(agent, "w") as f:
            f.write('export default async (i, c) => c.template("secret.txt", {x: 1}).then(v => v, e => "refused: " + e.message);\n')
        deny = os.path.join(d, "deny-read.json")
        with open(deny, "w") as f:
            json.dump({"rules": [{"target": "workspace:read", "decision": "never_allow"}], "default": "always_allow"}, f)
        code, out, err = chidori(v, "run", agent)
        assert json.loads(out) == "secret=1", out
        code, out, err = chidori(v, "run", agent, env={"CHIDORI_POLICY_FILE": deny})
        assert json.loads(out) == "refused: policy: `workspace:read` denied", out
