"""tests/cases_primordials_web.py — the tampering corpus for the modules that build effect arguments
(docs/primordials.md): fetch / Request / Response / Headers / Blob / FormData / data: URLs /
AbortController (the `http` op), node:http (the same op), node:fs (the `fs` op), node:crypto
(`crypto_digest`, `random_bytes`), node:timers, structuredClone and TextEncoder/TextDecoder.

One agent does the same work twice against a local loopback server (tests/http/server.py, allowed
by CHIDORI_HTTP_ALLOW_HOSTS): fetches with headers and bodies of every kind, a node:http request,
workspace files written, appended, listed and read back, hashes and HMACs, a captured UUID, a timer,
a clone. It runs once untouched, then once per builtin family with that family tampered, both
before the modules are first imported (and before fetch is first touched) and after their first
use. Each tampered run must exit 0, print the same output, leave the same call log (every
record's op, args, result and error) and replay byte for byte.

The agent itself only uses what it captured before tampering, so any difference is the modules'.
node:events and node:buffer (other slices' modules, which node:http and the Buffers Node returns
need) are imported before tampering, so their own load-time code is not what is tested here.
The server's Date header and the captured random bytes are the only things masked.
"""
import json
import os
import tempfile

from cases import chidori
from cases_effects import run_id_of
from cases_http import server

MODES = (("isolated", ()), ("in-process", ("--no-isolate",)))
PINNED = {"CHIDORI_HTTP_ALLOW_HOSTS": "127.0.0.1", "CHIDORI_SEED": "4242", "CHIDORI_CLOCK_START_MS": "1700000000000"}

