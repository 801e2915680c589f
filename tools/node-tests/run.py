#!/usr/bin/env python3
"""tools/node-tests/run.py — Node's own test files for the modules of our Node shims, run under Node
and under `chidori run`, counted check by check (`make node-tests NODE_SRC=DIR`;
docs/captured-surface.md, "Node's own tests").

Reads a checkout of Node's repository (NODE_SRC) at run time and writes nothing into it; nothing of
Node's is kept in this repository. For each selected file of NODE_SRC/test/parallel it:

  * decides whether a run can have what the file needs; a file that cannot (a Node flag that
    changes behaviour, Node's other test helpers or fixtures beside it, a module a run cannot
    have required other than by a plain declaration; for stream files, a name or module Node's
    node:stream has and ours lacks, probed on both sides by stream_surface.js) is listed as
    excluded with the reason, never dropped silently;
  * cuts the file into top-level statements (jssplit.py) and counts as one check each statement
    that holds an assertion (`assert…`, a name taken from `assert`, common.mustCall and its kin,
    common.expectsError/expectWarning) or calls a helper function of the file whose body does;
    a check that names (itself or through a helper) what a declaration of `vm`, `fs`, an
    internal module or a module a run cannot have bound is counted as excluded, with its reason;
  * rewrites the file so that each statement runs in a try of its own (a failing check does not
    stop the following ones; top-level `const`/`let` become `var` and classes `var C = class C`
    so later statements still see them), writes it with driver.js and our own `common` stand-in
    (tools/node-tests/common) to a scratch project, and runs that under Node and under
    `chidori run`, each with a time limit.

A check passes on a side when its statement, the callbacks it scheduled and the calls it expected
all went without a failure. The table gives per module: files run, checks, Node's passes, ours, and
ours as a share of all checks and of Node's; then the files excluded and why; then (with
--differences) each check Node passes and we fail, with our first error line.

  run.py --node-src DIR [--chidori build/chidori] [--node node] [-j N] [--filter SUBSTR]
         [--json OUT] [--differences] [--timeout S] [--keep DIR]
"""
import argparse
import concurrent.futures
import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import jssplit  # noqa: E402

# Which files, by module (globs over test/parallel).
MODULES = [
    ("path", ["test-path-*.js"]),
    ("events", ["test-event*.js"]),
    ("buffer", ["test-buffer-*.js"]),
    ("util", ["test-util*.js"]),
    ("url", ["test-url*.js", "test-whatwg-url*.js"]),
    ("querystring", ["test-querystring*.js"]),
    ("string_decoder", ["test-string-decoder*.js"]),
    ("stream", ["test-stream*.js"]),
]

# What a run cannot have, module by module (docs/captured-surface.md).
NO_SUCH_MODULE = {
    "child_process": "child processes", "worker_threads": "threads", "cluster": "child processes",
    "net": "sockets", "tls": "sockets", "dns": "the host's resolver", "dgram": "sockets",
    "http": "a server (sockets)", "https": "a server (sockets)", "http2": "a server (sockets)",
    "inspector": "the inspector", "v8": "V8's own API", "trace_events": "tracing",
    "domain": "domains", "repl": "a REPL", "readline": "a terminal", "os": "the host OS",
    "zlib": "zlib", "async_hooks": "async hooks", "perf_hooks": "perf hooks",
}
PER_CHECK = {"vm": "vm (other contexts)", "../common/fixtures": "Node's fixture files on disk", "fs": "fs on real paths", "fs/promises": "fs on real paths"}
# Flags that change nothing a check looks at, or whose needs are counted check by check (the
# internal modules, `gc`, vm modules): a file with only these runs.
HARMLESS_FLAGS = {"--no-warnings", "--expose-internals", "--expose-gc", "--expose_gc",
                  "--experimental-vm-modules", "--no-deprecation"}
