#!/usr/bin/env python3
"""tests/conformance/run262.py — test262 through `chidori eval --file` and through the bare engine.

What `make conformance TEST262=DIR` runs (docs/conformance.md). Python 3 standard library only.
Trusts the test262 checkout it is given only as text: it reads the tests' front matter, composes
each test with the harness files it names, writes the result to a scratch folder of its own and
runs both engines on it as child processes with a time limit. It never writes into the checkout.

Which tests count (the issue 25 definition): every `.js` file under test/ except the `_FIXTURE`
files, test/staging and test/intl402 (the latter unless --intl402), tests flagged `module` or
`raw`, and host-hook tests (those that use `$262` themselves or include a harness file that does:
neither engine offers `$262`). A test runs once in each mode its flags allow (`onlyStrict`,
`noStrict`, else both); it passes when every mode passes.

  * a negative test passes when the engine fails and its error names the expected type;
  * an `async` test passes when it prints `Test262:AsyncTestComplete` (doneprintHandle.js);
  * any other test passes when the engine exits 0.

Two tables come out of one run: "features the engine implements" (a test is left out when it
names a feature that the engine's own test262.conf marks `skip` or does not list at all; the
features left out are counted) and "skipping nothing by feature". Temporal (and intl402, when
included) get rows of their own. Then the chidori-only failures: failed through chidori, passed
through the bare engine, with the first line of chidori's error.

  run262.py --test262 DIR [--chidori build/chidori] [--bare build/bench/qjs] [-j N]
            [--features-only] [--intl402] [--filter PREFIX] [--list FILE] [--json OUT] [--timeout S]
"""
import argparse
import concurrent.futures
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HOOK_HARNESS_MARK = "$262"
# What test262 expects of every host, for engines that lack it: a `print`, and a rejection nobody
# handles is not a failure (bare qjs gets --no-unhandled-rejection; chidori, whose runs fail on one
# as Node's do, gets a process.on('unhandledRejection') listener).
HOST_SHIM = ("if (typeof print !== 'function') { globalThis.print = function (m) { console.log(String(m)); }; }\n"
             "if (typeof process === 'object' && process !== null && typeof process.on === 'function') "
             "{ process.on('unhandledRejection', function () {}); }\n")
MAX_TEST_BYTES = 4 << 20
MAX_OUTPUT_CHARS = 64 << 10


# ---------------------------------------------------------------------------------------------
# Front matter

def _yaml_list(meta, key):
    """`key: [a, b]` or `key:` followed by `- a` lines; [] when absent."""
    m = re.search(r"^\s*" + re.escape(key) + r":[ \t]*\[(.*?)\]", meta, re.M | re.S)
    if m:
        return [x.strip().strip("'\"") for x in m.group(1).split(",") if x.strip()]
    m = re.search(r"^(\s*)" + re.escape(key) + r":[ \t]*\n((?:\1?[ \t]*-[^\n]*\n)+)", meta, re.M)
    if m:
        return [l.strip()[1:].strip().strip("'\"") for l in m.group(2).splitlines() if l.strip().startswith("-")]
    return []


def parse_meta(source):
    """The test's front matter: includes, flags, features and negative {phase, type} (or None)."""
    m = re.search(r"/\*---(.*?)---\*/", source, re.S)
    meta = m.group(1) if m else ""
    neg = None
    nm = re.search(r"^\s*negative:[ \t]*\n((?:[ \t]+[^\n]*\n?)+)", meta, re.M)
    if nm:
        phase = re.search(r"phase:\s*(\S+)", nm.group(1))
        typ = re.search(r"type:\s*(\S+)", nm.group(1))
        neg = {"phase": phase.group(1) if phase else "runtime", "type": typ.group(1) if typ else "Error"}
    return {"includes": _yaml_list(meta, "includes"), "flags": _yaml_list(meta, "flags"),
            "features": _yaml_list(meta, "features"), "negative": neg}


