"""tests/cases_npm_warm.py — what makes a run with many package files start fast, shown not to change
what it loads (docs/captured-surface.md, "Bytecode cache" and "Start-up with many package files").

The engine remembers which key the host answered for a specifier imported from a folder and, once
that module is loaded, does not ask again: shown here to keep files of two folders apart when they
import the same relative specifier, or the same bare name that resolves to different node_modules.
Every package ES module past a line or two is cached as bytecode by in-process runs; a tiny one is
not. Each project is built here in a temporary folder and run isolated and in-process, which must
agree.
"""
import glob
import json
import os
import shutil
import tempfile

from cases import chidori
from cases_npm_bytecode_cache import graph_of, payload_of

MODES = (("isolated", []), ("in-process", ["--no-isolate"]))


def write(root, rel, text):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def entries(state):
    return sorted(glob.glob(os.path.join(state, "cache", "bytecode", "*", "*.bc")))


def case_npm_warm_same_specifier_from_other_folders_is_another_module(v):
    """`./x.js` from a/ and from b/ (and from a/b/, whose folder name starts like a's), and the bare
    `p` from the project root and from sub/ (its own node_modules/p): each importer gets its own
    folder's module, however many files of a folder import it and in whatever order."""
    tmp = tempfile.mkdtemp(prefix="chidori-npm-warm-")
    try:
        app = os.path.join(tmp, "app")
        for d in ("a", "b", "a/b", "ab"):
            write(app, f"{d}/x.js", f"export const v = {json.dumps(d + '-x')};\n")
            for name in ("m", "n"):
                write(app, f"{d}/{name}.js", 'import { v } from "./x.js";\nexport const w = v;\n')
        write(app, "package.json", json.dumps({"type": "module"}))
        write(app, "node_modules/p/package.json", json.dumps({"name": "p", "type": "module", "main": "index.js"}))
        write(app, "node_modules/p/index.js", 'export const p = "root-p";\n')
        write(app, "sub/node_modules/p/package.json", json.dumps({"name": "p", "type": "module", "main": "index.js"}))
        write(app, "sub/node_modules/p/index.js", 'export const p = "sub-p";\n')
        for name in ("q", "r"):
            write(app, f"sub/{name}.js", 'import { p } from "p";\nexport const w = p;\n')
        write(app, "top.js", 'import { p } from "p";\nexport const w = p;\n')
        mods = [f"{d}/{n}" for d in ("a", "b", "a/b", "ab") for n in ("m", "n")] + ["sub/q", "top", "sub/r"]
        imports = "".join(f'import {{ w as w{i} }} from "./{m}.js";\n' for i, m in enumerate(mods))
        body = ", ".join(f'"{m}": w{i}' for i, m in enumerate(mods))
        write(app, "agent.js", 'import { run } from "chidori:agent";\n' + imports +
              'run(async () => ({ ' + body + ', dyn: (await import("./b/x.js")).v, dynp: (await import("p")).p }));\n')
        want = {f"{d}/{n}": d + "-x" for d in ("a", "b", "a/b", "ab") for n in ("m", "n")}
        want.update({"sub/q": "sub-p", "sub/r": "sub-p", "top": "root-p", "dyn": "b-x", "dynp": "root-p"})
        for mode, args in MODES:
            code, out, err = chidori(v, "run", *args, os.path.join(app, "agent.js"))
            assert code == 0, f"{mode}: exit {code}\n{err}"
            assert json.loads(out) == want, f"{mode}: {out}"
        # Node agrees (the oracle), where it is installed
        if shutil.which("node"):
            write(app, "node.mjs", imports +
                  'console.log(JSON.stringify({ ' + body + ', dyn: (await import("./b/x.js")).v, '
                  'dynp: (await import("p")).p }));\n')
            import subprocess
            p = subprocess.run(["node", "node.mjs"], cwd=app, capture_output=True, text=True, timeout=60 * v.slow)
            assert p.returncode == 0, p.stderr
            assert json.loads(p.stdout) == want, p.stdout
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def case_npm_warm_every_package_module_past_a_line_is_cached(v):
    """An in-process run stores the bytecode of each package ES module of more than 128 bytes (a
    600-byte file too, which the 16 KiB floor of before left out) but not of a one-line file; the
    warm run reads them and answers the same, isolated runs neither read nor write any, and a
    changed file is compiled again and its record in the agent's graph image replaced (the other
    file's kept)."""
    tmp = tempfile.mkdtemp(prefix="chidori-npm-warm-")
    try:
        app, state = os.path.join(tmp, "app"), os.path.join(tmp, "state")
        write(app, "node_modules/w/package.json", json.dumps({"name": "w", "type": "module", "main": "index.js"}))
        write(app, "node_modules/w/index.js",
              "// the package's entry: re-exports, padded past the smallest size that is cached\n"
              'export { one } from "./lib/one.js";\nexport { tiny } from "./tiny.js";\n'
              "export const entry = 'index';\n")
        fns = "".join(f"function f{i}(a) {{ return a * {i} + {i}; }}\n" for i in range(20))
        write(app, "node_modules/w/lib/one.js", fns + "export function one() { return f3(2) + f19(1); }\n")
        write(app, "node_modules/w/tiny.js", "export const tiny = 1;\n")
        write(app, "agent.js", 'import { run } from "chidori:agent";\nimport { one, tiny, entry } from "w";\n'
              "run(async () => ({ one: one(), tiny, entry }));\n")
        want = {"one": 47, "tiny": 1, "entry": "index"}
        assert 128 < os.path.getsize(os.path.join(app, "node_modules/w/lib/one.js")) < 16 << 10

        def go(args):
            code, out, err = chidori(v, "run", *args, os.path.join(app, "agent.js"), state=state)
            assert code == 0, f"{args}: exit {code}\n{err}"
            assert json.loads(out) == want, out
        go([])
        assert entries(state) == [], "an isolated run stored bytecode"
        go(["--no-isolate"])
        first = entries(state)
        assert len(first) == 1, f"one graph image for the agent: {first}"
        cached = graph_of(payload_of(first[0]))
        assert sorted(cached) == ["node_modules/w/index.js", "node_modules/w/lib/one.js"], \
            f"index.js and lib/one.js are cached, tiny.js is not: {list(cached)}"
        stamps = {p: open(p, "rb").read() for p in first}
        for _, args in MODES + MODES:
            go(args)
        assert {p: open(p, "rb").read() for p in entries(state)} == stamps, "a warm run rewrote or added entries"
        write(app, "node_modules/w/lib/one.js", fns + "export function one() { return f3(2) + f19(2); }\n")
        want["one"] = 66
        go(["--no-isolate"])
        assert entries(state) == first, "a changed file made another image"
        again = graph_of(payload_of(first[0]))
        assert again["node_modules/w/lib/one.js"] != cached["node_modules/w/lib/one.js"], "the changed file's record was kept"
        assert again["node_modules/w/index.js"] == cached["node_modules/w/index.js"]
        go(["--no-isolate"])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def case_npm_warm_failed_import_is_forgotten_and_fails_again(v):
    """A dynamic import whose graph fails to link (a missing file two levels down) is dropped by the
    engine with the modules it half-loaded, and importing it again fails the same way, not with a
    module found in the engine's name table (patch 0014 hashes loaded modules by name: a module freed
    but left in the table would be found again; the sanitizer build sees its memory reused), while
    a good module imports fine before and after."""
    tmp = tempfile.mkdtemp(prefix="chidori-npm-warm-")
    try:
        app = os.path.join(tmp, "app")
        write(app, "package.json", json.dumps({"type": "module"}))
        write(app, "bad.js", 'import { mid } from "./mid.js";\nexport const bad = mid;\n')
        write(app, "mid.js", 'import { gone } from "./gone.js";\nexport const mid = gone;\n')
        write(app, "good.js", 'export const good = "good";\n')
        write(app, "agent.js", 'import { run } from "chidori:agent";\n'
              "async function attempt(s) { try { return (await import(s)); } catch (e) { return String(e.message); } }\n"
              "run(async () => {\n"
              '  const g1 = (await attempt("./good.js")).good;\n'
              '  const b1 = await attempt("./bad.js"), b2 = await attempt("./bad.js"), m = await attempt("./mid.js");\n'
              '  const g2 = (await attempt("./good.js")).good;\n'
              "  return { g1, g2, b1, same: b1 === b2, midFails: typeof m === 'string' };\n"
              "});\n")
        for mode, args in MODES:
            code, out, err = chidori(v, "run", *args, os.path.join(app, "agent.js"))
            assert code == 0, f"{mode}: exit {code}\n{err}"
            r = json.loads(out)
            assert r["g1"] == r["g2"] == "good", f"{mode}: {r}"
            assert "gone.js" in r["b1"] and r["same"] and r["midFails"], f"{mode}: {r}"
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def case_npm_warm_failed_import_in_a_cycle_leaves_no_freed_module(v):
    """a.js imports b.js and a missing file, b.js imports a.js back: a dynamic import of a.js fails,
    and a later import of b.js (whose import of a.js was resolved on the way) fails the same way
    instead of using a.js's freed module (ng patch 0026: the engine crashed here, a segfault, or a
    use after free under the sanitizers). The same with the two as package files, and again when
    the first run stored them as bytecode and the second reads them from it."""
    tmp = tempfile.mkdtemp(prefix="chidori-npm-warm-")
    try:
        app = os.path.join(tmp, "app")
        write(app, "package.json", json.dumps({"type": "module"}))
        for folder in ("", "node_modules/cyc/"):
            write(app, folder + "a.js", 'import { b } from "./b.js";\nimport "./missing.js";\nexport const a = 1;\n'
                  "export const pad = [%s];\n" % ", ".join(str(i) for i in range(100)))
            write(app, folder + "b.js", 'import { a } from "./a.js";\nexport const b = 2;\nexport function f() { return a; }\n'
                  "export const pad = [%s];\n" % ", ".join(str(i) for i in range(100)))
        write(app, "node_modules/cyc/package.json", json.dumps({"name": "cyc", "type": "module", "exports": {"./*": "./*"}}))
        write(app, "agent.js", 'import { run } from "chidori:agent";\n'
              "async function attempt(s) { try { const m = await import(s); return Object.keys(m).join(); } catch (e) { return e.name + ': ' + e.message; } }\n"
              "run(async () => ({ a: await attempt('./a.js'), b: await attempt('./b.js'),\n"
              "  pa: await attempt('cyc/a.js'), pb: await attempt('cyc/b.js') }));\n")
        for mode, args in MODES + (("in-process, warm", ["--no-isolate"]),):
            state = os.path.join(tmp, "state-" + mode.split(",")[0])
            code, out, err = chidori(v, "run", *args, os.path.join(app, "agent.js"), state=state)
            assert code == 0, f"{mode}: exit {code}\n{err}"
            r = json.loads(out)
            for k in ("a", "b", "pa", "pb"):
                assert r[k].startswith("ReferenceError: cannot find module `./missing.js`"), f"{mode} {k}: {r}"
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def case_npm_warm_file_reached_by_two_paths_is_sent_once(v):
    """A file the host already sent, reached again from another folder (`./shared.js` from the root,
    `../shared.js` from sub/), comes back as its key alone: the same module, run once, and both
    imports in the run's manifest. One whose first load failed (a syntax error), reached again by
    another path, is asked for whole and fails again with the same SyntaxError, not with an empty
    or unresolved module."""
    tmp = tempfile.mkdtemp(prefix="chidori-npm-warm-")
    try:
        app = os.path.join(tmp, "app")
        write(app, "package.json", json.dumps({"type": "module"}))
        write(app, "shared.js", '(globalThis.__ran ??= []).push("shared");\nexport const v = {};\n')
        write(app, "sub/user.js", 'import { v } from "../shared.js";\nexport const viaSub = v;\n')
        write(app, "broken.js", "export const x = ;\n")
        write(app, "sub/broken_user.js", 'export { x } from "../broken.js";\n')
        write(app, "agent.js", 'import { run } from "chidori:agent";\n'
              'import { v } from "./shared.js";\nimport { viaSub } from "./sub/user.js";\n'
              "async function attempt(s) { try { return await import(s); } catch (e) { return e.name + ': ' + e.message; } }\n"
              "run(async () => {\n"
              '  const b1 = await attempt("./broken.js"), b2 = await attempt("./sub/broken_user.js");\n'
              "  return { same: v === viaSub, ran: globalThis.__ran, b1, b2 };\n"
              "});\n")
        for mode, args in MODES:
            state = os.path.join(tmp, "state-" + mode)
            code, out, err = chidori(v, "run", *args, os.path.join(app, "agent.js"), state=state)
            assert code == 0, f"{mode}: exit {code}\n{err}"
            r = json.loads(out)
            assert r["same"] is True and r["ran"] == ["shared"], f"{mode}: {r}"
            assert r["b1"].startswith("SyntaxError") and r["b2"].startswith("SyntaxError"), f"{mode}: {r}"
            manifests = glob.glob(os.path.join(state, "runs", "*", "runtime.snapshot.json"))
            assert len(manifests) == 1, manifests
            with open(manifests[0]) as f:
                text = f.read()
            assert '"../shared.js"' in text and '"./shared.js"' in text, f"{mode}: an import is missing from the manifest:\n{text}"
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def case_npm_warm_require_memo_keeps_folders_apart_and_honours_require_cache(v):
    """CommonJS: `require("./x")` from a/ and from b/ are two modules however often each folder
    requires it; a module deleted from require.cache is read and run again on the next require();
    the same answers as Node's."""
    tmp = tempfile.mkdtemp(prefix="chidori-npm-warm-")
    try:
        app = os.path.join(tmp, "app")
        write(app, "node_modules/c/package.json", json.dumps({"name": "c", "main": "index.js"}))
        for d in ("a", "b"):
            write(app, f"node_modules/c/{d}/x.js", f"globalThis.runs = (globalThis.runs || 0) + 1;\n"
                  f"module.exports = {{ v: {json.dumps(d)} }};\n")
            for name in ("m", "n"):
                write(app, f"node_modules/c/{d}/{name}.js", 'module.exports = require("./x").v;\n')
        write(app, "node_modules/c/index.js",
              'const out = [require("./a/m"), require("./b/m"), require("./a/n"), require("./b/n")];\n'
              "const before = globalThis.runs;\n"
              'delete require.cache[require.resolve("./a/x")];\n'
              'out.push(require("./a/x").v, require("./a/x").v, before, globalThis.runs);\n'
              "module.exports = out;\n")
        want = ["a", "b", "a", "b", "a", "a", 2, 3]
        write(app, "agent.js", 'import { run } from "chidori:agent";\nimport out from "c";\nrun(async () => out);\n')
        for mode, args in MODES:
            code, out, err = chidori(v, "run", *args, os.path.join(app, "agent.js"))
            assert code == 0, f"{mode}: exit {code}\n{err}"
            assert json.loads(out) == want, f"{mode}: {out}"
        if shutil.which("node"):
            import subprocess
            write(app, "node.mjs", 'import out from "c";\nconsole.log(JSON.stringify(out));\n')
            p = subprocess.run(["node", "node.mjs"], cwd=app, capture_output=True, text=True, timeout=60 * v.slow)
            assert p.returncode == 0, p.stderr
            assert json.loads(p.stdout) == want, p.stdout
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