INTERNAL = "Node's internal modules (--expose-internals)"
REQUIRE_RE = re.compile(r"""require\(\s*['"]([^'"]+)['"]\s*\)""")
MAX_OUTPUT = 8 << 20


def file_exclusion(src):
    """Why a run cannot run this file, or None."""
    m = re.search(r"^//\s*Flags:\s*(.*)$", src, re.M)
    if m:
        other = [f for f in m.group(1).split() if f not in HARMLESS_FLAGS]
        if other:
            return "needs Node flags (%s)" % " ".join(other)
    for spec in REQUIRE_RE.findall(src):
        name = spec[5:] if spec.startswith("node:") else spec
        if name in ("../common", "../common/index", "../common/index.js") or name in PER_CHECK or name.startswith("internal/"):
            continue
        if name.startswith("../common/") or name.startswith("../../common/"):
            return "Node's test helper %s (files on disk)" % name.rsplit("/", 1)[-1]
        if name.startswith("./") or name.startswith("../"):
            return "a file beside the test (%s)" % name
        base = name.split("/")[0]
        if base in NO_SUCH_MODULE and not _bound_require(src, spec):
            return "node:%s (%s)" % (base, NO_SUCH_MODULE[base])
    if re.search(r"\bprocess\.binding\(", src):
        return "internal bindings"
    return None


def _bound_require(src, spec):
    """Whether every require of spec in src is a declaration's whole initializer (`const x =
    require(spec)` or `const { a } = require(spec)`): then only the checks naming what it bound
    are left out, not the file."""
    total = len(re.findall(r"""require\(\s*['"]%s['"]\s*\)""" % re.escape(spec), src))
    bound = len(re.findall(r"""(?:const|let|var)\s+(?:\w+|\{[^}]*\})\s*=\s*require\(\s*['"]%s['"]\s*\)\s*;?"""
                           % re.escape(spec), src))
    return total > 0 and total == bound


def _binding_names(text):
    """Local names a declaration binds: `const x =` or the names in `const { a, b: c } =`."""
    m = re.match(r"\s*(?:const|let|var)\s+(\w+)\s*=", text)
    if m:
        return [m.group(1)]
    m = re.match(r"\s*(?:const|let|var)\s*\{([^}]*)\}\s*=", text)
    if not m:
        return []
    names = []
    for part in m.group(1).split(","):
        part = part.split("=")[0].strip()
        if ":" in part:
            part = part.split(":")[1].strip()
        if re.fullmatch(r"\w+", part):
            names.append(part)
    return names


def _is_function_value(toks, k):
    """Whether the expression starting at toks[k] is a function or arrow function."""
    if toks[k].text in ("function", "async"):
        return True
    if toks[k].kind == "id" and k + 1 < len(toks) and toks[k + 1].text == "=>":
        return True
    if toks[k].text == "(":
        depth = 0
        for j in range(k, len(toks)):
            if toks[j].text == "(":
                depth += 1
            elif toks[j].text == ")":
                depth -= 1
                if depth == 0:
                    return j + 1 < len(toks) and toks[j + 1].text == "=>"
    return False


def _bound_end(toks):
    """Where a declaration's initializer starts (the names it binds are no check); 0 otherwise."""
    if toks[0].text in ("const", "let", "var"):
        return next((k for k, t in enumerate(toks) if t.text == "="), len(toks))
    return 0


