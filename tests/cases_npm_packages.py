"""tests/cases_npm_packages.py — npm packages inside the sandbox (docs/captured-surface.md, "npm packages").

Two kinds of fixture. Packages we wrote (tests/npm/fixture/packages, copied into a temporary
project's node_modules; the project is tests/npm/fixture/app): `exports` maps with conditions,
`*` patterns and null targets, CommonJS with a require() cycle, JSON through import and require,
a scoped package, self-reference, `module`/`main`/index probing, and the confinement fixtures (a
symlink out of the project, child_process, ../../../etc/passwd, process.env, patched globals).
And real packages from npm (tests/npm/package.json, pinned in its package-lock.json, installed by
scripts/test-deps.sh): lodash (CommonJS), yaml, zod, uuid, semver, dayjs, js-yaml, marked, diff,
mustache, ajv, nanoid, date-fns, lodash-es, valibot, and the third batch (tests/npm/corpus.js:
fast-toml, handlebars, immer, rxjs, papaparse, fast-xml-parser, jsonschema, json5, ini, superstruct,
ramda, decimal.js, fuse.js, pluralize, deepmerge, ms), whose results must equal Node's running the
same file. The SDKs (openai, @anthropic-ai/sdk) are tests/cases_npm_sdks.py. Every run goes isolated (the worker) and in-process.
CHIDORI_TS_IMPORTS narrows what may be imported.
"""
import json
import os
import shutil
import subprocess
import tempfile

from cases import chidori, Skip
from run import ROOT

NPM = os.path.join(ROOT, "tests", "npm")
FIXTURE = os.path.join(NPM, "fixture")
MODES = (("isolated", []), ("in-process", ["--no-isolate"]))


def project():
    """A temporary copy of the fixture app with our packages in its node_modules."""
    tmp = tempfile.mkdtemp(prefix="chidori-npm-")
    app = os.path.join(tmp, "app")
    shutil.copytree(os.path.join(FIXTURE, "app"), app)
    shutil.copytree(os.path.join(FIXTURE, "packages"), os.path.join(app, "node_modules"))
    return tmp, app


def run_agent(v, app, source, mode_args, env=None, name="probe.js"):
    path = os.path.join(app, name)
    with open(path, "w") as f:
        f.write(source)
    return chidori(v, "run", *mode_args, path, env=env)


def probe(spec, body="return typeof x.default === 'function' ? x.default() : { ...x };"):
    return ('import { run } from "chidori:agent";\nimport * as x from "%s";\n'
            "run(async (input, chidori) => { %s });\n" % (spec, body))


def failure(code, out, err):
    assert code != 0, f"the run succeeded but should have been refused:\n{out}"
    lines = [l for l in err.splitlines() if "run failed" in l]
    assert lines, "no `run failed` line:\n" + err
    return lines[0]


