"""tests/cases_primordials_shims2.py — the URL parser, URL / URLSearchParams, node:url's helpers,
IDNA, node:path and path.win32 against a guest that tampers with the builtins they use
(docs/primordials.md, issue 25 item 2).

tests/primordials_shims2/body.js exercises those modules and prints every answer as one JSON line.
It runs untouched, then once per family of builtins below, with the family replaced by traps
(functions, setters and getters that throw) before the modules' first import and, separately,
right after it (`chidori eval`: the modules are the same code in a worker). Every tampered run must print exactly what the untouched
run printed: the modules read no guest-writable property on their own paths. The body captures
what it uses itself before tampering, so a difference can only come from the modules under test.
Each family was seen failing with the modules as they were before the conversion.
"""
import os

from tamper_corpus import eval_markers
from run import ROOT

BODY = os.path.join(ROOT, "tests", "primordials_shims2", "body.js")

TRAP = ("const trap = function () { throw new Error('a tampered builtin was called'); };\n"
        "const defineProperty = Object.defineProperty;\n"
        "const trapAll = (o, names) => { for (let i = 0; i < names.length; i++) "
        "defineProperty(o, names[i], { __proto__: null, value: trap, writable: true, configurable: true }); };\n")

FAMILIES = {
    "string_methods": TRAP + """trapAll(String.prototype, ["charCodeAt", "codePointAt", "slice", "substring", "substr",
      "indexOf", "lastIndexOf", "includes", "startsWith", "endsWith", "toLowerCase", "toUpperCase", "toWellFormed",
      "split", "replace", "replaceAll", "trim", "trimStart", "trimEnd", "padStart", "padEnd", "at", "charAt",
      "concat", "normalize", "search", "match", "repeat", "toString", "valueOf"]);""",
    "string_statics": TRAP + """trapAll(String, ["fromCharCode", "fromCodePoint", "raw"]);""",
    "array_methods": TRAP + """trapAll(Array.prototype, ["push", "pop", "shift", "unshift", "slice", "splice", "concat",
      "join", "map", "filter", "some", "every", "find", "findIndex", "forEach", "reduce", "sort", "reverse",
      "indexOf", "lastIndexOf", "includes", "keys", "entries", "flat", "flatMap", "at", "fill", "toString"]);""",
    "array_setters": TRAP + """for (let i = 0; i < 8; i++)
      defineProperty(Array.prototype, i, { __proto__: null, get: trap, set: trap, configurable: true });""",
    "array_iterator": TRAP + """const arrayIteratorProto = Object.getPrototypeOf([][Symbol.iterator]());
      trapAll(arrayIteratorProto, ["next"]);
      trapAll(Array.prototype, [Symbol.iterator, "values"]);""",
    "object_statics": TRAP + """trapAll(Object, ["freeze", "defineProperty", "defineProperties", "keys", "values",
      "entries", "getOwnPropertyNames", "getOwnPropertyDescriptor", "getOwnPropertyDescriptors", "getPrototypeOf",
      "setPrototypeOf", "assign", "create", "hasOwn", "is", "fromEntries"]);
      trapAll(Reflect, ["ownKeys", "getOwnPropertyDescriptor", "apply", "get", "set", "defineProperty", "construct",
      "has", "getPrototypeOf", "setPrototypeOf"]);
      trapAll(Array, ["from", "isArray", "of"]);""",
    "object_setters": TRAP + """const names = ["code", "input", "base", "posix", "win32", "path", "query", "scheme",
      "host", "port", "username", "password", "fragment", "hostname", "protocol", "href", "auth", "root", "dir",
      "name", "ext", "0", "1", "2", "length"];
      for (let i = 0; i < names.length; i++)
        defineProperty(Object.prototype, names[i], { __proto__: null, set: trap, configurable: true });
      defineProperty(Object.prototype, "get", { __proto__: null, get: trap, configurable: true });
      defineProperty(Object.prototype, "set", { __proto__: null, get: trap, configurable: true });""",
    "regexp": TRAP + """trapAll(RegExp.prototype, ["exec", "test", Symbol.replace, Symbol.split, Symbol.match,
      Symbol.matchAll, Symbol.search]);""",
    "number_math": TRAP + """trapAll(Number.prototype, ["toString", "toFixed", "valueOf", "toLocaleString"]);
      trapAll(Math, ["floor", "pow", "min", "max", "trunc", "abs", "ceil", "round"]);""",
    "function_proto": TRAP + """trapAll(Function.prototype, ["call", "apply", "bind"]);""",
    "globals": TRAP + """trapAll(globalThis, ["String", "Number", "TypeError", "Error", "RangeError", "Symbol",
      "decodeURIComponent", "encodeURIComponent", "Array", "Object", "Reflect", "Math", "Map", "Set", "RegExp"]);""",
}


def run_body(v, tmp, name, before, after):
    with open(BODY, encoding="utf-8") as f:
        return eval_markers(v, tmp, name, f.read(), before, after)


def case_primordials_shims2_tampered_builtins_change_nothing(v):
    """Every family, tampered before and after the first import, prints what the untouched run
    prints."""
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        code, want, err = run_body(v, tmp, "untouched", "", "")
        assert code == 0 and want.startswith("0 {"), f"the untouched body failed: exit {code}\n{err[-2000:]}"
        assert want.count('"') > 200 and "threw other" not in want, "the untouched body lost its answers:\n" + want
        problems = []
        for family, tamper in FAMILIES.items():
            for when in ("before", "after"):
                before, after = (tamper, "") if when == "before" else ("", tamper)
                code, got, err = run_body(v, tmp, f"{family}_{when}", before, after)
                if code != 0 or got != want:
                    problems.append(f"{family} (tampered {when} the first import): exit {code}\n"
                                    f"{first_difference(want, got)}\n{err[-600:]}")
        assert not problems, f"{len(problems)} tampered runs differ from the untouched one:\n" + "\n".join(problems)


def first_difference(want, got):
    import json
    try:
        a, b = json.loads(want[2:]), json.loads(got[2:])
    except ValueError:
        return "output: " + got[:400]
    for k in a:
        if a.get(k) != b.get(k):
            return f"  {k}: untouched {a[k][:200]}\n  {k}: tampered  {str(b.get(k))[:200]}"
    return "(same answers, different bytes)"
