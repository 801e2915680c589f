"""tests/cases_npm_bytecode_cache.py — the bytecode cache of package files (docs/captured-surface.md,
"Bytecode cache"): one graph image per agent, <state>/cache/bytecode/<id[0:2]>/<id>.bc, holding the
compiled package modules of its import graph, each under its source's length and FNV-1a 64, and
authenticated by a MAC (SipHash-2-4-128) under a key only the host reads; used by in-process runs
only.

Shown here: an in-process run stores its package modules' bytecode in one image, and an isolated
run neither stores nor reads any; a stored image is what later in-process runs execute (an image
re-signed with the key runs instead of the source) for each file whose hash it holds, and a
changed file is compiled from its source and the image rewritten; an image that does not check out
(flipped bits, garbage, empty, oversized, a symlink, another key, another agent's image, a signed
but malformed payload) is never run, is removed and rebuilt, and the run goes on from the sources;
deleting the cache or its key is safe.
"""
import glob
import json
import os
import shutil
import struct
import tempfile

from cases import chidori

MODES = (("isolated", []), ("in-process", ["--no-isolate"]))
MAGIC = b"CHIBC003"
ID = 16
M64 = (1 << 64) - 1


def siphash24_128(k0, k1, data):
    """SipHash-2-4 with its 128-bit output (the reference algorithm), as the host computes entry tags."""
    def rotl(x, b):
        return ((x << b) | (x >> (64 - b))) & M64
    v = [k0 ^ 0x736f6d6570736575, k1 ^ 0x646f72616e646f6d ^ 0xee, k0 ^ 0x6c7967656e657261, k1 ^ 0x7465646279746573]

    def rounds(n):
        for _ in range(n):
            v[0] = (v[0] + v[1]) & M64; v[1] = rotl(v[1], 13) ^ v[0]; v[0] = rotl(v[0], 32)
            v[2] = (v[2] + v[3]) & M64; v[3] = rotl(v[3], 16) ^ v[2]
            v[0] = (v[0] + v[3]) & M64; v[3] = rotl(v[3], 21) ^ v[0]
            v[2] = (v[2] + v[1]) & M64; v[1] = rotl(v[1], 17) ^ v[2]; v[2] = rotl(v[2], 32)
    whole = len(data) - len(data) % 8
    for i in range(0, whole, 8):
        m = int.from_bytes(data[i:i + 8], "little")
        v[3] ^= m; rounds(2); v[0] ^= m
    last = ((len(data) & 0xff) << 56) | int.from_bytes(data[whole:], "little")
    v[3] ^= last; rounds(2); v[0] ^= last
    v[2] ^= 0xee; rounds(4)
    first = v[0] ^ v[1] ^ v[2] ^ v[3]
    v[1] ^= 0xdd; rounds(4)
    return first, v[0] ^ v[1] ^ v[2] ^ v[3]


def setup(value):
    tmp = tempfile.mkdtemp(prefix="chidori-bc-")
    app = os.path.join(tmp, "app")
    pkg = os.path.join(app, "node_modules", "bcpkg")
    os.makedirs(pkg)
    with open(os.path.join(pkg, "package.json"), "w") as f:
        json.dump({"name": "bcpkg", "type": "module", "main": "index.js"}, f)
    set_value(app, value)
    with open(os.path.join(app, "agent.js"), "w") as f:
        f.write('import { run } from "chidori:agent";\nimport { v } from "bcpkg";\nrun(async () => v);\n')
    return tmp, app, os.path.join(tmp, "state")


def set_value(app, value):
    # well past BC_CACHE_MIN_SOURCE (128 bytes): smaller files are not cached
    with open(os.path.join(app, "node_modules", "bcpkg", "index.js"), "w") as f:
        f.write("export const v = %s;\n" % json.dumps(value))
        f.write("export const filler = [%s];\n" % ", ".join(str(i) for i in range(4000)))


def run(v, app, state, args):
    code, out, err = chidori(v, "run", *args, os.path.join(app, "agent.js"), state=state)
    assert code == 0, f"exit {code}:\n{err}"
    return json.loads(out)


