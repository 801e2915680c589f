"""tests/cases_runs_cli.py — the command line of issue 21 (docs/cli.md): `chidori runs list|show`
(tables, --json, --follow) over real runs with a prompt, a fetch, a workspace write, a failing call
and a nested agent; run folders full of garbage; `--help` on every command, `chidori help`, the
bash completion script driven by bash itself; and the small fixes (GET / → /ui, a missing agent
file, the paused JSON on stdout and its resume command, `replay matched N records`, the -i error,
the MCP configuration error).

Real peers only: providers/fake_llm.py answers the prompts (with token usage), tests/http/server.py
the fetch, a real `chidori serve` the redirect. The project folders are written by the tests.
"""
import json
import os
import shlex
import shutil
import subprocess
import tempfile
import time

from cases import chidori
from cases_effects import fake_llm, run_id_of
from cases_http import server as http_server
from run import ROOT, run_process, sanitizer_report

MAIN = """export default async (input, chidori) => {
  const a = await chidori.prompt("first question", {});
  const b = await chidori.prompt("second question", {});
  const r = await fetch(input.base + "/echo?x=1");
  await chidori.workspace.write("notes/out.md", a);
  let failed = null;
  try { await chidori.workspace.read("missing/none.md"); } catch (e) { failed = String(e); }
  const child = await chidori.callAgent("child.js", { n: 1 });
  if (input.ask) await chidori.input("Ship it?");
  return { a, b, status: r.status, failed: failed !== null, child };
};
"""

CHILD = """export default async (input, chidori) => {
  await chidori.log("in the child", { n: input.n });
  return { ok: true };
};
"""

SLOW = """export default async (input, chidori) => {
  await chidori.mark("before", {});
  const a = await chidori.prompt("slow question", {});
  await chidori.mark("after", {});
  return { a };
};
"""

SCRIPT = [{"text": "one", "model": "m-1", "usage": {"input": 11, "output": 7}},
          {"text": "two", "model": "m-1", "usage": {"input": 5, "output": 3}}]
CALL_KEYS = {"seq", "parent_seq", "function", "target", "duration_ms", "timestamp_ms", "tokens", "model", "error",
             "depth"}
RUN_KEYS = {"id", "agent", "status", "started_at_ms", "ended_at_ms", "duration_ms", "effects", "tokens", "cost",
            "error", "warnings"}
COMMANDS = ["run", "replay", "resume", "runs", "serve", "eval", "sandbox", "version", "completion", "settings"]


def project(files):
    """A project folder whose path holds a space (the resume command must quote it)."""
    proj = tempfile.mkdtemp(prefix="chidori runs ")
    for name, text in files.items():
        with open(os.path.join(proj, name), "w") as f:
            f.write(text)
    return proj


def cli(v, *args, cwd, env=None, timeout=30):
    """chidori in cwd, with no CHIDORI_STATE_DIR unless env gives one (the default state folder)."""
    code, out, err, secs, timed_out = run_process([v.chidori, *args], v.env(dict(env or {})), timeout * v.slow,
                                                  cwd=cwd)
    assert not timed_out, f"chidori {' '.join(args)} timed out"
    assert not sanitizer_report(err), "sanitizer report:\n" + err[-3000:]
    return code, out, err


def records(runs_dir, rid):
    with open(os.path.join(runs_dir, rid, "records.jsonl")) as f:
        return [json.loads(line) for line in f]


def recorded_run(v, ask=False):
    """One real run of MAIN in a fresh project, state in the default place. (proj, rid, runs_dir, port, run's
    (code, out, err))."""
    proj = project({"main.js": MAIN, "child.js": CHILD})
    with fake_llm(SCRIPT) as (base, _), http_server() as (port, _):
        env = {"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": base + "/v1", "CHIDORI_HTTP_ALLOW_HOSTS": "127.0.0.1"}
        inp = {"base": f"http://127.0.0.1:{port}", **({"ask": True} if ask else {})}
        got = cli(v, "run", "main.js", "-i", json.dumps(inp), cwd=proj, env=env)
    assert got[0] == (3 if ask else 0), got
    return proj, run_id_of(got[2]), os.path.join(proj, ".chidori", "runs"), port, got


