"""tests/cases_tool_dir.py — the legacy `tools/` folder (a compatibility extension; effects/tools.c,
host/tool_dir.c): `<agent dir>/tools/*.ts` files declaring `export const tool` are tools under their
bare name, run as nested runs of the run, gated as `tool:<name>`, offered to the model by prompt and
context, replayed from the log as one unit. Broken files are named, symlinks out refused.

The fixtures are written here, into a fresh project folder per case.
"""
import json
import os
import shutil
import tempfile

from cases import chidori
from cases_effects import fake_llm, run_id_of

AGENT = r'''import type { Chidori } from "chidori:agent";

export async function agent(input: { mode?: string; name?: string }, chidori: Chidori) {
  if (input.mode === "prompt") {
    const reply = await chidori.prompt("what is 20 + 22?", { tools: ["adder"] });
    const ctx = chidori.context({ system: "Use tools.", tools: ["adder"] });
    const looped = await ctx.user("and 1 + 2?").prompt({ maxTokens: 100 });
    return { reply, looped: looped.text };
  }
  if (input.mode === "one") {
    try {
      return { value: await chidori.tool(input.name ?? "adder", { a: 1, b: 2 }) };
    } catch (e) {
      return { error: String((e as Error).message) };
    }
  }
  const sum = await chidori.tool("adder", { a: 2, b: 40 });
  let failed = null, unknown = null;
  try { await chidori.tool("adder", { a: -1, b: 0 }); } catch (e) { failed = String((e as Error).message); }
  try { await chidori.tool("nosuch", {}); } catch (e) { unknown = String((e as Error).message); }
  return { sum, failed, unknown };
}
'''

ADDER = r'''import type { Chidori, ToolDefinition } from "chidori:agent";

// a tool of the legacy tools/ folder, written for tests/cases_tool_dir.py
export const tool: ToolDefinition = {
  name: "adder",
  description: "Adds two numbers " + "(a negative `a` fails).",
  parameters: {
    type: "object",
    properties: { a: { type: "number", description: "first" }, b: { type: "number" } },
    required: ["a", "b"],
  },
};

export async function run(args: { a: number; b: number }, chidori: Chidori) {
  await chidori.log(`adder: ${args.a} + ${args.b}`);
  if (args.a < 0) throw new Error(`adder refuses a negative a (${args.a})`);
  return { sum: args.a + args.b };
}
'''

HELPER = '''// not a tool: no declaration, so the scan skips it without a word
export function twice(x: number) { return 2 * x; }
'''

BROKEN = '''export const tool = {
  name: pickName(),
  description: "computed, so not data",
};
export async function run() { return 1; }
function pickName() { return "broken"; }
'''

ESCAPEE = '''export const tool = { name: "escapee", description: "lives outside the project" };
export async function run(args, chidori) { await chidori.log("escapee ran"); return "outside"; }
'''


def project(**tools):
    """A project folder with main.ts and tools/<file> for each keyword (name → text)."""
    proj = tempfile.mkdtemp(prefix="chidori-tooldir-")
    with open(os.path.join(proj, "main.ts"), "w") as f:
        f.write(AGENT)
    if tools:
        os.mkdir(os.path.join(proj, "tools"))
    for name, text in tools.items():
        with open(os.path.join(proj, "tools", name.replace("__", ".")), "w") as f:
            f.write(text)
    return proj


def records_of(state, rid):
    with open(os.path.join(state, "runs", rid, "records.jsonl")) as f:
        return [json.loads(line) for line in f]


def case_tool_file_runs_nested_and_replays_as_one_unit(v):
    """chidori.tool("adder") runs tools/adder.ts's run() as a nested run, in-process and isolated:
    its value is the result, its log nests under the tool's seq, its failure is the call's error, a
    file without the declaration is skipped silently; replay answers from the log with tools/ gone."""
    outs = []
    for isolate in ("off", "process"):
        proj = project(adder__ts=ADDER, helper__ts=HELPER)
        state = os.path.join(proj, "state")
        main = os.path.join(proj, "main.ts")
        code, out, err = chidori(v, "run", main, env={"CHIDORI_ISOLATE": isolate}, state=state)
        assert code == 0, f"{isolate}: exit {code}\n{err}"
        got = json.loads(out)
        assert got["sum"] == {"sum": 42}, got
        assert got["failed"].startswith("tool adder (tools/adder.ts) failed: Error: adder refuses a negative a (-1)"), got
        assert "\n" not in got["failed"], got  # the tool's message, not its stack
        assert got["unknown"].startswith("Unknown tool: nosuch — no tool file in tools/ declares it (registered: adder)"), got
        assert "[log] adder: 2 + 40" in err, err
        assert "helper" not in err and "warning" not in err, err
        outs.append(out)
        rid = run_id_of(err)
        recs = records_of(state, rid)
        tools = [r for r in recs if r["function"] == "tool"]
        assert [t["args"] for t in tools] == [{"name": "adder", "kwargs": {"a": 2, "b": 40}},
                                             {"name": "adder", "kwargs": {"a": -1, "b": 0}},
                                             {"name": "nosuch", "kwargs": {}}], tools
        assert tools[0]["result"] == {"sum": 42} and tools[0]["tool_file"] == "tools/adder.ts", tools[0]
        assert "tree_ticks" in tools[0], tools[0]
        assert tools[1]["error"].startswith("tool adder (tools/adder.ts) failed"), tools[1]
        logs = [r for r in recs if r["function"] == "log"]
        assert [(l["args"]["message"], l.get("parent_seq")) for l in logs] == \
            [("adder: 2 + 40", tools[0]["seq"]), ("adder: -1 + 0", tools[1]["seq"])], logs
        # replay: the log answers each tool call whole; the files are not needed (nor run)
        shutil.rmtree(os.path.join(proj, "tools"))
        code, out2, err2 = chidori(v, "replay", main, rid, env={"CHIDORI_ISOLATE": isolate}, state=state)
        assert code == 0 and out2 == out, f"{isolate}: replay exit {code}\n{out2}\n{err2}"
        assert "[log] adder" not in err2, err2
        shutil.rmtree(proj)
    assert outs[0] == outs[1], f"in-process and isolated differ:\n{outs[0]}\n{outs[1]}"


