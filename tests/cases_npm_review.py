"""tests/cases_npm_review.py — npm support against a hostile review: each case is one way a package
or agent tried to make the host allocate without bound or to slip past CHIDORI_TS_IMPORTS, and
must now get a clear refusal (or the same answer Node gives). Every project is built here, in a
temporary folder; every run goes isolated (the worker) and in-process.
"""
import json
import os
import shutil
import tempfile

from cases import chidori

MODES = (("isolated", []), ("in-process", ["--no-isolate"]))


def write(root, rel, text):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def agent(body, imports=""):
    return ('import { run } from "chidori:agent";\n%s\nrun(async () => { %s });\n' % (imports, body))


def run_in(v, app, source, args, env=None):
    write(app, "probe.js", source)
    return chidori(v, "run", *args, os.path.join(app, "probe.js"), env=env)


def failed_line(code, out, err):
    assert code != 0, f"the run succeeded but should have been refused:\n{out}"
    lines = [l for l in err.splitlines() if "run failed" in l]
    assert lines, "no `run failed` line:\n" + err
    return lines[0]


class Project:
    def __enter__(self):
        self.tmp = tempfile.mkdtemp(prefix="chidori-npm-review-")
        return os.path.join(self.tmp, "app")

    def __exit__(self, *exc):
        shutil.rmtree(self.tmp, ignore_errors=True)


def case_npm_review_star_target_size_is_checked_before_building(v):
    """`exports: {"./*": "./***…"}` with a long match: refused by its size, before the host builds
    stars × match bytes (a 999900-star target made a 1 GB path per import)."""
    with Project() as app:
        write(app, "node_modules/star/package.json", json.dumps({"name": "star", "exports": {"./*": "./" + "*" * 999900}}))
        write(app, "node_modules/ok/package.json", json.dumps({"name": "ok", "exports": {"./*": "./lib/*.js"}}))
        write(app, "node_modules/ok/lib/a.js", "export const v = 'ok-a';")
        src = agent('try { await import("star/" + "a".repeat(300)); return "loaded"; } '
                    'catch (e) { return String(e.message); }')
        for mode, args in MODES:
            code, out, err = run_in(v, app, src, args)
            assert code == 0, f"{mode}: {err}"
            msg = json.loads(out)
            assert "maps `./" + "a" * 300 + "` to a path longer than 1024 bytes" in msg, f"{mode}: {msg[-300:]}"
            code, out, err = run_in(v, app, agent('return (await import("ok/a")).v;'), args)
            assert code == 0 and json.loads(out) == "ok-a", f"{mode}: {out} {err}"


def case_npm_review_package_json_is_parsed_with_limits(v):
    """A package.json of 100k values (a ~36 MB tree per folder before) is refused with a sentence
    naming the limit; one that fits resolves, also through symlink aliases of its folder."""
    with Project() as app:
        write(app, "node_modules/huge/package.json",
              '{"name": "huge", "main": "i.js", "files": [' + ",".join(["0"] * 100000) + "]}")
        write(app, "node_modules/huge/i.js", "module.exports = 'huge';")
        write(app, "node_modules/fine/package.json", '{"name": "fine", "main": "lib/i.js", "keywords": ["a"]}')
        write(app, "node_modules/fine/lib/i.js", "module.exports = 'fine';")
        os.symlink(".", os.path.join(app, "node_modules", "fine", "a"))
        for mode, args in MODES:
            line = failed_line(*run_in(v, app, agent("return x;", 'import x from "huge";'), args))
            assert "node_modules/huge/package.json is not a JSON object" in line and "more than 50000 values" in line, \
                f"{mode}: {line}"
            body = ('return [(await import("fine")).default, (await import("./node_modules/fine/a/a/a/package.json")).default.main];')
            code, out, err = run_in(v, app, agent(body), args)
            assert code == 0 and json.loads(out) == ["fine", "lib/i.js"], f"{mode}: {out} {err}"


def case_npm_review_dynamic_code_obeys_ts_imports(v):
    """import() from new Function / indirect eval code (importer `<input>`) is under the policy like any
    module: `none` refuses it, `relative` refuses bare names; `node` still resolves it."""
    with Project() as app:
        write(app, "other.js", "export const v = 'other';")
        write(app, "node_modules/pkg/package.json", '{"name": "pkg", "main": "i.js"}')
        write(app, "node_modules/pkg/i.js", "module.exports = 'pkg';")
        forms = {
            "function": 'new Function("s", "return import(s)")',
            "eval": '(0, eval)("(s) => import(s)")',
        }
        for mode, args in MODES:
            for form, make in forms.items():
                src = agent("const load = %s; const m = await load(%s); return m.v ?? m.default;" % (make, "%s"))
                for policy, spec, want in (("none", "./other.js", "CHIDORI_TS_IMPORTS=none"),
                                           ("relative", "pkg", "CHIDORI_TS_IMPORTS=relative")):
                    code, out, err = run_in(v, app, src % json.dumps(spec), args, env={"CHIDORI_TS_IMPORTS": policy})
                    line = failed_line(code, out, err)
                    assert want in line, f"{mode} {form} {policy} {spec}: {line}"
                for spec, value in (("./other.js", "other"), ("pkg", "pkg")):
                    code, out, err = run_in(v, app, src % json.dumps(spec), args, env={"CHIDORI_TS_IMPORTS": "node"})
                    assert code == 0 and json.loads(out) == value, f"{mode} {form} {spec}: {out} {err}"