def case_runs_list_and_show_read_a_real_run(v):
    proj, rid, runs_dir, port, _ = recorded_run(v)
    try:
        recs = records(runs_dir, rid)
        # list, in the folder a run here would use
        code, out, err = cli(v, "runs", "list", cwd=proj)
        assert code == 0 and err == "", (code, err)
        head, row = out.splitlines()
        for word in ["RUN ID", "AGENT", "STATUS", "STARTED", "DURATION", "EFFECTS", "TOKENS"]:
            assert word in head, head
        cells = row.split()
        assert cells[0] == rid and cells[1] == "main.js" and cells[2] == "completed", row
        assert cells[-2] == str(len(recs)) and cells[-1] == "16/10", row
        code, out, err = cli(v, "runs", "list", "--json", cwd=proj)
        assert code == 0, err
        listed = json.loads(out)
        assert os.path.realpath(listed["runs_dir"]) == os.path.realpath(runs_dir) or listed["runs_dir"] == "./.chidori/runs", listed
        (run,) = listed["runs"]
        assert set(run) == RUN_KEYS, run
        assert run["id"] == rid and run["status"] == "completed" and run["effects"] == len(recs), run
        assert run["tokens"] == {"input": 16, "output": 10}, run
        assert run["ended_at_ms"] is not None and run["ended_at_ms"] >= run["started_at_ms"] > 0 and run["duration_ms"] >= 0, run
        assert run["warnings"] == [] and run["error"] is None and run["cost"] is None, run
        # the same runs through --runs-dir and CHIDORI_STATE_DIR, from elsewhere
        elsewhere = tempfile.mkdtemp(prefix="chidori-elsewhere-")
        code, out2, _ = cli(v, "runs", "list", "--json", "--runs-dir", runs_dir, cwd=elsewhere)
        assert code == 0 and json.loads(out2)["runs"] == listed["runs"], out2
        code, out3, _ = cli(v, "runs", "list", "--json", cwd=elsewhere,
                            env={"CHIDORI_STATE_DIR": os.path.join(proj, ".chidori")})
        assert code == 0 and json.loads(out3)["runs"] == listed["runs"], out3
        code, out4, _ = cli(v, "runs", "list", cwd=elsewhere)
        assert code == 0 and out4.startswith("No runs in"), out4
        shutil.rmtree(elsewhere)
        # show: the call log, by a prefix of the id
        code, out, err = cli(v, "runs", "show", rid[:8], cwd=proj)
        assert code == 0 and err == "", (code, err)
        assert f"Run {rid}: main.js, completed" in out and "tokens 16 in / 10 out" in out, out
        lines = out.splitlines()
        prompts = [l for l in lines if " prompt " in l]
        assert len(prompts) == 2 and "11/7" in prompts[0] and "m-1" in prompts[0] and "5/3" in prompts[1], prompts
        assert any(" http " in l and l.rstrip().endswith(f"GET 127.0.0.1:{port}") for l in lines), out
        assert any(" workspace " in l and "write notes/out.md" in l for l in lines), out
        assert any("read missing/none.md" in l for l in lines), out
        assert any(l.strip().startswith("error: ") for l in lines), out
        log_line = [l for l in lines if "in the child" in l]
        assert len(log_line) == 1 and "    log " in log_line[0], ("the nested call is not indented", out)
        # show --json: the documented shape, ordered by seq, nesting and errors kept
        code, out, err = cli(v, "runs", "show", rid, "--json", cwd=proj)
        assert code == 0, err
        shown = json.loads(out)
        assert shown["run"] == run, (shown["run"], run)
        calls = shown["calls"]
        assert [c["seq"] for c in calls] == sorted(r["seq"] for r in recs), calls
        assert all(set(c) == CALL_KEYS for c in calls), calls[0]
        by_fn = {}
        for c in calls:
            by_fn.setdefault(c["function"], []).append(c)
        assert [c["tokens"] for c in by_fn["prompt"]] == [{"input": 11, "output": 7}, {"input": 5, "output": 3}]
        assert by_fn["prompt"][0]["model"] == "m-1", by_fn["prompt"]
        assert [c["target"] for c in by_fn["workspace"]] == ["write notes/out.md", "read missing/none.md"]
        assert by_fn["workspace"][0]["error"] is None and by_fn["workspace"][1]["error"], by_fn["workspace"]
        (call_agent,) = by_fn["call_agent"]
        (log,) = by_fn["log"]
        assert call_agent["target"] == "child.js" and log["parent_seq"] == call_agent["seq"] and log["depth"] == 1
        assert all(c["duration_ms"] is None or c["duration_ms"] >= 0 for c in calls), calls
        # replay says it matched, with the number of records
        code, out, err = cli(v, "replay", "main.js", rid, cwd=proj)
        assert code == 0 and f"replay matched {len(recs)} records of run {rid}" in err, (code, err)
        # usage errors and unknown runs
        for args, want in [(["runs"], 2), (["runs", "frob"], 2), (["runs", "show"], 2),
                           (["runs", "list", "--bogus"], 2), (["runs", "show", rid, "--timeout", "0"], 2),
                           (["runs", "show", "0123abcd"], 1), (["runs", "show", "not-an-id!"], 1)]:
            code, out, err = cli(v, *args, cwd=proj)
            assert code == want, (args, code, err)
    finally:
        shutil.rmtree(proj)