def case_npm_handwritten_packages_resolve_like_node(v):
    """exports (conditions with `chidori` first, patterns by longest prefix), CommonJS cycles, JSON,
    scoped names, self-reference, module/main/index: the same results isolated and in-process."""
    tmp, app = project()
    try:
        outs = []
        for mode, args in MODES:
            code, out, err = chidori(v, "run", *args, os.path.join(app, "agent.js"))
            assert code == 0, f"{mode}: exit {code}:\n{err}"
            outs.append(json.loads(out))
        assert outs[0] == outs[1], f"isolated and in-process differ:\n{outs[0]}\n{outs[1]}"
        r = outs[0]
        # conditions: `chidori` wins over the object's order; `import` for ESM, `require` for CJS
        assert r["which"] == "chidori-import", r
        assert r["cond"] == "import", r  # `browser` listed first is not a condition Node chooses
        assert r["helper"]["which"] == "chidori-require" and r["helper"]["cond"] == "require", r
        # patterns: `./features/*`, the longer `./features/deep/*.js`, an array target
        assert (r["alpha"], r["deep"], r["double"]) == ("alpha", "deep-beta", 42), r
        # CommonJS: the cycle as Node has it (b sees a's exports before a finished)
        c = r["cjs"]
        assert c["bSawALoaded"] is False and c["aDone"] is True and c["sameInstance"] is True, c
        assert c["name"] == "cjs-cycle" and c["count"] == 3 and c["defined"] == "by defineProperty", c
        assert c["data"] == {"answer": 42, "list": [1, "two", None]}, c
        assert c["file"] == "node_modules/cjs-cycle/lib/index.js" and c["dir"] == "node_modules/cjs-cycle/lib", c
        assert c["joined"] == "x/y" and c["thisIsExports"] is True, c
        # error codes packages test: an optional dependency that is missing, require() of ESM
        assert c["optional"] == "MODULE_NOT_FOUND" and c["requireEsm"] == "ERR_REQUIRE_ESM", c
        # scoped package, its subpath by condition
        assert r["scoped"] == {"hello": "hello ada", "scoped": True, "subKind": "import"}, r
        assert r["helper"]["scopedKind"] == "require" and r["helper"]["sum"] == 5 and r["sum"] == 5, r
        # `module` for import, `main` for require; probing; directory index
        assert r["legacyFormat"] == "esm" and r["helper"]["legacy"] == "cjs", r
        assert r["helper"]["extra"] == "probed .js" and r["helper"]["dirIndex"] == "directory index", r
        # JSON modules with and without the attribute: one instance
        assert r["json"]["data"]["nested"] == {"ok": True} and r["json"]["same"] is True, r
        # self-reference through the project's own package.json
        assert r["self"] == {"feature": "fixture-app/feature", "self": "fixture-app root"}, r
        # project-relative names only
        assert r["helper"]["file"] == "lib/helper.cjs" and r["helper"]["dir"] == "lib", r
        assert r["helper"]["agentApi"] == "function", r  # require("chidori:agent")
        assert r["helper"]["resolved"] == "node_modules/cjs-cycle/lib/index.js", r
        assert tmp not in json.dumps(r), "a host path reached the agent"
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def case_npm_handwritten_packages_match_node(v):
    """Where chidori must do what Node does (CommonJS cycles and named exports, patterns, scoped
    packages, conditions for import and require, JSON, self-reference), Node gives the same
    results for the same packages (tests/npm/fixture/app/node_check.mjs)."""
    if not shutil.which("node"):
        raise Skip("node is not installed: nothing to compare with (scripts/test-deps.sh)")
    tmp, app = project()
    try:
        node = subprocess.run(["node", os.path.join(app, "node_check.mjs")], capture_output=True, text=True,
                              timeout=60, cwd=app)
        assert node.returncode == 0, node.stderr
        want = json.loads(node.stdout)
        code, out, err = chidori(v, "run", os.path.join(app, "agent.js"))
        assert code == 0, err
        r = json.loads(out)
        c = r["cjs"]
        got = {
            "cond": r["cond"], "alpha": r["alpha"], "deep": r["deep"], "double": r["double"],
            "cjs": {k: c[k] for k in want["cjs"]},
            "scoped": r["scoped"], "json": r["json"]["data"], "self": r["self"],
            "require": {k: r["helper"][k] for k in ("scopedKind", "sum", "cond")},
        }
        assert got == want, f"chidori and Node differ:\n{got}\n{want}"
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def case_npm_packages_replay(v):
    """A run that imports packages replays to the same output: module loads are not effects, the
    files are read again, and the call log has nothing of them."""
    tmp, app = project()
    state = tempfile.mkdtemp(prefix="chidori-npm-state-")
    try:
        code, out, err = chidori(v, "run", os.path.join(app, "agent.js"), state=state)
        assert code == 0, err
        run_id = next(l[8:].strip() for l in err.splitlines() if l.startswith("Run id: "))
        code2, out2, err2 = chidori(v, "replay", os.path.join(app, "agent.js"), run_id, state=state)
        assert code2 == 0, err2
        assert json.loads(out2) == json.loads(out), f"replay differs:\n{out2}\n{out}"
        for base, _, files in os.walk(state):
            for n in files:
                with open(os.path.join(base, n), "rb") as f:
                    data = f.read()
                    assert b"__module_load" not in data and b"exports.sawDone" not in data, \
                        f"a module load reached the durable state ({n})"
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.rmtree(state, ignore_errors=True)


