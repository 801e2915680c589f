"""tests/cases_context.py — chidori.context, chidori.conversation, the generation manifest and the
unsupported-member error (issue 18; docs/effects.md "Contexts", "Conversations", "The generation
manifest", "Members this runtime lacks").

The agents are ours (tests/context/). Each run is made isolated and in-process and replayed both
ways, byte for byte, with no provider. The static test provider answers the plain paths; the tool
loops use providers/fake_llm.py (Anthropic wire format, so the cache_control marks are visible) and
the MCP counter server. The digest vectors below were computed from the original's definition of
request_digest (sha256 of the canonical JSON text, keys sorted, floats as 0.7/1.0), not copied
from any output: the canonical texts are written out so the test checks them too.
"""
import hashlib
import json
import os
import shutil
import tempfile

from cases import chidori
from cases_effects import fake_llm, run_id_of, PY
from run import ROOT

FIXTURES = os.path.join(ROOT, "tests", "context")
STATIC = {"CHIDORI_TEST_LLM_RESPONSE": "canned"}
MODES = [(), ("--no-isolate",)]

# The original's canonical request texts of the contexts digest.js builds (see its comments).
CANONICAL = {
    "A": '{"cache":{"system":"5m","tools":null},"max_tokens":4096,"messages":[{"cache_control":"1h","content":'
         '[{"text":"<document label=\\"d\\">\\nD \u00e9\u2028\\n</document>","type":"text"}],"role":"user"},'
         '{"cache_control":"5m","content":[{"text":"q","type":"text"}],"role":"user"}],"model":"claude-sonnet-4-6",'
         '"system":"S1\\n\\nS2","temperature":0.7,"tools":[],"v":1}',
    "B": '{"cache":{"system":null,"tools":"1h"},"max_tokens":100,"messages":[{"content":[{"text":"hi","type":"text"}],'
         '"role":"user"},{"content":[{"text":"yo","type":"text"}],"role":"assistant"},{"cache_control":"1h","content":'
         '[{"content":"42","is_error":true,"tool_use_id":"t1","type":"tool_result"}],"role":"user"}],"model":"m-x",'
         '"system":null,"temperature":1.0,"tools":[{"description":"Adds.","input_schema":{"properties":{"a":{"type":'
         '"number"},"b":{"type":"number"}},"required":["a"],"type":"object"},"name":"add"}],"v":1}',
    "D": '{"cache":{"system":null,"tools":null},"max_tokens":4096,"messages":[{"content":[{"text":"x","type":"text"}],'
         '"role":"user"},{"content":[{"text":"canned","type":"text"}],"role":"assistant"}],"model":"claude-sonnet-4-6",'
         '"system":null,"temperature":0.7,"tools":[],"v":1}',
    "E": '{"cache":{"system":null,"tools":null},"max_tokens":4096,"messages":[],"model":"claude-sonnet-4-6",'
         '"system":"only","temperature":0.7,"tools":[],"v":1}',
}
VECTORS = {
    "A": "5a3cc95cb3fb4171d7a08456dbb53356da927ee9fc2dc3fb087792884b4e24b0",
    "B": "e88cba0d7ecbc38111589a9104a9e59b5cdd812764aa26a2eaca2be2f56b4149",
    "D": "37d5884cc788542a361f2e3d27fa6347c453f21b5cfbda1827226a3f17e2d8a3",
    "E": "ccf3c267a0861bc905c25881ae3f6f3da52cc94b350ecad77f17dbb989b4c066",
}


def project(*names):
    tmp = tempfile.mkdtemp(prefix="chidori-ctx-")
    for n in names:
        shutil.copy(os.path.join(FIXTURES, n), os.path.join(tmp, n))
    return tmp


def records_of(state, rid):
    with open(os.path.join(state, "runs", rid, "records.jsonl")) as f:
        return sorted((json.loads(line) for line in f), key=lambda r: r["seq"])


