"""tests/suites.py — suites that run once, not per variant: a tool against an oracle (the
TypeScript eraser), the SDKs (sdk/) and the dashboard in a browser, against the release build's
`chidori serve`.

Each suite is a function (variants) -> [Result]. A suite whose tools are missing is skipped with
the reason (CHIDORI_TEST_STRICT=1 makes that a failure).
"""
import glob
import os
import re
import shutil

from run import Result, run_process, sanitizer_report, ROOT


def suite_typescript_oracle(variants):
    """Every corpus file behaves as TypeScript's own transpileModule output does, with every
    remaining token at its original line and column (tests/ts/oracle.mjs)."""
    variant = next((v for v in variants if v.name == "release"), variants[0])
    name = f"[{variant.name}] typescript oracle (tests/ts)"
    strip = os.path.join(variant.dir, "ts-strip")
    if not shutil.which("node"):
        return [Result(name, "skip", "node is not installed (scripts/test-deps.sh installs it as root)")]
    if not os.path.isdir(os.path.join(ROOT, "tests", "ts", "node_modules", "typescript")):
        return [Result(name, "skip", "TypeScript is not installed in tests/ts (run scripts/test-deps.sh)")]
    if not os.path.exists(strip):
        return [Result(name, "fail", f"{strip} is missing (make test-bins)")]
    code, out, err, secs, timed_out = run_process(["node", "tests/ts/oracle.mjs", strip], variant.env(), timeout=600)
    results = []
    m = re.search(r"^(\d+) passed, (\d+) failed", out, re.M)
    if timed_out or not m:
        return [Result(name, "fail", "timed out" if timed_out else f"no result line; exit {code}\n{out[-3000:]}{err[-2000:]}")]
    passed, failed = int(m.group(1)), int(m.group(2))
    if failed or code != 0 or sanitizer_report(err):
        detail = "\n      ".join(l for l in out.splitlines() if l and not l.startswith(("ok", m.group(0))))[:6000]
        results.append(Result(name, "fail", f"{failed} of {passed + failed} corpus files differ\n      {detail}", secs))
    else:
        results.append(Result(f"{name}: {passed} corpus files", "pass", "", secs))
    return results


def _release(variants):
    return next((v for v in variants if v.name == "release"), variants[0])


def _summarize(name, code, out, err, secs, timed_out, passed, failed, skipped, skipped_names):
    """Results for a test program's run: one pass/fail line, plus a skip line for its skipped tests."""
    if timed_out or passed is None:
        why = "timed out" if timed_out else f"no result line; exit {code}"
        return [Result(name, "fail", f"{why}\n{out[-3000:]}{err[-2000:]}", secs)]
    if failed or code != 0 or sanitizer_report(err):
        return [Result(name, "fail", f"{failed} of {passed + failed} failed (exit {code})\n{out[-5000:]}{err[-2000:]}", secs)]
    results = [Result(f"{name}: {passed} tests", "pass", "", secs)]
    if skipped:
        results.append(Result(f"{name}: {skipped} skipped", "skip", "; ".join(skipped_names)[:2000] or "see the suite's output"))
    return results


def suite_sdk_typescript(variants):
    """The TypeScript SDK (sdk/typescript): SSE parser, retry rule and errors against a scripted
    server, the .d.ts files with the TypeScript compiler, and every route against a real
    `chidori serve` of this build (node --test)."""
    variant = _release(variants)
    name = f"[{variant.name}] sdk/typescript (node --test)"
    if not shutil.which("node"):
        return [Result(name, "skip", "node is not installed (scripts/test-deps.sh installs it as root)")]
    if not os.path.exists(variant.chidori):
        return [Result(name, "fail", f"{variant.chidori} is missing (make build)")]
    code, out, err, secs, timed_out = run_process(
        ["node", "--test", "--test-reporter=tap", *sorted(glob.glob("sdk/typescript/test/*.test.mjs", root_dir=ROOT))], variant.env({"CHIDORI_BIN": variant.chidori}), timeout=300)
    count = lambda key: int(m.group(1)) if (m := re.search(rf"^# {key} (\d+)$", out, re.M)) else None
    passed, failed, skipped = count("pass"), count("fail") or 0, count("skipped") or 0
    skipped_names = re.findall(r"^\s*ok \d+ - (.*) # SKIP(.*)$", out, re.M)
    return _summarize(name, code, out, err, secs, timed_out, passed, failed, skipped,
                      [f"{t}:{why}" for t, why in skipped_names])


