#!/usr/bin/env python3
"""tests/run.py — chidori's one test command (what `make test` runs).

For each build variant given (`--variant NAME=DIR`, DIR holding `chidori` and `unit_tests`):
  * the C unit tests (DIR/unit_tests),
  * every fixture under tests/agents/, tests/limits/ and tests/cli/ (a JS/TS file whose leading
    `//! key: value` lines say how to run it and what must come out),
  * the scripted checks in tests/cases.py (things a fixture cannot say, such as "two runs agree"),
and, once, the suites that do not depend on the variant (tests/suites.py: the TypeScript oracle).

Fixture keys: mode (run|eval), args, input (repeatable), env (repeatable K=V), exit, stdout,
stdout-file, stdout-contains, stdout-not, stderr, stderr-not, max-seconds, skip-variant, and
isolation (both|process|off): `both` runs the fixture in-process and isolated, asserts every
expectation of each, and that both print the same stdout (fixtures under tests/hostile/ default to
`both`).
Every run must also end without a signal and without a sanitizer report.

A check that cannot run here is skipped with its reason; CHIDORI_TEST_STRICT=1 makes skips fail.
The last line is `N passed, N failed, N skipped`.
"""
import argparse
import concurrent.futures
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))

FIXTURE_DIRS = ["tests/agents", "tests/limits", "tests/cli", "tests/node", "tests/hostile"]
BOTH_BY_DEFAULT = ("tests/hostile",)
SANITIZER_MARKERS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:", "UndefinedBehaviorSanitizer")
STRICT = os.environ.get("CHIDORI_TEST_STRICT") == "1"


class Result:
    def __init__(self, name, status, detail="", seconds=0.0):
        self.name, self.status, self.detail, self.seconds = name, status, detail, seconds
        self.stdout = None