def analyse(src):
    """The statements of src with, for each: kind, whether it is a check, and an exclusion reason."""
    stmts = jssplit.split_statements(src)
    assert_names = {"assert"}
    common_check_names = set()
    facility = {"internalBinding": INTERNAL, "gc": "--expose-gc"}  # local name -> per-check exclusion reason
    helpers_src = {}
    for s, e, toks in stmts:
        text = src[s:e]
        for spec in REQUIRE_RE.findall(text):
            name = spec[5:] if spec.startswith("node:") else spec
            if name in ("assert", "assert/strict"):
                assert_names.update(_binding_names(text))
            elif name == "../common":
                common_check_names.update(n for n in _binding_names(text)
                                          if n.startswith("must") or n.startswith("expect"))
            elif name in PER_CHECK:
                for n in _binding_names(text):
                    facility[n] = PER_CHECK[name]
            elif name.startswith("internal/"):
                for n in _binding_names(text):
                    facility[n] = INTERNAL
            elif name.split("/")[0] in NO_SUCH_MODULE:
                base = name.split("/")[0]
                for n in _binding_names(text):
                    facility[n] = "node:%s (%s)" % (base, NO_SUCH_MODULE[base])
        if re.match(r"\s*(?:const|let|var)\s*\{[^}]*\}\s*=\s*assert\b", text):
            assert_names.update(_binding_names(text))
        head = toks[0].text
        if head == "function" or (head == "async" and len(toks) > 1 and toks[1].text == "function"):
            k = 1 if head == "function" else 2
            if k < len(toks) and toks[k].text == "*":
                k += 1
            if k < len(toks) and toks[k].kind == "id":
                helpers_src[toks[k].text] = toks
        elif head in ("const", "let", "var") and len(toks) > 3 and toks[1].kind == "id" and toks[2].text == "=":
            if _is_function_value(toks, 3):
                helpers_src[toks[1].text] = toks

    def direct(toks):
        start = _bound_end(toks)
        for k, t in enumerate(toks):
            if k < start or t.kind != "id":
                continue
            if t.text in assert_names or t.text in common_check_names:
                if k == 0 or toks[k - 1].text not in (".", "?."):
                    return True
            if t.text == "common" and k + 2 < len(toks) and toks[k + 1].text == "." and (
                    toks[k + 2].text.startswith("must") or toks[k + 2].text.startswith("expect")):
                return True
        return False

    asserting = {n for n, toks in helpers_src.items() if direct(toks)}
    changed = True
    while changed:
        changed = False
        for n, toks in helpers_src.items():
            if n not in asserting and any(t.kind == "id" and t.text in asserting for t in toks):
                asserting.add(n)
                changed = True

    # A helper of the file that uses something a run lacks passes that need on to its callers.
    def needs(toks, start=0):
        for k, t in enumerate(toks):
            if k >= start and t.kind == "id" and t.text in facility and (k == 0 or toks[k - 1].text not in (".", "?.")):
                return facility[t.text]
        return None

    changed = True
    while changed:
        changed = False
        for n, toks in helpers_src.items():
            if n not in facility:
                why = needs(toks, 3 if toks[0].text in ("const", "let", "var") else 2)
                if why:
                    facility[n] = why
                    changed = True

    def inline_require(text):
        """The need of a module a run lacks required inside the statement (not bound at top level)."""
        for spec in REQUIRE_RE.findall(text):
            name = spec[5:] if spec.startswith("node:") else spec
            base = name.split("/")[0]
            if name in PER_CHECK:
                return PER_CHECK[name]
            if name.startswith("internal/"):
                return INTERNAL
            if base in NO_SUCH_MODULE:
                return "node:%s (%s)" % (base, NO_SUCH_MODULE[base])
        return None

    out = []
    for s, e, toks in stmts:
        head = toks[0].text
        kind = "stmt"
        if head == "function" or (head == "async" and len(toks) > 1 and toks[1].text == "function"):
            kind = "func"
        elif toks[0].kind == "str" and len(toks) <= 2 and not out:
            kind = "directive"
        elif head == "class":
            kind = "class"
        elif head in ("const", "let"):
            kind = "decl"
        helper_decl = kind in ("decl", "stmt") and head in ("const", "let", "var") and len(toks) > 1 and toks[1].text in helpers_src and helpers_src[toks[1].text] is toks
        is_check = kind not in ("func", "directive") and not helper_decl and (
            direct(toks) or any(t.kind == "id" and t.text in asserting and (k == 0 or toks[k - 1].text not in (".", "?."))
                                for k, t in enumerate(toks) if k >= _bound_end(toks)))
        excluded = None
        if is_check:
            excluded = needs(toks, _bound_end(toks)) or inline_require(src[s:e])
        out.append({"start": s, "end": e, "toks": toks, "kind": kind, "check": is_check,
                    "excluded": excluded, "line": toks[0].line})
    return out