def case_npm_resolution_errors_are_clear(v):
    """What Node refuses is refused, each with a sentence saying what happened."""
    tmp, app = project()
    try:
        cases = [
            ("esm-pat/features/private/x", "does not export `./features/private/x`"),  # a null target
            ("esm-pat/nothere", "does not export `./nothere`"),
            ("nopkg", "cannot find package `nopkg`"),
            ("requires-esm", "require() of ES module `node_modules/esm-only/index.js`"),
            ("badjson", "node_modules/badjson/broken.json: invalid JSON"),
            ("#internal", "`imports` (#names) are not supported"),
            # targets that would leave the package: not `./`, a `..` part, `..` through the pattern
            ("esm-pat/escape", "does not export `./escape`"),
            ("esm-pat/escape2", "does not export `./escape2`"),
            ("esm-pat/escape3/../../cjs-cycle/lib/index", "not a valid package name"),
        ]
        for mode, args in MODES:
            for spec, want in cases:
                line = failure(*run_agent(v, app, probe(spec), args))
                assert want in line, f"{mode} {spec}: {line}"
            # an entry must be an ES module
            for entry, kind in (("lib/helper.cjs", "CommonJS"), ("data.json", "JSON")):
                line = failure(*chidori(v, "run", *args, os.path.join(app, entry)))
                assert f"is {kind}, and an agent's entry is an ES module" in line, f"{mode} {entry}: {line}"
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def case_npm_confinement(v):
    """A symlinked package or file leading out, child_process, ../../../etc/passwd: refused with a
    clear error; process.env is empty; patched globals change nothing the host records."""
    tmp, app = project()
    outside = tempfile.mkdtemp(prefix="chidori-npm-outside-")
    try:
        os.makedirs(os.path.join(outside, "evil"))
        with open(os.path.join(outside, "evil", "package.json"), "w") as f:
            f.write('{"name": "evil", "main": "index.js"}')
        with open(os.path.join(outside, "evil", "index.js"), "w") as f:
            f.write('module.exports = "escaped";')
        os.symlink(os.path.join(outside, "evil"), os.path.join(app, "node_modules", "evil"))
        os.symlink(os.path.join(outside, "evil", "index.js"), os.path.join(app, "node_modules", "legacy", "lib", "out.js"))
        refused = [
            ("evil", "leads outside the agent's folder"),
            ("legacy/lib/out", "leads outside the agent's folder"),
            ("passwd-reader", "cannot require `../../../etc/passwd` (from node_modules/passwd-reader/index.js): "
                              "it resolves outside the agent's folder"),
            ("spawner", "node:child_process is not available in chidori"),
        ]
        secret = {"CHIDORI_NPM_TEST_SECRET": "s3cret-value"}
        for mode, args in MODES:
            for spec, want in refused:
                code, out, err = run_agent(v, app, probe(spec), args)
                line = failure(code, out, err)
                assert want in line, f"{mode} {spec}: {line}"
                assert "escaped" not in out, f"{mode} {spec}: the outside file was read"
            code, out, err = run_agent(v, app, probe("env-reader"), args, env=secret)
            assert code == 0, f"{mode}: {err}"
            r = json.loads(out)
            assert r["env"] == "{}" and "secret" not in r and "home" not in r, f"{mode}: the host env leaked: {r}"
            assert "s3cret-value" not in out + err, f"{mode}: the secret reached the run"
            # issue 24 asks for a global process (empty env): the package's process is that one
            assert r["globalProcess"] == "object", r
            # patched globals: the log record and the output are marshalled with what the prelude captured
            body = ("await chidori.log('after patch', { list: [1, 2] }); "
                    "return { mine: JSON.stringify({ a: 1 }), patched: x.default.patched };")
            code, out, err = run_agent(v, app, probe("patcher", body), args)
            assert code == 0, f"{mode}: {err}"
            assert json.loads(out) == {"mine": '"patched"', "patched": True}, f"{mode}: {out}"
            assert '[log] after patch {"list":[1,2]}' in err, f"{mode}: the log record was changed:\n{err}"
            # and nothing carries over to the next run
            code, out, err = run_agent(v, app, probe("./lib/self.js", "return { j: JSON.stringify([1]), p: ({}).polluted ?? null };"), args)
            assert code == 0 and json.loads(out) == {"j": "[1]", "p": None}, f"{mode}: {out} {err}"
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.rmtree(outside, ignore_errors=True)