def case_runs_cost_from_a_price_table(v):
    """CHIDORI_PRICES prices each prompt by the model that answered it; unpriced prompts are counted."""
    proj, rid, runs_dir, _, _ = recorded_run(v)
    try:
        def with_prices(table, *args):
            path = os.path.join(proj, "prices.json")
            with open(path, "w") as f:
                f.write(table if isinstance(table, str) else json.dumps(table))
            return cli(v, "runs", *args, cwd=proj, env={"CHIDORI_PRICES": path})
        code, out, err = with_prices({"m-1": {"input": 2, "output": 10}, "other": {"input": 1, "output": 1}}, "list", "--json")
        assert code == 0, err
        (run,) = json.loads(out)["runs"]
        assert run["cost"]["unpriced_prompts"] == 0 and abs(run["cost"]["usd"] - (16 * 2 + 10 * 10) / 1e6) < 1e-12, run
        code, out, err = with_prices({"m-1": {"input": 2000, "output": 10000}}, "list")
        assert code == 0 and out.splitlines()[0].rstrip().endswith("COST"), out
        assert out.splitlines()[1].rstrip().endswith("$0.1320"), out
        code, out, err = with_prices({"m-1": {"input": 2000, "output": 10000}}, "show", rid)
        assert code == 0 and "tokens 16 in / 10 out, cost $0.1320" in out, out
        code, out, err = with_prices({"gpt-x": {"input": 1, "output": 1}}, "show", rid, "--json")
        assert code == 0 and json.loads(out)["run"]["cost"] == {"usd": 0, "unpriced_prompts": 2}, out
        code, out, err = with_prices({"gpt-x": {"input": 1, "output": 1}}, "list")
        assert code == 0 and out.splitlines()[1].rstrip().endswith("?"), out
        for bad, words in [("{oops", "not valid JSON"), ("[1]", "must be a JSON object"),
                           ({"m-1": {"input": -1, "output": 1}}, "the price of `m-1`"),
                           ({"m-1": {"input": 1}}, "the price of `m-1`"), ("x" * (2 << 20), "")]:
            code, out, err = with_prices(bad, "list")
            assert code == 2 and "CHIDORI_PRICES" in err and words in err and out == "", (bad if len(str(bad)) < 99 else "big", code, err)
        code, out, err = cli(v, "runs", "list", cwd=proj, env={"CHIDORI_PRICES": os.path.join(proj, "nope.json")})
        assert code == 2 and "CHIDORI_PRICES" in err, err
    finally:
        shutil.rmtree(proj)


