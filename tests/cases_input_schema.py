"""tests/cases_input_schema.py — run(handler, { inputSchema }): the input is checked before the
handler starts (so before any effect), every issue is listed, the CLI exits 2 and POST /sessions
answers 400 with the stored, failed session. Isolated and in-process.

The exit code and the 400 come from a flag only the prelude's check can raise (the engine's
outcome, checked again by the runner: nothing recorded, no limit), never from the error's text:
an agent that throws a look-alike `InputValidationError` fails as any other agent does (exit 1,
201), and so does a schema whose check performed an effect first.
"""
import json
import os
import tempfile

from cases import chidori
from cases_serve import Server

SCHEMA_AGENT = """
import { run } from "chidori:agent";
run(async (input, chidori) => {
  await chidori.log("handler started");
  return { topic: input.topic, n: input.n ?? null };
}, { inputSchema: {
  type: "object", required: ["topic"], additionalProperties: false,
  properties: {
    topic: { type: "string", minLength: 2, pattern: "^[a-z]+$" },
    n: { type: "integer", minimum: 0, maximum: 10 },
    tags: { type: "array", maxItems: 2, items: { type: "string" } },
    mode: { enum: ["fast", "slow"] },
  },
} });
"""

# A Standard Schema: an async validate that coerces (its value replaces the input) and reports
# issues with paths made of plain keys and {key} segments.
STANDARD_AGENT = """
import { run } from "chidori:agent";
const schema = { "~standard": { version: 1, vendor: "fixture", async validate(value) {
  const issues = [];
  if (typeof value.n !== "number" && typeof value.n !== "string") issues.push({ message: "n must be a number", path: ["n"] });
  if (value.deep && typeof value.deep.x !== "string") issues.push({ message: "x must be text", path: [{ key: "deep" }, "x"] });
  if (issues.length) return { issues };
  return { value: { n: Number(value.n), coerced: true } };
} } };
run(async (input, chidori) => { await chidori.log("ran"); return input; }, { inputSchema: schema });
"""

# Looks like a rejected input, but the handler ran (and recorded) before throwing it.
FORGED_AGENT = """
import { run } from "chidori:agent";
run(async (input, chidori) => {
  await chidori.log("an effect first");
  const e = new Error("invalid input:\\n  - input.topic: required");
  e.name = "InputValidationError";
  throw e;
});
"""

# A schema whose check performs an effect, then reports an issue: not "nothing ran".
EFFECTFUL_SCHEMA_AGENT = """
import { run, chidori } from "chidori:agent";
const schema = { "~standard": { version: 1, vendor: "fixture", async validate() {
  await chidori.log("inside validate");
  return { issues: [{ message: "rejected after an effect" }] };
} } };
run(async () => "never", { inputSchema: schema });
"""

# A guest that redefines Promise[Symbol.species] before the run starts can make the prelude's
# start() resolve with its own {inputInvalid} (its captured `then` still asks the species for the
# promise it returns; replacing Promise.prototype.then no longer reaches start(), docs/primordials.md):
# after an effect, the runner must not call that an invalid input (the run did something).
FORGED_THEN_AGENT = """
import { run, chidori } from "chidori:agent";
await chidori.log("an effect first");
Object.defineProperty(Promise, Symbol.species, { configurable: true, get() {
  return function Forger(executor) {
    executor(() => {}, () => {});
    return Promise.resolve({ inputInvalid: "InputValidationError: invalid input:\\n  - forged" });
  };
} });
run(async () => "never");
"""

# A schema whose check catches the memory ceiling and then reports an issue: the limit wins.
LIMIT_SCHEMA_AGENT = """
import { run } from "chidori:agent";
const schema = { "~standard": { version: 1, vendor: "fixture", validate() {
  const hog = [];
  try { for (;;) hog.push(new Array(100000).fill(1)); } catch (e) { hog.length = 0; }
  return { issues: [{ message: "claimed after a limit" }] };
} } };
run(async () => "never", { inputSchema: schema });
"""

MODES = (("isolated", ()), ("in-process", ("--no-isolate",)))


