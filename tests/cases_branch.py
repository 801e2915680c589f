"""tests/cases_branch.py — chidori.branch (src/host/effects/branch.c on the member primitive,
src/runner/member_run.c; docs/effects.md#branch): a fan-out is one recorded call whose branches' records
sit in the original's reserved seq ranges under it, a replay answers it with zero live effects and
the same output, a branch's input() pauses only that branch and `chidori branch-resume` answers it,
failures become `failed` outcomes, bad calls are refused before a seq is taken with the original's
texts, and isolated and in-process runs give the same output. Real processes: the fake provider.
"""
import json
import os
import re
import tempfile

from cases import chidori
from cases_effects import fake_llm, run_id_of

FAN = """import { run, chidori } from "chidori:agent";
import fs from "node:fs";
run(async (input) => {
  await chidori.log("prefix");
  fs.writeFileSync("/anchor.txt", "from the prefix");
  const variants = ["a", "b", "c", "d"].map((label, i) => ({ label, source: "strategies/ask_model.js", input: { label, i } }));
  const outcomes = await chidori.branch(variants, { concurrency: 2 });
  await chidori.log("after");
  return outcomes.map((o) => ({ label: o.label, status: o.status, output: o.output }));
});
"""
ASK_MODEL = """import { run, chidori } from "chidori:agent";
import fs from "node:fs";
run(async (input) => {
  await chidori.log("branch " + input.label);
  const reply = await chidori.prompt("say something for " + input.label);
  fs.writeFileSync("/mine.txt", input.label); // its own copy of the VFS
  return { label: input.label, reply, anchor: fs.readFileSync("/anchor.txt", "utf8"), r: Math.floor(Math.random() * 1e9) };
});
"""
# The original's fixture layout: a log at seq 1, the branch at seq 2 over two variants.
PAIR = """import { run, chidori } from "chidori:agent";
run(async () => {
  await chidori.log("one");
  const o = await chidori.branch([{ source: "strategies/two_logs.js", input: { k: 0 } },
                                  { label: "second", source: "strategies/two_logs.js", input: { k: 1 } }],
                                 { concurrency: 99 });
  await chidori.log("next");
  return o;
});
"""
TWO_LOGS = """import { run, chidori } from "chidori:agent";
run(async (input) => { await chidori.log("x" + input.k); await chidori.log("y" + input.k); return input.k; });
"""
PAUSES = """import { run, chidori } from "chidori:agent";
run(async () => {
  const o = await chidori.branch([{ label: "asks", source: "strategies/asks.js" },
                                  { label: "fine", source: "strategies/two_logs.js", input: { k: 5 } }]);
  await chidori.log("parent goes on");
  return o;
});
"""
ASKS = """import { run, chidori } from "chidori:agent";
run(async () => {
  await chidori.log("before the question");
  const a = await chidori.input("which strategy?");
  await chidori.log("answered " + a);
  return { answer: a, r: Math.floor(Math.random() * 1e9) };
});
"""
FAILS = """import { run, chidori } from "chidori:agent";
run(async () => {
  const o = await chidori.branch([{ label: "throws", source: "strategies/throws.js" },
                                  { label: "syntax", source: "strategies/syntax.js" },
                                  { label: "forks", source: "strategies/forks.js" },
                                  { label: "ok", source: "strategies/two_logs.js", input: { k: 7 } }]);
  return o.map((x) => ({ label: x.label, status: x.status, error: x.error || null, output: x.output }));
});
"""
THROWS = """import { run, chidori } from "chidori:agent";
run(async () => { await chidori.log("about to fail"); throw new Error("this strategy broke"); });
"""
FORKS = """import { run, chidori } from "chidori:agent";
run(async () => chidori.branch([{ source: "strategies/two_logs.js" }]));
"""
INVALID = """import { run, chidori } from "chidori:agent";
run(async () => {
  const errs = [];
  const tries = [
    () => chidori.branch("nope"),
    () => chidori.branch([]),
    () => chidori.branch(Array.from({ length: 17 }, () => ({ source: "strategies/two_logs.js" }))),
    () => chidori.branch([{ label: "lost" }]),
    () => chidori.branch([{ source: "strategies/missing.js" }]),
    () => chidori.branch([{ label: "out", source: "../outside.js" }]),
  ];
  for (const t of tries) { try { await t(); errs.push("no error"); } catch (e) { errs.push(e.message); } }
  await chidori.log("after the refusals");
  return errs;
});
"""


