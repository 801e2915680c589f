"""tests/cases_review18.py — regressions found by the hostile review of issue 18's surfaces
(signals, branch, actors, context, the bytecode cache). Each case guards one finding; see the
report of the review and the docs' pages named in each case.

The agents here are our own. Assertions are on content (statuses, errors, outputs), never on how
long something took.
"""
import json

from cases import chidori
from cases_signals import ASKER, serve_agent, signal
from cases_serve import create


def case_serve_signal_mailbox_bytes_are_capped_per_session(v):
    """A client must not grow the database without bound by queueing signals a session never takes:
    the count cap alone (10000) let 10000 bodies of 1 MiB each in. Past 16 MiB of queued bodies a
    send is a 409 that says what to do, nothing is written, and the session still works."""
    s, _ = serve_agent(v, ASKER, "--no-isolate")
    try:
        s.start()
        view = create(s, {"input": {}})
        sid = view["id"]
        assert view["status"] == "paused" and view["pending_prompt"] == "Go?", view
        big = "x" * 1_000_000  # under the 1 MiB request cap
        accepted, refused = 0, None
        for i in range(40):
            status, _, got = signal(s, sid, {"name": "other", "payload": big}) if i else \
                signal(s, sid, {"name": "review", "payload": "first"})
            if status == 202:
                accepted += 1
                continue
            refused = (status, got)
            break
        assert refused is not None, f"{accepted} signals of 1 MB queued for one session, none refused"
        status, got = refused
        assert status == 409 and "mailbox is full" in got["error"] and "16777216 bytes" in got["error"], refused
        assert 10 <= accepted <= 18, accepted
        # a small one still fits; the refused one wrote nothing (delivery_seq goes on from the last)
        status, _, got = signal(s, sid, {"name": "other", "payload": "small"})
        assert status == 202 and got["delivery_seq"] == accepted + 1, (status, got)
        # the session is not harmed: its listen point takes the first queued `review`
        status, _, done = s.request("POST", f"/sessions/{sid}/resume", {"response": "yes"})
        assert status == 200 and done["status"] == "completed", (status, done)
        assert done["output"]["review"] == {"name": "review", "payload": "first", "from": None}, done
        s.stop()
    finally:
        s.cleanup()


# The run floods an actor that never takes a message: a mailbox is host memory the engine's heap
# limit does not see, so it needs a cap of its own.
FLOOD = """import { run, chidori } from "chidori:agent";
run(async () => {
  const sink = await chidori.actors.spawn("actors/deaf.js", {});
  const big = "y".repeat(1000000);
  let sent = 0, refused = null;
  for (let i = 0; i < 120; i++) {
    try { await sink.send("junk", big); sent++; } catch (e) { refused = e.message; break; }
  }
  const st = await sink.status();
  await sink.send("go", null).catch(() => {});
  const stopped = await sink.stop();
  return { sent, refused, mailbox: st.mailbox, stopped: stopped.status };
});
"""
DEAF = """import { run, chidori } from "chidori:agent";
run(async () => { const m = await chidori.receive("never", { timeoutMs: 600000 }); return { m }; });
"""


def case_actor_mailbox_is_capped(v):
    """An actor's mailbox holds at most 64 MiB of messages (and 10000 of them): a send past it
    fails with an error that says so, instead of growing the host's memory without bound (120
    sends of 1 MB were all queued before). The actor and the run go on."""
    from cases_actors import project
    import tempfile, os
    d = project({"agent.js": FLOOD, "actors/deaf.js": DEAF})
    with tempfile.TemporaryDirectory() as state:
        code, out, err = chidori(v, "run", "--no-isolate", os.path.join(d, "agent.js"), state=state,
                                 timeout=60 * v.slow)
        assert code == 0, f"exit {code}\n{err[-3000:]}"
        got = json.loads(out)
        assert got["refused"] is not None, got
        assert "mailbox" in got["refused"] and "full" in got["refused"], got
        assert 40 <= got["sent"] <= 67 and got["mailbox"] == got["sent"], got
        assert got["stopped"] == "stopped", got


DIGEST_TOOLS = """import { chidori, run } from "chidori:agent";
run(async () => {
  const c = chidori.context().tools(["counter__count"]).user("hi");
  return { d: c.digest() };
});
"""