def _agent(tmp, text, name="agent.ts"):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def _only_run(state):
    runs = os.path.join(state, "runs")
    (rid,) = os.listdir(runs)
    folder = os.path.join(runs, rid)
    with open(os.path.join(folder, "run.json")) as f:
        meta = json.load(f)
    records = os.path.join(folder, "records.jsonl")
    lines = open(records).read().splitlines() if os.path.exists(records) else []
    return meta, [l for l in lines if l.strip()]


def case_input_schema_json_subset_lists_every_issue_and_exits_2(v):
    for mode, flags in MODES:
        with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as state:
            agent = _agent(tmp, SCHEMA_AGENT)
            bad = {"topic": 5, "n": 11, "tags": ["a", 2, "c"], "mode": "odd", "admin": True}
            code, out, err = chidori(v, "run", *flags, agent, "-i", json.dumps(bad), state=state)
            assert code == 2, (mode, code, out, err)
            assert out == "", (mode, out)
            assert "InputValidationError: invalid input:\n" in err, (mode, err)
            for issue in ("  - topic: expected string, got integer", "  - n: greater than 10",
                          "  - tags: more than 2 items", "  - tags[1]: expected string, got integer",
                          '  - mode: expected one of "fast", "slow"', "  - input.admin: unexpected property"):
                assert issue in err, (mode, issue, err)
            assert "handler started" not in err, (mode, "the handler ran", err)
            meta, records = _only_run(state)
            assert meta["status"] == "failed" and meta["error"].startswith("InputValidationError: invalid input:"), meta
            assert records == [], (mode, "a rejected input recorded calls", records)

        with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as state:
            agent = _agent(tmp, SCHEMA_AGENT)
            code, out, err = chidori(v, "run", *flags, agent, "-i", "{}", state=state)
            assert code == 2 and "  - input.topic: required" in err, (mode, code, err)
            code, out, err = chidori(v, "run", *flags, agent, "-i", json.dumps({"topic": "A1"}), state=state)
            assert code == 2 and "  - topic: does not match ^[a-z]+$" in err, (mode, code, err)
            code, out, err = chidori(v, "run", *flags, agent, "-i", json.dumps({"topic": "ok", "n": 3}), state=state)
            assert code == 0 and json.loads(out) == {"topic": "ok", "n": 3}, (mode, code, out, err)


# The check is loaded on first use (js/input_schema.js), after the agent's own code has run: an
# agent that replaced the builtins it would use must not change what it decides or says.
SABOTAGE_AGENT = """
import { run } from "chidori:agent";
Array.prototype.join = function () { return "JOIN"; };
Array.prototype.sort = function () { throw new Error("sort"); };
Array.isArray = () => false;
JSON.stringify = () => "STRINGIFY";
RegExp.prototype.exec = () => ({ matched: true });
Object.keys = () => [];
Object.hasOwn = () => true;
Number.isInteger = () => false;
String = () => "STRING";
run(async (input) => ({ ok: input.topic }), { inputSchema: {
  type: "object", required: ["topic", "when"], additionalProperties: false,
  properties: { topic: { type: "string", pattern: "^[a-z]+$" }, when: {}, n: { type: ["integer", "null"] },
                mode: { enum: [{ a: [1, 2] }, "slow"] } },
} });
"""


def case_input_schema_check_loaded_late_uses_captured_builtins(v):
    for mode, flags in MODES:
        with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as state:
            agent = _agent(tmp, SABOTAGE_AGENT)
            bad = {"topic": "A1", "n": 1.5, "mode": {"a": [1, 2, 3]}, "extra": 1}
            code, out, err = chidori(v, "run", *flags, agent, "-i", json.dumps(bad), state=state)
            assert code == 2, (mode, code, out, err)
            for issue in ("  - topic: does not match ^[a-z]+$", "  - n: expected integer | null, got number",
                          '  - mode: expected one of {"a":[1,2]}, "slow"', "  - input.when: required",
                          "  - input.extra: unexpected property"):
                assert issue in err, (mode, issue, err)
            code, out, err = chidori(v, "run", *flags, agent, "-i",
                                     json.dumps({"topic": "ok", "when": 1, "n": None, "mode": {"a": [1, 2]}}), state=state)
            assert code == 0 and json.loads(out) == {"ok": "ok"}, (mode, code, out, err)