def case_npm_review_builtin_names_cannot_be_forged_as_keys(v):
    """A module whose key looks like a built-in's (`node:x/…`, a folder of that name, or a key forged
    through an Object.prototype `key` accessor) does not skip the built-in check."""
    with Project() as app:
        write(app, "node:x/y.cjs", "module.exports = 'inside node:x';")
        payload = ('module.exports = import("fs").then(m => "loaded fs: " + typeof m.readFileSync, '
                   'e => "refused: " + e.message);')
        write(app, "lib/payload.cjs", payload)
        write(app, "lib/forge.cjs",
              'Object.defineProperty(Object.prototype, "key", { configurable: true, set(v) {}, get() { return "node:fs"; } });\n'
              'try { module.exports = require("./payload.cjs"); } finally { delete Object.prototype.key; }\n')
        env = {"CHIDORI_TS_IMPORTS": "project"}
        for mode, args in MODES:
            line = failed_line(*run_in(v, app, agent("return x;", 'import x from "./node:x/y.cjs";'), args, env=env))
            assert "leads to `node:x/y.cjs`, whose first folder name has a `:`" in line, f"{mode}: {line}"
            code, out, err = run_in(v, app, agent("return await x;", 'import x from "./lib/forge.cjs";'), args, env=env)
            assert code == 0, f"{mode}: {err}"
            msg = json.loads(out)
            assert msg.startswith("refused: ") and "CHIDORI_TS_IMPORTS=project" in msg, f"{mode}: {msg}"


def case_npm_review_prototype_setters_cannot_hijack_require(v):
    """A package putting `require`/`resolve`/`cache` accessors on Object.prototype changes nothing for
    the modules loaded after it: their require, require.resolve and module.require are the real ones."""
    with Project() as app:
        write(app, "lib/evil.cjs",
              'const fake = () => "hijacked";\n'
              'for (const k of ["require", "resolve", "cache"])\n'
              '  Object.defineProperty(Object.prototype, k, { configurable: true, set(v) { globalThis["stolen_" + k] = v; }, get() { return fake; } });\n'
              'module.exports = 1;\n')
        write(app, "lib/victim.cjs",
              'module.exports = { viaArg: require("./c.cjs"), viaModule: module.require("./c.cjs"), '
              'same: module.require === require, resolved: require.resolve("./c.cjs"), '
              'cached: typeof require.cache === "object" };\n')
        write(app, "lib/c.cjs", "module.exports = 'c';")
        body = ('const r = { ...victim, stolen: Object.keys(globalThis).filter(k => k.startsWith("stolen_")) };\n'
                'for (const k of ["require", "resolve", "cache"]) delete Object.prototype[k];\nreturn r;')
        for mode, args in MODES:
            code, out, err = run_in(v, app, agent(body, 'import "./lib/evil.cjs";\nimport victim from "./lib/victim.cjs";'), args)
            assert code == 0, f"{mode}: {err}"
            assert json.loads(out) == {"viaArg": "c", "viaModule": "c", "same": True, "resolved": "lib/c.cjs",
                                       "cached": True, "stolen": []}, f"{mode}: {out}"


def case_npm_review_main_stays_inside_its_package(v):
    """`main: "../foobar/x.js"` in node_modules/foo is not inside foo (a string prefix is not a folder):
    ignored as Node ignores a missing main, so foo's index.js is loaded."""
    with Project() as app:
        write(app, "node_modules/foo/package.json", '{"name": "foo", "main": "../foobar/x.js", "module": "../foobar/x.js"}')
        write(app, "node_modules/foo/index.js", "module.exports = 'foo-index';")
        write(app, "node_modules/foobar/x.js", "module.exports = 'foobar';")
        for mode, args in MODES:
            code, out, err = run_in(v, app, agent("return x;", 'import x from "foo";'), args)
            assert code == 0 and json.loads(out) == "foo-index", f"{mode}: {out} {err}"


def case_npm_review_only_the_entry_loads_without_an_importer(v):
    """A worker's module-load frame without an importer (which skips CHIDORI_TS_IMPORTS: it means
    the command line's entry) is accepted once per run; a second one is refused."""
    with Project() as app:
        write(app, "agent.js", "export const a = 1;\n")
        code, out, err = chidori(v, "run", "--isolate", os.path.join(app, "agent.js"),
                                 env={"CHIDORI_ISOLATE_SELFTEST": "frame_internal_probe", "CHIDORI_TS_IMPORTS": "none"},
                                 timeout=20)
        assert code == 0, (code, out, err)
        got = json.loads(out)
        assert got["control"].startswith("ok: export const a"), got
        assert got["null_importer_again"].startswith("err: ") and \
            "names no importing module" in got["null_importer_again"], got