def run_and_replay(v, agent, env, state, *extra, replay_env=None, same_runs=True):
    """Runs the agent isolated and in-process, each replayed both ways with no provider; the four
    replays print what the runs printed. Returns (output, run ids)."""
    outputs, rids = [], []
    for mode in MODES:
        code, out, err = chidori(v, "run", agent, *mode, *extra, env=env, state=state)
        assert code == 0, f"run {mode}: exit {code}\n{err}"
        rid = run_id_of(err)
        for rmode in MODES:
            code, out2, err2 = chidori(v, "replay", agent, rid, *rmode, env=replay_env or {}, state=state)
            assert code == 0 and out2 == out, f"replay {rmode} of run {mode}: exit {code}\n{out2}\n{err2}"
        outputs.append(out)
        rids.append(rid)
    if same_runs:  # (a run that reads the wall clock, like a workspace write's updatedAt, differs)
        assert outputs[0] == outputs[1], f"isolated and in-process runs differ:\n{outputs[0]}\n{outputs[1]}"
    return json.loads(outputs[0]), rids


def case_context_digest_equals_the_original_definition(v):
    """digest() of four fixed contexts (system join, doc, an author's 1h breakpoint, the automatic
    marks, an inline defineTool schema, a toolResult, a message appended by prompt(), cache:false,
    an integral temperature printed 1.0) equals sha256 of the original's canonical request."""
    for k, text in CANONICAL.items():
        assert hashlib.sha256(text.encode()).hexdigest() == VECTORS[k], f"the canonical text of {k} and its vector disagree"
    proj = project("digest.js")
    got, _ = run_and_replay(v, os.path.join(proj, "digest.js"), STATIC, os.path.join(proj, "st"))
    for k, want in VECTORS.items():
        assert got[k] == want, f"digest {k}: {got[k]} != {want}\n(canonical: {CANONICAL[k]})"
    assert got["plain"] is True and got["sliced"] == VECTORS["A"][:12] and got["shared"] is True, got
    assert got["estimate"] == 3, got  # "S1" + "S2" + "D é\u2028" + "q" = 9 characters
    shutil.rmtree(proj)


def case_context_paths_record_and_replay_with_the_static_provider(v):
    """prompt, respond, compact and conversation say/respond: one `prompt` record each, in the
    original's context shape (no text, the segment count, turn null; the reply text, or the
    response object for respond); a no-op compact makes no call; replays are byte for byte."""
    proj = project("flows.js")
    state = os.path.join(proj, "st")
    got, rids = run_and_replay(v, os.path.join(proj, "flows.js"), STATIC, state)
    assert got["first"] == "canned" and got["stop"] == "end_turn", got
    assert got["blocks"] == [{"type": "text", "text": "canned"}], got
    assert got["sameAfterNoop"] is True and got["compactedShorter"] is True, got
    assert got["said"] == "canned" and got["responded"] == "canned" and got["turns"] == 2, got
    assert [h["role"] for h in got["history"]] == ["user", "assistant", "user", "assistant"], got
    assert got["empty"] == "chidori.context prompt requires at least one user turn (add .user(...))", got
    assert got["unknown"] == "ok", got
    recs = [r for r in records_of(state, rids[0]) if r["function"] == "prompt"]
    # prompt, respond, compact's summary, say, respond, and the refused prompt of a context without a turn
    assert len(recs) == 6, [r["args"] for r in recs]
    first, second, summary, say, respond, refused = recs
    assert refused["error"] == got["empty"] and refused["result"] is None, refused
    recs = recs[:5]
    assert "text" not in first["args"] and first["args"]["context_segments"] == 4, first["args"]
    assert first["args"]["turn"] is None and first["args"]["type"] == "final" and first["args"]["tools"] == [], first["args"]
    assert first["result"] == "canned", first
    assert second["args"]["context_segments"] == 6 and second["args"]["max_tokens"] == 50, second["args"]
    assert second["result"]["blocks"] == [{"type": "text", "text": "canned"}] and second["result"]["stopReason"] == "end_turn", second
    assert summary["args"]["text"].startswith("User: Who reviews?\nAssistant: canned"), summary["args"]
    assert say["args"]["model"] == "chat-model" and say["args"]["type"] == "chat", say["args"]
    assert isinstance(respond["result"], dict) and respond["result"]["content"] == "canned", respond
    for r in recs:
        assert len(r["args"]["request_digest"]) == 64, r["args"]
    shutil.rmtree(proj)