def project(files):
    d = tempfile.mkdtemp(prefix="chidori-branch-")
    os.makedirs(os.path.join(d, "strategies"))
    for name, text in files.items():
        with open(os.path.join(d, name), "w") as f:
            f.write(text)
    return d


def records_of(state, rid):
    with open(os.path.join(state, "runs", rid, "records.jsonl")) as f:
        return [json.loads(line) for line in f]


def branch_ids(out):
    """The run id inside each branchId, made neutral (it differs between two runs)."""
    return re.sub(r'"[0-9a-f-]{36}-op', '"RUN-op', out)


def case_branch_fan_out_replays_with_zero_live_effects(v):
    """Four branches in waves of two: each runs its module from a copy of the VFS and its own
    input, its records lie in its range (N=4, S=2: 40001, 50001, ...) under parent_seq 2, before the
    branch record; the parent's next call is past them; the replay answers the fan-out from the log
    (the provider sees no request) and prints the same output."""
    d = project({"agent.js": FAN, "strategies/ask_model.js": ASK_MODEL})
    with tempfile.TemporaryDirectory() as state:
        with fake_llm([{"text": "Hi."}] * 4) as (base, requests):
            env = {"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": base + "/v1"}
            code, out, err = chidori(v, "run", os.path.join(d, "agent.js"), env=env, state=state, timeout=120)
            assert code == 0, f"exit {code}\n{err[-3000:]}"
            got = json.loads(out)
            assert [o["label"] for o in got] == ["a", "b", "c", "d"], got
            for o in got:
                assert o["status"] == "completed", got
                assert o["output"]["reply"] == "Hi." and o["output"]["anchor"] == "from the prefix", o
            assert requests()["counts"]["openai"] == 4
            rid = run_id_of(err)
            recs = records_of(state, rid)
            order = [r["seq"] for r in recs]
            branch = next(r for r in recs if r["function"] == "branch")
            assert branch["seq"] == 2 and branch["args"]["options"] == {"concurrency": 2}, branch
            assert [x["label"] for x in branch["args"]["variants"]] == ["a", "b", "c", "d"], branch
            for k in range(4):
                mine = [r for r in recs if 40001 + k * 10000 <= r["seq"] < 50001 + k * 10000 and r.get("parent_seq")]
                assert [r["function"] for r in mine] == ["log", "prompt"], (k, mine)
                assert all(r["parent_seq"] == 2 for r in mine), mine
                assert [r["seq"] for r in mine] == [40001 + k * 10000, 40002 + k * 10000], mine
                assert all(order.index(r["seq"]) < order.index(2) for r in mine), "a branch record after its container"
                assert branch["result"][k]["branchId"] == f"{rid}-op2-branch-{k}", branch["result"][k]
            after = recs[-1]
            assert after["function"] == "log" and after["seq"] == 70003, after
            code2, out2, err2 = chidori(v, "replay", os.path.join(d, "agent.js"), rid, env=env, state=state, timeout=120)
            assert code2 == 0 and out2 == out, f"replay: exit {code2}\n{out2}\n{err2[-3000:]}"
            assert "replay matched" in err2, err2
            assert requests()["counts"]["openai"] == 4, "the replay ran a branch live"