class Variant:
    def __init__(self, name, directory):
        self.name = name
        self.dir = os.path.join(ROOT, directory)
        self.chidori = os.path.join(self.dir, "chidori")
        # a sanitizer build (build/asan, build/quickjs-asan) runs 3-5 times slower; any other build,
        # whatever its variant's name (e.g. q=build/quickjs), is timed as a release build
        self.sanitized = name == "asan" or os.path.basename(os.path.normpath(directory)).endswith("asan")
        self.slow = 3.0 if self.sanitized else 1.0

    def env(self, extra=None):
        env = dict(os.environ)
        env.pop("CHIDORI_SEED", None)
        env.pop("CHIDORI_CLOCK_START_MS", None)
        env["ASAN_OPTIONS"] = "detect_leaks=1:abort_on_error=0:allocator_may_return_null=1"
        env["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"
        if extra:
            env.update(extra)
        return env


def run_process(argv, env, timeout, cwd=ROOT, stdin_data=None):
    """Run argv; returns (returncode, stdout, stderr, seconds, timed_out)."""
    start = time.monotonic()
    try:
        p = subprocess.run(argv, cwd=cwd, env=env, input=stdin_data, capture_output=True, timeout=timeout)
        return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace"), \
            time.monotonic() - start, False
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode("utf-8", "replace")
        err = (e.stderr or b"").decode("utf-8", "replace")
        return None, out, err, time.monotonic() - start, True


def sanitizer_report(stderr):
    return any(m in stderr for m in SANITIZER_MARKERS)


# ---------- fixtures ----------

def parse_fixture(path):
    keys = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^//! ([a-z-]+):\s?(.*)$", line.rstrip("\n"))
            if not m:
                if line.startswith("//!"):
                    raise ValueError(f"malformed directive: {line.strip()}")
                break
            keys.setdefault(m.group(1), []).append(m.group(2))
    return keys


KNOWN_KEYS = {"mode", "args", "input", "env", "exit", "stdout", "stdout-file", "stdout-contains", "stdout-not",
              "stderr", "stderr-not", "max-seconds", "skip-variant", "isolation"}


def run_fixture(variant, path):
    """Runs a fixture once, or in-process and isolated (isolation: both)."""
    rel = os.path.relpath(path, ROOT)
    try:
        keys = parse_fixture(path)
    except (ValueError, UnicodeDecodeError) as e:
        return Result(f"[{variant.name}] {rel}", "fail", str(e))
    default = "both" if rel.startswith(BOTH_BY_DEFAULT) else None
    isolation = keys["isolation"][-1] if "isolation" in keys else default
    if isolation != "both":
        return run_fixture_once(variant, path, isolation)
    results = [run_fixture_once(variant, path, m) for m in ("off", "process")]
    failed = [r for r in results if r.status == "fail"]
    name = f"[{variant.name}] {rel} (in-process and isolated)"
    if failed:
        return Result(name, "fail", " | ".join(f"{m}: {r.detail}" for m, r in zip(("in-process", "isolated"), results)
                                              if r.status == "fail"), sum(r.seconds for r in results))
    if results[0].status == "skip":
        return results[0]
    if results[0].stdout != results[1].stdout:
        return Result(name, "fail", f"in-process stdout {results[0].stdout!r} != isolated {results[1].stdout!r}")
    return Result(name, "pass", "", sum(r.seconds for r in results))


def run_fixture_once(variant, path, isolation=None):
    rel = os.path.relpath(path, ROOT)
    name = f"[{variant.name}] {rel}" + (f" [isolation {isolation}]" if isolation else "")
    try:
        keys = parse_fixture(path)
    except (ValueError, UnicodeDecodeError) as e:
        return Result(name, "fail", str(e))
    unknown = set(keys) - KNOWN_KEYS
    if unknown:
        return Result(name, "fail", f"unknown directive(s): {', '.join(sorted(unknown))}")
    for skip in keys.get("skip-variant", []):
        which, _, why = skip.partition(" ")
        if which == variant.name:
            return Result(name, "skip", why or "skipped for this variant")
    one = lambda k, d=None: keys[k][-1] if k in keys else d
    mode = one("mode", "run")
    argv = [variant.chidori]
    if mode == "run":
        argv += ["run", path]
        for item in keys.get("input", []):
            argv += ["-i", item]
    elif mode == "eval":
        argv += ["eval", "--file", path]
    else:
        return Result(name, "fail", f"unknown mode {mode}")
    argv += shlex.split(one("args", ""))
    extra = dict(kv.split("=", 1) for kv in keys.get("env", []))
    if isolation in ("off", "process"):
        extra["CHIDORI_ISOLATE"] = isolation
    limit = float(one("max-seconds", "10")) * variant.slow
    with tempfile.TemporaryDirectory(prefix="chidori-state-") as state:
        extra.setdefault("CHIDORI_STATE_DIR", state)  # runs and memory of this fixture only
        code, out, err, secs, timed_out = run_process(argv, variant.env(extra), timeout=limit + 5)
    problems = []
    if timed_out:
        problems.append(f"did not finish within {limit + 5:.0f}s")
    else:
        if code < 0:
            problems.append(f"killed by signal {-code}")
        want = int(one("exit", "0"))
        if code != want:
            problems.append(f"exit {code}, wanted {want}")
        if secs > limit:
            problems.append(f"took {secs:.2f}s, limit {limit:.1f}s")
    if sanitizer_report(err):
        problems.append("sanitizer report")
    if "stdout" in keys:
        want_out = "\n".join(keys["stdout"]) + "\n"  # several stdout lines: the whole output, in order
        if out != want_out:
            problems.append(f"stdout was {out!r}, wanted {want_out!r}")
    if "stdout-file" in keys:
        with open(os.path.join(os.path.dirname(path), one("stdout-file")), encoding="utf-8") as f:
            expected = f.read()
        if out != expected:
            problems.append(f"stdout differs from {one('stdout-file')}: got {out!r}")
    for s in keys.get("stdout-contains", []):
        if s not in out:
            problems.append(f"stdout lacks {s!r}")
    for s in keys.get("stdout-not", []):
        if s in out:
            problems.append(f"stdout has {s!r}")
    for s in keys.get("stderr", []):
        if s not in err:
            problems.append(f"stderr lacks {s!r}")
    for s in keys.get("stderr-not", []):
        if s in err:
            problems.append(f"stderr has {s!r}")
    if problems:
        tail = err.strip().splitlines()[-12:]
        return Result(name, "fail", "; ".join(problems) + ("\n      stderr: " + "\n      ".join(tail) if tail else ""), secs)
    r = Result(name, "pass", "", secs)
    r.stdout = out
    return r


def fixture_paths():
    paths = []
    for d in FIXTURE_DIRS:
        full = os.path.join(ROOT, d)
        if not os.path.isdir(full):
            continue
        for f in sorted(os.listdir(full)):
            if f.endswith((".js", ".mjs", ".ts")) and not f.startswith("_"):
                paths.append(os.path.join(full, f))
    return paths


# ---------- unit tests ----------

def run_unit(variant):
    binary = os.path.join(variant.dir, "unit_tests")
    if not os.path.exists(binary):
        return [Result(f"[{variant.name}] unit_tests", "fail", f"{binary} is missing (run make)")]
    code, out, err, secs, timed_out = run_process([binary], variant.env(), timeout=300)
    results = []
    for line in out.splitlines():
        m = re.match(r"^(ok|FAIL) (\S+)(?: (.*))?$", line)
        if m:
            status = "pass" if m.group(1) == "ok" else "fail"
            results.append(Result(f"[{variant.name}] unit {m.group(2)}", status, m.group(3) or ""))
    if timed_out or code != 0 and not any(r.status == "fail" for r in results):
        results.append(Result(f"[{variant.name}] unit_tests", "fail",
                              "timed out" if timed_out else f"exit {code}: {err.strip()[-2000:]}"))
    if sanitizer_report(err):
        results.append(Result(f"[{variant.name}] unit_tests", "fail", "sanitizer report:\n" + err[-4000:]))
    return results


# ---------- main ----------

HUNG_S = 900  # the slowest test takes about a minute under ASan


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--variant", action="append", required=True, help="NAME=DIR")
    ap.add_argument("--filter", default="", help="only tests whose name contains this")
    ap.add_argument("-j", "--jobs", type=int, default=max(2, os.cpu_count() or 2))
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    variants = [Variant(*v.split("=", 1)) for v in args.variant]
    # Every temporary folder a case makes without naming a place (tempfile's default) goes into
    # one folder of this run's, removed at the end: a case that fails, or forgets its own clean-up,
    # leaves nothing behind. (Children keep the system's TMPDIR: chidori's behaviour is unchanged.)
    suite_tmp = tempfile.mkdtemp(prefix="chidori-tests-")
    tempfile.tempdir = suite_tmp

    import glob
    import importlib
    import cases
    import suites
    # and the folders cases put on tmpfs (cases_calllog.fast_state) into one of this run's there
    if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK):
        cases.SHM_TMP = tempfile.mkdtemp(prefix="chidori-tests-", dir="/dev/shm")
    # Scripted cases live in tests/cases.py and any tests/cases_*.py beside it.
    case_list = list(cases.ALL)
    for extra in sorted(glob.glob(os.path.join(ROOT, "tests", "cases_*.py"))):
        mod = importlib.import_module(os.path.basename(extra)[:-3])
        case_list += [f for name, f in sorted(vars(mod).items()) if name.startswith("case_") and callable(f)]

    results = []
    jobs = {}  # future -> its name
    started = {}  # name -> when it began
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs)

    def submit(name, fn, *a):
        def timed():
            started[name] = time.monotonic()
            return fn(*a)
        jobs[pool.submit(timed)] = name

    for v in variants:
        if args.filter in "unit" or not args.filter:
            submit(f"[{v.name}] unit", run_unit, v)
        for path in fixture_paths():
            if args.filter and args.filter not in path:
                continue
            submit(f"[{v.name}] {path}", lambda v=v, p=path: [run_fixture(v, p)])
        for case in case_list:
            if args.filter and args.filter not in case.__name__:
                continue
            submit(f"[{v.name}] {case.__name__[5:]}", cases.run_case, case, v)
    for suite in suites.ALL:
        if args.filter and args.filter not in suite.__name__:
            continue
        submit(suite.__name__, suites.run_suite, suite, variants)
    # A test that hangs fails after HUNG_S instead of holding the whole run (and CI) hostage.
    pending, hung = set(jobs), []
    while pending:
        done, pending = concurrent.futures.wait(pending, timeout=5)
        for j in done:
            results.extend(j.result())
        now = time.monotonic()
        for j in list(pending):
            name = jobs[j]
            if name in started and now - started[name] > HUNG_S:
                pending.discard(j)
                hung.append(name)
                results.append(Result(name, "fail", f"still running after {HUNG_S} s: hung"))
    pool.shutdown(wait=not hung, cancel_futures=True)

    passed = failed = skipped = 0
    for r in sorted(results, key=lambda r: (r.status != "fail", r.name)):
        status = r.status
        if status == "skip" and STRICT:
            status = "fail"
            r.detail = "skipped under CHIDORI_TEST_STRICT=1: " + r.detail
        if status == "pass":
            passed += 1
            if args.verbose:
                print(f"ok    {r.name} ({r.seconds:.2f}s)")
        elif status == "skip":
            skipped += 1
            print(f"skip  {r.name}: {r.detail}")
        else:
            failed += 1
            print(f"FAIL  {r.name}: {r.detail}")
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    sys.stdout.flush()
    if not hung:  # a hung case may still be writing there
        shutil.rmtree(suite_tmp, ignore_errors=True)
        if getattr(cases, "SHM_TMP", None):
            shutil.rmtree(cases.SHM_TMP, ignore_errors=True)
    if hung:
        os._exit(1)  # its thread cannot be stopped; nor waited for
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