def engine_features(conf_path):
    """{feature: True (implemented) | False (skip)} from a QuickJS-style test262.conf."""
    known = {}
    if not conf_path or not os.path.exists(conf_path):
        return None
    section = None
    with open(conf_path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            if line.startswith("["):
                section = line
                continue
            if section == "[features]":
                if line.endswith("=skip"):
                    known[line[:-5]] = False
                else:
                    known[line.split("=", 1)[0]] = True
    return known


# ---------------------------------------------------------------------------------------------
# Selection

class Test:
    __slots__ = ("rel", "path", "meta", "modes", "skip_features", "source")


def harness_with_hooks(harness_dir):
    """The harness files that reach for `$262` (a test including one is a host-hook test)."""
    out = set()
    for name in os.listdir(harness_dir):
        if name.endswith(".js"):
            with open(os.path.join(harness_dir, name), encoding="utf-8", errors="replace") as f:
                if HOOK_HARNESS_MARK in f.read():
                    out.add(name)
    return out


def collect(test262, intl402, prefixes, known):
    harness = os.path.join(test262, "harness")
    hooked = harness_with_hooks(harness)
    tests, left = [], {"module": 0, "raw": 0, "host-hook": 0}
    top = os.path.join(test262, "test")
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames.sort()
        rel_dir = os.path.relpath(dirpath, test262).replace(os.sep, "/")
        if rel_dir == "test/staging" or rel_dir.startswith("test/staging/"):
            dirnames[:] = []
            continue
        if not intl402 and (rel_dir == "test/intl402" or rel_dir.startswith("test/intl402/")):
            dirnames[:] = []
            continue
        for name in sorted(filenames):
            if not name.endswith(".js") or "_FIXTURE" in name:
                continue
            rel = rel_dir + "/" + name
            if prefixes and not any(rel.startswith(p) or rel.startswith("test/" + p) for p in prefixes):
                continue
            path = os.path.join(dirpath, name)
            with open(path, encoding="utf-8", errors="surrogateescape") as f:
                source = f.read(MAX_TEST_BYTES)
            meta = parse_meta(source)
            flags = meta["flags"]
            if "module" in flags:
                left["module"] += 1
                continue
            if "raw" in flags:
                left["raw"] += 1
                continue
            if HOOK_HARNESS_MARK in source or hooked.intersection(meta["includes"]):
                left["host-hook"] += 1
                continue
            t = Test()
            t.rel, t.path, t.meta, t.source = rel, path, meta, None
            if "onlyStrict" in flags:
                t.modes = ("strict",)
            elif "noStrict" in flags:
                t.modes = ("sloppy",)
            else:
                t.modes = ("sloppy", "strict")
            t.skip_features = sorted(x for x in meta["features"] if known is not None and known.get(x) is not True)
            tests.append(t)
    return tests, left


# ---------------------------------------------------------------------------------------------
# Running one test

def compose(test262, test, source, mode):
    parts = []
    if mode == "strict":
        parts.append('"use strict";\n')
    parts.append(HOST_SHIM)
    names = ["assert.js", "sta.js"]
    if "async" in test.meta["flags"]:
        names.append("doneprintHandle.js")
    for inc in test.meta["includes"]:
        if inc not in names:
            names.append(inc)
    for inc in names:
        with open(os.path.join(test262, "harness", inc), encoding="utf-8", errors="surrogateescape") as f:
            parts.append(f.read())
        parts.append("\n")
    parts.append(source)
    return "".join(parts)


def error_line(engine, rc, out, err):
    """The first line of what the engine said about the failure."""
    if "chidori: " in err:
        for line in err.splitlines():
            if line.startswith("chidori: run failed: "):
                msg = line[len("chidori: run failed: "):]
                return msg[len("unhandled promise rejection: "):] if msg.startswith("unhandled promise rejection: ") else msg
            if line.startswith("chidori: "):
                return line[len("chidori: "):]
    for line in err.splitlines():
        if line.strip():
            return line[len("Possibly unhandled promise rejection: "):] \
                if line.startswith("Possibly unhandled promise rejection: ") else line
    for line in out.splitlines():
        if "Test262:AsyncTestFailure:" in line:
            return line.split("Test262:AsyncTestFailure:", 1)[1]
    return "exit %s, no message" % rc


def judge(test, engine, rc, out, err, timed_out):
    """(passed, first line of the error or '')."""
    if timed_out:
        return False, "timed out"
    if rc is not None and rc < 0:
        return False, "killed by signal %d" % -rc
    neg = test.meta["negative"]
    if neg:
        if rc == 0:
            return False, "expected %s (%s phase), but it ran to the end" % (neg["type"], neg["phase"])
        line = error_line(engine, rc, out, err)
        if line == neg["type"] or line.startswith(neg["type"] + ":") or line.startswith(neg["type"] + " "):
            return True, ""
        return False, "expected %s: %s" % (neg["type"], line)
    if "async" in test.meta["flags"]:
        if "Test262:AsyncTestFailure" in out:
            return False, error_line(engine, rc, out, err)
        if "Test262:AsyncTestComplete" in out:
            return True, ""
        return False, error_line(engine, rc, out, err) if rc else "did not print Test262:AsyncTestComplete"
    if rc == 0:
        return True, ""
    return False, error_line(engine, rc, out, err)


class Runner:
    def __init__(self, args, engines):
        self.args, self.engines = args, engines
        self.scratch = tempfile.mkdtemp(prefix="run262-")
        self.local = threading.local()
        self.counter = 0
        self.lock = threading.Lock()

    def folder(self):
        d = getattr(self.local, "dir", None)
        if d is None:
            with self.lock:
                self.counter += 1
                d = os.path.join(self.scratch, "w%d" % self.counter)
            self.local.dir = d
        if os.path.exists(d):
            shutil.rmtree(d)
        os.makedirs(d)
        return d

    def run_one(self, test):
        with open(test.path, encoding="utf-8", errors="surrogateescape") as f:
            source = f.read(MAX_TEST_BYTES)
        result = {}
        for mode in test.modes:
            d = self.folder()
            src_dir = os.path.dirname(test.path)
            if "import" in source:
                # dynamic import tests load their _FIXTURE neighbours (and sometimes themselves)
                for n in os.listdir(src_dir):
                    if "_FIXTURE" in n or n.endswith(".json"):
                        p = os.path.join(src_dir, n)
                        if os.path.isfile(p):
                            shutil.copyfile(p, os.path.join(d, n))
            file = os.path.join(d, os.path.basename(test.path))
            with open(file, "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write(compose(self.args.test262, test, source, mode))
            for name, argv in self.engines:
                if name in result and not result[name][0]:
                    continue  # already failed in the other mode
                # run from the scratch root with a path that has a folder (`wN/x.js`), as a user runs
                # `chidori eval --file dir/x.js`: imports must resolve beside the file, not the cwd
                rel_file = os.path.relpath(file, self.scratch)
                rc, out, err, timed_out = run_engine(argv + [rel_file], self.scratch, self.args.timeout)
                ok, why = judge(test, name, rc, out, err, timed_out)
                if not ok and len(test.modes) > 1:
                    why = "[%s] %s" % (mode, why)
                result[name] = (ok, why)
        return test, result

    def close(self):
        shutil.rmtree(self.scratch, ignore_errors=True)


def run_engine(argv, cwd, timeout):
    env = dict(os.environ)
    for k in ("CHIDORI_SEED", "CHIDORI_CLOCK_START_MS"):
        env.pop(k, None)
    try:
        p = subprocess.run(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout)
        return (p.returncode, p.stdout[:MAX_OUTPUT_CHARS].decode("utf-8", "replace"),
                p.stderr[:MAX_OUTPUT_CHARS].decode("utf-8", "replace"), False)
    except subprocess.TimeoutExpired as e:
        return None, (e.stdout or b"").decode("utf-8", "replace"), (e.stderr or b"").decode("utf-8", "replace"), True


# ---------------------------------------------------------------------------------------------
# Tables

def table(title, rows, engines):
    lines = [title, "", "| | executed | passed | failed |", "|---|---|---|---|"]
    for label, subset in rows:
        for name, _ in engines:
            n = len(subset)
            p = sum(1 for t, r in subset if r[name][0])
            lines.append("| %s%s | %s | %s | %s |" % (ENGINE_LABEL.get(name, name), label, fmt(n), fmt(p), fmt(n - p)))
    return "\n".join(lines)


def fmt(n):
    return "{:,}".format(n)


ENGINE_LABEL = {"bare": "bare `qjs`", "chidori": "`chidori eval --file`"}


def report(results, engines, left, intl402, out):
    w = out.write
    implemented = [(t, r) for t, r in results if not t.skip_features]
    w("%s\n\n" % table("## Features the engine implements", [("", implemented)], engines))
    skipped = {}
    for t, r in results:
        for f in t.skip_features:
            skipped[f] = skipped.get(f, 0) + 1
    if skipped:
        w("Left out for a feature the engine does not implement (tests naming it; a test may name several):\n")
        w(", ".join("%s %s" % (f, fmt(n)) for f, n in sorted(skipped.items(), key=lambda x: (-x[1], x[0]))) + "\n\n")
    rows = [("", results)]
    temporal = [(t, r) for t, r in results if "Temporal" in t.meta["features"] or t.rel.startswith("test/built-ins/Temporal/")]
    if temporal:
        rows.append((", Temporal only", temporal))
        ids = set(id(t) for t, r in temporal)
        rows.append((", without Temporal", [(t, r) for t, r in results if id(t) not in ids]))
    if intl402:
        rows.append((", intl402 only", [(t, r) for t, r in results if t.rel.startswith("test/intl402/")]))
    w("%s\n\n" % table("## Skipping nothing by feature", rows, engines))
    w("Not counted: %s module, %s raw, %s host-hook tests (they use $262).\n\n"
      % (fmt(left["module"]), fmt(left["raw"]), fmt(left["host-hook"])))
    names = [n for n, _ in engines]
    if "chidori" in names and "bare" in names:
        only = [(t, r) for t, r in results if not r["chidori"][0] and r["bare"][0]]
        bare_only = [(t, r) for t, r in results if r["chidori"][0] and not r["bare"][0]]
        w("## Chidori-only failures: %d (%d of them among the features the engine implements)\n\n"
          % (len(only), sum(1 for t, r in only if not t.skip_features)))
        for t, r in only:
            w("%s%s: %s\n" % (t.rel, " [skipped feature]" if t.skip_features else "", r["chidori"][1]))
        w("\nBare-engine-only failures (chidori passes, the bare engine fails): %d\n" % len(bare_only))


def to_json(results, engines, left):
    return {"left_out": left, "engines": [n for n, _ in engines],
            "tests": {t.rel: {"features_skipped": t.skip_features,
                              **{n: {"pass": r[n][0], "error": r[n][1]} for n, _ in engines}}
                      for t, r in results}}


def report_from(args):
    """The tables of earlier runs (their --json files), over the tests the checkout has now."""
    outcomes, left = {}, None
    for path in args.report_from:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        left = data.get("left_out", left)
        for rel, r in data["tests"].items():
            for name in data["engines"]:
                if name in r:
                    outcomes.setdefault(rel, {})[name] = (r[name]["pass"], r[name]["error"])
    tests, left_now = collect(args.test262, args.intl402, args.filter, engine_features(args.features_conf))
    names = [n for n in ("chidori", "bare") if any(n in o for o in outcomes.values())]
    results, missing = [], 0
    for t in tests:
        r = outcomes.get(t.rel, {})
        if all(n in r for n in names):
            results.append((t, r))
        else:
            missing += 1
    if missing:
        print("run262: %d of %d tests have no outcome for every engine in these files; left out" % (missing, len(tests)),
              file=sys.stderr)
    report(results, [(n, None) for n in names], left_now, args.intl402, sys.stdout)
    return 0


def default_features_conf():
    """Debian's quickjs-ng source package ships no test262.conf; the first table then keeps the
    features QuickJS 2025-04-26 implements (build/quickjs-src, laid out by make ENGINE=quickjs or
    scripts/fetch-quickjs.sh), the baseline the figures were first taken on."""
    for tree in ("ng-src", "quickjs-src"):
        conf = os.path.join(ROOT, "build", tree, "test262.conf")
        if os.path.exists(conf):
            return conf
    return os.path.join(ROOT, "build", "ng-src", "test262.conf")


def bare_flags(qjs):
    """The flags that run a test file as a script on this qjs. QuickJS's qjs takes
    --no-unhandled-rejection; quickjs-ng's has no such flag and fails a run on a rejection nobody
    handled by the time it would sleep (a difference of the harness, not of the language)."""
    try:
        banner = subprocess.run([qjs, "-h"], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        banner = ""
    return ["--script"] if "QuickJS-ng" in banner else ["--script", "--no-unhandled-rejection"]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--test262", required=True, help="a test262 checkout (its harness/ and test/)")
    ap.add_argument("--chidori", default=os.path.join(ROOT, "build", "chidori"))
    ap.add_argument("--bare", default=os.path.join(ROOT, "build", "bench", "qjs"),
                    help="the bare engine's qjs (bench/lib.sh builds it from build/ng-src); '' for none")
    ap.add_argument("--bare-cmd", help="the bare engine as a command line, the file appended (instead of --bare)")
    ap.add_argument("--features-conf", default=default_features_conf(),
                    help="which features count as implemented (a QuickJS-style test262.conf; default: the "
                         "engine's own when its tree has one, else QuickJS 2025-04-26's from build/quickjs-src)")
    ap.add_argument("--features-only", action="store_true",
                    help="run only the tests of the first table (faster); the second table is then partial")
    ap.add_argument("--intl402", action="store_true", help="include test/intl402 (reported in a row of its own)")
    ap.add_argument("--filter", action="append", default=[], help="only tests under this path prefix (repeatable)")
    ap.add_argument("--list", help="only the tests named in this file (paths like test/built-ins/x.js, one a line)")
    ap.add_argument("--report-from", nargs="+", metavar="JSON",
                    help="run nothing: print the tables from --json files of earlier runs (merged in order, a "
                         "later file's outcome of a test for an engine replacing an earlier one's)")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per engine run")
    ap.add_argument("--json", help="write every test's outcome here")
    ap.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = ap.parse_args(argv)
    args.test262 = os.path.abspath(args.test262)
    if not os.path.isdir(os.path.join(args.test262, "harness")) or not os.path.isdir(os.path.join(args.test262, "test")):
        print("run262: %s is not a test262 checkout (no harness/ and test/); pass TEST262=DIR" % args.test262,
              file=sys.stderr)
        return 2
    if args.report_from:
        return report_from(args)
    engines = [("chidori", [os.path.abspath(args.chidori), "eval", "--file"])]
    if args.bare_cmd:
        cmd = shlex.split(args.bare_cmd)
        if "/" in cmd[0]:
            cmd[0] = os.path.abspath(cmd[0])  # the engines run inside the scratch folder
        engines.append(("bare", cmd))
    elif args.bare:
        if not os.access(args.bare, os.X_OK):
            print("run262: no bare engine at %s (bench/lib.sh's bench_qjs builds it; --bare '' to run chidori only)"
                  % args.bare, file=sys.stderr)
            return 2
        engines.append(("bare", [os.path.abspath(args.bare)] + bare_flags(args.bare)))
    if not os.access(engines[0][1][0], os.X_OK):
        print("run262: no chidori at %s (run make first)" % engines[0][1][0], file=sys.stderr)
        return 2
    known = engine_features(args.features_conf)
    if known is None:
        print("run262: no feature list at %s; every test counts as implemented" % args.features_conf, file=sys.stderr)
    tests, left = collect(args.test262, args.intl402, args.filter, known)
    if args.list:
        with open(args.list, encoding="utf-8") as f:
            wanted = set(line.strip() for line in f if line.strip())
        tests = [t for t in tests if t.rel in wanted]
    if args.features_only:
        tests = [t for t in tests if not t.skip_features]
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so the scratch folder goes too
    runner = Runner(args, engines)
    results = []
    start = time.monotonic()
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs))
    try:
        for i, (t, r) in enumerate(pool.map(runner.run_one, tests), 1):
            results.append((t, r))
            if not args.quiet and (i % 500 == 0 or i == len(tests)):
                print("run262: %d/%d tests, %.0f s" % (i, len(tests), time.monotonic() - start),
                      file=sys.stderr, flush=True)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)  # on an interruption: the running tests end, no new one starts
        runner.close()
    report(results, engines, left, args.intl402, sys.stdout)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(to_json(results, engines, left), f, indent=0, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