def case_branch_ranges_match_the_original_fixture(v):
    """S=2, N=2 (the original's recorded fixture): the branches own 20001..30001 and 30001..40001;
    concurrency is clamped to the number of variants; labels default to branch-<i>; the parent's next
    call after the fork is past the merged records (30003)."""
    d = project({"agent.js": PAIR, "strategies/two_logs.js": TWO_LOGS})
    with tempfile.TemporaryDirectory() as state:
        code, out, err = chidori(v, "run", os.path.join(d, "agent.js"), state=state, timeout=60)
        assert code == 0, err[-3000:]
        recs = records_of(state, run_id_of(err))
        seqs = {r["seq"]: r for r in recs}
        assert sorted(seqs) == [1, 2, 20001, 20002, 30001, 30002, 30003], sorted(seqs)
        assert seqs[2]["args"]["options"] == {"concurrency": 2}, seqs[2]
        assert [x["label"] for x in seqs[2]["args"]["variants"]] == ["branch-0", "second"]
        assert seqs[2]["args"]["variants"][0]["input"] == {"k": 0}
        assert seqs[30003]["function"] == "log" and "parent_seq" not in seqs[30003]
        assert [o["output"] for o in json.loads(out)] == [0, 1]
        store = os.path.join(state, "runs", run_id_of(err), "branches", "op-00000000000000000002")
        with open(os.path.join(store, "branch-001", "branch.json")) as f:
            b = json.load(f)
        assert b["sequence_range"] == {"start": 30001, "end_exclusive": 40001} and b["label"] == "second", b
        with open(os.path.join(store, "branch-001", "source.ts")) as f:
            assert f.read() == TWO_LOGS


def case_branch_pause_becomes_an_outcome_and_branch_resume_answers_it(v):
    """A branch's input() makes a `paused` outcome with its prompt; the parent does not pause. `chidori
    branches` lists it; `branch-resume -v` replays the branch's records plus the answer and runs it on
    (its Math.random as in the run); only the store changes: the parent's replay still matches."""
    d = project({"agent.js": PAUSES, "strategies/asks.js": ASKS, "strategies/two_logs.js": TWO_LOGS})
    with tempfile.TemporaryDirectory() as state:
        agent = os.path.join(d, "agent.js")
        code, out, err = chidori(v, "run", agent, state=state, timeout=60)
        assert code == 0, f"the parent paused or failed: exit {code}\n{err[-3000:]}"
        rid = run_id_of(err)
        got = json.loads(out)
        assert got[0]["status"] == "paused" and got[0]["pendingPrompt"] == "which strategy?", got
        assert got[1]["status"] == "completed" and got[1]["output"] == 5, got
        code, listed, err = chidori(v, "branches", rid, state=state)
        assert code == 0, err
        rows = json.loads(listed)
        assert [(r["label"], r["status"], r["pendingPrompt"]) for r in rows] == \
            [("asks", "paused", "which strategy?"), ("fine", "completed", None)], rows
        bid = rows[0]["branchId"]
        code, res, err = chidori(v, "branch-resume", rid, bid, "-v", "outline first", state=state, timeout=60)
        assert code == 0, f"exit {code}\n{res}\n{err[-3000:]}"
        answered = json.loads(res)
        assert answered["status"] == "completed" and answered["output"]["answer"] == "outline first", answered
        store = os.path.join(state, "runs", rid, "branches", "op-00000000000000000001", "branch-000")
        with open(os.path.join(store, "checkpoint.json")) as f:
            cp = json.load(f)
        assert [(r["seq"], r["function"]) for r in cp] == [(20001, "log"), (20002, "input"), (20003, "log")], cp
        assert all(r["parent_seq"] == 1 for r in cp), cp
        with open(os.path.join(store, "branch.json")) as f:
            b = json.load(f)
        assert b["status"] == "completed" and b["pending_prompt"] is None and b["output"]["answer"] == "outline first"
        # the same answer again is refused: it is no longer paused
        code, _, err = chidori(v, "branch-resume", rid, bid, "-v", "again", state=state)
        assert code == 1 and "not paused on an input" in err, err
        # the parent's record never changes
        code, out2, err2 = chidori(v, "replay", agent, rid, state=state, timeout=60)
        assert code == 0 and out2 == out, f"exit {code}\n{err2[-2000:]}"
        # rerun: from the anchor, an empty log, the same seed: it pauses again at the same question
        code, res, err = chidori(v, "branch-rerun", rid, bid, state=state, timeout=60)
        assert code == 3 and json.loads(res)["pendingPrompt"] == "which strategy?", f"exit {code}\n{res}\n{err}"