STATEMENT_WORDS = {"var", "let", "const", "if", "for", "while", "do", "switch", "try", "throw",
                   "return", "function", "class", "break", "continue", "{", ";", "async", "import",
                   "export", "debugger", "with"}


def rewrite(src, stmts):
    """src with each statement in a numbered try of its own (line numbers kept)."""
    parts = []
    pos = 0
    prelude_done = False
    for i, st in enumerate(stmts):
        s, e, toks, kind = st["start"], st["end"], st["toks"], st["kind"]
        parts.append(src[pos:s])
        text = src[s:e]
        if kind == "directive":
            parts.append(text + (";" if not text.rstrip().endswith(";") else "") + " var __nt = globalThis.__nodetests;")
            prelude_done = True
            pos = e
            continue
        if not prelude_done:
            parts.append("var __nt = globalThis.__nodetests; ")
            prelude_done = True
        if kind == "func":
            parts.append(text)
            pos = e
            continue
        if kind == "decl":
            body = "var" + text[len(toks[0].text):]
        elif kind == "class" and len(toks) > 1 and toks[1].kind == "id":
            body = "var %s = %s;" % (toks[1].text, text.rstrip().rstrip(";"))
        elif toks[0].text not in STATEMENT_WORDS and not (len(toks) > 1 and toks[0].kind == "id" and toks[1].text == ":"):
            expr = text.rstrip()
            if expr.endswith(";"):
                expr = expr[:-1]
            body = "__nt.track(%d, (%s));" % (i, expr)
        else:
            body = text
        parts.append("if (__nt.enter(%d)) try { %s } catch (__e) { __nt.fail(%d, __e); }" % (i, body, i))
        pos = e
    parts.append(src[pos:])
    if not prelude_done:
        parts.insert(0, "var __nt = globalThis.__nodetests;\n")
    return "".join(parts)


NODE_MAIN = """\
require('./driver.js')('./test/parallel/%s').then((r) => {
  process.stdout.write('\\n@@NODETESTS ' + JSON.stringify(r) + '\\n');
  process.exit(0);
});
"""
CHIDORI_MAIN = """\
import run from './driver.js';
export default async function () {
  const r = await run('./test/parallel/%s');
  console.log('\\n@@NODETESTS ' + JSON.stringify(r));
  return { done: true };
}
"""


def scratch(base, name, rewritten):
    d = tempfile.mkdtemp(prefix="nt-", dir=base)
    os.makedirs(os.path.join(d, "test", "parallel"))
    shutil.copytree(os.path.join(HERE, "common"), os.path.join(d, "test", "common"))
    shutil.copy(os.path.join(HERE, "driver.js"), os.path.join(d, "driver.js"))
    with open(os.path.join(d, "package.json"), "w") as f:
        f.write('{"type": "commonjs", "private": true}\n')
    with open(os.path.join(d, "test", "parallel", name), "w") as f:
        f.write(rewritten)
    with open(os.path.join(d, "node_main.js"), "w") as f:
        f.write(NODE_MAIN % name)
    with open(os.path.join(d, "main.mjs"), "w") as f:
        f.write(CHIDORI_MAIN % name)
    return d


