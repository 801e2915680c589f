"""tests/cases_record_format.py — the call record as the original chidori writes it (issue 17,
docs/durable-runs.md "The record"): a live run's records have an RFC 3339 `timestamp` ending in
`Z`, whole `duration_ms`, top-level `token_usage` on provider prompts, no `error`/`parent_seq`
when there is none, a plain prompt's reply text as its result with the original's args, a tool's
{name, kwargs}; our extras sit in additional keys and replay gives the agent exactly what the
live run did. Logs in our previous shape (tests/record_format/old_shape) and in the original's
(original_shape: out of seq order, a later copy of a seq, 200.0 for 200, a log record without the
`fields` we pass: a key on one side only is ignored) replay with zero live effects; a changed prompt is still a divergence. `chidori runs show` reads the new shape. A run
folder as the original writes it (checkpoint.json, input.json, output.json: original_folder/)
replays with `chidori replay`. Real processes: the fake provider, tests/mcp/counter.py, serve.
"""
import json
import os
import re
import shutil
import tempfile

from cases import chidori
from cases_effects import fake_llm, run_id_of, PY
from run import ROOT

FIXTURES = os.path.join(ROOT, "tests", "record_format")
AGENT = os.path.join(FIXTURES, "agent.js")
RFC3339_Z = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z$")
QUESTION = {"question": "What is two plus two?"}


def records_of(state, rid):
    with open(os.path.join(state, "runs", rid, "records.jsonl")) as f:
        return [json.loads(line) for line in f]


def case_record_format_live_run_writes_the_original_shape(v):
    """A live run's prompt, tool and log records in the original's shape, our extras beside them;
    the replay (no provider, no server reached) ends with the same output."""
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "calls.log")
        open(log, "w").close()
        mcp = json.dumps({"mcpServers": {"counter": {"command": PY, "args": [os.path.join(ROOT, "tests/mcp/counter.py"), log]}}})
        script = [{"text": "Four.", "usage": {"input": 12, "output": 3}}]
        with fake_llm(script) as (base, requests):
            env = {"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": base + "/v1", "CHIDORI_MCP_CONFIG": mcp}
            code, out, err = chidori(v, "run", AGENT, "--input", json.dumps(QUESTION), env=env, state=tmp)
            assert code == 0, f"exit {code}:\n{err}"
            output = json.loads(out)
            assert output["reply"] == "Four." and output["tool"]["content"][0]["text"] == "2", output
            rid = run_id_of(err)
            code, out2, err2 = chidori(v, "replay", AGENT, rid, env=env, state=tmp)
            assert code == 0 and out2 == out, f"replay: exit {code}\n{out2}\n{err2}"
            assert requests()["counts"]["openai"] == 1, "replay reached the provider"
        with open(log) as f:
            assert len(f.read().splitlines()) == 1, "replay reached the MCP server"
        recs = records_of(tmp, rid)
        for r in recs:
            assert RFC3339_Z.match(r["timestamp"]), r
            assert isinstance(r["duration_ms"], int) and r["duration_ms"] >= 0, r
            assert "error" not in r and "parent_seq" not in r, r
            assert isinstance(r["duration_us"], int) and r["duration_us"] // 1000 == r["duration_ms"], r
            assert list(r)[:6] == ["seq", "function", "args", "result", "duration_ms", "token_usage" if r["function"] == "prompt" else "timestamp"], list(r)
        prompt, tool, logrec = sorted(recs, key=lambda r: r["seq"])
        assert prompt["function"] == "prompt" and prompt["result"] == "Four.", prompt
        a = prompt["args"]
        assert [k for k in a if k != "request"] == ["text", "model", "type", "max_tokens", "temperature", "request_digest"], a
        assert a["text"] == QUESTION["question"] and a["type"] is None and a["max_tokens"] == 200 and a["temperature"] == 0.5, a
        assert isinstance(a["model"], str) and a["model"], a
        assert re.fullmatch(r"[0-9a-f]{64}", a["request_digest"]), a
        assert a["request"]["system"] == "Be brief." and a["request"]["messages"][0]["content"] == QUESTION["question"], a
        assert prompt["token_usage"] == {"input_tokens": 12, "output_tokens": 3}, prompt
        assert prompt["response"]["provider"] == "openai" and "content" not in prompt["response"], prompt
        assert tool["function"] == "tool" and tool["args"] == {"name": "counter__count", "kwargs": {"n": 2}}, tool
        assert tool["result"] == "2" and tool["mcp"] == {"isError": False}, tool
        assert "token_usage" not in tool and "token_usage" not in logrec, (tool, logrec)
        # chidori runs show reads the tokens and the model from the new shape
        code, shown, err = chidori(v, "runs", "show", rid, "--json", state=tmp)
        assert code == 0, err
        assert "12" in shown and "openai" not in err, shown


