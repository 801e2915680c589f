"""tests/cases_primordials_startup.py — the lazy globals' accessors, made in C (src/engine/lazy_globals.c)
against a tampering guest (docs/primordials.md, Startup).

URL, Buffer, TextEncoder, process, structuredClone, Intl … are accessors until their first read; the
accessor is a C function that calls one prelude function (lazyGlobal) which loads the module, keeps
the value and turns the global into a data property. That function runs whenever the guest first
reads a global, so after any tampering: it must use only what it captured before guest code. The
agent tampers with what it would reach live (Reflect.defineProperty, Object.defineProperty,
Object.hasOwn, Object.create, Function.prototype.call/apply, getters and setters on
Object.prototype for the indexes and the descriptor fields) and then reads the globals, assigns one
and, in one variant, freezes globalThis between two reads (the accessor then stays and must serve
the one kept value). Every variant must print what the untouched run prints. The modules and the
Intl layer are loaded before the tampering: their own paths are the other corpora's subject.
"""
import json
import os
import tempfile

from cases import chidori

AGENT = r"""import { run } from "chidori:agent";
import * as url from "node:url";
import { Buffer as NodeBuffer } from "node:buffer";
import * as util from "node:util";
import process_ from "node:process";
const hasOwn = Object.hasOwn, gopd = Object.getOwnPropertyDescriptor, def = Object.defineProperty, freeze = Object.freeze;
const warm = (1234.5).toLocaleString(); // the Intl layer loads here, before the tampering
function tamper() {
  Reflect.defineProperty = () => { throw new Error("Reflect.defineProperty tampered"); };
  Object.defineProperty = () => { throw new Error("Object.defineProperty tampered"); };
  Object.hasOwn = () => { throw new Error("Object.hasOwn tampered"); };
  Object.create = () => { throw new Error("Object.create tampered"); };
  Function.prototype.call = function () { throw new Error("call tampered"); };
  Function.prototype.apply = function () { throw new Error("apply tampered"); };
  for (let i = 0; i < 48; i++)
    def(Object.prototype, String(i), { __proto__: null, get() { return "poisoned " + i; }, set(v) { throw new Error("Object.prototype setter " + i); }, configurable: true });
  for (const k of ["value", "writable", "enumerable", "configurable"])
    def(Object.prototype, k, { __proto__: null, get() { return "poisoned " + k; }, set(v) { throw new Error("setter " + k); }, configurable: true });
  for (const k of ["get", "set"])
    def(Object.prototype, k, { __proto__: null, get() { return () => "poisoned " + k; }, set(v) { throw new Error("setter " + k); }, configurable: true });
}
const kind = (n) => { const d = gopd(globalThis, n); return d === undefined ? "missing" : hasOwn(d, "value") ? "value" : "accessor"; };
run(async () => {
  if (%TAMPER%) tamper();
  const before = [kind("URL"), kind("Buffer"), kind("Intl"), kind("TextDecoder")];
  const got = { URL, Buffer, Intl, process, TextEncoder };
  globalThis.TextDecoder = 5; // the setter: a data property, nothing loaded
  if (%FREEZE%) freeze(globalThis);
  const again = { URL, Buffer, Intl, structuredClone, structuredClone2: structuredClone };
  const out = {
    warm, before,
    after: [kind("URL"), kind("Buffer"), kind("Intl"), kind("TextDecoder"), kind("process"), kind("structuredClone")],
    same: [got.URL === url.URL, got.Buffer === NodeBuffer, got.process === process_, got.TextEncoder === util.TextEncoder,
      again.URL === got.URL, again.Buffer === got.Buffer, again.Intl === got.Intl, again.structuredClone === again.structuredClone2],
    types: [typeof got.Intl.NumberFormat, typeof again.structuredClone, TextDecoder],
  };
  return JSON.parse(JSON.stringify(out));
});
"""

MODES = (("in-process", ("--no-isolate",)), ("isolated", ()))


def expected(frozen):
    return {
        "warm": "1,234.5",
        "before": ["accessor", "accessor", "accessor", "accessor"],
        "after": ["value", "value", "value", "value", "value", "accessor" if frozen else "value"],
        "same": [True] * 8,
        "types": ["function", "function", 5],
    }


def run_variant(v, d, tamper, frozen, flags):
    path = os.path.join(d, f"agent_{tamper}_{frozen}.mjs")
    with open(path, "w") as f:
        f.write(AGENT.replace("%TAMPER%", "true" if tamper else "false").replace("%FREEZE%", "true" if frozen else "false"))
    code, out, err = chidori(v, "run", *flags, path, timeout=60)
    assert code == 0, f"tamper={tamper} frozen={frozen} {flags}: exit {code}\n{err[-3000:]}"
    return json.loads(out)