BODY = r"""
import { run } from "chidori:agent";
const stolen = [];
// everything the agent itself needs, taken before any tampering
const ObjectKeys = Object.keys, ObjectCreate = Object.create, ArrayIsArray = Array.isArray;
const JSONQuote = JSON.stringify, JSONParse = JSON.parse, ReflectApply = Reflect.apply;
const PromiseCtor = Promise, U8 = Uint8Array, StringCtor = String, NumberCtor = Number;
const PromiseThen = Promise.prototype.then;
const rec = () => ObjectCreate(null);
// new Uint8Array([...]) would read the (tampered) array iterator: the agent's own bytes are made by index
function u8() { const b = new U8(arguments.length); for (let i = 0; i < arguments.length; i++) b[i] = arguments[i]; return b; }
function ser(v) {
  if (v === null || v === undefined) return "null";
  if (typeof v === "string") return JSONQuote(v);
  if (typeof v === "number" || typeof v === "boolean") return StringCtor(v);
  if (ArrayIsArray(v) || v instanceof U8) {
    let s = "[";
    for (let i = 0; i < v.length; i++) s += (i ? "," : "") + ser(v[i]);
    return s + "]";
  }
  const ks = ObjectKeys(v);
  let s = "{";
  for (let i = 0; i < ks.length; i++) s += (i ? "," : "") + JSONQuote(ks[i]) + ":" + ser(v[ks[i]]);
  return s + "}";
}
// node:events and node:buffer belong to other modules' conversions (their own load-time code is
// not this corpus's subject): loaded before tampering; everything of this corpus loads after it.
await import("node:events");
await import("node:buffer");
function tamper() {
%TAMPER%
}
if (%BEFORE%) tamper();

async function work(base, round) {
  const out = rec();
  const fs = (await import("node:fs")).default;
  const http = (await import("node:http")).default;
  const crypto = (await import("node:crypto")).default;
  const timers = (await import("node:timers/promises")).default;

  // fetch: GET with headers from an object
  const r1 = await fetch(base + "/echo?round=" + round, { headers: { "X-One": "a", "x-two": "b" } });
  const j1 = JSONParse(await r1.text());
  out.get = [r1.status, r1.ok, r1.headers.get("x-echo"), r1.headers.get("content-type"), j1.method, j1.path, j1.query,
    j1.headers["x-one"], j1.headers["x-two"]];
  // a Request with a JSON body and headers as pairs, lower-cased method
  const r2 = await fetch(new Request(base + "/echo", { method: "post", body: '{"a":' + round + '}',
    headers: [["Content-Type", "application/json"], ["X-Multi", "1"], ["x-multi", "2"]] }));
  const j2 = await r2.json();
  out.post = [j2.method, j2.body, j2.headers["content-type"], j2.headers["x-multi"]];
  // a Blob body; a FormData body (multipart); a Headers object; bytes
  const r3 = await fetch(base + "/echo", { method: "PUT", body: new Blob(["x", u8(65, 66)], { type: "text/x" }) });
  const j3 = await r3.json();
  out.put = [j3.body, j3.headers["content-type"]];
  const fd = new FormData();
  fd.append("f", "v" + round);
  fd.append("file", new Blob(["zz"], { type: "text/plain" }), "z.txt");
  const h = new Headers();
  h.append("X-Form", "yes");
  h.set("x-form", "again");
  const r4 = await fetch(base + "/echo", { method: "POST", body: fd, headers: h });
  const j4 = await r4.json();
  out.form = [j4.body, j4.headers["content-type"], j4.headers["x-form"]];
  const r5 = await fetch(base + "/raw", { method: "POST", body: u8(0, 1, 2, 250, 255) });
  out.raw = new U8(await r5.arrayBuffer());
  const r6 = r5.clone === undefined ? null : await fetch(base + "/headers");
  out.cookies = r6.headers.getSetCookie();
  out.multi = r6.headers.get("x-multi");
  const d = await fetch("data:text/plain;base64,aGk=");
  out.data = [await d.text(), d.headers.get("content-type")];
  const ac = new AbortController();
  ac.abort();
  try { await fetch(base + "/echo", { signal: ac.signal }); out.abort = "not aborted"; } catch (e) { out.abort = e.name; }
  const data = rec(); // the guest's own data: no inherited toJSON (JSON.stringify would rightly call one)
  data.x = 1;
  data.round = round;
  const made = Response.json(data, { status: 201 });
  out.made = [made.status, made.headers.get("content-type"), await made.text()];

  // node:http, a POST written in two pieces
  out.http = await new PromiseCtor((resolve, reject) => {
    const req = http.request(base + "/echo?via=http", { method: "POST", headers: { "x-h": "1", "Content-Type": "text/plain" } }, (res) => {
      let data = "";
      res.setEncoding("utf8");
      res.on("data", (c) => { data += c; });
      res.on("end", () => {
        const j = JSONParse(data);
        resolve([res.statusCode, res.headers["x-echo"], j.method, j.body, j.query, j.headers["x-h"], j.headers["content-type"]]);
      });
    });
    req.on("error", reject);
    req.write("hello ");
    req.end("world " + round);
  });

  // node:fs on the workspace
  const dir = "/work/r" + round;
  fs.mkdirSync(dir + "/sub", { recursive: true });
  fs.writeFileSync(dir + "/a.txt", "h\u00e9llo " + round);
  fs.appendFileSync(dir + "/a.txt", " and more");
  await fs.promises.writeFile(dir + "/sub/b.bin", u8(1, 2, 3, 200));
  await new PromiseCtor((resolve) => fs.writeFile(dir + "/c.txt", "cb", () => resolve()));
  out.read = fs.readFileSync(dir + "/a.txt", "utf8");
  out.readOpt = await fs.promises.readFile(dir + "/a.txt", { encoding: "utf8" });
  out.bytes = new U8(fs.readFileSync(dir + "/sub/b.bin"));
  out.list = fs.readdirSync(dir);
  out.deep = fs.readdirSync(dir, { recursive: true });
  const st = fs.statSync(dir + "/a.txt");
  out.stat = [st.size, st.isFile(), st.isDirectory(), st.mtimeMs];
  out.exists = [fs.existsSync(dir + "/a.txt"), fs.existsSync(dir + "/nope")];
  fs.renameSync(dir + "/c.txt", dir + "/d.txt");
  try { fs.readFileSync(dir + "/c.txt"); out.enoent = "read"; } catch (e) { out.enoent = [e.code, e.syscall, e.path, e.message]; }

  // node:crypto
  out.hash = crypto.createHash("sha256").update("abc").update(u8(1, 2)).digest("hex");
  out.hash2 = crypto.createHash("SHA-1").update("\u00e9").digest("base64");
  out.hmac = crypto.createHmac("sha512", "key").update("data " + round).digest("hex");
  out.md5 = new U8(crypto.createHash("md5").update("x").digest());
  out.subtle = new U8(await crypto.subtle.digest("SHA-256", u8(1, round)));
  out.uuid = crypto.randomUUID().length;
  out.rnd = crypto.getRandomValues(new U8(4)).length;

  // timers, structuredClone, TextEncoder / TextDecoder
  out.timer = await timers.setTimeout(3, "late " + round);
  const c = structuredClone({ a: [1, { b: round }], s: "t" });
  out.clone = c;
  out.enc = new TextEncoder().encode("\u00e9x");
  out.dec = new TextDecoder().decode(u8(0xc3, 0xa9, 0x21));
  return out;
}

run(async (input, chidori) => {
  await chidori.log("start");
  const first = await work(input.base, 1);
  if (!%BEFORE%) tamper();
  const second = await work(input.base, 2);
  // a then-thief calls back what it kept, with a value of its choosing
  for (let i = 0; i < stolen.length; i++) { try { stolen[i]({ forged: true }); } catch (e) {} }
  await new PromiseCtor((resolve) => setTimeout(resolve, 5));
  return ser(first) + "\n" + ser(second);
});
"""