def case_runs_cost_from_the_originals_pricing_setting(v):
    """CHIDORI_PRICING, the original chidori's inline form: model prefix → per-million prices, the
    longest prefix first; an exact CHIDORI_PRICES entry beats it; a malformed value is exit 2."""
    proj, rid, runs_dir, _, _ = recorded_run(v)
    try:
        def runs_json(env):
            code, out, err = cli(v, "runs", "list", "--json", cwd=proj, env=env)
            assert code == 0, err
            (run,) = json.loads(out)["runs"]
            return run["cost"]
        # both prompts answered by m-1 (16 in, 10 out in all)
        cost = runs_json({"CHIDORI_PRICING": json.dumps({"m": {"input_per_mtok": 500, "output_per_mtok": 500},
                                                          "m-": {"input_per_mtok": 2, "output_per_mtok": 10}})})
        assert cost["unpriced_prompts"] == 0 and abs(cost["usd"] - (16 * 2 + 10 * 10) / 1e6) < 1e-12, cost
        cost = runs_json({"CHIDORI_PRICING": json.dumps({"gpt": {"input_per_mtok": 1, "output_per_mtok": 1}})})
        assert cost == {"usd": 0, "unpriced_prompts": 2}, cost
        path = os.path.join(proj, "prices.json")
        with open(path, "w") as f:
            json.dump({"m-1": {"input": 1, "output": 1}}, f)
        cost = runs_json({"CHIDORI_PRICES": path,
                          "CHIDORI_PRICING": json.dumps({"m-": {"input_per_mtok": 2, "output_per_mtok": 10}})})
        assert abs(cost["usd"] - 26 / 1e6) < 1e-12, cost  # the exact entry won
        for bad, words in [("{oops", "not valid JSON"), ('{"m": {"input_per_mtok": 1}}', "the price of `m`"),
                           ('{"m": {"input_per_mtok": 1, "output_per_mtok": 1, "cache_read_multiplier": -1}}',
                            "the price of `m`")]:
            code, out, err = cli(v, "runs", "list", cwd=proj, env={"CHIDORI_PRICING": bad})
            assert code == 2 and "CHIDORI_PRICING" in err and words in err and out == "", (bad, code, err)
    finally:
        shutil.rmtree(proj)


def case_runs_cost_prices_cached_tokens_by_their_multipliers(v):
    """Cached input tokens (token_usage's cache fields) cost the input price times the row's
    multiplier; a row that names none uses the original's defaults (reads 0.5, writes 1.0)."""
    proj, rid, runs_dir, _, _ = recorded_run(v)
    try:
        path = os.path.join(runs_dir, rid, "records.jsonl")
        recs = records(runs_dir, rid)
        prompts = [r for r in recs if r["function"] == "prompt"]
        assert len(prompts) == 2 and all("token_usage" in r for r in prompts), prompts
        for r in prompts:
            r["token_usage"].update(cache_read_tokens=1000, cache_creation_tokens=100)
        with open(path, "w") as f:
            f.write("".join(json.dumps(r) + "\n" for r in recs))

        def usd(pricing):
            code, out, err = cli(v, "runs", "list", "--json", cwd=proj, env={"CHIDORI_PRICING": json.dumps(pricing)})
            assert code == 0, err
            (run,) = json.loads(out)["runs"]
            assert run["cost"]["unpriced_prompts"] == 0, run
            return run["cost"]["usd"]
        base = 16 * 2 + 10 * 10
        got = usd({"m-": {"input_per_mtok": 2, "output_per_mtok": 10, "cache_read_multiplier": 0.1,
                          "cache_write_multiplier": 1.25}})
        assert abs(got - (base + 2000 * 2 * 0.1 + 200 * 2 * 1.25) / 1e6) < 1e-12, got
        got = usd({"m-": {"input_per_mtok": 2, "output_per_mtok": 10}})
        assert abs(got - (base + 2000 * 2 * 0.5 + 200 * 2 * 1.0) / 1e6) < 1e-12, got
    finally:
        shutil.rmtree(proj)


def case_serve_refuses_a_malformed_price_table_at_start(v):
    """serve reads the prices once, at start: a malformed CHIDORI_PRICING is exit 2 before it listens."""
    proj = project({"main.js": "export default async () => 1;\n"})
    try:
        code, out, err = cli(v, "serve", "main.js", "--port", "0", cwd=proj, env={"CHIDORI_PRICING": "[1]"})
        assert code == 2 and "CHIDORI_PRICING: must be a JSON object" in err and "Listening" not in err, (code, err)
    finally:
        shutil.rmtree(proj)


