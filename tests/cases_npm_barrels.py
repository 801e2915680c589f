"""tests/cases_npm_barrels.py — a package's re-export-only module ("barrel") served as the part an
importer uses, when its package declares `"sideEffects": false` (docs/captured-surface.md,
"Packages that declare no side effects"; host/effects/module_barrel.c, engine/module_subset.c).

Each fixture module records that it ran (globalThis.__ran), so the tests see which files were
evaluated: a named import of a declared package's barrel runs only the files those names come from
(plus re-exports from other packages, which the declaration does not cover); a namespace import,
`export * from`, a dynamic import(), a package without the declaration, a name the barrel does not
export and a file that is not only re-exports all behave as before, whole. The same binding reached
through different parts and through the whole barrel is the same value. Isolated and in-process,
and in-process again with the importing package module read from the bytecode cache (a module read
from bytecode says what it imports only once its entries are read: ng patch 0025).
"""
import json
import os
import shutil
import tempfile

from cases import chidori

MODES = (("isolated", []), ("in-process", ["--no-isolate"]))

BARREL = """/** A barrel, as lodash-es and others ship one. */
export { default as alpha } from './alpha.js';
export { beta, gamma as g } from "./beta.js"
export * as ns from './ns.js';
// a re-export from another package is kept in every part
export { fromOther } from 'side-pkg';
"""


def mark(name):
    return "(globalThis.__ran ??= []).push(%s);\n" % json.dumps(name)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def package(app, name, files, side_effects=None):
    pj = {"name": name, "type": "module", "main": "index.js"}
    if side_effects is not None:
        pj["sideEffects"] = side_effects
    write(os.path.join(app, "node_modules", name, "package.json"), json.dumps(pj))
    for rel, text in files.items():
        write(os.path.join(app, "node_modules", name, rel), text)


def members(name):
    return {
        "index.js": BARREL,
        "alpha.js": mark(name + "/alpha") + "export default function alpha() { return 'alpha'; }\n",
        "beta.js": mark(name + "/beta") + "export const beta = { b: 1 };\nexport const gamma = 'gamma';\n",
        "ns.js": mark(name + "/ns") + "export const x = 'x';\n",
    }


def project():
    tmp = tempfile.mkdtemp(prefix="chidori-barrel-")
    app = os.path.join(tmp, "app")
    os.makedirs(app)
    write(os.path.join(app, "package.json"), '{"type": "module"}')
    package(app, "pure", members("pure"), side_effects=False)
    package(app, "loud", members("loud"))  # no declaration: loaded whole, as Node does
    package(app, "listed", members("listed"), side_effects=["./alpha.js"])  # a list is not `false`
    package(app, "side-pkg", {"index.js": mark("side-pkg") + "export const fromOther = 'other';\n"})
    # a barrel with code in it is no barrel
    package(app, "mixed", dict(members("mixed"), **{"index.js": BARREL + "export const local = 1;\n"}), side_effects=False)
    # files that import their own barrel, directly and through another file (an import cycle)
    package(app, "cyc", {
        "index.js": 'export { x, getY } from "./x.js";\nexport { y } from "./y.js";\n',
        "x.js": mark("cyc/x") + 'import { y } from "./index.js";\nexport const x = () => "x";\nexport const getY = () => y;\n',
        "y.js": mark("cyc/y") + 'import { x } from "./index.js";\nexport const y = x();\n',
    }, side_effects=False)
    package(app, "deep", {
        "index.js": 'export { Base } from "./base.js";\nexport { Child } from "./lib/child.js";\n',
        "base.js": mark("deep/base") + 'import "./lib/helper.js";\nexport class Base {}\n',
        "lib/helper.js": mark("deep/helper") + 'import { Child } from "../index.js";\nexport const h = () => Child;\n',
        "lib/child.js": mark("deep/child") + 'import { Base } from "../index.js";\nexport class Child extends Base {}\n',
    }, side_effects=False)
    # a cycle through the barrel across packages: xp's files import xq, which imports xp's barrel
    package(app, "xp", {
        "index.js": 'export { a } from "./a.js";\nexport { b } from "./b.js";\n',
        "a.js": mark("xp/a") + 'import { q } from "xq";\nexport const a = "a" + q;\n',
        "b.js": mark("xp/b") + 'import { q } from "xq";\nexport const b = "b" + q;\n',
    }, side_effects=False)
    package(app, "xq", {"index.js": mark("xq") + 'import { b } from "xp";\nexport const q = "q";\nexport const gb = () => b;\n'})
    # a barrel whose line re-exports from another barrel of the same package
    package(app, "nest", {
        "index.js": 'export { a1, a2 } from "./sub/index.js";\nexport { b } from "./b.js";\n',
        "b.js": mark("nest/b") + "export const b = 'b';\n",
        "sub/index.js": 'export { a1 } from "./a1.js";\nexport { a2 } from "./a2.js";\n',
        "sub/a1.js": mark("nest/a1") + "export const a1 = 1;\n",
        "sub/a2.js": mark("nest/a2") + "export const a2 = 2;\n",
    }, side_effects=False)
    # a package module that imports from the barrel, large enough to be kept in the bytecode cache
    package(app, "user", {"index.js": "import { beta } from 'pure';\nexport const seen = beta;\n"
                                      "export const filler = [%s];\n" % ", ".join(str(i) for i in range(300))},
            side_effects=False)
    return tmp, app