def case_branch_failures_are_outcomes(v):
    """A branch that throws, one that does not compile and one that forks again (nested branches
    are refused) each become a `failed` outcome with its error; the others complete."""
    d = project({"agent.js": FAILS, "strategies/throws.js": THROWS, "strategies/syntax.js": "run(async () => {",
                 "strategies/forks.js": FORKS, "strategies/two_logs.js": TWO_LOGS})
    for mode in ("--no-isolate", "--isolate"):
        with tempfile.TemporaryDirectory() as state:
            code, out, err = chidori(v, "run", mode, os.path.join(d, "agent.js"), state=state, timeout=60)
            assert code == 0, f"{mode}: exit {code}\n{err[-3000:]}"
            got = {o["label"]: o for o in json.loads(out)}
            assert got["throws"]["status"] == "failed" and "this strategy broke" in got["throws"]["error"], got
            assert got["syntax"]["status"] == "failed" and "SyntaxError" in got["syntax"]["error"], got
            assert got["forks"]["status"] == "failed" and \
                "nested chidori.branch is not supported: a branch cannot fork again" in got["forks"]["error"], got
            assert got["ok"]["status"] == "completed" and got["ok"]["output"] == 7, got
            recs = records_of(state, run_id_of(err))
            assert any(r["function"] == "log" and r["args"]["message"] == "about to fail" for r in recs), recs


def case_branch_validation_errors_take_no_seq(v):
    """Each refusal has the original's text and records nothing: the next call takes seq 1."""
    d = project({"agent.js": INVALID, "strategies/two_logs.js": TWO_LOGS})
    with open(os.path.join(os.path.dirname(d), "outside.js"), "w") as f:
        f.write("// outside the project\n")
    with tempfile.TemporaryDirectory() as state:
        code, out, err = chidori(v, "run", os.path.join(d, "agent.js"), state=state, timeout=60)
        assert code == 0, err[-3000:]
        errs = json.loads(out)
        assert errs[0] == "chidori.branch requires an array of variants", errs
        assert errs[1] == "chidori.branch requires at least one variant", errs
        assert errs[2] == "chidori.branch supports at most 16 variants, got 17", errs
        assert errs[3].startswith("chidori.branch variant `lost` requires a `source` module path"), errs
        assert errs[4].startswith("chidori.branch variant `branch-0`: reading source strategies/missing.js: "), errs
        assert errs[5].startswith("chidori.branch variant `out`: reading source ../outside.js: "), errs
        recs = records_of(state, run_id_of(err))
        assert [(r["seq"], r["function"]) for r in recs] == [(1, "log")], recs
    os.unlink(os.path.join(os.path.dirname(d), "outside.js"))


def case_branch_isolated_and_in_process_agree(v):
    """The same fan-out, isolated (a worker per branch) and in this process, with the same captured
    seed: the same output (each branch's Math.random included) and the same records."""
    d = project({"agent.js": FAN, "strategies/ask_model.js": ASK_MODEL})
    outs, shapes = [], []
    for mode in ("--isolate", "--no-isolate"):
        with tempfile.TemporaryDirectory() as state, fake_llm([{"text": "Hi."}] * 4) as (base, _):
            env = {"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": base + "/v1", "CHIDORI_SEED": "4242",
                   "CHIDORI_CLOCK_START_MS": "1700000000000"}
            code, out, err = chidori(v, "run", mode, os.path.join(d, "agent.js"), env=env, state=state, timeout=120)
            assert code == 0, f"{mode}: exit {code}\n{err[-3000:]}"
            outs.append(branch_ids(out))
            shapes.append(sorted((r["seq"], r.get("parent_seq"), r["function"]) for r in records_of(state, run_id_of(err))))
    assert outs[0] == outs[1], f"isolated:\n{outs[0]}\nin-process:\n{outs[1]}"
    assert shapes[0] == shapes[1], shapes


def case_branch_a_run_in_the_original_folder_shape_replays_whole(v):
    """A run folder as the original chidori writes one (tests/branch/original_folder: checkpoint.json
    with the branches' records before the `branch` record, in the original's ranges, sorted keys,
    microsecond timestamps; written by us) replays past its `branch` call to the end, with zero
    live effects, output compared as a value (issue 17 replayed only up to that call)."""
    import shutil
    from run import ROOT
    with tempfile.TemporaryDirectory() as tmp:
        runs = os.path.join(tmp, "runs")
        shutil.copytree(os.path.join(ROOT, "tests", "branch", "original_folder"), runs)
        rid = os.listdir(runs)[0]
        agent = os.path.join(ROOT, "tests", "branch", "fork.ts")
        code, out, err = chidori(v, "replay", agent, rid, "--runs-dir", runs, state=tmp, timeout=60)
        assert code == 0, f"exit {code}\n{out}\n{err[-3000:]}"
        assert "replay matched 6 records" in err, err
        assert json.loads(out)["outputs"][1]["draft"].endswith("release notes-8"), out
        assert not os.path.exists(os.path.join(runs, rid, "branches")), "the replay wrote a branch store"