def case_runs_survive_garbage_in_run_folders(v):
    proj, rid, runs_dir, _, _ = recorded_run(v)
    try:
        good = os.path.join(runs_dir, rid)
        n = len(records(runs_dir, rid))

        def copy(new_id):
            dst = os.path.join(runs_dir, new_id)
            shutil.copytree(good, dst)
            return dst
        # records.jsonl: garbage lines, a record with terminal escapes, a torn last line
        torn = copy("aaaaaaaa-0000-4000-8000-000000000001")
        with open(os.path.join(torn, "records.jsonl"), "ab") as f:
            f.write(b"this is not json\n")
            f.write(b'{"seq": "x", "function": "log"}\n')
            f.write(b'\xff\xfe\x00garbage\n')
            f.write(json.dumps({"seq": 900, "function": "log", "args": {"message": "\x1b[2J\x1b]0;pwned\x07\u202e"},
                                "result": None, "duration_ms": 1, "timestamp": 1}).encode() + b"\n")
            f.write(b'{"seq": 901, "function": "lo')
        code, out, err = cli(v, "runs", "show", "aaaaaaaa-0000-4000-8000-000000000001", cwd=proj)
        assert code == 0, (code, err)
        assert "line %d is not a call record (not valid JSON)" % (n + 1) in err, err
        assert "line %d is not a call record (`seq` is missing" % (n + 2) in err, err
        assert "line %d is cut short" % (n + 5) in err, err
        assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out, repr(out)
        assert " 900 " in out and f"{n + 1} effects" in out, out
        code, out, err = cli(v, "runs", "show", "aaaaaaaa-0000-4000-8000-000000000001", "--json", cwd=proj)
        assert code == 0 and "\x1b" not in out, (code, err)
        got = json.loads(out)
        assert len(got["calls"]) == n + 1 and len(got["run"]["warnings"]) == 4, got["run"]
        # a line longer than any record (64 MiB) is skipped, and the records after it still read
        huge = copy("aaaaaaaa-0000-4000-8000-00000000000f")
        with open(os.path.join(huge, "records.jsonl"), "ab") as f:
            f.write(b'{"seq": 800, "function": "log", "args": {"message": "')
            chunk = b"x" * (1 << 20)
            for _ in range(65):
                f.write(chunk)
            f.write(b'"}}\n')
            f.write(json.dumps({"seq": 801, "function": "mark", "args": {"label": "after the big one"}}).encode() + b"\n")
        code, out, err = cli(v, "runs", "show", "aaaaaaaa-0000-4000-8000-00000000000f", cwd=proj)
        assert code == 0 and f"line {n + 1} is longer than a call record can be: skipped" in err, (code, err)
        assert "after the big one" in out and f"{n + 1} effects" in out, out
        shutil.rmtree(huge)
        # run.json: garbage, a FIFO in its place, missing; records.jsonl a folder
        bad_meta = copy("aaaaaaaa-0000-4000-8000-000000000002")
        with open(os.path.join(bad_meta, "run.json"), "w") as f:
            f.write('{"run_id": ')
        fifo = copy("bbbbbbbb-0000-4000-8000-000000000003")
        os.unlink(os.path.join(fifo, "run.json"))
        os.mkfifo(os.path.join(fifo, "run.json"))
        gone = copy("bbbbbbbb-0000-4000-8000-000000000004")
        os.unlink(os.path.join(gone, "run.json"))
        folder = copy("bbbbbbbb-0000-4000-8000-000000000005")
        os.unlink(os.path.join(folder, "records.jsonl"))
        os.mkdir(os.path.join(folder, "records.jsonl"))
        code, out, err = cli(v, "runs", "list", cwd=proj, timeout=20)
        assert code == 0, (code, err)
        rows = {l.split()[0]: l for l in out.splitlines()[1:]}
        assert len(rows) == 6, out
        for rid_bad in ["aaaaaaaa-0000-4000-8000-000000000002", "bbbbbbbb-0000-4000-8000-000000000003",
                        "bbbbbbbb-0000-4000-8000-000000000004"]:
            assert " unreadable " in rows[rid_bad], rows[rid_bad]
        assert "is not a chidori run record" in err, err  # the garbage run.json
        assert "bbbbbbbb-0000-4000-8000-000000000003/run.json is a FIFO, not a regular file" in err, err
        assert "bbbbbbbb-0000-4000-8000-000000000004/run.json" in err, err  # missing
        assert " completed " in rows["bbbbbbbb-0000-4000-8000-000000000005"], rows
        assert "records.jsonl" in err, err
        code, out, err = cli(v, "runs", "show", "aaaaaaaa-0000-4000-8000-000000000002", cwd=proj)
        assert code == 1 and "is not a chidori run record" in err, (code, err)
        code, out, err = cli(v, "runs", "show", "aaaaaaaa", cwd=proj)
        assert code == 1 and "names 2 runs" in err, (code, err)
        code, out, err = cli(v, "runs", "list", "--json", cwd=proj, timeout=20)
        assert code == 0 and len(json.loads(out)["runs"]) == 6, (code, err)
    finally:
        shutil.rmtree(proj)