def case_tool_file_in_the_prompt_tool_loop_and_context(v):
    """prompt({tools: ["adder"]}) and context({tools: ["adder"]}) offer the file's schema to the
    model; the model's call runs the tool and its value goes back; replay reaches nobody."""
    proj = project(adder__ts=ADDER)
    state = os.path.join(proj, "state")
    main = os.path.join(proj, "main.ts")
    script = [{"toolCalls": [{"id": "toolu_1", "name": "adder", "input": {"a": 20, "b": 22}}]},
              {"text": "it is 42"},
              {"toolCalls": [{"id": "toolu_2", "name": "adder", "input": {"a": 1, "b": 2}}]},
              {"text": "it is 3"}]
    with fake_llm(script) as (base, requests):
        env = {"ANTHROPIC_API_KEY": "sk-ant-test", "ANTHROPIC_BASE_URL": base}
        code, out, err = chidori(v, "run", main, "--input", "mode=prompt", env=env, state=state)
        assert code == 0, err
        assert json.loads(out) == {"reply": "it is 42", "looped": "it is 3"}, out
        bodies = [r["body"] for r in requests()["requests"]]
        assert len(bodies) == 4, bodies
        for first in (bodies[0], bodies[2]):
            tools = first["tools"]
            assert [t["name"] for t in tools] == ["adder"], tools
            assert tools[0]["description"] == "Adds two numbers (a negative `a` fails).", tools[0]
            assert tools[0]["input_schema"]["properties"]["a"] == {"type": "number", "description": "first"}, tools[0]
        results = [b for m in bodies[1]["messages"] if isinstance(m["content"], list) for b in m["content"]
                   if b.get("type") == "tool_result"]
        assert [(b["tool_use_id"], b["content"]) for b in results] == [("toolu_1", '{"sum":42}')], results
        rid = run_id_of(err)
        code, out2, err2 = chidori(v, "replay", main, rid, state=state)
        assert code == 0 and out2 == out, err2
        assert len(requests()["requests"]) == 4, "replay reached the provider"
    recs = records_of(state, rid)
    assert [r["function"] for r in recs if r.get("parent_seq") is None] == \
        ["tool_schemas", "prompt", "tool", "prompt", "tool_schemas", "prompt", "tool", "prompt"], recs
    shutil.rmtree(proj)


def case_tool_file_is_gated_as_tool_name(v):
    """A policy denying tool:adder stops the call before the file runs; the denial is recorded and
    replays without the policy; the model is not offered the tool either."""
    proj = project(adder__ts=ADDER)
    state = os.path.join(proj, "state")
    main = os.path.join(proj, "main.ts")
    policy = os.path.join(proj, "deny.json")
    with open(policy, "w") as f:
        json.dump({"rules": [{"target": "tool:adder", "decision": "never_allow", "reason": "no adding"}]}, f)
    code, out, err = chidori(v, "run", main, "--input", "mode=one")  # allowed: it runs
    assert code == 0 and json.loads(out) == {"value": {"sum": 3}} and "[log] adder: 1 + 2" in err, (out, err)
    script = [{"text": "no tools then"}, {"text": "still none"}]
    with fake_llm(script) as (base, requests):
        env = {"ANTHROPIC_API_KEY": "sk-ant-test", "ANTHROPIC_BASE_URL": base, "CHIDORI_POLICY_FILE": policy}
        code, out, err = chidori(v, "run", main, "--input", "mode=prompt", env=env)
        assert code == 0, err
        bodies = [r["body"] for r in requests()["requests"]]
        assert len(bodies) == 2 and all(not b.get("tools") for b in bodies), bodies
        assert "the tool is not offered to the model" in err, err
    code, out, err = chidori(v, "run", main, "--input", "mode=one", env={"CHIDORI_POLICY_FILE": policy}, state=state)
    assert code == 0, err
    got = json.loads(out)
    assert got["error"].startswith("policy: `tool:adder` denied"), got
    assert "[log] adder" not in err, "a denied tool ran"
    rid = run_id_of(err)
    recs = records_of(state, rid)
    assert [r["function"] for r in recs] == ["tool"] and recs[0]["error"].startswith("policy: `tool:adder` denied"), recs
    code, out2, err2 = chidori(v, "replay", main, rid, state=state)
    assert code == 0 and out2 == out, err2
    shutil.rmtree(proj)