def entries(state):
    return sorted(glob.glob(os.path.join(state, "cache", "bytecode", "*", "*.bc")))


def payload_of(path):
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == MAGIC, data[:8]
    (n,) = struct.unpack("<Q", data[8 + ID:16 + ID])
    assert len(data) == 16 + ID + n + 16
    return data[16 + ID:16 + ID + n]


def signed(state, entry_id, payload):
    """An entry for entry_id holding payload, signed with the state folder's key (as the host does)."""
    with open(os.path.join(state, "cache", "bytecode", "key"), "rb") as f:
        key = f.read()
    body = MAGIC + bytes.fromhex(entry_id) + struct.pack("<Q", len(payload)) + payload
    k = struct.unpack("<4Q", key)
    return body + struct.pack("<QQ", *siphash24_128(k[2], k[3], body))


GRAPH_MAGIC = b"CHIGRF01"


def fnv1a64(data):
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & M64
    return h


def graph_of(payload):
    """A graph image's payload as {key: (source length, source FNV-1a 64, bytecode)}, in order."""
    assert payload[:8] == GRAPH_MAGIC, payload[:8]
    (count,) = struct.unpack("<I", payload[8:12])
    at, out = 12, {}
    for _ in range(count):
        (kl,) = struct.unpack("<I", payload[at:at + 4])
        key = payload[at + 4:at + 4 + kl].decode()
        at += 4 + kl
        slen, shash, bl = struct.unpack("<QQI", payload[at:at + 20])
        at += 20
        out[key] = (slen, shash, payload[at:at + bl])
        at += bl
    assert at == len(payload)
    return out


def graph_payload(graph):
    body = GRAPH_MAGIC + struct.pack("<I", len(graph))
    for key, (slen, shash, bc) in graph.items():
        k = key.encode()
        body += struct.pack("<I", len(k)) + k + struct.pack("<QQI", slen, shash, len(bc)) + bc
    return body


def source_of(app, key):
    with open(os.path.join(app, key), "rb") as f:
        data = f.read()
    return len(data), fnv1a64(data)


INDEX = "node_modules/bcpkg/index.js"