def run_agent(v, app, body, args, state=None, imports=""):
    write(os.path.join(app, "agent.js"), 'import { run } from "chidori:agent";\n%s\nrun(async () => { %s });\n'
          % (imports, body))
    code, out, err = chidori(v, "run", *args, os.path.join(app, "agent.js"), state=state)
    return code, out, err


def ran(v, app, imports, args, extra="", state=None):
    code, out, err = run_agent(v, app, "const e = { %s }; return { ran: globalThis.__ran ?? [], ...e };" % extra, args,
                               state=state, imports=imports)
    assert code == 0, f"exit {code}:\n{err}"
    return json.loads(out)


def case_npm_barrel_named_import_runs_only_what_it_uses(v):
    tmp, app = project()
    try:
        for mode, args in MODES:
            r = ran(v, app, 'import { alpha } from "pure";', args, "a: alpha()")
            assert r == {"ran": ["pure/alpha", "side-pkg"], "a": "alpha"}, f"{mode}: {r}"
            r = ran(v, app, 'import { g, ns } from "pure";', args, "g, x: ns.x")
            assert r == {"ran": ["pure/beta", "pure/ns", "side-pkg"], "g": "gamma", "x": "x"}, f"{mode}: {r}"
            # a re-export from the barrel (export { … } from) takes a part too
            write(os.path.join(app, "again.js"), 'export { alpha as again } from "pure";\n')
            r = ran(v, app, 'import { again } from "./again.js";', args, "a: again()")
            assert r == {"ran": ["pure/alpha", "side-pkg"], "a": "alpha"}, f"{mode}: {r}"
            # a line of the barrel that re-exports from another barrel takes a part of that one too
            r = ran(v, app, 'import { a1 } from "nest";', args, "a1")
            assert r == {"ran": ["nest/a1"], "a1": 1}, f"{mode}: {r}"
            # a side-effect-only import of the barrel runs none of its own files
            r = ran(v, app, 'import "pure";', args)
            assert r["ran"] == ["side-pkg"], f"{mode}: {r}"
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def case_npm_barrel_whole_when_the_importer_needs_it(v):
    whole = ["pure/alpha", "pure/beta", "pure/ns", "side-pkg"]
    tmp, app = project()
    try:
        for mode, args in MODES:
            r = ran(v, app, 'import * as all from "pure";', args, "keys: Object.keys(all)")
            assert r == {"ran": whole, "keys": ["alpha", "beta", "fromOther", "g", "ns"]}, f"{mode}: {r}"
            write(os.path.join(app, "star.js"), 'export * from "pure";\n')
            r = ran(v, app, 'import { alpha } from "./star.js";', args)
            assert r["ran"] == whole, f"{mode}: {r}"
            r = ran(v, app, "", args, "keys: Object.keys(await import('pure'))")
            assert r == {"ran": whole, "keys": ["alpha", "beta", "fromOther", "g", "ns"]}, f"{mode}: {r}"
            for name in ("loud", "listed", "mixed"):
                r = ran(v, app, 'import { alpha } from "%s";' % name, args)
                want = [name + "/alpha", name + "/beta", name + "/ns", "side-pkg"]
                assert r["ran"] == want, f"{mode} {name}: {r}"
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def case_npm_barrel_same_bindings_and_same_errors(v):
    tmp, app = project()
    try:
        for mode, args in MODES:
            write(os.path.join(app, "helper.js"), 'export { alpha, beta } from "pure";\n')
            r = ran(v, app, 'import { alpha } from "pure";\nimport * as h from "./helper.js";\n'
                            'import * as all from "pure";', args,
                    "same: alpha === h.alpha && h.beta === all.beta && alpha === all.alpha, "
                    "dyn: (await import('pure')).alpha === alpha")
            assert r["same"] is True and r["dyn"] is True, f"{mode}: {r}"
            # a name the barrel does not export: the error names the file, as without parts
            errs = {}
            for name in ("pure", "loud"):
                code, out, err = run_agent(v, app, "return nope;", args, imports='import { nope } from "%s";' % name)
                assert code != 0, f"{mode} {name}: the import of a missing name ran: {out}"
                line = [l for l in err.splitlines() if "run failed" in l]
                assert line and "nope" in line[0] and "node_modules/%s/index.js" % name in line[0], f"{mode}: {err}"
                errs[name] = line[0].replace("node_modules/%s/" % name, "node_modules/P/")
            assert errs["pure"] == errs["loud"], f"{mode}: {errs}"
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def case_npm_barrel_import_cycles_run_in_nodes_order(v):
    """A package whose files import their own barrel (a cycle through it, directly or two files
    down): the files run in the order the whole barrel gives them, Node's, and nothing reads a
    binding before it is set (a part that went straight to the files would run y.js, or child.js,
    first and fail)."""
    tmp, app = project()
    try:
        for mode, args in MODES:
            r = ran(v, app, 'import { x, getY } from "cyc";', args, "out: [x(), getY()]")
            assert r == {"ran": ["cyc/x", "cyc/y"], "out": ["x", "x"]}, f"{mode}: {r}"
            r = ran(v, app, 'import { Base } from "deep";', args, "b: typeof Base")
            assert r == {"ran": ["deep/helper", "deep/base", "deep/child"], "b": "function"}, f"{mode}: {r}"
            r = ran(v, app, 'import { Child } from "deep";', args, "c: typeof Child")
            assert r == {"ran": ["deep/helper", "deep/base", "deep/child"], "c": "function"}, f"{mode}: {r}"
            # through another package: its import of the barrel, made while the part's files load
            r = ran(v, app, 'import { a } from "xp";', args, "a")
            assert r == {"ran": ["xq", "xp/a", "xp/b"], "a": "aq"}, f"{mode}: {r}"
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def case_npm_barrel_parts_from_cached_bytecode(v):
    """A package module read from the bytecode cache takes its part too (its imports are resolved
    once its entries are read)."""
    tmp, app = project()
    state = os.path.join(tmp, "state")
    try:
        for i in range(2):  # the second run reads `user` from the image the first one wrote
            r = ran(v, app, 'import { seen } from "user";', ["--no-isolate"], "seen", state=state)
            assert r == {"ran": ["pure/beta", "side-pkg"], "seen": {"b": 1}}, f"run {i}: {r}"
        images = [f for _, _, fs in os.walk(os.path.join(state, "cache")) for f in fs if f.endswith(".bc")]
        assert images, "no bytecode image was written"
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