_FIELDS = ("action now path data flag mode method url headers body redirect timeout_ms algorithm key size "
           "from to recursive force entries first type bytes source status status_text encoding name value "
           "digest length offset done get set").split()

TAMPERS = {
    "promise_then": """
  const then = Promise.prototype.then;
  Promise.prototype.then = function (f, r) {
    if (typeof f === "function") stolen.push(f);
    return Reflect.apply(then, this, [f, r]);
  };""",
    "promise_statics": """
  Promise.resolve = () => { throw new Error("Promise.resolve tampered"); };
  Promise.reject = () => { throw new Error("Promise.reject tampered"); };
  Promise.all = () => { throw new Error("Promise.all tampered"); };
  Promise.prototype.catch = function () { throw new Error("catch tampered"); };
  Promise.prototype.finally = function () { throw new Error("finally tampered"); };""",
    "function_call_apply": """
  Function.prototype.call = function () { throw new Error("call tampered"); };
  Function.prototype.apply = function () { throw new Error("apply tampered"); };
  Function.prototype.bind = function () { throw new Error("bind tampered"); };""",
    "array_methods": """
  for (const k of ["push", "pop", "shift", "unshift", "map", "filter", "join", "includes", "some", "every", "find", "findIndex",
                   "indexOf", "lastIndexOf", "slice", "splice", "forEach", "concat", "fill", "sort", "reverse", "reduce", "flat", "at"])
    Array.prototype[k] = function () { throw new Error("Array.prototype." + k + " tampered"); };
  Array.from = () => { throw new Error("Array.from tampered"); };
  Array.of = () => { throw new Error("Array.of tampered"); };""",
    "array_setters": """
  for (const k of ["0", "1", "2", "3", "4", "5"])
    Object.defineProperty(Array.prototype, k, { set() { throw new Error("Array.prototype setter " + k); }, configurable: true });""",
    "object_setters": """
  for (const k of %FIELDS%)
    Object.defineProperty(Object.prototype, k, { __proto__: null, set() { throw new Error("Object.prototype setter " + k); }, configurable: true });
  Object.defineProperty(Object.prototype, "get", { __proto__: null, get() { return () => 1; }, configurable: true });""",
    "to_json": """
  Object.defineProperty(Object.prototype, "toJSON", { __proto__: null, value() { return "forged"; }, writable: true, configurable: true });
  Object.defineProperty(Array.prototype, "toJSON", { __proto__: null, value() { return ["forged"]; }, writable: true, configurable: true });""",
    "symbol_iterator": """
  const ArrayIteratorProto = Object.getPrototypeOf([][Symbol.iterator]());
  const TypedArrayProto = Object.getPrototypeOf(Uint8Array.prototype);
  Array.prototype[Symbol.iterator] = function () { throw new Error("array iterator tampered"); };
  TypedArrayProto[Symbol.iterator] = function () { throw new Error("typed array iterator tampered"); };
  ArrayIteratorProto.next = function () { throw new Error("next tampered"); };
  Map.prototype[Symbol.iterator] = function () { throw new Error("map iterator tampered"); };
  Set.prototype[Symbol.iterator] = function () { throw new Error("set iterator tampered"); };
  Object.getPrototypeOf(new Map().entries()).next = function () { throw new Error("map next tampered"); };""",
    "json": """
  JSON.stringify = () => '"forged"';
  JSON.parse = () => ({ forged: true });""",
    "map_set": """
  for (const k of ["get", "set", "has", "delete", "forEach", "values", "keys", "entries", "clear"]) {
    Map.prototype[k] = function () { throw new Error("Map." + k + " tampered"); };
    WeakMap.prototype[k] = function () { throw new Error("WeakMap." + k + " tampered"); };
  }
  for (const k of ["add", "has", "delete", "forEach", "values"]) {
    Set.prototype[k] = function () { throw new Error("Set." + k + " tampered"); };
    WeakSet.prototype[k] = function () { throw new Error("WeakSet." + k + " tampered"); };
  }""",
    "string_methods": """
  for (const k of ["split", "slice", "substring", "substr", "includes", "indexOf", "lastIndexOf", "replace", "replaceAll",
                   "startsWith", "endsWith", "repeat", "trim", "trimStart", "trimEnd", "toLowerCase", "toUpperCase",
                   "padStart", "padEnd", "charCodeAt", "codePointAt", "charAt", "concat", "at", "match", "normalize",
                   "localeCompare", "search", "toString"])
    String.prototype[k] = function () { throw new Error("String.prototype." + k + " tampered"); };
  String.fromCharCode = () => { throw new Error("String.fromCharCode tampered"); };
  String.fromCodePoint = () => { throw new Error("String.fromCodePoint tampered"); };""",
    "regexp": """
  RegExp.prototype.exec = function () { throw new Error("exec tampered"); };
  RegExp.prototype.test = function () { throw new Error("test tampered"); };
  for (const s of [Symbol.replace, Symbol.split, Symbol.match, Symbol.matchAll, Symbol.search])
    RegExp.prototype[s] = function () { throw new Error("RegExp symbol method tampered"); };""",
    "typed_arrays": """
  const TypedArrayProto = Object.getPrototypeOf(Uint8Array.prototype);
  for (const k of ["slice", "subarray", "set", "fill", "map", "join", "indexOf", "includes", "forEach", "reverse", "copyWithin"])
    TypedArrayProto[k] = function () { throw new Error("TypedArray.prototype." + k + " tampered"); };
  ArrayBuffer.prototype.slice = function () { throw new Error("ArrayBuffer.slice tampered"); };
  ArrayBuffer.isView = () => { throw new Error("ArrayBuffer.isView tampered"); };
  Uint8Array.from = () => { throw new Error("Uint8Array.from tampered"); };
  Object.getPrototypeOf(Uint8Array).from = () => { throw new Error("TypedArray.from tampered"); };""",
    "object_statics": """
  // (not Object.create or Object.getPrototypeOf: node:events' EventEmitter init, which node:http's classes
  // run, reads them live; that module is converted on its own)
  for (const k of ["assign", "keys", "values", "entries", "freeze", "defineProperty", "defineProperties",
                   "setPrototypeOf", "getOwnPropertyDescriptor", "getOwnPropertyNames", "fromEntries", "hasOwn", "is"])
    Object[k] = function () { throw new Error("Object." + k + " tampered"); };
  Object.prototype.hasOwnProperty = function () { throw new Error("hasOwnProperty tampered"); };
  Object.prototype.toString = function () { throw new Error("Object.prototype.toString tampered"); };
  for (const k of ["apply", "ownKeys", "getOwnPropertyDescriptor", "defineProperty", "get", "has", "construct"])
    Reflect[k] = function () { throw new Error("Reflect." + k + " tampered"); };""",
    "math_number": """
  for (const k of ["min", "max", "ceil", "floor", "round", "trunc", "abs", "random"])
    Math[k] = () => { throw new Error("Math." + k + " tampered"); };
  for (const k of ["isInteger", "isFinite", "isNaN", "isSafeInteger", "parseInt", "parseFloat"])
    Number[k] = () => { throw new Error("Number." + k + " tampered"); };
  Number.prototype.toString = function () { throw new Error("Number.prototype.toString tampered"); };""",
}
TAMPERS["object_setters"] = TAMPERS["object_setters"].replace("%FIELDS%", json.dumps(_FIELDS))


