"""tests/cases.py — scripted checks, run once per build variant by tests/run.py.

Each case is a function (variant) -> None that raises AssertionError (or Skip) with a message.
They cover what a single fixture cannot say: two runs agree, inputs merge, banner lines.
"""
import json
import os
import re
import tempfile

from run import Result, run_process, sanitizer_report, ROOT

AGENTS = os.path.join(ROOT, "tests", "agents")


class Skip(Exception):
    pass


def chidori(variant, *args, env=None, timeout=30, stdin=None, state=None, exe=None):
    """Run chidori (the variant's, or exe); durable state (runs, memory) goes to `state`, or to a
    throwaway folder."""
    env = dict(env or {})
    with tempfile.TemporaryDirectory(prefix="chidori-state-") as scratch:
        env.setdefault("CHIDORI_STATE_DIR", state or scratch)
        code, out, err, secs, timed_out = run_process([exe or variant.chidori, *args], variant.env(env),
                                                      timeout * variant.slow, stdin_data=stdin)
    assert not timed_out, f"chidori {' '.join(args)} timed out"
    assert code is not None and code >= 0, f"chidori {' '.join(args)} killed by signal {-code}"
    assert not sanitizer_report(err), "sanitizer report:\n" + err[-3000:]
    return code, out, err


def case_same_captured_start_gives_identical_output(v):
    """Math.random, Date and timer order depend only on the captured seed and clock start."""
    agent = os.path.join(AGENTS, "determinism.js")
    pinned = {"CHIDORI_SEED": "12345", "CHIDORI_CLOCK_START_MS": "1700000000000"}
    a = chidori(v, "run", agent, env=pinned)
    b = chidori(v, "run", agent, env=pinned)
    assert a[0] == 0 and b[0] == 0, f"exit {a[0]}/{b[0]}: {a[2]}"
    assert a[1] == b[1], f"two runs with the same captured start differ:\n{a[1]}\n{b[1]}"
    c = chidori(v, "run", agent, env={"CHIDORI_SEED": "54321", "CHIDORI_CLOCK_START_MS": "1700000000000"})
    assert json.loads(c[1])["random"] != json.loads(a[1])["random"], "a different seed gave the same randomness"
    d = chidori(v, "run", agent)
    e = chidori(v, "run", agent)
    assert json.loads(d[1])["random"] != json.loads(e[1])["random"], "unpinned runs share a seed"


def case_inputs_merge_in_order(v):
    with tempfile.TemporaryDirectory() as tmp:
        obj = os.path.join(tmp, "in.json")
        with open(obj, "w") as f:
            json.dump({"a": 1, "b": {"deep": True}, "c": "from-file"}, f)
        text = os.path.join(tmp, "note.txt")
        with open(text, "w") as f:
            f.write("line one\nline two")
        code, out, err = chidori(v, "run", os.path.join(AGENTS, "echo-input.js"),
                                 "-i", "@" + obj, "-i", '{"c": "from-json", "d": [1, 2]}', "-i", "e=plain text",
                                 "-i", "note=@" + text, "--input", "a=overridden")
        assert code == 0, err
        got = json.loads(out)
        assert got == {"a": "overridden", "b": {"deep": True}, "c": "from-json", "d": [1, 2], "e": "plain text",
                       "note": "line one\nline two"}, got


def case_bad_inputs_are_clear_errors(v):
    agent = os.path.join(AGENTS, "echo-input.js")
    for item, words in [("[1,2]", "must be a JSON object"), ("{bad json", "not valid JSON"),
                        ("@/nonexistent/x.json", "cannot read"), ("noequals", "use key=value")]:
        code, out, err = chidori(v, "run", agent, "-i", item)
        assert code == 2, f"-i {item!r}: exit {code}"
        assert words in err, f"-i {item!r}: stderr lacks {words!r}: {err}"
        assert out == "", f"-i {item!r}: printed output {out!r}"