def run_side(cmd, cwd, timeout):
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": cwd, "LANG": "C.UTF-8", "TZ": "UTC"}
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=timeout)
        out = p.stdout[:MAX_OUTPUT].decode("utf-8", "replace")
        code = p.returncode
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"")[:MAX_OUTPUT].decode("utf-8", "replace")
        code = "timeout"
    lines = out.splitlines()
    for line in reversed(lines):
        if line.startswith("@@NODETESTS "):
            try:
                return json.loads(line[len("@@NODETESTS "):]), None
            except ValueError:
                break
    tail = [l.strip() for l in lines if l.strip() and not l.startswith("@@NT-")][-3:]
    crash = "run ended early (exit %s: %s)" % (code, " | ".join(tail)[:240])
    # Partial results from the progress lines: what failed, what ran, what still waited for calls.
    fails, ran, waiting = {}, set(), set()
    for line in lines:
        m = re.match(r"@@NT-([FRX]) (-?\d+)(?: (.*))?$", line)
        if not m:
            continue
        i = int(m.group(2))
        if m.group(1) == "F":
            try:
                fails.setdefault(str(i), json.loads(m.group(3)))
            except (TypeError, ValueError):
                fails.setdefault(str(i), "failed")
        elif m.group(1) == "R":
            ran.add(i)
        else:
            waiting.add(i)
    for i in waiting:
        fails.setdefault(str(i), crash)
    return {"fails": fails, "ran": sorted(ran), "skipped": None, "partial": crash}, crash


def verdicts(result, crash, stmts):
    """{statement index: None (pass) or the first error line} for the checks."""
    out = {}
    for i, st in enumerate(stmts):
        if not st["check"] or st["excluded"]:
            continue
        if result is None:
            out[i] = "no result: " + crash
        elif result.get("skipped") is not None:
            out[i] = "skipped: " + result["skipped"]
        elif str(i) in result["fails"]:
            out[i] = result["fails"][str(i)]
        elif i not in result["ran"]:
            out[i] = "did not run" + ("" if not result.get("partial") else ": " + result["partial"])
        else:
            out[i] = None
    return out


SURFACE_NODE = """\
process.stdout.write('\\n@@NODETESTS ' + JSON.stringify(require('./stream_surface.js')(%s)) + '\\n');
"""
SURFACE_CHIDORI = """\
import surface from './stream_surface.js';
export default async function () {
  console.log('\\n@@NODETESTS ' + JSON.stringify(surface(%s)));
  return {};
}
"""


def stream_lacks(args, base, files):
    """What a stream file may use that Node's node:stream has and chidori's lacks: {name: where}
    and the module names Node loads and chidori does not (run.py's rule for stream files)."""
    specs = set()
    for module, path in files:
        if module == "stream":
            with open(path, encoding="utf-8", errors="replace") as f:
                for spec in REQUIRE_RE.findall(f.read()):
                    if not spec.startswith("."):
                        specs.add(spec)
    specs = json.dumps(sorted(specs))
    d = tempfile.mkdtemp(prefix="nt-surface-", dir=base)
    shutil.copy(os.path.join(HERE, "stream_surface.js"), os.path.join(d, "stream_surface.js"))
    with open(os.path.join(d, "package.json"), "w") as f:
        f.write('{"type": "commonjs", "private": true}\n')
    with open(os.path.join(d, "node_main.js"), "w") as f:
        f.write(SURFACE_NODE % specs)
    with open(os.path.join(d, "main.mjs"), "w") as f:
        f.write(SURFACE_CHIDORI % specs)
    theirs, why = run_side([args.node, "node_main.js"], d, args.timeout)
    ours, why2 = run_side([args.chidori, "run", "main.mjs", "-q", "--runs-dir", os.path.join(d, ".runs")], d, args.timeout)
    if not theirs or "names" not in theirs or not ours or "names" not in ours:
        raise SystemExit("could not read node:stream's surface: %s / %s" % (why, why2))
    lacking = {}
    for label, names in theirs["names"].items():
        have = set(ours["names"].get(label, []))
        for n in names:
            if n not in have and not n.startswith("_"):
                lacking.setdefault(n, label)
    modules = {s for s, ok in theirs["loads"].items() if ok and not ours["loads"].get(s)}
    return lacking, modules


STREAM_HOLDERS = {"stream", "Stream", "Readable", "Writable", "Duplex", "Transform", "PassThrough"}