def case_npm_ts_imports_policy(v):
    """CHIDORI_TS_IMPORTS=node|project|relative|none narrows imports; a bad value stops the command."""
    tmp, app = project()
    try:
        specs = ("node:path", "./lib/self.js", "esm-pat")
        allowed = {
            "node": (True, True, True),
            "project": (False, True, True),
            "relative": (False, True, False),
            "none": (False, False, False),
        }
        for mode, args in MODES:
            for policy, want in allowed.items():
                for spec, ok in zip(specs, want):
                    code, out, err = run_agent(v, app, probe(spec, "return Object.keys(x).length > 0;"), args,
                                               env={"CHIDORI_TS_IMPORTS": policy})
                    if ok:
                        assert code == 0 and json.loads(out) is True, f"{mode} {policy} {spec}: {err}"
                    else:
                        assert f"CHIDORI_TS_IMPORTS={policy}" in failure(code, out, err), f"{mode} {policy} {spec}: {err}"
            # require() obeys it too
            with open(os.path.join(app, "lib", "usepath.cjs"), "w") as f:
                f.write('module.exports = require("path").join("a", "b");')
            code, out, err = run_agent(v, app, probe("./lib/usepath.cjs"), args, env={"CHIDORI_TS_IMPORTS": "project"})
            assert "cannot require `path` (from lib/usepath.cjs): Node built-in modules are disabled by " \
                   "CHIDORI_TS_IMPORTS=project" in failure(code, out, err), err
        code, out, err = chidori(v, "run", os.path.join(app, "agent.js"), env={"CHIDORI_TS_IMPORTS": "everything"})
        assert code == 2 and "CHIDORI_TS_IMPORTS must be one of" in err, f"exit {code}: {err}"
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def case_npm_real_packages_match_node(v):
    """Real packages from npm (lodash, yaml, zod, uuid, semver, dayjs; js-yaml, marked, diff,
    mustache, ajv, nanoid, date-fns, lodash-es, valibot; fast-toml, handlebars, immer, rxjs,
    papaparse, fast-xml-parser, jsonschema, json5, ini, superstruct, ramda, decimal.js, fuse.js,
    pluralize, deepmerge, ms): the agent's results equal Node's."""
    if not os.path.isdir(os.path.join(NPM, "node_modules", "zod")):
        raise Skip("tests/npm/node_modules is missing: run scripts/test-deps.sh")
    if not shutil.which("node"):
        raise Skip("node is not installed: nothing to compare with (scripts/test-deps.sh)")
    for name in ("real", "more", "corpus"):
        node = subprocess.run(["node", os.path.join(NPM, name + "_node.mjs")], capture_output=True, text=True,
                              timeout=60)
        assert node.returncode == 0, node.stderr
        expected = json.loads(node.stdout)
        assert len(expected) >= 6 and all(expected.values()), expected
        for mode, args in MODES:
            code, out, err = chidori(v, "run", *args, os.path.join(NPM, name + "_agent.js"), timeout=60)
            assert code == 0, f"{name} {mode}: exit {code}:\n{err}"
            got = json.loads(out)
            for pkg in expected:
                assert got.get(pkg) == expected[pkg], \
                    f"{name} {mode}: {pkg} differs from Node:\n{got.get(pkg)}\n{expected[pkg]}"
            assert got == expected
