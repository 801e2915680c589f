"""tests/cases_npm_bytecode_cache.py — the bytecode cache of package files (docs/captured-surface.md,
"Bytecode cache"): <state>/cache/bytecode/<id>.bc, authenticated by a MAC (SipHash-2-4-128)
under a key only the host reads; used by in-process runs only.

Shown here: an in-process run stores its package modules' bytecode, and an isolated run neither
stores nor reads any; a stored entry is what later in-process runs execute (an entry re-signed
with the key runs instead of the source); an entry that does not check out (flipped bits, garbage,
empty, oversized, a symlink, another key, another file's entry) is never run, is removed and
rebuilt, and the run goes on from the source; deleting the cache or its key is safe.
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


def case_npm_bytecode_cache_written_in_process_only_and_used(v):
    tmp, app, state = setup("one")
    try:
        assert run(v, app, state, []) == "one"
        assert entries(state) == [], "an isolated run stored bytecode"
        assert run(v, app, state, ["--no-isolate"]) == "one"
        first = entries(state)
        assert len(first) == 1, f"one package module, one entry (the agent's own file is not cached): {first}"
        one_path = first[0]
        one_id = os.path.basename(one_path)[:-3]
        assert os.path.basename(os.path.dirname(one_path)) == one_id[:2]
        assert oct(os.stat(os.path.join(state, "cache", "bytecode", "key")).st_mode & 0o777) == "0o600"
        # the same file, warm: same answer, the entry untouched
        before = open(one_path, "rb").read()
        for mode, args in MODES:
            assert run(v, app, state, args) == "one", mode
        assert open(one_path, "rb").read() == before
        # a small package file is not cached (it parses faster than an entry is checked)
        small = os.path.join(app, "node_modules", "bcpkg", "small.js")
        with open(small, "w") as f:
            f.write("export const s = 1;\n")
        with open(os.path.join(app, "small_agent.js"), "w") as f:
            f.write('import { run } from "chidori:agent";\nimport { s } from "bcpkg/small.js";\nrun(async () => s);\n')
        code, out, err = chidori(v, "run", "--no-isolate", os.path.join(app, "small_agent.js"), state=state)
        assert code == 0 and json.loads(out) == 1 and entries(state) == first, (err, entries(state))
        # another source is another entry
        set_value(app, "two")
        assert run(v, app, state, ["--no-isolate"]) == "two"
        two_path = next(p for p in entries(state) if p != one_path)
        two_payload = payload_of(two_path)
        # an entry signed with the key is what runs in process: "one"'s entry holding "two"'s bytecode
        set_value(app, "one")
        with open(one_path, "wb") as f:
            f.write(signed(state, one_id, two_payload))
        assert run(v, app, state, ["--no-isolate"]) == "two", "the signed entry was not the code that ran"
        # an isolated worker is never given bytecode (nor asked for it)
        assert run(v, app, state, []) == "one", "an isolated run read the cache"
        assert payload_of(one_path) == two_payload, "an isolated run touched the cache"
        # the same bytes without the right tag are never run; the entry is replaced
        forged = bytearray(signed(state, one_id, two_payload))
        forged[-1] ^= 1
        with open(one_path, "wb") as f:
            f.write(forged)
        assert run(v, app, state, ["--no-isolate"]) == "one", "an entry with a bad tag ran"
        assert open(one_path, "rb").read() == before, "the in-process run did not store it again"
        # another file's entry, correctly signed, under this id: refused by the id inside it
        with open(two_path, "rb") as f:
            other = f.read()
        with open(one_path, "wb") as f:
            f.write(other)
        assert run(v, app, state, ["--no-isolate"]) == "one"
        assert open(one_path, "rb").read() == before, "another file's entry was kept"
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