def anthropic_marks(body):
    """Where the request's cache_control marks are: tools, system, messages[i]."""
    marks = []
    for t in body.get("tools", []):
        if "cache_control" in t:
            marks.append(("tool", t["name"], t["cache_control"]))
    if isinstance(body.get("system"), list):
        for b in body["system"]:
            if "cache_control" in b:
                marks.append(("system", None, b["cache_control"]))
    for i, m in enumerate(body["messages"]):
        for b in m["content"] if isinstance(m["content"], list) else []:
            if "cache_control" in b:
                marks.append(("message", i, b["cache_control"]))
    return marks


def case_context_tool_loops_run_registry_tools_and_handles_and_replay(v):
    """ctx.prompt() with a registry tool and a defineTool handle: one `prompt` record per turn
    (turn 0, 1), a `tool` record for the MCP call, a `mark` for the handle; conversation().say()
    over a handle loops on respond() turns. On the wire the head carries Anthropic cache_control
    marks (system, last tool, newest message), never more than four; replay reaches nobody."""
    proj = project("tools.js")
    state = os.path.join(proj, "st")
    mcp_log = os.path.join(proj, "mcp-calls.log")
    open(mcp_log, "w").close()
    mcp = json.dumps({"mcpServers": {"counter": {"command": PY, "args": [os.path.join(ROOT, "tests/mcp/counter.py"), mcp_log]}}})
    script = [{"toolCalls": [{"id": "toolu_1", "name": "counter__count", "input": {"n": 5}},
                             {"id": "toolu_2", "name": "double", "input": {"n": 4}}]},
              {"text": "counted 5, doubled 8"},
              {"toolCalls": [{"id": "toolu_3", "name": "double", "input": {"n": 21}}]},
              {"text": "42"}]
    agent = os.path.join(proj, "tools.js")
    outs = []
    for n, mode in enumerate(MODES):
        with fake_llm(script) as (base, requests):
            env = {"ANTHROPIC_API_KEY": "sk-ant-test", "ANTHROPIC_BASE_URL": base, "CHIDORI_MCP_CONFIG": mcp}
            code, out, err = chidori(v, "run", agent, *mode, env=env, state=state)
            assert code == 0, f"{mode}: {err}"
            seen = requests()
        outs.append(out)
        rid = run_id_of(err)
        bodies = [r["body"] for r in seen["requests"]]
        assert len(bodies) == 4, seen["counts"]
        first, second = bodies[0], bodies[1]
        assert [t["name"] for t in first["tools"]] == ["counter__count", "double"], first["tools"]
        # the author's 1h breakpoint came before any message: it marks the registry tools head;
        # the system head and the newest message get the automatic 5m marks
        assert first["system"][0]["text"] == "Use tools.", first["system"]
        assert anthropic_marks(first) == [("tool", "double", {"type": "ephemeral", "ttl": "1h"}), ("system", None, {"type": "ephemeral"}),
                                          ("message", 0, {"type": "ephemeral"})], anthropic_marks(first)
        results = [b for m in second["messages"] if isinstance(m["content"], list) for b in m["content"] if b.get("type") == "tool_result"]
        assert [(b["tool_use_id"], b["content"]) for b in results] == [("toolu_1", str(5 * (n + 1))), ("toolu_2", '{"doubled":8}')], results
        for body in bodies:
            assert len(anthropic_marks(body)) <= 4, anthropic_marks(body)
        got = json.loads(out)
        assert got["text"] == "counted 5, doubled 8" and got["said"] == "42" and got["messages"] is True, got
        assert got["history"] == [{"role": "user", "text": "double 21"}, {"role": "assistant", "text": "42"}], got
        recs = records_of(state, rid)
        assert [r["function"] for r in recs] == ["tool_schemas", "prompt", "tool", "mark", "prompt", "prompt", "mark", "prompt"], \
            [r["function"] for r in recs]
        turns = [r["args"]["turn"] for r in recs if r["function"] == "prompt"]
        assert turns == [0, 1, None, None], turns
        assert recs[1]["args"]["tools"] == ["counter__count"] and recs[1]["result"]["toolCalls"][0]["name"] == "counter__count", recs[1]
        assert recs[3]["args"] == {"label": "tool:double", "data": {"args": {"n": 4}}}, recs[3]
        for rmode in MODES:
            code, out2, err2 = chidori(v, "replay", agent, rid, *rmode, env={"CHIDORI_MCP_CONFIG": mcp}, state=state)
            assert code == 0 and out2 == out, f"replay {rmode}: {err2}"
    assert outs[0] == outs[1], outs
    with open(mcp_log) as f:
        assert len(f.read().splitlines()) == 2, "the MCP tool ran other than once per live run"
    shutil.rmtree(proj)