def case_context_digest_of_registry_tools_replays_without_mcp(v):
    """digest() of a context naming a registry tool asks the MCP servers for its schema. That ask
    was made without a record, so a replay contacted the servers again (a live effect in a replay,
    and a digest that could change under it): now it is a `tool_schemas` record, answered from the
    log on replay, where no server answers here."""
    import os, tempfile
    from cases_effects import PY, run_id_of
    from run import ROOT
    with tempfile.TemporaryDirectory() as tmp:
        agent = os.path.join(tmp, "a.js")
        with open(agent, "w") as f:
            f.write(DIGEST_TOOLS)
        mcp_log = os.path.join(tmp, "mcp.log")
        live = json.dumps({"mcpServers": {"counter": {"command": PY, "args": [os.path.join(ROOT, "tests/mcp/counter.py"), mcp_log]}}})
        gone = json.dumps({"mcpServers": {"counter": {"command": os.path.join(tmp, "no-such-server"), "args": []}}})
        for mode in ((), ("--no-isolate",)):
            code, out, err = chidori(v, "run", agent, *mode, env={"CHIDORI_MCP_CONFIG": live}, state=tmp)
            assert code == 0, f"{mode}: {err[-2000:]}"
            d = json.loads(out)["d"]
            assert isinstance(d, str) and len(d) == 64, out
            rid = run_id_of(err)
            with open(os.path.join(tmp, "runs", rid, "records.jsonl")) as f:
                fns = [json.loads(line)["function"] for line in f]
            assert fns == ["tool_schemas"], fns
            code, out2, err2 = chidori(v, "replay", agent, rid, *mode, env={"CHIDORI_MCP_CONFIG": gone}, state=tmp)
            assert code == 0 and out2 == out, f"replay {mode} reached for the MCP server: exit {code}\n{out2}\n{err2[-2000:]}"


STATE_REACH = """import { chidori, run } from "chidori:agent";
run(async (input) => {
  const out = {};
  for (const p of [input.inner + "/.chidori/cache/bytecode/key", input.inner + "/./.chidori/memory.json"]) {
    try { await chidori.workspace.write(p, "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"); out[p] = "written"; }
    catch (e) { out[p] = e.message; }
  }
  try { out.read = await chidori.workspace.read(input.inner + "/.chidori/cache/bytecode/key"); }
  catch (e) { out.read = e.message; }
  return out;
});
"""


def case_workspace_cannot_reach_a_nested_state_folder(v):
    """With CHIDORI_WORKSPACE_ROOT above the agent's folder (a repository root, the agent in a
    subfolder), the agent's own state folder is `<sub>/.chidori` inside the workspace: a write
    there could replace the bytecode cache's key (and then plant bytecode the host trusts), the
    call logs or the memory. A `.chidori` part anywhere in a workspace path is refused, not only
    the first one."""
    import os, tempfile
    with tempfile.TemporaryDirectory() as top:
        proj = os.path.join(top, "agents")
        os.makedirs(proj)
        agent = os.path.join(proj, "a.js")
        with open(agent, "w") as f:
            f.write(STATE_REACH)
        state = os.path.join(proj, ".chidori")
        # a first run makes the state folder, the bytecode cache and its key
        code, out, err = chidori(v, "run", "--no-isolate", agent, "--input", json.dumps({"inner": "agents"}),
                                 env={"CHIDORI_WORKSPACE_ROOT": top}, state=state)
        assert code == 0, err[-2000:]
        got = json.loads(out)
        for p in ("agents/.chidori/cache/bytecode/key", "agents/./.chidori/memory.json"):
            assert got[p] != "written" and "not a file of the workspace" in got[p], got
        assert "not a file of the workspace" in got["read"], got
        key = os.path.join(state, "cache", "bytecode", "key")
        if os.path.exists(key):
            with open(key, "rb") as f:
                assert f.read() != b"A" * 32, "the agent replaced the bytecode cache's key"
        assert not os.path.exists(os.path.join(state, "memory.json")) or \
            open(os.path.join(state, "memory.json")).read() != "A" * 32


NUL_NAMES = """import { chidori, run } from "chidori:agent";
run(async () => {
  const out = [];
  for (const f of [() => chidori.pollSignal("\\u0000"), () => chidori.pollSignal("review\\u0000x"),
                   () => chidori.signal(["ok", "\\u0000"], { timeoutMs: 1 })]) {
    try { out.push(await f()); } catch (e) { out.push(e.message); }
  }
  return out;
});
"""


def case_signal_names_with_nul_are_refused(v):
    """A name the agent listens to is compared as a C string by both mailboxes: `review\\0x` would
    take signals sent as `review`, and `\\0` the timeout sentinels kept under the empty name. The
    server refuses such names from a sender; the agent's own are refused the same way."""
    import os, tempfile
    with tempfile.TemporaryDirectory() as tmp:
        agent = os.path.join(tmp, "a.js")
        with open(agent, "w") as f:
            f.write(NUL_NAMES)
        code, out, err = chidori(v, "run", "--no-isolate", agent, state=tmp)
        assert code == 0, err[-2000:]
        got = json.loads(out)
        for m in got:
            assert isinstance(m, str) and "NUL" in m, got