def case_npm_bytecode_cache_written_in_process_only_and_used(v):
    """One graph image per agent: written by the first in-process run, listing each cached package
    module with its source's length and FNV-1a 64; untouched by warm runs; what runs when it holds
    the file's hash (a signed image with other bytecode runs that bytecode); never used for a file
    whose hash differs (a changed file is compiled again and the image rewritten); never read by an
    isolated run; refused when its tag or id is not its own."""
    tmp, app, state = setup("one")
    try:
        assert run(v, app, state, []) == "one"
        assert entries(state) == [], "an isolated run stored bytecode"
        assert run(v, app, state, ["--no-isolate"]) == "one"
        first = entries(state)
        assert len(first) == 1, f"one agent, one graph image: {first}"
        one_path = first[0]
        one_id = os.path.basename(one_path)[:-3]
        assert os.path.basename(os.path.dirname(one_path)) == one_id[:2]
        assert oct(os.stat(os.path.join(state, "cache", "bytecode", "key")).st_mode & 0o777) == "0o600"
        graph = graph_of(payload_of(one_path))
        assert list(graph) == [INDEX], f"the package module, not the agent's own file: {list(graph)}"
        assert graph[INDEX][:2] == source_of(app, INDEX), "the image does not hold the file's length and hash"
        # the same file, warm: same answer, the image untouched
        before = open(one_path, "rb").read()
        for mode, args in MODES:
            assert run(v, app, state, args) == "one", mode
        assert open(one_path, "rb").read() == before
        # a small package file is not cached (it parses faster than its bytecode is read)
        small = os.path.join(app, "node_modules", "bcpkg", "small.js")
        with open(small, "w") as f:
            f.write("export const s = 1;\n")
        with open(os.path.join(app, "small_agent.js"), "w") as f:
            f.write('import { run } from "chidori:agent";\nimport { s } from "bcpkg/small.js";\nrun(async () => s);\n')
        code, out, err = chidori(v, "run", "--no-isolate", os.path.join(app, "small_agent.js"), state=state)
        assert code == 0 and json.loads(out) == 1 and entries(state) == first, (err, entries(state))
        # a changed file is seen: compiled again, and the same image rewritten with its new hash
        set_value(app, "two")
        assert run(v, app, state, ["--no-isolate"]) == "two", "the image's bytecode ran for a changed file"
        assert entries(state) == first, "a changed file made another image"
        two_graph = graph_of(payload_of(one_path))
        assert two_graph[INDEX][:2] == source_of(app, INDEX), "the image kept the old hash"
        two_bc = two_graph[INDEX][2]
        assert two_bc != graph[INDEX][2]
        # an image signed with the key is what runs in process: "one"'s hash holding "two"'s bytecode
        set_value(app, "one")
        forged = {INDEX: source_of(app, INDEX) + (two_bc,)}
        with open(one_path, "wb") as f:
            f.write(signed(state, one_id, graph_payload(forged)))
        assert run(v, app, state, ["--no-isolate"]) == "two", "the signed image was not the code that ran"
        # an isolated worker is never given bytecode (nor asked for it)
        assert run(v, app, state, []) == "one", "an isolated run read the cache"
        assert graph_of(payload_of(one_path))[INDEX][2] == two_bc, "an isolated run touched the cache"
        # the same bytes without the right tag are never run; the image is written again
        bad = bytearray(signed(state, one_id, graph_payload(forged)))
        bad[-1] ^= 1
        with open(one_path, "wb") as f:
            f.write(bad)
        assert run(v, app, state, ["--no-isolate"]) == "one", "an image with a bad tag ran"
        assert open(one_path, "rb").read() == before, "the in-process run did not store it again"
        # another agent's image, correctly signed, under this id: refused by the id inside it
        with open(os.path.join(app, "agent2.js"), "w") as f:
            f.write('import { run } from "chidori:agent";\nimport { v } from "bcpkg";\nrun(async () => v + "!");\n')
        code, out, err = chidori(v, "run", "--no-isolate", os.path.join(app, "agent2.js"), state=state)
        assert code == 0 and json.loads(out) == "one!", err
        (other_path,) = [p for p in entries(state) if p != one_path]
        with open(other_path, "rb") as f:
            other = f.read()
        with open(one_path, "wb") as f:
            f.write(other)
        assert run(v, app, state, ["--no-isolate"]) == "one"
        assert open(one_path, "rb").read() == before, "another agent's image was kept"
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def case_npm_bytecode_cache_graph_reuses_unchanged_files(v):
    """A graph of two package modules: changing one compiles that one again and keeps the other's
    bytecode from the image (shown by planting, under the unchanged file's hash, bytecode of other
    content: it is what runs), while bytecode planted under the changed file's old hash never runs.
    A payload that is signed but malformed (cut short, a key twice, a count past the bytes, trailing
    bytes) is refused as a whole and the run falls back to the sources."""
    tmp = tempfile.mkdtemp(prefix="chidori-bc-")
    try:
        app, state = os.path.join(tmp, "app"), os.path.join(tmp, "state")
        pkg = os.path.join(app, "node_modules", "gp")
        os.makedirs(pkg)
        with open(os.path.join(pkg, "package.json"), "w") as f:
            json.dump({"name": "gp", "type": "module", "main": "a.js"}, f)
        pad = "export const filler = [%s];\n" % ", ".join(str(i) for i in range(500))

        def put(name, value):
            with open(os.path.join(pkg, name), "w") as f:
                if name == "a.js":
                    f.write('export { b } from "./b.js";\n')
                f.write("export const %s = %s;\n" % (name[0], json.dumps(value)) + pad)
        with open(os.path.join(app, "agent.js"), "w") as f:
            f.write('import { run } from "chidori:agent";\nimport { a, b } from "gp";\nrun(async () => a + b);\n')
        A, B = "node_modules/gp/a.js", "node_modules/gp/b.js"

        def image():
            (p,) = entries(state)
            return p, graph_of(payload_of(p))
        put("a.js", "A1")
        put("b.js", "B1")
        assert run(v, app, state, ["--no-isolate"]) == "A1B1"
        path, g1 = image()
        first_payload = payload_of(path)
        assert sorted(g1) == [A, B], list(g1)
        img_id = os.path.basename(path)[:-3]
        # the bytecode of other contents of each file
        put("a.js", "Ax")
        put("b.js", "Bx")
        assert run(v, app, state, ["--no-isolate"]) == "AxBx"
        _, gx = image()
        assert gx[A][:2] != g1[A][:2] and gx[B][:2] != g1[B][:2], "the image kept the old hashes"
        # back to A1/B1, with an image whose records carry their hashes but Ax's and Bx's bytecode
        put("a.js", "A1")
        put("b.js", "B1")
        planted = {A: g1[A][:2] + (gx[A][2],), B: g1[B][:2] + (gx[B][2],)}
        with open(path, "wb") as f:
            f.write(signed(state, img_id, graph_payload(planted)))
        assert run(v, app, state, ["--no-isolate"]) == "AxBx", "the image's bytecode did not run"
        # a.js changes: compiled from its source (its planted bytecode never runs), b.js still a hit
        put("a.js", "A2")
        assert run(v, app, state, ["--no-isolate"]) == "A2Bx", "a changed file ran stale bytecode, or b was not reused"
        _, g2 = image()
        assert g2[A][:2] == source_of(app, A) and g2[B] == planted[B], "the image was not updated for a.js alone"
        # signed but malformed payloads: refused whole, sources compiled, image written again
        put("a.js", "A1")
        two = graph_payload(planted)
        one_rec = graph_payload({A: planted[A]})
        hostile = {
            "cut short": two[:-1],
            "trailing byte": two + b"\0",
            "a key twice": GRAPH_MAGIC + struct.pack("<I", 2) + one_rec[12:] + one_rec[12:],
            "count past the bytes": GRAPH_MAGIC + struct.pack("<I", 3) + two[12:],
            "bytecode length lies": two[:12 + 4 + len(A) + 16] + struct.pack("<I", 1 << 30) + two[12 + 4 + len(A) + 20:],
            "empty key": GRAPH_MAGIC + struct.pack("<I", 1) + struct.pack("<I", 0) + struct.pack("<QQI", 1, 1, 1) + b"x",
            "bad magic": b"CHIGRF00" + two[8:],
            "garbage": os.urandom(2048),
        }
        for name, payload in hostile.items():
            with open(path, "wb") as f:
                f.write(signed(state, img_id, payload))
            assert run(v, app, state, ["--no-isolate"]) == "A1B1", name
            assert payload_of(image()[0]) == first_payload, f"{name}: not rebuilt"
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def case_npm_bytecode_cache_hostile_entries(v):
    """Garbage, truncated, empty, oversized, symlinked entries and a changed key: never run,
    replaced, the run unharmed, isolated or not."""
    tmp, app, state = setup("one")
    outside = tempfile.mkdtemp(prefix="chidori-bc-outside-")
    try:
        assert run(v, app, state, ["--no-isolate"]) == "one"
        (path,) = entries(state)
        good = open(path, "rb").read()
        secret = os.path.join(outside, "secret")
        with open(secret, "wb") as f:
            f.write(good)  # a valid entry, but reached through a link
        hostile = {
            "garbage": os.urandom(4096),
            "empty": b"",
            "truncated": good[:-1],
            "header only": good[:16 + ID],
            "length lies": good[:8 + ID] + struct.pack("<Q", 1 << 40) + good[16 + ID:],
            "oversized": None,
            "symlink": None,
        }
        for name, data in hostile.items():
            if os.path.lexists(path):
                os.remove(path)
            if name == "oversized":
                with open(path, "wb") as f:
                    f.truncate((32 << 20) + 49)
            elif name == "symlink":
                os.symlink(secret, path)
            else:
                with open(path, "wb") as f:
                    f.write(data)
            for mode, args in MODES:
                assert run(v, app, state, args) == "one", f"{name} {mode}"
            assert not os.path.islink(path) and open(path, "rb").read() == good, f"{name}: not rebuilt"
        assert open(secret, "rb").read() == good, "the link's target was touched"
        # a new key: ids are keyed too, so old entries are never looked up again; a new one is made
        key = os.path.join(state, "cache", "bytecode", "key")
        os.remove(key)
        assert run(v, app, state, ["--no-isolate"]) == "one"
        assert os.path.getsize(key) == 32
        fresh = [p for p in entries(state) if p != path]
        assert len(fresh) == 1 and payload_of(fresh[0]) == payload_of(path), f"no entry under the new key: {fresh}"
        # the old entry, signed with the old key, placed under the new id: refused, replaced
        new_entry = open(fresh[0], "rb").read()
        with open(fresh[0], "wb") as f:
            f.write(good[:8] + new_entry[8:8 + ID] + good[8 + ID:])
        assert run(v, app, state, ["--no-isolate"]) == "one"
        assert open(fresh[0], "rb").read() == new_entry, "an entry signed with the old key was kept"
        # a broken key: no cache, runs unharmed
        with open(key, "wb") as f:
            f.write(b"short")
        for mode, args in MODES:
            assert run(v, app, state, args) == "one", mode
        # the whole cache deleted: safe
        shutil.rmtree(os.path.join(state, "cache"))
        for mode, args in MODES:
            assert run(v, app, state, args) == "one", mode
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.rmtree(outside, ignore_errors=True)