def _agent(tmp, tamper, before):
    text = BODY.replace("%TAMPER%", tamper).replace("%BEFORE%", "true" if before else "false")
    path = os.path.join(tmp, "agent.js")
    with open(path, "w") as f:
        f.write(text)
    return path


def _calls(state, rid):
    """The call log as (op, args, result, error), the server's Date header and random bytes masked."""
    out = []
    with open(os.path.join(state, "runs", rid, "records.jsonl")) as f:
        for line in f:
            if not line.strip():
                continue
            r = json.loads(line)
            result = r.get("result")
            if r.get("function") == "http" and isinstance(result, dict) and isinstance(result.get("headers"), list):
                result["headers"] = [p for p in result["headers"] if str(p[0]).lower() != "date"]
            if r.get("function") == "random_bytes":
                result = "(random)"
            out.append(json.dumps([r.get("function"), r.get("args"), result, r.get("error")], sort_keys=True))
    return out


def _run(v, tmp, tamper, before, flags, base):
    state = os.path.join(tmp, "state")
    agent = _agent(tmp, tamper, before)
    code, out, err = chidori(v, "run", *flags, agent, "-i", json.dumps({"base": base}), env=PINNED, state=state)
    assert code == 0, f"exit {code}\n{out}\n{err[-3000:]}"
    return state, agent, run_id_of(err), out