WAVES = """import { run, chidori } from "chidori:agent";
run(async (input) => {
  const v = [0, 1, 2, 3].map((k) => ({ source: "strategies/count.js", input: { k } }));
  return (await chidori.branch(v, { concurrency: input.c })).map((o) => o.output);
});
"""
COUNT = """import { run, chidori } from "chidori:agent";
run(async () => {
  const n = (await chidori.memory.get("count")) ?? 0;
  await chidori.memory.set("count", n + 1);
  return n;
});
"""


def case_branch_waves_of_one_run_in_order(v):
    """concurrency 1 (the default): each wave of one ends before the next starts, so each branch
    sees the count the one before it left (a shared chidori.memory counter): 0, 1, 2, 3."""
    d = project({"agent.js": WAVES, "strategies/count.js": COUNT})
    for mode in ("--no-isolate", "--isolate"):
        with tempfile.TemporaryDirectory() as state:
            code, out, err = chidori(v, "run", mode, os.path.join(d, "agent.js"), "--input", json.dumps({"c": 1}), state=state, timeout=60)
            assert code == 0, f"{mode}: exit {code}\n{err[-3000:]}"
            assert json.loads(out) == [0, 1, 2, 3], (mode, out)


def case_branch_store_garbage_is_refused_clearly(v):
    """The store is files anyone could edit: a branch.json that is not JSON is skipped by `branches`
    (said on stderr), a branch.json whose range is wrong or a checkpoint.json that is not records is
    refused by branch-resume with an error naming the file, and nothing is run or changed."""
    d = project({"agent.js": PAUSES, "strategies/asks.js": ASKS, "strategies/two_logs.js": TWO_LOGS})
    with tempfile.TemporaryDirectory() as state:
        code, out, err = chidori(v, "run", os.path.join(d, "agent.js"), state=state, timeout=60)
        assert code == 0, err[-3000:]
        rid = run_id_of(err)
        store = os.path.join(state, "runs", rid, "branches", "op-00000000000000000001")
        bid = f"{rid}-op1-branch-0"
        with open(os.path.join(store, "branch-001", "branch.json"), "w") as f:
            f.write("{not json")
        code, listed, err = chidori(v, "branches", rid, state=state)
        assert code == 0 and [r["label"] for r in json.loads(listed)] == ["asks"], listed
        assert "branch-001/branch.json is not valid JSON" in err and "skipped" in err, err
        path = os.path.join(store, "branch-000", "checkpoint.json")
        with open(path, "w") as f:
            f.write('{"seq": 1}')
        code, out, err = chidori(v, "branch-resume", rid, bid, "-v", "x", state=state)
        assert code == 1 and "checkpoint.json must be an array of records" in err, (code, err)
        with open(path, "w") as f:
            f.write('[{"seq": "one"}]')
        code, out, err = chidori(v, "branch-resume", rid, bid, "-v", "x", state=state)
        assert code == 1 and "`seq` must be a positive integer" in err, (code, err)
        bpath = os.path.join(store, "branch-000", "branch.json")
        with open(bpath) as f:
            b = json.load(f)
        b["sequence_range"] = {"start": 0, "end_exclusive": 5}
        with open(bpath, "w") as f:
            json.dump(b, f)
        code, out, err = chidori(v, "branch-resume", rid, bid, "-v", "x", state=state)
        assert code == 1 and "branch.json or its anchor.json is malformed" in err, (code, err)
        code, out, err = chidori(v, "branch-resume", rid, "nope", "-v", "x", state=state)
        assert code == 1 and "no branch nope in run" in err, (code, err)
        code, out, err = chidori(v, "branch-resume", rid, bid, state=state)
        assert code == 2 and "needs the answer" in err, (code, err)
