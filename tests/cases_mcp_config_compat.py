"""tests/cases_mcp_config_compat.py — CHIDORI_MCP_CONFIG in the original chidori's spelling
(docs/effects.md, "MCP tools"): a `{"servers": {...}}` file as well as `{"mcpServers": {...}}`,
given as a path or inline, both at once; `"enabled": false` leaves a server out; `"transport":
"http"` (not supported here) and a server named twice are refused with a message that says what
to do. Tools keep their `<server>__<tool>` names. Real MCP servers (tests/mcp/counter.py).
"""
import json
import os
import tempfile

from cases import chidori
from cases_effects import run_id_of, PY
from run import ROOT

AGENT = os.path.join(ROOT, "tests", "mcp_config_compat", "agent.js")
COUNTER = os.path.join(ROOT, "tests", "mcp", "counter.py")


def counter(log):
    return {"command": PY, "args": [COUNTER, log]}


def run_calls(v, config, calls, state):
    inp = json.dumps({"calls": calls})
    code, out, err = chidori(v, "run", AGENT, "--input", inp, env={"CHIDORI_MCP_CONFIG": config}, state=state)
    return code, out, err


def case_mcp_config_servers_key_inline_and_as_a_file(v):
    """The original's {"servers": …} works inline and from a file; the tool is <server>__<tool>, its
    record is {name, kwargs} and the server sees one call per tool call (none on replay)."""
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "calls.log")
        open(log, "w").close()
        config = {"servers": {"counter": counter(log)}}
        path = os.path.join(tmp, "mcp.json")
        with open(path, "w") as f:
            json.dump(config, f)
        for given in (json.dumps(config), path):
            state = tempfile.mkdtemp(dir=tmp)
            code, out, err = run_calls(v, given, [{"name": "counter__count", "args": {"n": 2}}], state)
            assert code == 0, f"exit {code}:\n{err}"
            got = json.loads(out)
            assert "ok" in got[0] and got[0]["ok"]["content"][0]["text"] in ("2", "4"), got
            rid = run_id_of(err)
            with open(os.path.join(state, "runs", rid, "records.jsonl")) as f:
                records = [json.loads(line) for line in f]
            tool = [r for r in records if r["function"] == "tool"]
            assert len(tool) == 1 and tool[0]["args"] == {"name": "counter__count", "kwargs": {"n": 2}}, tool
            code, out2, err2 = chidori(v, "replay", AGENT, rid, env={"CHIDORI_MCP_CONFIG": given}, state=state)
            assert code == 0 and out2 == out, f"replay: exit {code}\n{out2}\n{err2}"
        with open(log) as f:
            assert len(f.read().splitlines()) == 2, "the server saw other than one call per run (replay reached it?)"


def case_mcp_config_both_keys_enabled_false_and_refusals(v):
    """mcpServers and servers together give the tools of both; "enabled": false leaves a server out
    (its tool is unknown); transport "http" and a name given twice are refused, naming the fix."""
    with tempfile.TemporaryDirectory() as tmp:
        a, b, c = (os.path.join(tmp, n + ".log") for n in "abc")
        for p in (a, b, c):
            open(p, "w").close()
        config = {"mcpServers": {"one": counter(a)},
                  "servers": {"two": counter(b), "off": dict(counter(c), enabled=False, transport="stdio")}}
        calls = [{"name": "one__count", "args": {"n": 1}}, {"name": "two__count", "args": {"n": 3}},
                 {"name": "off__count", "args": {"n": 5}}]
        code, out, err = run_calls(v, json.dumps(config), calls, tempfile.mkdtemp(dir=tmp))
        assert code == 0, f"exit {code}:\n{err}"
        got = json.loads(out)
        assert got[0]["ok"]["content"][0]["text"] == "1" and got[1]["ok"]["content"][0]["text"] == "3", got
        assert "error" in got[2] and "off" in got[2]["error"], got
        with open(c) as f:
            assert f.read() == "", "a server with enabled: false was started and called"

        refused = [
            ({"servers": {"web": {"transport": "http", "url": "http://127.0.0.1:9/mcp"}}},
             ("servers.web.transport", "not supported", "stdio")),
            ({"servers": {"web": {"command": PY, "url": "http://127.0.0.1:9/mcp"}}}, ("servers.web.url", "stdio")),
            ({"mcpServers": {"one": counter(a)}, "servers": {"one": counter(b)}}, ("named twice", "name it once")),
            ({"servers": {"x": {"command": PY, "enabled": "no"}}}, ("servers.x.enabled", "true or false")),
            ({"tools": {}}, ("unknown key 'tools'", "servers")),
        ]
        for cfg, words in refused:
            code, out, err = run_calls(v, json.dumps(cfg), [{"name": "x__y", "args": {}}], tempfile.mkdtemp(dir=tmp))
            assert code == 0, f"exit {code}:\n{err}"
            msg = json.loads(out)[0].get("error", "")
            assert "CHIDORI_MCP_CONFIG" in msg and all(w in msg for w in words), f"{cfg}: {msg}"
        with open(b) as f:
            assert len(f.read().splitlines()) == 1, "server two ran other than once"
