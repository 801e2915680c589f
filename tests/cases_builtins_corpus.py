"""tests/cases_builtins_corpus.py — the generated builtins corpus (issue 23, "Must show").

Owns: running tests/builtins/corpus-driver.js once per builtin of the engine, in-process
(--no-isolate) and isolated (the worker process), each under a small wall-clock deadline, and
asserting that every run ends within deadline + 1 s with exit 1 and one of the documented limit
messages (deadline, CPU budget, memory ceiling, allocation cap): never a signal, a hang or a
sanitizer report. A small CPU budget ends well-metered runs early and at the same call every time;
the deadline is the backstop that catches a builtin whose work is not charged. Trusts: the driver's list of builtin names (it is asked first, and the list
must be long enough to be the real one).

The release variant hammers every builtin in both modes; a sanitizer variant (3x slower) takes a
deterministic sample, every 8th builtin, in both modes. The builtins that overran are named in
the failure, one per line, with the time taken and the end of their stderr.
"""
import concurrent.futures
import json
import os
import tempfile

from run import ROOT, run_process, sanitizer_report

DRIVER = os.path.join(ROOT, "tests", "builtins", "corpus-driver.js")
DEADLINE_MS = 200
GRACE_S = 1.0  # the spec: each run ends within deadline + 1 s
# A small CPU budget ends a well-metered run at the same call every time (about 40 ms of pure
# interpretation on an idle machine); the deadline is the backstop on a loaded one.
OP_BUDGET = 20_000_000
LIMIT_MESSAGES = ("wall-clock deadline exceeded", "CPU budget exhausted", "memory ceiling reached",
                  "allocation cap reached")
ENV = {"CHIDORI_JS_DEADLINE_MS": str(DEADLINE_MS), "CHIDORI_JS_OP_BUDGET": str(OP_BUDGET), "CHIDORI_JS_MEM_CAP_MB": "1024", "CHIDORI_JS_MAX_ALLOC_MB": "256",
       "CHIDORI_SEED": "1", "CHIDORI_CLOCK_START_MS": "1700000000000"}
SAMPLE_EVERY = 8  # sanitizer variants


def corpus_run(v, extra_args, env=None, timeout=30.0):
    """Runs the driver as an agent; returns (code, stdout, stderr, seconds, timed_out)."""
    with tempfile.TemporaryDirectory(prefix="chidori-corpus-") as state:
        e = dict(ENV)
        e.update(env or {})
        e["CHIDORI_STATE_DIR"] = state
        return run_process([v.chidori, "run", *extra_args, DRIVER], v.env(e), timeout)


def list_builtins(v):
    code, out, err, _, timed_out = corpus_run(v, ["--no-isolate", "-i", "list=true"],
                                              env={"CHIDORI_JS_DEADLINE_MS": "0", "CHIDORI_JS_OP_BUDGET": "0"}, timeout=60 * v.slow)
    assert not timed_out and code == 0, f"listing the builtins failed (exit {code}): {err[-2000:]}"
    names = json.loads(out)
    assert len(names) >= 500 and len(set(names)) == len(names), f"implausible builtin list ({len(names)} names)"
    for must in ("BigInt.prototype.toString", "String.prototype.normalize", "JSON.parse", "Reflect.ownKeys",
                 "%TypedArray%.prototype.fill", "RegExp.prototype[Symbol.replace]", "Math.max"):
        assert must in names, f"the builtin list lacks {must}"
    return names


def hammer(v, name, mode):
    """One builtin in one mode; returns None when it ended as it should, else a description."""
    limit = (DEADLINE_MS / 1000 + GRACE_S) * v.slow
    flag = "--no-isolate" if mode == "in-process" else "--isolate"
    code, out, err, secs, timed_out = corpus_run(v, [flag, "-i", f"target={name}"], timeout=limit + 20)
    problems = []
    if timed_out:
        problems.append(f"still running after {limit + 20:.0f}s (hung)")
    elif code is not None and code < 0:
        problems.append(f"killed by signal {-code}")
    elif code != 1:
        problems.append(f"exit {code}, wanted 1")
    if not timed_out and secs > limit:
        problems.append(f"took {secs:.2f}s, limit {limit:.2f}s")
    if not timed_out and not any(m in err for m in LIMIT_MESSAGES):
        problems.append("no limit message")
    if sanitizer_report(err):
        problems.append("sanitizer report")
    if not problems:
        return None
    tail = " / ".join(l.strip() for l in err.strip().splitlines() if "chidori: run failed" in l)[:300]
    return f"{name} [{mode}]: {'; '.join(problems)}" + (f" — {tail}" if tail else "")


def case_every_builtin_hammered_with_hostile_arguments_ends_within_deadline(v):
    names = list_builtins(v)
    chosen = names if not v.sanitized else names[::SAMPLE_EVERY]
    jobs = [(n, m) for n in chosen for m in ("in-process", "isolated")]
    workers = max(2, os.cpu_count() or 2)
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        results = list(pool.map(lambda job: hammer(v, *job), jobs))
    overran = [r for r in results if r]
    assert not overran, (f"{len(overran)} of {len(jobs)} builtin runs did not end within "
                         f"{DEADLINE_MS} ms + {GRACE_S:.0f} s with a limit message:\n      " + "\n      ".join(overran))