def case_context_unknown_registry_tool_names_itself(v):
    """A context naming a registry tool nobody serves fails with the original's `Unknown tool: X …
    (referenced in context tools)`, from prompt() and from digest()."""
    with tempfile.TemporaryDirectory() as tmp:
        agent = os.path.join(tmp, "a.js")
        with open(agent, "w") as f:
            f.write('import { chidori, run } from "chidori:agent";\n'
                    'run(async () => { const c = chidori.context().tools(["nope__x"]).user("hi");\n'
                    '  let d; try { c.digest(); } catch (e) { d = e.message; }\n'
                    '  let p; try { await c.prompt(); } catch (e) { p = e.message; }\n'
                    '  return { d, p }; });\n')
        code, out, err = chidori(v, "run", agent, env=STATIC, state=tmp)
        assert code == 0, err
        got = json.loads(out)
        for k in ("d", "p"):
            assert got[k].startswith("Unknown tool: nope__x") and got[k].endswith("(referenced in context tools)"), got


def case_conversation_loop_reads_input_until_an_exit_word(v):
    """loop(): every turn is an input() pause; a blank answer is skipped, the exit word (any case)
    ends it; resumes replay the earlier turns from the log, and the finished run replays."""
    proj = project("loop.js")
    state = os.path.join(proj, "st")
    agent = os.path.join(proj, "loop.js")
    for mode in MODES:
        code, out, err = chidori(v, "run", agent, *mode, env=STATIC, state=state)
        assert code == 3 and "waiting for input: turn 0>" in err, (code, err)
        rid = run_id_of(err)
        for answer, want in [("hello", "turn 1>"), ("   ", "turn 1>"), ("again", "turn 2>")]:
            code, out, err = chidori(v, "resume", agent, rid, "--response", answer, *mode, env=STATIC, state=state)
            assert code == 3 and f"waiting for input: {want}" in err, (answer, code, err)
        code, out, err = chidori(v, "resume", agent, rid, "--response", "bye", *mode, env=STATIC, state=state)
        assert code == 0, err
        got = json.loads(out)
        assert [t["text"] for t in got["transcript"]] == ["hello", "canned", "again", "canned"], got
        assert got["replies"] == ["hello=canned", "again=canned"], got
        for rmode in MODES:
            code, out2, err2 = chidori(v, "replay", agent, rid, *rmode, state=state)
            assert code == 0 and out2 == out, err2
        fns = [r["function"] for r in records_of(state, rid)]
        assert fns == ["input", "prompt", "input", "input", "prompt", "input"], fns
    shutil.rmtree(proj)


def case_unsupported_member_names_itself_and_reads_as_absent(v):
    """chidori.frobnicate() throws `chidori.frobnicate is not available in this runtime`; typeof,
    `in`, truthiness, == null, Object.keys, JSON.stringify and await treat it as absent."""
    proj = project("members.js")
    got, _ = run_and_replay(v, os.path.join(proj, "members.js"), {}, os.path.join(proj, "st"))
    assert got["called"] == "TypeError: chidori.frobnicate is not available in this runtime", got
    assert got["destructured"] == "chidori.frobnicate is not available in this runtime", got
    assert got["typeofMissing"] == "undefined" and got["typeofKnown"] == "function", got
    assert got["inMissing"] is False and got["inKnown"] is True and got["detected"] == "absent", got
    for k in ("optional", "promptIsFunction", "keysHaveNoStandIn", "json", "awaitedIsChidori", "symbol",
              "sameStandIn", "toJSONAbsent", "inherited", "receiverIsProxy", "markIsMember", "membersRunNoTrap",
              "getTrapNamed", "nothingAddedUnder"):
        assert got[k] is True, (k, got)
    shutil.rmtree(proj)