def suite_sdk_python(variants):
    """The Python SDK (sdk/python): the same checks with unittest, against this build's serve."""
    variant = _release(variants)
    name = f"[{variant.name}] sdk/python (unittest)"
    if not os.path.exists(variant.chidori):
        return [Result(name, "fail", f"{variant.chidori} is missing (make build)")]
    code, out, err, secs, timed_out = run_process(
        ["python3", "-m", "unittest", "discover", "-v", "-s", "tests", "-t", "."],
        variant.env({"CHIDORI_BIN": variant.chidori}), timeout=300, cwd=os.path.join(ROOT, "sdk", "python"))
    m = re.search(r"^Ran (\d+) tests?", err, re.M)
    total = int(m.group(1)) if m else None
    f = re.search(r"^FAILED \((.*)\)$", err, re.M)
    failed = sum(int(x) for x in re.findall(r"(?:failures|errors)=(\d+)", f.group(1))) if f else 0
    skipped_names = re.findall(r"^(\S+ \(.*?\)).*\.\.\. skipped (.*)$", err, re.M)
    skipped = len(skipped_names)
    passed = None if total is None else total - failed - skipped
    return _summarize(name, code, err, "", secs, timed_out, passed, failed, skipped,
                      [f"{t}: {why}" for t, why in skipped_names])


def _browser_suite(variants, script, what):
    """node tests/browser/SCRIPT against the release build: a Result per script (pass, fail or skip)."""
    variant = _release(variants)
    name = f"[{variant.name}] {what} in Chromium (tests/browser/{script})"
    if not shutil.which("node"):
        return [Result(name, "skip", "node is not installed (scripts/test-deps.sh installs it as root)")]
    if not os.path.isdir(os.path.join(ROOT, "tests", "browser", "node_modules", "playwright-core")):
        return [Result(name, "skip", "playwright-core is not installed in tests/browser (run scripts/test-deps.sh)")]
    if not os.path.exists(variant.chidori):
        return [Result(name, "fail", f"{variant.chidori} is missing (make build)")]
    code, out, err, secs, timed_out = run_process(
        ["node", f"tests/browser/{script}", variant.chidori], variant.env(), timeout=240)
    if code == 77:
        why = next((l[6:] for l in reversed(out.splitlines()) if l.startswith("SKIP: ")), "cannot run here")
        return [Result(name, "skip", why, secs)]
    m = re.search(r"^(\d+) passed, (\d+) failed$", out, re.M)
    if timed_out or not m:
        return [Result(name, "fail", ("timed out" if timed_out else f"no result line; exit {code}") + f"\n{out[-4000:]}{err[-2000:]}", secs)]
    passed, failed = int(m.group(1)), int(m.group(2))
    if failed or code != 0:
        detail = "\n      ".join(l for l in out.splitlines() if not l.startswith("ok "))[:6000]
        return [Result(name, "fail", f"{failed} of {passed + failed} checks failed\n      {detail}{err[-2000:]}", secs)]
    return [Result(f"{name}: {passed} checks", "pass", "", secs)]


def suite_dashboard_browser(variants):
    """The dashboard (/ui) in headless Chromium (Debian's) driven by playwright-core: a session
    awaiting approval is allowed from the inbox and the page shows it completed
    (tests/browser/dashboard.mjs; screenshot in build/artifacts/dashboard.png)."""
    return _browser_suite(variants, "dashboard.mjs", "dashboard")


def suite_dashboard_timeline_browser(variants):
    """The dashboard's drawings in headless Chromium: a session's timeline (a bar per call, by kind,
    nested agents indented, tokens) and the overview of sessions by status
    (tests/browser/timeline.mjs; screenshot in build/artifacts/dashboard-timeline.png)."""
    return _browser_suite(variants, "timeline.mjs", "dashboard timeline")


ALL = [suite_typescript_oracle, suite_sdk_typescript, suite_sdk_python, suite_dashboard_browser,
       suite_dashboard_timeline_browser]


def run_suite(suite, variants):
    try:
        return suite(variants)
    except Exception as e:  # a broken suite is a failure, not a crash of the runner
        return [Result(suite.__name__, "fail", f"{type(e).__name__}: {e}")]