def stream_exclusion(src, lacking, modules):
    """Why a stream file needs what chidori's node:stream lacks, or None: a module name it cannot
    load, a static of the module or a class (`stream.X`, `Readable.X`, or X taken from
    require('stream')), or a member its streams lack (`.X` on anything but Symbol)."""
    for spec in REQUIRE_RE.findall(src):
        if spec in modules:
            return "needs %s, which chidori lacks" % spec
    try:
        toks = jssplit.tokenize(src)
    except ValueError:
        return None
    taken = set()
    for m in re.finditer(r"""(?:const|let|var)\s*\{([^}]*)\}\s*=\s*require\(\s*['"](?:node:)?stream['"]\s*\)""", src):
        for part in m.group(1).split(","):
            taken.add(part.split(":")[0].strip())
    for k, t in enumerate(toks):
        if t.kind != "id" or t.text not in lacking:
            continue
        label = lacking[t.text]
        dotted = k > 1 and toks[k - 1].text in (".", "?.")
        if label == "instance":
            if dotted and toks[k - 2].text != "Symbol":
                return "needs a stream's .%s, which chidori's streams lack" % t.text
        elif (dotted and toks[k - 2].text in STREAM_HOLDERS) or t.text in taken:
            return "needs %s.%s, which chidori's node:stream lacks" % (label, t.text)
    return None


def run_file(args, path, module, base, lacks=None):
    name = os.path.basename(path)
    with open(path, encoding="utf-8", errors="replace") as f:
        src = f.read()
    why = file_exclusion(src)
    if not why and module == "stream" and lacks is not None:
        why = stream_exclusion(src, *lacks)
    if why:
        return {"file": name, "module": module, "excluded": why}
    try:
        stmts = analyse(src)
    except ValueError as e:
        return {"file": name, "module": module, "excluded": "could not be cut into statements (%s)" % e}
    d = scratch(base, name, rewrite(src, stmts))
    try:
        node_res, node_crash = run_side([args.node, "node_main.js"], d, args.timeout)
        ours_res, ours_crash = run_side([args.chidori, "run", "main.mjs", "-q", "--runs-dir",
                                         os.path.join(d, ".runs")], d, args.timeout)
    finally:
        if not args.keep:
            shutil.rmtree(d, ignore_errors=True)
    if node_res is not None and node_res.get("skipped") is not None:
        return {"file": name, "module": module, "excluded": "skips itself under Node: " + node_res["skipped"]}
    nv = verdicts(node_res, node_crash, stmts)
    ov = verdicts(ours_res, ours_crash, stmts)
    checks = []
    for i in sorted(nv):
        checks.append({"line": stmts[i]["line"], "node": nv[i], "ours": ov[i]})
    excluded_checks = {}
    for st in stmts:
        if st["check"] and st["excluded"]:
            excluded_checks[st["excluded"]] = excluded_checks.get(st["excluded"], 0) + 1
    return {"file": name, "module": module, "checks": checks, "excluded_checks": excluded_checks}


def select(node_src, flt):
    par = os.path.join(node_src, "test", "parallel")
    if not os.path.isdir(par):
        raise SystemExit("no test/parallel under %s (NODE_SRC must be a checkout of Node's repository)" % node_src)
    names = sorted(os.listdir(par))
    out, seen = [], set()
    for module, globs in MODULES:
        for n in names:
            if n in seen or not any(fnmatch.fnmatch(n, g) for g in globs):
                continue
            if flt and flt not in n:
                continue
            seen.add(n)
            out.append((module, os.path.join(par, n)))
    return out


def pct(a, b):
    return "%.1f%%" % (100.0 * a / b) if b else "-"