def case_runs_show_follow_prints_calls_until_the_run_ends(v):
    proj = project({"slow.js": SLOW})
    runs_dir = os.path.join(proj, ".chidori", "runs")
    try:
        with fake_llm([{"text": "late", "delayMs": int(2500 * v.slow), "usage": {"input": 3, "output": 2}}]) as (base, _):
            env = v.env({"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": base + "/v1"})
            run = subprocess.Popen([v.chidori, "run", "slow.js"], cwd=proj, env=env, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True)
            deadline = time.monotonic() + 20 * v.slow
            rid = None
            while time.monotonic() < deadline and rid is None:
                ids = os.listdir(runs_dir) if os.path.isdir(runs_dir) else []
                if ids and os.path.exists(os.path.join(runs_dir, ids[0], "records.jsonl")):
                    rid = ids[0]
                time.sleep(0.05)
            assert rid, "the run made no record"
            errors = tempfile.TemporaryFile("w+")
            with open(os.path.join(runs_dir, rid, "run.json")) as f:
                assert json.load(f)["status"] == "running", "the run ended before --follow started"
            follow = subprocess.Popen([v.chidori, "runs", "show", rid, "--follow", "--timeout", str(int(40 * v.slow))],
                                      cwd=proj, env=env,
                                      stdout=subprocess.PIPE, stderr=errors, text=True)
            first = follow.stdout.readline()  # the header, then rows as they come
            assert first.startswith(f"Run {rid}: slow.js, running"), first
            out = follow.stdout.read()
            follow.wait(timeout=30 * v.slow)
            errors.seek(0)
            err = errors.read()
            run_out, run_err = run.communicate(timeout=30 * v.slow)
        assert run.returncode == 0, run_err
        assert follow.returncode == 0, (follow.returncode, err)
        assert not sanitizer_report(err), err
        rows = [l for l in out.splitlines() if l[:6].strip().isdigit()]
        assert [l.split()[1] for l in rows] == ["mark", "prompt", "mark"], out
        assert "3/2" in rows[1], rows
        assert f"Run {rid} completed after" in out and "3 effects, tokens 3 in / 2 out" in out, out
        # --json: one call per line, then the run
        code, out, err = cli(v, "runs", "show", rid, "--follow", "--json", cwd=proj)
        lines = [json.loads(l) for l in out.splitlines()]
        assert code == 0 and [l.get("function") for l in lines[:3]] == ["mark", "prompt", "mark"], out
        assert lines[3]["run"]["status"] == "completed", lines[3]
        # a `running` run whose process is gone ends the follow at once, as interrupted
        gone = os.path.join(runs_dir, "cccccccc-0000-4000-8000-000000000001")
        shutil.copytree(os.path.join(runs_dir, rid), gone)
        with open(os.path.join(gone, "run.json")) as f:
            meta = json.load(f)
        meta["status"] = "running"
        with open(os.path.join(gone, "run.json"), "w") as f:
            json.dump(meta, f)
        dead = subprocess.Popen(["true"])
        dead.wait()
        with open(os.path.join(gone, "run.lock"), "w") as f:
            f.write(f"{dead.pid}\n")
        start = time.monotonic()
        code, out, err = cli(v, "runs", "show", "cccccccc", "--follow", cwd=proj)
        assert code == 1 and "interrupted" in out and time.monotonic() - start < 10 * v.slow, (code, out, err)
        code, out, err = cli(v, "runs", "list", cwd=proj)
        assert " interrupted " in out, out
        # still running (a live process holds the lock): --timeout bounds the follow
        with open(os.path.join(gone, "run.lock"), "w") as f:
            f.write(f"{os.getpid()}\n")
        start = time.monotonic()
        code, out, err = cli(v, "runs", "show", "cccccccc", "--follow", "--timeout", "1", cwd=proj)
        took = time.monotonic() - start
        assert code == 1 and "still running after 1 s" in err and took < 10 * v.slow, (code, took, err)
    finally:
        shutil.rmtree(proj)


