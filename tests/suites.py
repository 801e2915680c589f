"""tests/suites.py — suites that run once, not per variant (they test a tool against an oracle).

Each suite is a function (variants) -> [Result]. A suite whose tools are missing is skipped with
the reason (CHIDORI_TEST_STRICT=1 makes that a failure).
"""
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


ALL = [suite_typescript_oracle]


def run_suite(suite, variants):
    try:
        return suite(variants)
    except Exception as e:  # a broken suite is a failure, not a crash of the runner
        return [Result(suite.__name__, "fail", f"{type(e).__name__}: {e}")]