def _check_family(v, family):
    tamper = TAMPERS[family]
    with server() as (port, _counts):
        base = f"http://127.0.0.1:{port}"
        for mode, flags in MODES:
            with tempfile.TemporaryDirectory() as tmp:
                state, _, rid, base_out = _run(v, tmp, "", True, flags, base)
                base_calls = _calls(state, rid)
            assert "8ece461fad631926" in base_out and "late 2" in base_out, f"{mode}: the untouched run printed\n{base_out}"
            assert len(base_calls) >= 15, f"{mode}: the untouched run recorded only {len(base_calls)} calls"
            for before in (True, False):
                where = f"{mode}, {family}, tampered {'before the first import' if before else 'after the first use'}"
                with tempfile.TemporaryDirectory() as tmp:
                    try:
                        state, agent, rid, out = _run(v, tmp, tamper, before, flags, base)
                    except AssertionError as e:
                        raise AssertionError(f"{where}: {e}")
                    if out != base_out:
                        at = next((i for i, (a, b) in enumerate(zip(out, base_out)) if a != b), min(len(out), len(base_out)))
                        raise AssertionError(f"{where}: the output differs at character {at}:\n  tampered: "
                                             f"{out[max(0, at - 80):at + 200]}\n  untouched: {base_out[max(0, at - 80):at + 200]}")
                    calls = _calls(state, rid)
                    if calls != base_calls:
                        diff = [f"  tampered: {a}\n  untouched: {b}" for a, b in zip(calls, base_calls) if a != b][:3]
                        raise AssertionError(f"{where}: the call log differs from the untouched run's "
                                             f"({len(calls)} vs {len(base_calls)} records):\n" + "\n".join(diff))
                    code, out2, err2 = chidori(v, "replay", *flags, agent, rid, env=PINNED, state=state)
                    assert code == 0 and out2 == out, f"{where}: replay exit {code}\n{out2}\n{err2[-2000:]}"


for _family in TAMPERS:
    def _case(v, _family=_family):
        _check_family(v, _family)
    _case.__doc__ = (f"Tampering with {_family} leaves fetch/http/fs/crypto's effects, the call log, replay and "
                     "output unchanged.")
    _case.__name__ = "case_primordials_web_" + _family
    globals()[_case.__name__] = _case
del _case, _family