def case_help_for_every_command_and_help_command(v):
    with tempfile.TemporaryDirectory() as tmp:
        code, overview, err = cli(v, "help", cwd=tmp)
        assert code == 0 and err == "" and overview.startswith("usage: chidori <command>"), (code, err)
        for name in COMMANDS[:-1]:
            assert f"\n  {name} " in overview, (name, overview)
        for flag in ["--help", "-h"]:
            code, out, err = cli(v, flag, cwd=tmp)
            assert code == 0 and out == overview, flag
        for name in COMMANDS:
            code, text, err = cli(v, "help", name, cwd=tmp)
            assert code == 0 and err == "", (name, code, err)
            assert text.startswith(f"usage: chidori {name}") and "\nexample:\n  " in text, (name, text)
            if name not in ("completion",):
                for flag in ["--help", "-h"]:
                    args = [name, flag] if name not in ("run", "replay", "resume", "serve") else [name, "x.js", flag]
                    # with a setting that would stop the command: help reads none
                    code, out, err = cli(v, *args, cwd=tmp, env={"CHIDORI_JS_OP_BUDGET": "ten"})
                    assert code == 0 and err == "" and out == text, (args, code, out, err)
        code, text, _ = cli(v, "help", "run", cwd=tmp)
        for opt in ["--input", "--answer", "--runs-dir", "--untrusted", "--trusted", "--isolate", "--no-isolate"]:
            assert opt in text, (opt, text)
        code, text, _ = cli(v, "help", "runs", cwd=tmp)
        for opt in ["list", "show", "--json", "--follow", "--timeout", "--runs-dir"]:
            assert opt in text, (opt, text)
        # an option's value that reads `--help` is a value, not a request for help
        code, out, err = cli(v, "run", "missing.js", "-i", "--help", cwd=tmp)
        assert code == 2 and "usage: chidori run" not in out and "cannot read input `--help`" in err, (code, out, err)
        code, out, err = cli(v, "help", "frobnicate", cwd=tmp)
        assert code == 2 and "no help for `frobnicate`" in err, (code, err)
        code, out, err = cli(v, "frobnicate", cwd=tmp)
        assert code == 2 and "usage: chidori <command>" in err and "runs" in err, (code, err)


def case_completion_bash_offers_commands_and_options(v):
    with tempfile.TemporaryDirectory() as tmp:
        code, script, err = cli(v, "completion", "bash", cwd=tmp)
        assert code == 0 and "complete -o filenames -F _chidori chidori" in script, (code, err)
        path = os.path.join(tmp, "chidori.bash")
        with open(path, "w") as f:
            f.write(script)
        with open(os.path.join(tmp, "agent.js"), "w") as f:
            f.write("")

        def offered(*words):
            probe = (f"source {shlex.quote(path)}; cd {shlex.quote(tmp)}; COMP_WORDS=({' '.join(shlex.quote(w) for w in words)}); "
                     f"COMP_CWORD={len(words) - 1}; _chidori; printf '%s\\n' \"${{COMPREPLY[@]}}\"")
            p = subprocess.run(["bash", "-c", probe], capture_output=True, text=True, timeout=20)
            assert p.returncode == 0, p.stderr
            return set(p.stdout.split())
        assert {"run", "replay", "resume", "runs", "serve", "eval", "help", "completion"} <= offered("chidori", ""), offered("chidori", "")
        assert offered("chidori", "ru") == {"run", "runs"}
        assert offered("chidori", "runs", "") >= {"list", "show"}
        assert offered("chidori", "run", "agent.js", "--r") == {"--runs-dir"}
        assert offered("chidori", "runs", "show", "x", "--f") == {"--follow"}
        assert offered("chidori", "serve", "--p") == {"--port"}
        assert offered("chidori", "run", "ag") == {"agent.js"}
        assert offered("chidori", "help", "ser") == {"serve"}
        assert offered("chidori", "completion", "") == {"bash", "zsh"}
        code, zsh, err = cli(v, "completion", "zsh", cwd=tmp)
        assert code == 0 and zsh.startswith("#compdef chidori") and "'runs:" in zsh and "--follow" in zsh, zsh
        if shutil.which("zsh"):
            p = subprocess.run(["zsh", "-n"], input=zsh, capture_output=True, text=True, timeout=20)
            assert p.returncode == 0, p.stderr
        code, out, err = cli(v, "completion", "fish", cwd=tmp)
        assert code == 2 and "no completion for `fish`" in err, (code, err)