def case_npm_bytecode_cache_cycle_through_an_uncached_file(v):
    """A cached package module whose imports lead, through a file compiled from its source, back to
    itself: the warm in-process run reads the package module's bytecode, and the engine resolves
    the cycle while that module's import list is still being read (quickjs-ng resolves imports as
    it reads bytecode: ng patch 0021). The result is the cold run's, with no sanitizer report."""
    tmp = tempfile.mkdtemp(prefix="chidori-bc-cycle-")
    try:
        app = os.path.join(tmp, "app")
        pkg = os.path.join(app, "node_modules", "cyc")
        os.makedirs(pkg)
        os.makedirs(os.path.join(app, "lib"))
        with open(os.path.join(pkg, "package.json"), "w") as f:
            json.dump({"name": "cyc", "type": "module", "main": "index.js"}, f)
        filler = "export const filler = [%s];\n" % ", ".join(str(i) for i in range(2000))
        with open(os.path.join(pkg, "index.js"), "w") as f:
            # the first import leaves the package for a project file (never cached); the second is
            # still unread when that file's own import of "cyc" comes back here
            f.write('import { fromB } from "../../lib/b.js";\nimport { fromC } from "./c.js";\n'
                    'export const name = "cyc";\nexport function all() { return [name, fromB(), fromC]; }\n' + filler)
        with open(os.path.join(pkg, "c.js"), "w") as f:
            f.write('export const fromC = "c";\n' + filler)
        with open(os.path.join(app, "lib", "b.js"), "w") as f:
            f.write('import { name } from "cyc";\nexport function fromB() { return "b saw " + name; }\n')
        with open(os.path.join(app, "agent.js"), "w") as f:
            f.write('import { run } from "chidori:agent";\nimport { all } from "cyc";\nrun(async () => all());\n')
        state = os.path.join(tmp, "state")
        want = ["cyc", "b saw cyc", "c"]
        assert run(v, app, state, ["--no-isolate"]) == want
        assert len(entries(state)) == 1, "the cold run cached no graph image"
        for mode, args in MODES + (("in-process again", ["--no-isolate"]),):
            assert run(v, app, state, args) == want, mode
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