def case_broken_tool_file_is_named_in_the_warning_and_the_error(v):
    """A file declaring a tool that cannot be read as data gives a warning, and its reason is in the
    unknown-tool error; the good tools beside it still load."""
    proj = project(adder__ts=ADDER, broken__ts=BROKEN)
    main = os.path.join(proj, "main.ts")
    code, out, err = chidori(v, "run", main, "--input", "mode=one", "--input", "name=broken")
    assert code == 0, err
    assert "chidori: warning: tool file tools/broken.ts is not loaded: line 2: a value is not plain data" in err, err
    msg = json.loads(out)["error"]
    assert msg.startswith("Unknown tool: broken — no tool file in tools/ declares it (registered: adder)"), msg
    assert "tools/broken.ts failed to load: line 2: a value is not plain data" in msg, msg
    code, out, err = chidori(v, "run", main, "--input", "mode=one")
    assert code == 0 and json.loads(out) == {"value": {"sum": 3}}, (out, err)
    shutil.rmtree(proj)


def case_tool_file_symlinked_out_of_the_project_is_refused(v):
    """tools/x.ts linking outside the project is not read (the reason is in the error), nor is a
    tools/ folder that is itself a link out; nothing outside runs."""
    outside = tempfile.mkdtemp(prefix="chidori-outside-")
    with open(os.path.join(outside, "escapee.ts"), "w") as f:
        f.write(ESCAPEE)
    proj = project(adder__ts=ADDER)
    os.symlink(os.path.join(outside, "escapee.ts"), os.path.join(proj, "tools", "escapee.ts"))
    main = os.path.join(proj, "main.ts")
    code, out, err = chidori(v, "run", main, "--input", "mode=one", "--input", "name=escapee")
    assert code == 0, err
    msg = json.loads(out)["error"]
    assert msg.startswith("Unknown tool: escapee"), msg
    assert "tools/escapee.ts failed to load: it leads outside the project folder" in msg, msg
    assert "escapee ran" not in err, err
    # the folder itself a link out
    shutil.rmtree(os.path.join(proj, "tools"))
    os.symlink(outside, os.path.join(proj, "tools"))
    code, out, err = chidori(v, "run", main, "--input", "mode=one", "--input", "name=escapee")
    assert code == 0, err
    msg = json.loads(out)["error"]
    assert "tools/ leads outside the project folder" in msg, msg
    assert "escapee ran" not in err, err
    shutil.rmtree(proj)
    shutil.rmtree(outside)


def case_no_tools_folder_is_a_plain_unknown_tool(v):
    """Without a tools/ folder a bare name is an unknown tool that says where tools come from."""
    proj = project()
    main = os.path.join(proj, "main.ts")
    code, out, err = chidori(v, "run", main, "--input", "mode=one")
    assert code == 0, err
    msg = json.loads(out)["error"]
    assert msg == ("Unknown tool: adder — no tool file in tools/ declares it, and MCP tools are named "
                   "<server>__<tool>"), msg
    assert "warning" not in err, err
    shutil.rmtree(proj)


SPINNER = '''export const tool = { name: "spinner", description: "never returns" };
export async function run() { for (;;) {} }
'''


def case_tool_file_draws_on_the_tree_budget(v):
    """A tool file that spins runs on what the run left of the tree's CPU budget, like a nested
    agent: it ends the whole run, uncatchably (the agent's try/catch does not see it), and the
    record of the call says it ended the run."""
    for mode in ("--no-isolate", "--isolate"):
        proj = project(spinner__js=SPINNER)
        state = os.path.join(proj, "state")
        main = os.path.join(proj, "main.ts")
        code, out, err = chidori(v, "run", mode, main, "--input", "mode=one", "--input", "name=spinner",
                                 env={"CHIDORI_JS_OP_BUDGET": "100000000"}, state=state, timeout=60)
        assert code == 1 and "error" not in out, (mode, code, out, err[-2000:])
        assert "CPU budget exhausted: the agent tree" in err and "tools/spinner.js ran out" in err, (mode, err[-2000:])
        recs = records_of(state, run_id_of(err))
        assert [r["function"] for r in recs] == ["tool"] and recs[0].get("ends_run") is True, (mode, recs)
        shutil.rmtree(proj)