def case_paused_run_prints_json_and_a_resume_command_that_works(v):
    proj, rid, runs_dir, _, (code, out, err) = recorded_run(v, ask=True)
    try:
        got = json.loads(out)
        assert set(got) == {"status", "run_id", "prompt", "resume"}, got
        assert got["status"] == "paused" and got["run_id"] == rid and got["prompt"] == "Ship it?", got
        assert "paused, waiting for input: Ship it?" in err and "Resume with: " + got["resume"] in err, err
        words = shlex.split(got["resume"])
        assert words[0] == v.chidori and words[1:4] == ["resume", "main.js", rid], words  # argv[0] as invoked
        assert words[-2:] == ["--response", "<answer>"], words
        code, out, err = cli(v, "runs", "list", cwd=proj)
        assert " paused " in out, out
        with fake_llm(SCRIPT) as (base, _):
            code, out, err = cli(v, *words[1:-1], "yes", cwd=proj)
        assert code == 0 and json.loads(out)["child"] == {"ok": True}, (code, out, err)
        # the hint quotes what the shell would split: a runs folder with a space, a relative agent path
        rd = os.path.join(proj, "my runs")
        with fake_llm(SCRIPT) as (base, _), http_server() as (port, _):
            env = {"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": base + "/v1",
                   "CHIDORI_HTTP_ALLOW_HOSTS": "127.0.0.1"}
            code, out, err = cli(v, "run", os.path.join(proj, "main.js"), "--runs-dir", rd, "-i",
                                 json.dumps({"base": f"http://127.0.0.1:{port}", "ask": True}), cwd=ROOT, env=env)
        assert code == 3, err
        words = shlex.split(json.loads(out)["resume"])
        assert words[2] == os.path.join(proj, "main.js") and words[4:6] == ["--runs-dir", rd], words
    finally:
        shutil.rmtree(proj)


def case_missing_agent_file_is_a_usage_error_recording_nothing(v):
    with tempfile.TemporaryDirectory() as tmp:
        state = os.path.join(tmp, "state")
        for args in [["run", "nope.js"], ["run", tmp], ["replay", "nope.js", "0" * 8 + "-0000-4000-8000-" + "0" * 12],
                     ["resume", "nope.js", "0" * 8 + "-0000-4000-8000-" + "0" * 12, "--response", "x"]]:
            code, out, err = cli(v, *args, cwd=tmp, env={"CHIDORI_STATE_DIR": state})
            assert code == 2, (args, code, err)
            assert out == "" and ("no agent file nope.js" in err or "is a folder" in err), (args, err)
            assert not os.path.exists(state), (args, "something was recorded", os.listdir(state))


def case_input_error_names_the_item(v):
    with tempfile.TemporaryDirectory() as tmp:
        hello = os.path.join(ROOT, "examples", "hello.js")
        code, out, err = chidori(v, "run", hello, "-i", "[1]")
        assert code == 2 and "input `[1]` must be a JSON object" in err, err
        long_item = "[" + "1," * 100 + "1]"
        code, out, err = chidori(v, "run", hello, "-i", long_item)
        assert code == 2 and "input `[1,1,1," in err and "…` must be a JSON object" in err and long_item not in err, err


def case_serve_root_redirects_to_the_dashboard_and_says_where_it_is(v):
    from cases_serve import serving
    with serving(v) as s:
        status, hdrs, body = s.request("GET", "/")
        assert status == 302 and hdrs.get("location") == "/ui", (status, hdrs, body)
        status, hdrs, body = s.request("GET", "/ui")
        assert status == 200, status
        status, hdrs, body = s.request("POST", "/", {})
        assert status in (401, 404, 405), status  # only GET and HEAD are redirected
        # the line comes just after `Listening on`, which is all the harness waits for: give the
        # reader of the server's stderr a moment to see it
        want = f"Dashboard: http://{s.host}:{s.port}/ui"
        deadline = time.monotonic() + 10 * v.slow
        while want not in s.stderr() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert want in s.stderr(), s.stderr()


def case_mcp_config_error_names_the_variable_once(v):
    agent = ("export default async (input, chidori) => {\n"
             "  try { await chidori.tool('a__b', {}); } catch (e) { return String(e); }\n};\n")
    proj = project({"t.js": agent})
    try:
        for config in ['{"servers": 3}', os.path.join(proj, "missing.json")]:
            code, out, err = chidori(v, "run", os.path.join(proj, "t.js"), env={"CHIDORI_MCP_CONFIG": config})
            assert code == 0, err
            said = json.loads(out)
            assert said.count("CHIDORI_MCP_CONFIG") == 1, said
    finally:
        shutil.rmtree(proj)