def case_workspace_generation_manifest_and_no_content_in_the_log(v):
    """write/delete keep .generation/manifest.json in the original's format; list is manifest ∪
    disk; the .generation folder cannot be written; a write's record holds its size and hash, never
    its content; a manifest of another version is refused with a clear error."""
    proj = project("manifest.js")
    state = os.path.join(proj, "st")
    agent = os.path.join(proj, "manifest.js")
    with open(os.path.join(proj, "disk-only.py"), "w") as f:
        f.write("print(1)\n")
    secret = "the launch code is 0000"
    got, rids = run_and_replay(v, agent, {"CHIDORI_WORKSPACE_ROOT": proj}, state, "--input", json.dumps({"secret": secret}),
                               replay_env={"CHIDORI_WORKSPACE_ROOT": proj}, same_runs=False)
    sha = hashlib.sha256(secret.encode()).hexdigest()
    w = got["w"]
    assert list(w) == ["path", "status", "sha256", "bytes", "language", "attempt", "updatedAt"], w
    assert w["path"] == "notes/a.md" and w["sha256"] == sha and w["bytes"] == len(secret) and w["language"] == "markdown", w
    # delete answers null, as the original's does (it answered whether a file went, until December)
    assert got["language"] == "typescript" and got["removed"] is None and "removed" in got, got
    assert ".generation" in got["refused"], got
    by_path = {e["path"]: e for e in got["list"]}
    assert "gone.txt" not in by_path and by_path["disk-only.py"]["sha256"] is None and by_path["disk-only.py"]["language"] == "python", got["list"]
    assert by_path["notes/a.md"]["sha256"] == sha, by_path
    assert [e["path"] for e in got["list"]] == sorted(by_path), got["list"]
    assert not any(p.startswith(".") for p in by_path), by_path
    with open(os.path.join(proj, ".generation", "manifest.json")) as f:
        manifest = json.load(f)
    assert list(manifest) == ["version", "manifestVersion", "activeAttempt", "files", "deleted"], manifest
    assert manifest["version"] == 1 and manifest["deleted"] == {"gone.txt": {"attempt": None, "reason": "superseded"}}, manifest
    assert manifest["files"]["notes/a.md"]["sha256"] == sha and got["manifest"]["files"].keys() == manifest["files"].keys(), manifest
    with open(os.path.join(proj, "notes", "a.md")) as f:
        assert f.read() == secret
    assert os.listdir(os.path.join(proj, ".generation", "tmp")) == [], "a temporary file was left behind"
    for rid in rids:
        with open(os.path.join(state, "runs", rid, "records.jsonl")) as f:
            log = f.read()
        assert secret not in log, "a written file's content is in the call log"
        writes = [r for r in records_of(state, rid) if r["function"] == "workspace" and r["args"]["action"] == "write"]
        assert writes[0]["args"]["args"] == {"path": "notes/./a.md", "bytes": len(secret), "options": {"language": "markdown"},
                                             "sha256": sha}, writes[0]
    with open(os.path.join(proj, ".generation", "manifest.json"), "w") as f:
        json.dump({"version": 2, "files": {}, "deleted": {}}, f)
    code, out, err = chidori(v, "run", agent, "--input", json.dumps({"secret": "x"}), env={"CHIDORI_WORKSPACE_ROOT": proj}, state=state)
    assert code != 0 and "unsupported workspace manifest version 2" in err, (code, err)
    for garbage in (b"{not json", b"\xff\xfe" * 100, b"[]"):
        with open(os.path.join(proj, ".generation", "manifest.json"), "wb") as f:
            f.write(garbage)
        code, out, err = chidori(v, "run", agent, "--input", json.dumps({"secret": "x"}), env={"CHIDORI_WORKSPACE_ROOT": proj}, state=state)
        assert code != 0 and ".generation/manifest.json is not a JSON object; fix it or delete it" in err, (garbage, code, err)
    with open(os.path.join(proj, ".generation", "manifest.json"), "wb") as f:
        f.write(b" " * (17 << 20))
    code, out, err = chidori(v, "run", agent, "--input", json.dumps({"secret": "x"}), env={"CHIDORI_WORKSPACE_ROOT": proj}, state=state)
    assert code != 0 and "is larger than 16 MiB" in err, (code, err)
    shutil.rmtree(proj)