def case_input_schema_standard_schema_value_replaces_input(v):
    for mode, flags in MODES:
        with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as state:
            agent = _agent(tmp, STANDARD_AGENT)
            code, out, err = chidori(v, "run", *flags, agent, "-i", json.dumps({"n": "41", "extra": 1}), state=state)
            assert code == 0 and json.loads(out) == {"n": 41, "coerced": True}, (mode, code, out, err)
        with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as state:
            agent = _agent(tmp, STANDARD_AGENT)
            code, out, err = chidori(v, "run", *flags, agent, "-i", json.dumps({"deep": {"x": 1}}), state=state)
            assert code == 2, (mode, code, out, err)
            assert "  - n must be a number (at n)\n" in err and "  - x must be text (at deep.x)" in err, (mode, err)
            assert _only_run(state)[1] == [], mode


def case_input_schema_look_alikes_are_ordinary_failures(v):
    for mode, flags in MODES:
        for text, what in ((FORGED_AGENT, "a thrown look-alike"), (EFFECTFUL_SCHEMA_AGENT, "a check with an effect")):
            with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as state:
                agent = _agent(tmp, text)
                code, out, err = chidori(v, "run", *flags, agent, "-i", "{}", state=state)
                assert code == 1, (mode, what, code, err)
                assert "invalid input:" in err or "rejected after an effect" in err, (mode, what, err)
                assert len(_only_run(state)[1]) == 1, (mode, what, "expected the one recorded log call")


def case_input_schema_claims_after_an_effect_or_a_limit_are_refused(v):
    for mode, flags in MODES:
        with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as state:
            agent = _agent(tmp, FORGED_THEN_AGENT)
            code, out, err = chidori(v, "run", *flags, agent, state=state)
            assert code == 1 and "forged" in err, (mode, code, err)
            assert len(_only_run(state)[1]) == 1, mode
        with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as state:
            agent = _agent(tmp, LIMIT_SCHEMA_AGENT)
            code, out, err = chidori(v, "run", *flags, agent, env={"CHIDORI_JS_MEM_CAP_MB": "64"}, state=state)
            assert code == 1 and "memory ceiling reached" in err, (mode, code, err)


def case_input_schema_serve_answers_400_and_stores_the_session(v):
    for mode, flags in MODES:
        tmp = tempfile.mkdtemp(prefix="chidori-schema-")
        _agent(tmp, SCHEMA_AGENT)
        _agent(tmp, FORGED_AGENT, "forged.ts")
        s = Server(v, *flags, folder=tmp, agent=os.path.join(tmp, "agent.ts"))
        try:
            s.start()
            status, _, body = s.request("POST", "/sessions", {"input": {"topic": 7, "admin": 1}, "session_id": "bad-1"})
            assert status == 400, (mode, status, body, s.stderr())
            assert set(body) == {"error", "session"}, body
            assert body["error"].startswith("InputValidationError: invalid input:\n"), body
            assert "  - topic: expected string, got integer" in body["error"], body
            assert "  - input.admin: unexpected property" in body["error"], body
            assert "  - input.topic" not in body["error"], body
            assert body["session"]["id"] == "bad-1" and body["session"]["status"] == "failed", body
            assert body["session"]["error"] == body["error"] and body["session"]["call_count"] == 0, body
            status, _, view = s.request("GET", "/sessions/bad-1")
            assert status == 200 and view["status"] == "failed" and view["error"] == body["error"], view
            status, _, view = s.request("POST", "/sessions", {"input": {"topic": "fine"}})
            assert status == 201 and view["status"] == "completed", (status, view)
            # wait: false answers at once (201 running); the session then fails as above
            status, _, view = s.request("POST", "/sessions", {"input": {}, "wait": False})
            assert status == 201 and view["status"] == "running", (status, view)
            s.wait_for(view["id"], lambda x: x["status"] == "failed" and "input.topic: required" in x["error"], "failed")
            s.stop()
        finally:
            s.cleanup()

        tmp = tempfile.mkdtemp(prefix="chidori-schema-")
        _agent(tmp, FORGED_AGENT)
        s = Server(v, *flags, folder=tmp, agent=os.path.join(tmp, "agent.ts"))
        try:
            s.start()
            status, _, view = s.request("POST", "/sessions", {"input": {}})
            assert status == 201 and view["status"] == "failed", (mode, status, view)
            assert "InputValidationError" in view["error"] and view["call_count"] == 1, view
            s.stop()
        finally:
            s.cleanup()