def case_primordials_startup_lazy_globals_survive_tampering(v):
    """Each lazy global read after the guest tampered gives the module's own export, settles into
    a data property (or, on a frozen global, keeps serving one value), and an assignment replaces
    the accessor: as in the untouched run, in-process and isolated."""
    with tempfile.TemporaryDirectory() as d:
        for mode, flags in MODES:
            for frozen in (False, True):
                for tamper in (False, True):
                    got = run_variant(v, d, tamper, frozen, flags)
                    assert got == expected(frozen), f"{mode} tamper={tamper} frozen={frozen}: {got}"


LOCALE_SCRIPT = r"""
const d = new Date(Date.UTC(2024, 0, 15, 13, 5));
function tamper() {
  Number.prototype.valueOf = () => 999;
  BigInt.prototype.valueOf = () => 999n;
  Date.prototype.getTime = () => 0;
  String.prototype.toLowerCase = () => "tampered lower";
  String.prototype.toUpperCase = () => "tampered upper";
  Function.prototype.call = function () { throw new Error("call tampered"); };
  Function.prototype.apply = function () { throw new Error("apply tampered"); };
  Reflect.apply = () => { throw new Error("Reflect.apply tampered"); };
}
if (%TAMPER%) tamper();
console.log(JSON.stringify([(1234.5).toLocaleString(), (1234.5).toLocaleString("de-DE"), 12n.toLocaleString(),
  d.toLocaleString("en-GB"), d.toLocaleDateString(), d.toLocaleTimeString(), "a".localeCompare("b"),
  "Straße".toLocaleUpperCase(), "ÀB".toLocaleLowerCase(), "i".toLocaleUpperCase("tr"),
  Number.prototype.toLocaleString.name, String.prototype.localeCompare.length]));
"""


def case_primordials_startup_locale_methods_survive_tampering(v):
    """The toLocaleString family (native methods made in C, src/engine/locale_methods.c, that call
    the prelude's localeMethod) give what they give untouched after a guest replaced the builtins
    they build on (valueOf, getTime, toLowerCase/toUpperCase, call/apply, Reflect.apply)."""
    outs = []
    with tempfile.TemporaryDirectory() as d:
        for tamper in (False, True):
            path = os.path.join(d, f"locale_{tamper}.js")
            with open(path, "w") as f:
                f.write(LOCALE_SCRIPT.replace("%TAMPER%", "true" if tamper else "false"))
            code, out, err = chidori(v, "eval", "--file", path, timeout=60)
            assert code == 0, f"tamper={tamper}: exit {code}\n{err[-3000:]}"
            outs.append(json.loads(out))
    assert outs[0] == ["1,234.5", "1.234,5", "12", "15/01/2024, 13:05:00", "1/15/2024", "1:05:00 PM", -1,
                       "STRASSE", "àb", "İ", "toLocaleString", 1], outs[0]
    assert outs[1] == outs[0], f"tampered: {outs[1]}\nuntouched: {outs[0]}"


TABLES_AGENT = r"""
const names = ["path", "fs", "events", "util", "url", "buffer", "process", "net", "child_process", "zlib",
  "internal/text", "internal/console", "0", "1"];
function tamper() {
  const def = Object.defineProperty;
  for (const k of names) {
    for (const target of [Object.prototype, Array.prototype])
      def(target, k, { __proto__: null, get() { throw new Error("getter " + k + " ran"); },
        set(v) { throw new Error("setter " + k + " ran"); }, configurable: true });
  }
}
if (%TAMPER%) tamper();
export default async () => {
  const path = await import("node:path");
  const events = await import("events");
  const net = await import("node:net");
  let refused = "";
  try { net.createServer(); } catch (e) { refused = String(e.message).includes("node:net is not available") ? "net refused" : String(e.message); }
  console.log("logged", { a: 1 });
  return { join: path.join("a", "b"), emitter: typeof events.EventEmitter, refused, url: String(new URL("http://x.test/a?b=1").search) };
};
"""


def case_primordials_startup_module_tables_built_after_tampering(v):
    """The tables of built-in modules are built on the first import, which may come after guest
    code: a guest that put throwing getters and setters on Object.prototype and Array.prototype
    under every module name (and 0, 1) before any import still gets its modules, an
    unavailable one's refusal, console's util and a lazy global, as untouched."""
    outs = []
    with tempfile.TemporaryDirectory() as d:
        for tamper in (False, True):
            path = os.path.join(d, f"tables_{tamper}.mjs")
            with open(path, "w") as f:
                f.write(TABLES_AGENT.replace("%TAMPER%", "true" if tamper else "false"))
            code, out, err = chidori(v, "run", "--no-isolate", path, timeout=60)
            assert code == 0, f"tamper={tamper}: exit {code}\n{err[-3000:]}"
            outs.append((json.loads(out), [line for line in err.splitlines() if "logged" in line]))
    assert outs[0][0] == {"join": "a/b", "emitter": "function", "refused": "net refused", "url": "?b=1"}, outs[0]
    assert outs[1] == outs[0], f"tampered: {outs[1]}\nuntouched: {outs[0]}"