def case_workspace_listing_writes_nothing(v):
    """list() and manifest() read the generation manifest without creating it, so a read-only run
    (the `untrusted` profile allows only list/read/manifest) leaves the workspace untouched."""
    with tempfile.TemporaryDirectory() as tmp:
        agent = os.path.join(tmp, "a.js")
        with open(agent, "w") as f:
            f.write('import { chidori, run } from "chidori:agent";\n'
                    'run(async () => ({ list: await chidori.workspace.list(), manifest: await chidori.workspace.manifest() }));\n')
        state = tempfile.mkdtemp(prefix="chidori-ctx-state-")
        code, out, err = chidori(v, "run", agent, "--untrusted", env={"CHIDORI_WORKSPACE_ROOT": tmp}, state=state)
        shutil.rmtree(state)
        assert code == 0, err
        got = json.loads(out)
        assert got["manifest"] == {"version": 1, "manifestVersion": 0, "activeAttempt": 0, "files": {}, "deleted": {}}, got
        assert [e["path"] for e in got["list"]] == ["a.js"] and got["list"][0]["language"] == "javascript", got
        assert sorted(os.listdir(tmp)) == ["a.js"], os.listdir(tmp)


def case_workspace_attempt_number_from_the_setting(v):
    """CHIDORI_WORKSPACE_ATTEMPT (the original's): a write's and a delete's `attempt` is that number
    and a write makes it the manifest's `activeAttempt`; a new manifest starts at it; unset they are
    null and 0 (the case above); a value that is not a whole number is refused at the start."""
    with tempfile.TemporaryDirectory() as tmp:
        agent = os.path.join(tmp, "a.js")
        with open(agent, "w") as f:
            f.write('import { chidori, run } from "chidori:agent";\n'
                    'run(async () => {\n'
                    '  const before = await chidori.workspace.manifest();\n'
                    '  const w = await chidori.workspace.write("out/a.txt", "hello");\n'
                    '  await chidori.workspace.write("old.txt", "x");\n'
                    '  await chidori.workspace.delete("old.txt", "superseded");\n'
                    '  return { before, w, after: await chidori.workspace.manifest() };\n'
                    '});\n')
        state = tempfile.mkdtemp(prefix="chidori-ctx-state-")
        env = {"CHIDORI_WORKSPACE_ROOT": tmp, "CHIDORI_WORKSPACE_ATTEMPT": "4"}
        code, out, err = chidori(v, "run", agent, env=env, state=state)
        assert code == 0, err
        got = json.loads(out)
        assert got["before"]["activeAttempt"] == 4, got["before"]
        assert got["w"]["attempt"] == 4 and got["after"]["activeAttempt"] == 4, got
        assert got["after"]["files"]["out/a.txt"]["attempt"] == 4, got["after"]
        assert got["after"]["deleted"] == {"old.txt": {"attempt": 4, "reason": "superseded"}}, got["after"]
        with open(os.path.join(tmp, ".generation", "manifest.json")) as f:
            assert json.load(f)["activeAttempt"] == 4
        # a later attempt moves activeAttempt on with its first write
        env["CHIDORI_WORKSPACE_ATTEMPT"] = "5"
        code, out, err = chidori(v, "run", agent, env=env, state=state)
        assert code == 0, err
        got = json.loads(out)
        assert got["before"]["activeAttempt"] == 4 and got["after"]["activeAttempt"] == 5, got
        for bad in ("-1", "two", "1.5", "1234567890123456"):
            env["CHIDORI_WORKSPACE_ATTEMPT"] = bad
            code, out, err = chidori(v, "run", agent, env=env, state=state)
            assert code == 2 and "CHIDORI_WORKSPACE_ATTEMPT: must be a whole number" in err, (bad, code, err)
        shutil.rmtree(state)