SRC_INDEX = """#!/usr/bin/env node
// a package module whose functions' text is read back (Function.prototype.toString)
export class Shape {
  constructor(n) { this.n = n; /* MARK-CLASS */ }
  area() { return this.n * 2; /* MARK-METHOD: é ✓ 😀 */ }
  get size() { return this.n; }
  static of(n) { return new Shape(n); }
}
export function plain(a, b = "é") { return a + b; /* MARK-PLAIN */ }
export const arrow = (x) => x * 3; // MARK-ARROW
export async function later() { return 1; }
export function* gen() { yield 2; }
export function outer() { return function inner(y) { return y; /* MARK-INNER */ }; }
export const texts = () => [Shape, Shape.prototype.area, Object.getOwnPropertyDescriptor(Shape.prototype, "size").get,
  Shape.of, plain, arrow, later, gen, outer, outer()].map(String);
"""

SRC_ATTRS = """import data from "./d.json" with { type: "json" };
export function withData() { return data.k; /* MARK-ATTRS */ }
"""


def case_npm_bytecode_cache_function_source_text(v):
    """Function.prototype.toString of a cached package module's functions (classes, methods,
    getters, arrows, async, generators, nested functions, non-ASCII text, after a hashbang line)
    is the file's own text, cold, warm and isolated. The text is not in the image when the module
    was compiled from the file as it is (the engine hands the file's text to the bytecode reader:
    ng patch 0027), and is in it when the compiled text differed (an import attribute blanked)."""
    tmp = tempfile.mkdtemp(prefix="chidori-bc-src-")
    try:
        app = os.path.join(tmp, "app")
        pkg = os.path.join(app, "node_modules", "srcpkg")
        os.makedirs(pkg)
        with open(os.path.join(pkg, "package.json"), "w") as f:
            json.dump({"name": "srcpkg", "type": "module", "main": "index.js"}, f)
        filler = "export const filler = [%s];\n" % ", ".join(str(i) for i in range(2000))
        with open(os.path.join(pkg, "index.js"), "w", encoding="utf-8") as f:
            f.write(SRC_INDEX + filler)
        with open(os.path.join(pkg, "attrs.js"), "w") as f:
            f.write(SRC_ATTRS + filler)
        with open(os.path.join(pkg, "d.json"), "w") as f:
            json.dump({"k": "json"}, f)
        with open(os.path.join(app, "agent.js"), "w") as f:
            f.write('import { run } from "chidori:agent";\nimport { texts } from "srcpkg";\n'
                    'import { withData } from "srcpkg/attrs.js";\n'
                    'run(async () => ({ texts: texts(), attrs: String(withData), data: withData() }));\n')
        src = SRC_INDEX
        want_texts = [
            src[src.index("class Shape"):src.index("\n}\n") + 2],
            src[src.index("area()"):src.index("😀 */ }") + len("😀 */ }")],
            src[src.index("get size()"):src.index("return this.n; }") + len("return this.n; }")],
            src[src.index("static of(n)") + len("static "):src.index("new Shape(n); }") + len("new Shape(n); }")],
            src[src.index("function plain"):src.index("MARK-PLAIN */ }") + len("MARK-PLAIN */ }")],
            "(x) => x * 3",
            "async function later() { return 1; }",
            "function* gen() { yield 2; }",
            src[src.index("function outer"):src.index("MARK-INNER */ }; }") + len("MARK-INNER */ }; }")],
            src[src.index("function inner"):src.index("MARK-INNER */ }") + len("MARK-INNER */ }")],
        ]
        want = {"texts": want_texts, "data": "json",
                "attrs": SRC_ATTRS[SRC_ATTRS.index("function withData"):SRC_ATTRS.index("MARK-ATTRS */ }") + len("MARK-ATTRS */ }")]}
        state = os.path.join(tmp, "state")
        assert run(v, app, state, ["--no-isolate"]) == want, "cold, compiled from the source"
        (image,) = entries(state)
        graph = graph_of(payload_of(image))
        index_bc = graph["node_modules/srcpkg/index.js"][2]
        attrs_bc = graph["node_modules/srcpkg/attrs.js"][2]
        assert b"MARK-CLASS" not in index_bc and b"MARK-INNER" not in index_bc, \
            "the file's text was written into its bytecode"
        assert b"MARK-ATTRS" in attrs_bc, "a module compiled from a changed text lost its functions' text"
        for mode, args in MODES + (("in-process, warm again", ["--no-isolate"]),):
            assert run(v, app, state, args) == want, mode
        assert entries(state) == [image] and graph_of(payload_of(image)) == graph, "a warm run rewrote the image"
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