def replay_fixture(v, name, tmp, edit=None):
    """Copies tests/record_format/<name> as a run of a runs folder and replays it there with no
    provider and no MCP server configured (a live call would fail)."""
    with open(os.path.join(FIXTURES, name, "run.json")) as f:
        rid = json.load(f)["run_id"]
    runs = os.path.join(tmp, name, "runs")
    shutil.copytree(os.path.join(FIXTURES, name), os.path.join(runs, rid))
    if edit:
        path = os.path.join(runs, rid, "records.jsonl")
        with open(path) as f:
            text = f.read()
        with open(path, "w") as f:
            f.write(edit(text))
    return chidori(v, "replay", AGENT, rid, "--runs-dir", runs, state=tmp), rid, runs


def case_record_format_previous_and_original_shapes_replay_with_zero_live_effects(v):
    """Both shapes load and replay here, answering the agent as recorded: ours (the reply object
    and the MCP result as they were), the original's (its reply text, its tool value, its first
    copy of seq 2, 200.0 equal to 200)."""
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("old_shape", "original_shape"):
            (code, out, err), rid, runs = replay_fixture(v, name, tmp)
            assert code == 0, f"{name}: exit {code}\n{out}\n{err}"
            with open(os.path.join(FIXTURES, name, "run.json")) as f:
                want = json.load(f)["output"]
            assert json.loads(out) == want, f"{name}: {out}"
            assert "replay matched" in err, err
            code, shown, err = chidori(v, "runs", "show", rid, "--runs-dir", runs, "--json", state=tmp)
            assert code == 0, f"{name}: runs show: {err}"
            rows = json.loads(shown)
            text = json.dumps(rows)
            assert "12" in text, f"{name}: the prompt's tokens are not shown: {text[:2000]}"


def case_record_format_changed_prompt_still_diverges(v):
    """The original's record is compared on its own keys: another text, or another temperature, is
    a divergence, not an answer."""
    with tempfile.TemporaryDirectory() as tmp:
        for what, edit in (("text", lambda t: t.replace('"text":"What is two plus two?"', '"text":"What is three?"')),
                           ("temperature", lambda t: t.replace('"temperature":0.5', '"temperature":0.7'))):
            (code, out, err), _, _ = replay_fixture(v, "original_shape", os.path.join(tmp, what), edit)
            assert code != 0 and "divergence at seq 1" in err, f"{what}: exit {code}\n{err}"
        (code, out, err), _, _ = replay_fixture(v, "old_shape", os.path.join(tmp, "old"),
                                                lambda t: t.replace('"maxTokens":200', '"maxTokens":300'))
        assert code != 0 and "divergence at seq 1" in err, f"old shape: exit {code}\n{err}"


def case_record_format_original_run_folder_replays(v):
    """A run folder the original wrote (its checkpoint.json log, input.json, output.json with sorted
    keys) replays with `chidori replay --runs-dir`, zero live effects, its output compared as a
    value; without output.json it is refused, saying why."""
    with tempfile.TemporaryDirectory() as tmp:
        runs = os.path.join(tmp, "runs")
        shutil.copytree(os.path.join(FIXTURES, "original_folder"), runs)
        rid = os.listdir(runs)[0]
        code, out, err = chidori(v, "replay", AGENT, rid, "--runs-dir", runs, state=tmp)
        assert code == 0 and json.loads(out) == {"reply": "Four.", "tool": "2"}, f"exit {code}\n{out}\n{err}"
        assert "replay matched 3 records" in err, err
        assert not os.path.exists(os.path.join(runs, rid, "run.json")), "the replay wrote into the original's folder"
        with open(os.path.join(runs, rid, "checkpoint.json")) as f:
            text = f.read()
        with open(os.path.join(runs, rid, "checkpoint.json"), "w") as f:
            f.write(text.replace('"What is two plus two?"', '"What is three?"'))
        code, out, err = chidori(v, "replay", AGENT, rid, "--runs-dir", runs, state=tmp)
        assert code == 1 and "divergence at seq 1" in err, f"exit {code}\n{err}"
        os.unlink(os.path.join(runs, rid, "output.json"))
        code, out, err = chidori(v, "replay", AGENT, rid, "--runs-dir", runs, state=tmp)
        assert code == 1 and "no output.json" in err and "only a completed run" in err, f"exit {code}\n{err}"