def report(results, differences):
    rows = {}
    for r in results:
        row = rows.setdefault(r["module"], {"files": 0, "excluded": 0, "checks": 0, "node": 0, "ours": 0, "both": 0, "xchecks": 0})
        if "excluded" in r:
            row["excluded"] += 1
            continue
        row["files"] += 1
        row["xchecks"] += sum(r["excluded_checks"].values())
        for c in r["checks"]:
            row["checks"] += 1
            row["node"] += c["node"] is None
            row["ours"] += c["ours"] is None
            row["both"] += c["node"] is None and c["ours"] is None
    lines = ["%-15s %6s %8s %7s %8s %8s %8s %8s %9s" % ("module", "files", "excluded", "checks", "node", "chidori",
                                                       "% all", "% node's", "x-checks")]
    tot = {"files": 0, "excluded": 0, "checks": 0, "node": 0, "ours": 0, "both": 0, "xchecks": 0}
    for module, _ in MODULES:
        if module not in rows:
            continue
        row = rows[module]
        for k in tot:
            tot[k] += row[k]
        lines.append("%-15s %6d %8d %7d %8d %8d %8s %8s %9d" % (module, row["files"], row["excluded"], row["checks"], row["node"],
                                                               row["ours"], pct(row["ours"], row["checks"]), pct(row["both"], row["node"]), row["xchecks"]))
    if "stream" in rows:
        r2 = {k: tot[k] - rows["stream"][k] for k in tot}
        lines.append("%-15s %6d %8d %7d %8d %8d %8s %8s %9d" % ("all but stream", r2["files"], r2["excluded"], r2["checks"], r2["node"],
                                                               r2["ours"], pct(r2["ours"], r2["checks"]), pct(r2["both"], r2["node"]), r2["xchecks"]))
    lines.append("%-15s %6d %8d %7d %8d %8d %8s %8s %9d" % ("all", tot["files"], tot["excluded"], tot["checks"], tot["node"],
                                                           tot["ours"], pct(tot["ours"], tot["checks"]), pct(tot["both"], tot["node"]), tot["xchecks"]))
    lines.append("(% node's: checks both pass, of those Node passes; x-checks: checks left out, needing what a run has not)")
    lines.append("")
    lines.append("excluded files:")
    for r in results:
        if "excluded" in r:
            lines.append("  %-50s %s" % (r["file"], r["excluded"]))
    xs = {}
    for r in results:
        for why, n in r.get("excluded_checks", {}).items():
            xs[why] = xs.get(why, 0) + n
    if xs:
        lines.append("checks excluded: " + ", ".join("%d need %s" % (n, w) for w, n in sorted(xs.items())))
    if differences:
        lines.append("")
        lines.append("checks Node passes and chidori fails:")
        for r in results:
            for c in r.get("checks", []):
                if c["node"] is None and c["ours"] is not None:
                    lines.append("  %s:%d  %s" % (r["file"], c["line"], c["ours"]))
        lines.append("checks chidori passes and Node fails:")
        for r in results:
            for c in r.get("checks", []):
                if c["node"] is not None and c["ours"] is None:
                    lines.append("  %s:%d  %s" % (r["file"], c["line"], c["node"]))
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--node-src", required=True)
    ap.add_argument("--chidori", default=os.path.join(ROOT, "build", "chidori"))
    ap.add_argument("--node", default="node")
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--filter", default="")
    ap.add_argument("--json")
    ap.add_argument("--differences", action="store_true")
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--keep", help="keep the scratch projects under this folder")
    args = ap.parse_args()
    args.chidori = os.path.abspath(args.chidori)
    files = select(os.path.abspath(args.node_src), args.filter)
    if not files:
        raise SystemExit("no test files matched")
    base = args.keep or tempfile.mkdtemp(prefix="node-tests-")
    os.makedirs(base, exist_ok=True)
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.j)) as ex:
            lacks = stream_lacks(args, base, files) if any(m == "stream" for m, _ in files) else None
            results = list(ex.map(lambda mf: run_file(args, mf[1], mf[0], base, lacks), files))
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    print(report(results, args.differences))


if __name__ == "__main__":
    main()