def case_run_prints_run_id_and_pretty_json(v):
    code, out, err = chidori(v, "run", os.path.join(ROOT, "examples", "hello.js"), "-i", "name=Ada")
    assert code == 0, err
    assert re.search(r"^Run id: [0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$", err, re.M), err
    assert out == '{\n  "greeting": "Hello, Ada!"\n}\n', repr(out)
    assert "[log] Saying hello" in err


def case_usage_errors_exit_2(v):
    for args in [[], ["frobnicate"], ["run"], ["run", "a.js", "--bogus"], ["eval"], ["eval", "1", "--file", "x"]]:
        code, out, err = chidori(v, *args)
        assert code == 2, f"{args}: exit {code}"
        assert "usage:" in err, f"{args}: no usage text"


def case_isolation_choices_and_require_sandbox_fail_closed(v):
    """--isolate runs a worker; a bad CHIDORI_ISOLATE is an error; CHIDORI_ISOLATE_REQUIRE_SANDBOX=1
    runs when every core layer applies (tests/unit/test_sandbox.c covers the failing side)."""
    hello = os.path.join(ROOT, "examples", "hello.js")
    code, out, err = chidori(v, "run", hello, "--isolate")
    assert code == 0 and "Isolation: process" in err, (code, err)
    code, out, err = chidori(v, "run", hello, env={"CHIDORI_ISOLATE": "process"})
    assert code == 0 and "Isolation: process" in err, (code, err)
    code, out, err = chidori(v, "run", hello)
    assert code == 0 and "Isolation: process" in err, "isolation is not the CLI's default: " + err
    code, out, err = chidori(v, "run", hello, "--no-isolate")
    assert code == 0 and "Isolation: off" in err, (code, err)
    code, out, err = chidori(v, "run", hello, env={"CHIDORI_ISOLATE": "off"})
    assert code == 0 and "Isolation: off" in err, (code, err)
    code, out, err = chidori(v, "run", hello, env={"CHIDORI_ISOLATE": "bogus"})
    assert code == 2 and "CHIDORI_ISOLATE" in err, (code, err)
    code, out, err = chidori(v, "run", hello, "--isolate", env={"CHIDORI_ISOLATE_REQUIRE_SANDBOX": "1"})
    assert code == 0 and "seccomp allowlist" in err, (code, err)


def case_bad_limit_values_are_rejected(v):
    hello = os.path.join(ROOT, "examples", "hello.js")
    for name in ["CHIDORI_JS_OP_BUDGET", "CHIDORI_JS_MEM_CAP_MB", "CHIDORI_JS_DEADLINE_MS"]:
        for bad in ["-1", "ten", "1e9"]:
            code, out, err = chidori(v, "run", hello, env={name: bad})
            assert code == 2 and name in err, f"{name}={bad}: exit {code}, {err}"


def case_eval_runs_a_script_with_console_to_stdout(v):
    code, out, err = chidori(v, "eval", "console.log('hi', 1 + 1, {a: [1, 'x']}); console.error('to stderr')")
    assert code == 0, err
    assert out == "hi 2 { a: [ 1, 'x' ] }\n", repr(out)  # Node's util.inspect quoting (issue 24)
    assert "to stderr" in err and "to stderr" not in out
    code, out, err = chidori(v, "eval", "throw new TypeError('nope')")
    assert code == 1 and "TypeError: nope" in err and "<eval>:1" in err, err


ALL = [f for name, f in sorted(globals().items()) if name.startswith("case_")]


def run_case(case, variant):
    name = f"[{variant.name}] {case.__name__[5:]}"
    import time
    start = time.monotonic()
    try:
        case(variant)
    except Skip as e:
        return [Result(name, "skip", str(e))]
    except AssertionError as e:
        return [Result(name, "fail", str(e))]
    except Exception as e:  # a broken test is a failure, not a crash of the runner
        return [Result(name, "fail", f"{type(e).__name__}: {e}")]
    return [Result(name, "pass", "", time.monotonic() - start)]
