"""tests/cases_esnext.py — the built-ins chidori adds in its own JavaScript (src/engine/js/esnext/:
iterator helpers, Set methods, Array.fromAsync, Promise.try, RegExp.escape, Math.sumPrecise,
Error.isError, upsert, float16 helpers, Uint8Array base64/hex, ArrayBuffer transfer,
DisposableStack & co).

  * an agent exercises each of them, in-process and isolated, against fixed values (worked out
    from the specification; Node 20 has none of these built-ins, so there is no oracle to ask);
  * their surface (name, length, constructor or not, property attributes) is the spec's;
  * guest code that replaces the builtins they could have used (Function.prototype.call, the Set
    and Map methods, the generator prototype, Object.defineProperty, setters on Array.prototype
    indices and Object.prototype.get...) changes none of their results.
The test262 directories of these features are run by the conformance runner (docs/conformance.md).
"""
import json
import os

from cases import chidori
from run import ROOT

DIR = os.path.join(ROOT, "tests", "esnext")

BUILTINS = {
    "iter": {
        "chain": [30, 50, 70], "flat": ["a1", "b1", "a2", "b2"], "reduce": 10, "reduce0": "init", "some": True,
        "every": True, "find": 5, "forEach": ["x0", "y1", "z2"], "fromString": ["h", "é"], "concat": [1, 2, 3, "a", "b"],
        "closed": ["closed", "closed", "closed"], "tag": "[object Iterator Helper]", "abstract": "TypeError",
        "subclass": True, "badLimit": "RangeError", "nan": "RangeError", "badMapper": "TypeError",
        "brand": "TypeError", "helperNextBrand": "TypeError",
        "desc": [["map/1", True, False, True], ["get constructor/0", "acc", False, True],
                 ["Iterator/0", True, False, True], ["[object Iterator]", False, False, False]],
        "setters": ["TypeError", [5, "[object t]"]], "reentrant": "TypeError", "returnFresh": ["return"],
    },
    "set": {
        "union": [1, 2, 3, 4], "intersection": [2, 3], "difference": [1], "sym": [1, 4], "subset": True,
        "superset": True, "disjoint": True, "setLike": [1], "badSize": "TypeError", "brand": "TypeError",
        "desc": ["symmetricDifference/1", True, False, True],
    },
    "small": {
        "fromAsync": [3, 6], "fromAsyncLike": ["a", "b"], "fromAsyncBad": "TypeError", "promiseTry": 5,
        "promiseTryThrow": "RangeError", "escape": "\\x31\\.5\\+x\\x3dy\\x20\\(a\\|b\\)\\n",
        "sumPrecise": [0.1, 0.6, True, 1.7976931348623157e+308], "pause": [None, None, "TypeError"], "isError": [True, False, False],
        "upsert": [1, 1, "b!", [["a", 1], ["b", "b!"]]], "weakUpsert": [1, 1, "TypeError"],
        "f16": [1.3369140625, None, 5.960464477539063e-08, -0.0999755859375],
        "dataView": [1.5, -2, "62,0,0,192"],
        "base64": ["aGn/", "-_8", [104, 105, 63], [0, 255, 160], "01ab", "SyntaxError", "SyntaxError"],
        "transfer": [True, 0, True, 1, 7, "TypeError", "TypeError"],
        "setFrom": [{"read": 9, "written": 4}, [1, 2, 3, 4], {"read": 4, "written": 2}, [170, 187]],
    },
    "erm": {
        "log": ["adopt res", "defer", "use"], "adopted": "res", "disposed": [True, True],
        "suppressed": ["SuppressedError", "first", "second", True], "alog": ["sync", "async"], "iterLog": ["return"],
        "afterDispose": "ReferenceError",
        "symbols": ["symbol", "Symbol(Symbol.asyncDispose)", ["Symbol(Symbol.dispose)", False, False, False]],
        "se": ["SuppressedError", "m", 1, 2, True], "tag": ["[object DisposableStack]", "[object AsyncDisposableStack]"],
        "noNew": "TypeError",
    },
}

TAMPERED = {
    "a": [6, 8], "b": [1, -1, 2, -2, 3, -3], "c": 6,
    "d": [[1, 2, 3, 4], [2, 3], [1], [1, 4], False, True, False],
    "e": ["aGn/", "6869ff", [104, 105], [171, 205]],
    "f": ["\\x61\\.b", 0.30000000000000004, 1.3369140625, True],
    "g": [1.5, 1, 2, 3], "h": "used;deferred;", "i": ["RangeError", "TypeError", "TypeError", "TypeError"],
    "j": [10, 20], "k": "tried",
}


def run_agent(v, name, isolate):
    code, out, err = chidori(v, "run", "--isolate" if isolate else "--no-isolate", os.path.join(DIR, name))
    assert code == 0, f"{name} ({'isolated' if isolate else 'in-process'}) exit {code}\n{err[-2000:]}"
    return json.loads(out)


def diff(got, want, path=""):
    """The first place two JSON values differ, or None."""
    if isinstance(want, dict) and isinstance(got, dict):
        for k in sorted(set(want) | set(got)):
            d = diff(got.get(k, "<missing>"), want.get(k, "<missing>"), f"{path}.{k}")
            if d:
                return d
        return None
    return None if got == want else f"{path}: got {json.dumps(got)}, want {json.dumps(want)}"


def case_esnext_builtins_give_the_spec_values(v):
    """Each added built-in, in-process and isolated, gives the values the specification defines."""
    for isolate in (False, True):
        got = run_agent(v, "builtins.js", isolate)
        d = diff(got, BUILTINS)
        assert d is None, f"({'isolated' if isolate else 'in-process'}) {d}"


def case_esnext_builtins_ignore_guest_tampering(v):
    """A guest that replaces the builtins our built-ins could have called (and poisons inherited
    descriptor fields and array indices) sees the same results, in-process and isolated."""
    for isolate in (False, True):
        got = run_agent(v, "tamper.js", isolate)
        d = diff(got, TAMPERED)
        assert d is None, f"({'isolated' if isolate else 'in-process'}) {d}"


SURFACE = os.path.join(DIR, "surface.expected")


def case_esnext_surface_is_the_specs(v):
    """name/length, constructor or not, and property attributes of every added built-in."""
    code, out, err = chidori(v, "eval", "--file", os.path.join(DIR, "surface.js"))
    assert code == 0, err[-2000:]
    with open(SURFACE) as f:
        want = f.read().splitlines()
    got = out.splitlines()
    for g, w in zip(got, want):
        assert g == w, f"surface differs:\n got  {g}\n want {w}"
    assert len(got) == len(want), f"{len(got)} surface lines, want {len(want)}"
