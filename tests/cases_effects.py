"""tests/cases_effects.py — effects, the durable call log, replay and resume, end to end.

Each case runs real chidori processes against real peers: the fake provider (providers/fake_llm.py,
which speaks both wire formats and counts requests), MCP servers (mcp/), files on disk.
"""
import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.request

from cases import chidori, Skip
from run import ROOT

FIXTURES = os.path.join(ROOT, "tests", "effects")
PY = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable


@contextlib.contextmanager
def fake_llm(script):
    """Starts providers/fake_llm.py with a script; yields (base_url, counts())."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(script, f)
        path = f.name
    p = subprocess.Popen([PY, os.path.join(ROOT, "tests", "providers", "fake_llm.py"), path],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        port = int(p.stdout.readline())
        base = f"http://127.0.0.1:{port}"

        def requests():
            with urllib.request.urlopen(base + "/__requests", timeout=10) as r:
                return json.load(r)
        yield base, requests
    finally:
        p.stdin.close()
        p.terminate()
        p.wait(timeout=10)
        os.unlink(path)


def project(*names):
    """A temporary project folder holding copies of tests/effects/<name> files."""
    tmp = tempfile.mkdtemp(prefix="chidori-proj-")
    for n in names:
        shutil.copy(os.path.join(FIXTURES, n), os.path.join(tmp, n))
    return tmp


def run_id_of(err):
    for line in err.splitlines():
        if line.startswith("Run id: "):
            return line[8:].strip()
    raise AssertionError("no Run id line:\n" + err)


def case_prompt_tool_input_pause_resume_counts_each_call_once(v):
    """prompt → MCP tool → input: pauses, resumes with an answer, completes; the provider and the
    MCP server each see exactly one request per call across both runs, and replay sees none."""
    proj = project("prompt_tool_input.js")
    state = os.path.join(proj, "state")
    mcp_log = os.path.join(proj, "mcp-calls.log")
    open(mcp_log, "w").close()
    mcp = json.dumps({"mcpServers": {"counter": {"command": PY, "args": [os.path.join(ROOT, "tests/mcp/counter.py"), mcp_log]}}})
    script = [{"toolCalls": [{"id": "call_1", "name": "counter__count", "input": {"n": 5}}], "usage": {"input": 11, "output": 7}},
              {"text": "the counter says 5", "usage": {"input": 20, "output": 5}}]
    agent = os.path.join(proj, "prompt_tool_input.js")
    with fake_llm(script) as (base, requests):
        env = {"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": base + "/v1", "CHIDORI_MCP_CONFIG": mcp}
        code, out, err = chidori(v, "run", agent, env=env, state=state)
        assert code == 3, f"wanted paused (3), got {code}: {err}"
        assert "paused, waiting for input: Ship it?" in err and "chidori resume" in err, err
        rid = run_id_of(err)
        code, out, err = chidori(v, "resume", agent, rid, "--response", "yes", env=env, state=state)
        assert code == 0, err
        result = json.loads(out)
        assert result == {"reply": "the counter says 5", "approved": True}, result
        counts = requests()["counts"]
        assert counts["openai"] == 2, f"provider saw {counts}, wanted 2 requests (one per turn)"
        with open(mcp_log) as f:
            assert len(f.read().splitlines()) == 1, "the MCP tool ran more than once"
        code, out2, err = chidori(v, "replay", agent, rid, env={"CHIDORI_MCP_CONFIG": mcp}, state=state)
        assert code == 0 and out2 == out, f"replay: exit {code}\n{out2}\n{err}"
        assert requests()["counts"]["openai"] == 2, "replay reached the provider"
        with open(mcp_log) as f:
            assert len(f.read().splitlines()) == 1, "replay reached the MCP server"
    with open(os.path.join(state, "runs", rid, "records.jsonl")) as f:
        records = [json.loads(line) for line in f]
    prompts = [r for r in records if r["function"] == "prompt"]
    assert len(prompts) == 2 and prompts[0]["token_usage"] == {"input_tokens": 11, "output_tokens": 7}, prompts
    assert [r["function"] for r in sorted(records, key=lambda r: r["seq"])] == \
        ["tool_schemas", "prompt", "tool", "prompt", "input", "log"], records
    shutil.rmtree(proj)


def case_examples_record_and_replay_identically(v):
    """Every agent in examples/ runs, records, and replays with identical output."""
    examples = os.path.join(ROOT, "examples")
    for name in sorted(os.listdir(examples)):
        if not name.endswith((".js", ".ts")):
            continue
        with tempfile.TemporaryDirectory() as state:
            env = {"CHIDORI_TEST_LLM_RESPONSE": "a canned reply", "CHIDORI_WORKSPACE_ROOT": state}
            code, out, err = chidori(v, "run", os.path.join(examples, name), "--answer", "yes", env=env, state=state)
            assert code == 0, f"{name}: exit {code}\n{err}"
            rid = run_id_of(err)
            code, out2, err2 = chidori(v, "replay", os.path.join(examples, name), rid, state=state)
            assert code == 0, f"{name}: replay exit {code}\n{err2}"
            assert out2 == out, f"{name}: replay printed\n{out2}\nthe run printed\n{out}"


def case_changed_arguments_are_a_divergence_naming_the_call(v):
    proj = project("divergence.js")
    state = os.path.join(proj, "state")
    agent = os.path.join(proj, "divergence.js")
    code, out, err = chidori(v, "run", agent, state=state)
    assert code == 0, err
    rid = run_id_of(err)
    with open(agent) as f:
        text = f.read()
    with open(agent, "w") as f:
        f.write(text.replace('"second step"', '"edited step"'))
    code, out, err = chidori(v, "replay", agent, rid, state=state)
    assert code == 1 and out == "", (code, out)
    assert 'divergence at seq 2: the log has `log` {"message":"second step"}, but the agent called `log` {"message":"edited step"}' in err, err
    shutil.rmtree(proj)


def case_replay_performs_no_effects(v):
    """Replay answers from the log: a file the run wrote and then lost is not written again, and
    memory is not touched."""
    proj = project("workspace_memory.js")
    state = os.path.join(proj, "state")
    agent = os.path.join(proj, "workspace_memory.js")
    code, out, err = chidori(v, "run", agent, state=state)
    assert code == 0, err
    rid = run_id_of(err)
    assert os.path.exists(os.path.join(proj, "notes", "today.txt"))
    os.remove(os.path.join(proj, "notes", "today.txt"))
    os.remove(os.path.join(state, "memory.json"))
    code, out2, err = chidori(v, "replay", agent, rid, state=state)
    assert code == 0 and out2 == out, (code, err)
    assert not os.path.exists(os.path.join(proj, "notes", "today.txt")), "replay wrote the file again"
    assert not os.path.exists(os.path.join(state, "memory.json")), "replay wrote memory"
    shutil.rmtree(proj)


def case_failures_are_clear_and_the_log_stays_replayable(v):
    """A provider that answers 500 or garbage, a broken MCP config, a dying MCP server, a template
    with an unclosed tag, a memory value that is not JSON: each error names its cause, the records
    before it are intact, and the failed run replays to the same failure."""
    proj = project("failures.js")
    state = os.path.join(proj, "state")
    agent = os.path.join(proj, "failures.js")
    dies = json.dumps({"mcpServers": {"bad": {"command": PY, "args": [os.path.join(ROOT, "tests/mcp/dies.py")]}}})
    script = [{"status": 500, "body": "{\"error\": {\"message\": \"upstream exploded\"}}"},
              {"status": 200, "body": "this is not json"}]
    with fake_llm(script) as (base, requests):
        env = {"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": base + "/v1", "CHIDORI_MCP_CONFIG": dies}
        code, out, err = chidori(v, "run", agent, env=env, state=state)
    assert code == 0, err
    got = json.loads(out)
    assert "500" in got["http500"] and "upstream exploded" in got["http500"], got
    assert "JSON" in got["garbage"] or "json" in got["garbage"], got
    assert "bad" in got["mcpDies"], got
    assert "unclosed" in got["template"] or "endif" in got["template"], got
    assert "not JSON-serializable" in got["memory"] and "BigInt" in got["memory"], got
    rid = run_id_of(err)
    code, out2, err2 = chidori(v, "replay", agent, rid, state=state)
    assert code == 0 and out2 == out, (code, err2)
    code, out, err = chidori(v, "run", agent, env={"CHIDORI_MCP_CONFIG": "{\"mcpServers\": {\"x\": 1}}"}, state=state)
    assert "CHIDORI_MCP_CONFIG" in json.loads(out)["mcpDies"] and "line 1" in json.loads(out)["mcpDies"], out
    shutil.rmtree(proj)


def case_failed_run_replays_to_the_same_failure(v):
    proj = project("fails_late.js")
    state = os.path.join(proj, "state")
    agent = os.path.join(proj, "fails_late.js")
    code, out, err = chidori(v, "run", agent, state=state)
    assert code == 1 and "Error: late failure" in err, err
    rid = run_id_of(err)
    with open(os.path.join(state, "runs", rid, "records.jsonl")) as f:
        assert len(f.read().splitlines()) == 2, "the records before the failure are missing"
    code, out, err2 = chidori(v, "replay", agent, rid, state=state)
    assert code == 1 and "Error: late failure" in err2 and "differs" not in err2, err2


def case_damaged_logs_are_refused_and_a_torn_last_line_is_tolerated(v):
    proj = project("divergence.js")
    state = os.path.join(proj, "state")
    agent = os.path.join(proj, "divergence.js")
    code, out, err = chidori(v, "run", agent, state=state)
    rid = run_id_of(err)
    records = os.path.join(state, "runs", rid, "records.jsonl")
    with open(records) as f:
        good = f.read()
    with open(records, "w") as f:
        f.write(good + '{"seq": 99, "function": "log", "ar')  # a crash mid-append
    code, out2, err = chidori(v, "replay", agent, rid, state=state)
    assert code == 0 and out2 == out, err
    for bad in ['{"seq": "x"}\n', 'garbage\n', '{"seq":1,"function":"log","args":{},"result":null}\n' * 2]:
        with open(records, "w") as f:
            f.write(bad)
        code, out2, err = chidori(v, "replay", agent, rid, state=state)
        assert code == 1 and "records.jsonl" in err and out2 == "", (bad, code, err)
    code, out, err = chidori(v, "replay", agent, "00000000-0000-4000-8000-000000000000", state=state)
    assert code == 1 and "run.json" in err, err
    code, out, err = chidori(v, "resume", agent, rid, "--response", "x", state=state)
    assert code == 1 and "is completed: only a paused run" in err, err
    code, out, err = chidori(v, "replay", agent, "../../etc", state=state)
    assert code == 2 and "not a run id" in err, err
    shutil.rmtree(proj)


def case_memory_persists_across_runs_with_namespaces(v):
    proj = project("memory_counter.js")
    state = os.path.join(proj, "state")
    agent = os.path.join(proj, "memory_counter.js")
    outs = []
    for _ in range(3):
        code, out, err = chidori(v, "run", agent, state=state)
        assert code == 0, err
        outs.append(json.loads(out))
    assert [o["count"] for o in outs] == [1, 2, 3], outs
    assert outs[-1]["other"] is None and outs[-1]["keys"] == ["count"], outs[-1]
    shutil.rmtree(proj)


def case_workspace_stays_inside_its_root(v):
    proj = project("workspace_escape.js")
    outside = tempfile.mkdtemp(prefix="chidori-outside-")
    with open(os.path.join(outside, "secret.txt"), "w") as f:
        f.write("top secret")
    os.symlink(os.path.join(outside, "secret.txt"), os.path.join(proj, "link-out.txt"))
    os.symlink(outside, os.path.join(proj, "dir-out"))
    os.symlink("inside.txt", os.path.join(proj, "link-in.txt"))
    with open(os.path.join(proj, "inside.txt"), "w") as f:
        f.write("fine")
    code, out, err = chidori(v, "run", os.path.join(proj, "workspace_escape.js"), state=os.path.join(proj, "st"))
    assert code == 0, err
    got = json.loads(out)
    for k, verdict in got.items():
        assert verdict in ("refused", "ok"), (k, verdict)
    assert got["linkIn"] == "ok" and got["writeRead"] == "ok", got
    assert all(got[k] == "refused" for k in ["dotdot", "absolute", "linkOut", "dirOutRead", "dirOutWrite",
                                             "stateDir", "stateDirSlashes", "stateDirDots", "stateDirRead",
                                             "nul", "deleteOut"]), got
    assert not os.path.exists(os.path.join(proj, ".chidori", "forged.txt")), "the state folder was written"
    assert os.listdir(outside) == ["secret.txt"], "something was written outside"
    with open(os.path.join(outside, "secret.txt")) as f:
        assert f.read() == "top secret"
    shutil.rmtree(proj)
    shutil.rmtree(outside)


def case_prompt_runs_define_tool_handles_and_parses_json(v):
    """Anthropic wire format: the model calls a defineTool handle, which runs in the agent (after a
    mark), its result goes back in the next request, and format: "json" parses the final reply."""
    proj = project("define_tool.js")
    state = os.path.join(proj, "state")
    agent = os.path.join(proj, "define_tool.js")
    script = [{"toolCalls": [{"id": "toolu_1", "name": "add", "input": {"a": 2, "b": 40}}]},
              {"text": "```json\n{\"answer\": 42}\n```"}]
    with fake_llm(script) as (base, requests):
        env = {"ANTHROPIC_API_KEY": "sk-ant-test", "ANTHROPIC_BASE_URL": base}
        code, out, err = chidori(v, "run", agent, env=env, state=state)
        assert code == 0, err
        assert json.loads(out) == {"answer": 42}, out
        seen = requests()
        assert seen["counts"]["anthropic"] == 2, seen["counts"]
        second = seen["requests"][1]["body"]
        tool_results = [b for m in second["messages"] if isinstance(m.get("content"), list)
                        for b in m["content"] if b.get("type") == "tool_result"]
        assert tool_results and tool_results[0]["tool_use_id"] == "toolu_1" and "42" in json.dumps(tool_results[0]), second
        assert second["tools"][0]["name"] == "add", second["tools"]
    assert "[log] adding" in err, err
    rid = run_id_of(err)
    with open(os.path.join(state, "runs", rid, "records.jsonl")) as f:
        functions = [json.loads(l)["function"] for l in f]
    assert functions == ["prompt", "mark", "log", "prompt"], functions
    code, out2, err = chidori(v, "replay", agent, rid, state=state)
    assert code == 0 and out2 == out, err
    shutil.rmtree(proj)
