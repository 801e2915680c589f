"""tests/cases_lang.py — the language itself (issue 25, items 1, 3 and 7): `chidori eval --file` on a
file of another folder (dynamic import resolves beside the file, as `chidori run` does), the
deterministic WeakRef and FinalizationRegistry (patches/quickjs/0010-*: targets held for the whole
run, cleanup callbacks never called, so a replay is byte-identical), and the test262 runner of
`make conformance` on a small folder shaped like test262 that we wrote (tests/conformance/fixture262).
Real processes; agents are written here.
"""
import json
import os
import subprocess
import sys
import tempfile

from cases import chidori
from cases_effects import run_id_of
from run import ROOT

FIXTURE262 = os.path.join(ROOT, "tests", "conformance", "fixture262")
RUN262 = os.path.join(ROOT, "tests", "conformance", "run262.py")


def _write(d, name, text):
    path = os.path.join(d, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    return path


# ---------------------------------------------------------------------------------------------
# Item 1: eval --file and dynamic import

DYN_MAIN = """\
import('./y.js')
  .then((y) => import('./lib/z.js').then((z) => console.log(y.x, z.z, z.fromParent)))
  .catch((e) => { console.log('failed: ' + e.message); throw e; });
"""
DYN_AGENT = """\
import { run } from "chidori:agent";
run(async () => {
  const y = await import('./y.js');
  const z = await import('./lib/z.js');
  return { line: [y.x, z.z, z.fromParent].join(' ') };
});
"""
DYN_FILES = {
    "y.js": "export const x = 'y-here';\n",
    "lib/z.js": "import { x } from '../y.js';\nexport const z = 'z-here';\nexport const fromParent = x;\n",
}


def case_lang_eval_file_dynamic_import_beside_the_file(v):
    """`chidori eval --file dir/x.js` resolves import('./y.js') beside x.js, whatever the working
    folder (before: `cannot find module ./y.js (from dir/x.js)`), by relative and absolute path."""
    with tempfile.TemporaryDirectory() as d:
        for name, text in DYN_FILES.items():
            _write(d, "proj/" + name, text)
        main = _write(d, "proj/main.js", DYN_MAIN)
        for path in (main, os.path.relpath(main, ROOT)):  # tests run from ROOT, not from proj/
            code, out, err = chidori(v, "eval", "--file", path)
            assert code == 0, (path, err[-2000:])
            assert out == "y-here z-here y-here\n", (path, out)


def case_lang_eval_file_matches_run_in_process_and_isolated(v):
    """The same imports through `chidori run`, in-process and isolated, give the same line as eval."""
    with tempfile.TemporaryDirectory() as d:
        for name, text in DYN_FILES.items():
            _write(d, "proj/" + name, text)
        agent = _write(d, "proj/agent.js", DYN_AGENT)
        for iso in ("off", "process"):
            code, out, err = chidori(v, "run", agent, env={"CHIDORI_ISOLATE": iso})
            assert code == 0, (iso, err[-2000:])
            assert json.loads(out) == {"line": "y-here z-here y-here"}, (iso, out)


def case_lang_eval_file_missing_module_is_a_clear_error(v):
    """A module that is not there is still refused, naming the specifier and the importing file."""
    with tempfile.TemporaryDirectory() as d:
        main = _write(d, "proj/main.js", "import('./nope.js').catch((e) => { console.log(e.message); });\n")
        code, out, err = chidori(v, "eval", "--file", main)
        assert code == 0, err[-2000:]
        assert "cannot find module `./nope.js` (from main.js)" in out, out


# ---------------------------------------------------------------------------------------------
# Item 3: WeakRef and FinalizationRegistry, deterministic

# Drops the only reference to each target, then churns through enough cyclic garbage to make the
# collector run many times (the stock engine then clears the WeakRefs and queues the cleanups:
# deref() gives undefined and the callbacks run).
WEAK_HELD = """\
let cleanups = 0;
const registry = new FinalizationRegistry(() => { cleanups++; });
function make(i) {
  const target = { i };
  registry.register(target, 'held ' + i);
  return new WeakRef(target);
}
const refs = [];
for (let i = 0; i < 50; i++) refs.push(make(i));
let sym = Symbol('local');
const symRef = new WeakRef(sym);
registry.register(sym, 'symbol');
const symDesc = sym.description;
sym = null;
function churn() {
  for (let i = 0; i < 300000; i++) { const a = { n: i }; const b = { a }; a.b = b; }
}
churn();
setTimeout(() => {
  churn();
  setTimeout(() => {
    const alive = refs.filter((r, i) => r.deref() && r.deref().i === i).length;
    console.log(JSON.stringify({ alive, symbol: symRef.deref() && symRef.deref().description === symDesc, cleanups }));
  }, 10);
}, 10);
"""
WEAK_HELD_OUT = '{"alive":50,"symbol":true,"cleanups":0}\n'

WEAK_SHAPES = r"""
const out = [];
const check = (name, ok) => { if (!ok) out.push('FAILED ' + name); };
const throwsType = (f) => { try { f(); return false; } catch (e) { return e instanceof TypeError; } };
const desc = (o, k) => Object.getOwnPropertyDescriptor(o, k);
for (const C of [WeakRef, FinalizationRegistry]) {
  const d = desc(globalThis, C.name);
  check(C.name + ' global', d.writable && !d.enumerable && d.configurable);
  check(C.name + ' length', C.length === 1);
  check(C.name + ' call', throwsType(() => C({})));
  const p = desc(C, 'prototype');
  check(C.name + ' prototype', !p.writable && !p.enumerable && !p.configurable);
  check(C.name + ' proto chain', Object.getPrototypeOf(C.prototype) === Object.prototype);
  const tag = desc(C.prototype, Symbol.toStringTag);
  check(C.name + ' tag', tag.value === C.name && !tag.writable && !tag.enumerable && tag.configurable);
}
check('deref length', WeakRef.prototype.deref.length === 0);
check('deref not a constructor', throwsType(() => new WeakRef.prototype.deref()));
check('deref brand', throwsType(() => WeakRef.prototype.deref.call({})));
check('register length', FinalizationRegistry.prototype.register.length === 2);
check('unregister length', FinalizationRegistry.prototype.unregister.length === 1);
check('no cleanupSome', !('cleanupSome' in FinalizationRegistry.prototype));
// CanBeHeldWeakly: objects and symbols not in the global registry (well-known ones included)
for (const bad of [1, 'a', null, undefined, true, 1n, Symbol.for('registered')])
  check('WeakRef(' + String(bad) + ')', throwsType(() => new WeakRef(bad)));
check('WeakRef(unregistered symbol)', new WeakRef(Symbol('u')).deref().description === 'u');
check('WeakRef(well-known symbol)', new WeakRef(Symbol.iterator).deref() === Symbol.iterator);
check('registry needs a function', throwsType(() => new FinalizationRegistry({})));
const r = new FinalizationRegistry(() => {});
const target = {}, token = {};
check('register returns undefined', r.register(target, 'x', token) === undefined);
check('target is not the held value', throwsType(() => r.register(target, target)));
check('token must be held weakly', throwsType(() => r.register(target, 'x', 1)));
check('registered symbol target', throwsType(() => r.register(Symbol.for('g'), 'x')));
check('unregister a non-token', throwsType(() => r.unregister(1)));
check('unregister removes', r.unregister(token) === true);
check('unregister once', r.unregister(token) === false);
const symToken = Symbol('t');
r.register({}, 'y', symToken);
check('symbol token', r.unregister(symToken) === true);
class Sub extends WeakRef {}
check('subclass', new Sub(target) instanceof Sub && new Sub(target).deref() === target);
console.log(out.length ? out.join('\n') : 'shapes ok');
"""

WEAK_AGENT = """\
import { run } from "chidori:agent";
run(async (input, chidori) => {
  let cleanups = 0;
  const registry = new FinalizationRegistry((held) => { cleanups++; chidori.log('cleanup ' + held); });
  const refs = [];
  for (let i = 0; i < 20; i++) {
    const target = { i, pad: new Array(100).fill(i) };
    registry.register(target, 'held ' + i);
    refs.push(new WeakRef(target));
  }
  await chidori.log('registered', { n: refs.length });
  for (let i = 0; i < 200000; i++) { const a = {}; a.self = a; }
  await new Promise((res) => setTimeout(res, 5));
  const alive = refs.filter((r) => r.deref() !== undefined).length;
  await chidori.log('after churn', { alive, cleanups });
  return { alive, cleanups, random: Math.random() };
});
"""


def case_lang_weakref_targets_held_for_the_whole_run(v):
    """A target whose last reference is dropped still derefs after many collections, and no
    cleanup callback runs (stock QuickJS: deref() gives undefined and the callbacks run)."""
    with tempfile.TemporaryDirectory() as d:
        code, out, err = chidori(v, "eval", "--file", _write(d, "held.js", WEAK_HELD), timeout=60)
        assert code == 0, err[-2000:]
        assert out == WEAK_HELD_OUT, out


def case_lang_weakref_finalization_registry_shapes(v):
    """Argument validation, prototype shapes, unregister tokens, no cleanupSome, toStringTag and
    CanBeHeldWeakly (unregistered and well-known symbols yes, registered symbols no)."""
    with tempfile.TemporaryDirectory() as d:
        code, out, err = chidori(v, "eval", "--file", _write(d, "shapes.js", WEAK_SHAPES))
        assert code == 0, err[-2000:]
        assert out == "shapes ok\n", out


def case_lang_weakref_run_replays_byte_identical(v):
    """A run using WeakRef and FinalizationRegistry replays with the same output, in-process and
    isolated, and what it saw (all targets alive, no cleanup) is the same either way."""
    with tempfile.TemporaryDirectory() as d:
        agent = _write(d, "agent.js", WEAK_AGENT)
        outs = []
        for iso in ("off", "process"):
            with tempfile.TemporaryDirectory() as state:
                env = {"CHIDORI_ISOLATE": iso}
                code, out, err = chidori(v, "run", agent, env=env, state=state, timeout=60)
                assert code == 0, (iso, err[-2000:])
                got = json.loads(out)
                assert got["alive"] == 20 and got["cleanups"] == 0, (iso, out)
                code2, out2, err2 = chidori(v, "replay", agent, run_id_of(err), env=env, state=state, timeout=60)
                assert code2 == 0, (iso, err2[-2000:])
                assert out2 == out, f"replay differs ({iso}):\n{out}\n{out2}"
                outs.append({k: got[k] for k in ("alive", "cleanups")})
        assert outs[0] == outs[1], outs


# ---------------------------------------------------------------------------------------------
# Item 7: the test262 runner on its own fixture

def _run262(v, *extra):
    argv = [sys.executable, RUN262, "--test262", FIXTURE262, "--chidori", v.chidori,
            "--features-conf", os.path.join(FIXTURE262, "features.conf"),
            "--bare-cmd", v.chidori + " eval --file", "--quiet", "-j", "2", *extra]
    p = subprocess.run(argv, capture_output=True, text=True, timeout=120 * v.slow, env=v.env())
    assert p.returncode == 0, p.stderr[-3000:]
    return p.stdout


def case_lang_run262_fixture_tables_and_verdicts(v):
    """The runner classifies and judges each kind of test262 test: both tables, what is left out,
    and the reason of each failure."""
    with tempfile.TemporaryDirectory() as d:
        out_json = os.path.join(d, "r.json")
        out = _run262(v, "--json", out_json)
        assert "| `chidori eval --file` | 10 | 6 | 4 |" in out, out  # features the engine implements
        assert "| `chidori eval --file` | 11 | 7 | 4 |" in out, out  # skipping nothing by feature
        assert "not-in-this-engine 1" in out, out
        assert "Not counted: 1 module, 1 raw, 2 host-hook tests" in out, out
        assert "## Chidori-only failures: 0" in out, out
        with open(out_json) as f:
            tests = json.load(f)["tests"]
        verdict = {k[len("test/lang/"):]: (r["chidori"]["pass"], r["chidori"]["error"]) for k, r in tests.items()}
        want_pass = {"pass.js", "negative-parse.js", "async-pass.js", "only-strict.js", "no-strict.js",
                     "missing-feature.js", "dyn/import-neighbour.js"}
        want_fail = {"fail.js": "[sloppy] Test262Error: arithmetic got 2, want 3",
                     "negative-runtime-wrong-type.js": "[sloppy] expected RangeError: TypeError: ",
                     "async-fail.js": "[sloppy] async value got 2, want 5",
                     "both-modes-differ.js": "[strict] ReferenceError: "}
        assert set(verdict) == want_pass | set(want_fail), sorted(verdict)
        for name in want_pass:
            assert verdict[name] == (True, ""), (name, verdict[name])
        for name, why in want_fail.items():
            assert verdict[name][0] is False and verdict[name][1].startswith(why), (name, verdict[name])
        assert tests["test/lang/missing-feature.js"]["features_skipped"] == ["not-in-this-engine"]
        # the same tables again from the saved outcomes, without running anything
        argv = [sys.executable, RUN262, "--test262", FIXTURE262, "--features-conf",
                os.path.join(FIXTURE262, "features.conf"), "--report-from", out_json]
        again = subprocess.run(argv, capture_output=True, text=True, timeout=60, env=v.env())
        assert again.returncode == 0 and again.stdout == out, (again.stderr, again.stdout, out)


def case_lang_run262_fixture_intl402_flag(v):
    """intl402 is left out unless asked for, then counted in a row of its own."""
    out = _run262(v, "--intl402")
    assert "| `chidori eval --file` | 12 | 8 | 4 |" in out, out
    assert "| `chidori eval --file`, intl402 only | 1 | 1 | 0 |" in out, out
