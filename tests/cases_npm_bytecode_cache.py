"""tests/cases_npm_bytecode_cache.py — the bytecode cache of package files (docs/captured-surface.md,
"Bytecode cache"): <state>/cache/bytecode/<id>.bc, authenticated by an HMAC under a key only the
host reads.

Shown here: an in-process run stores its package modules' bytecode and an isolated run never
stores anything; a stored entry is what later runs execute, isolated too (an entry re-signed with
the key runs instead of the source); an entry that does not check out (flipped bits, garbage,
empty, oversized, a symlink, another key, another file's entry) is never run, is removed, and the
run goes on from the source; deleting the cache or its key is safe.
"""
import glob
import hashlib
import hmac
import json
import os
import shutil
import struct
import tempfile

from cases import chidori

MODES = (("isolated", []), ("in-process", ["--no-isolate"]))
MAGIC = b"CHIBC001"


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
    with open(os.path.join(app, "node_modules", "bcpkg", "index.js"), "w") as f:
        f.write("export const v = %s;\n" % json.dumps(value))


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
    (n,) = struct.unpack("<Q", data[40:48])
    assert len(data) == 48 + n + 32
    return data[48:48 + n]


def signed(state, entry_id, payload):
    """An entry for entry_id holding payload, signed with the state folder's key (as the host does)."""
    with open(os.path.join(state, "cache", "bytecode", "key"), "rb") as f:
        key = f.read()
    body = MAGIC + bytes.fromhex(entry_id) + struct.pack("<Q", len(payload)) + payload
    return body + hmac.new(key, body, hashlib.sha256).digest()


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
        # another source is another entry
        set_value(app, "two")
        assert run(v, app, state, ["--no-isolate"]) == "two"
        two_path = next(p for p in entries(state) if p != one_path)
        two_payload = payload_of(two_path)
        # an entry signed with the key is what runs: "one"'s entry replaced by "two"'s bytecode
        set_value(app, "one")
        with open(one_path, "wb") as f:
            f.write(signed(state, one_id, two_payload))
        for mode, args in MODES:
            assert run(v, app, state, args) == "two", f"{mode}: the signed entry was not the code that ran"
        # the same bytes without the right signature are never run; the entry goes away
        for mode, args in MODES:
            forged = bytearray(signed(state, one_id, two_payload))
            forged[-1] ^= 1
            with open(one_path, "wb") as f:
                f.write(forged)
            assert run(v, app, state, args) == "one", f"{mode}: an entry with a bad HMAC ran"
            if mode == "isolated":
                assert not os.path.exists(one_path), "a bad entry was kept"
            else:
                assert open(one_path, "rb").read() == before, "the in-process run did not store it again"
        # another file's entry, correctly signed, under this id: refused by the id inside it
        with open(two_path, "rb") as f:
            other = f.read()
        with open(one_path, "wb") as f:
            f.write(other)
        assert run(v, app, state, []) == "one" and not os.path.exists(one_path)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def case_npm_bytecode_cache_hostile_entries(v):
    """Garbage, truncated, empty, oversized, symlinked entries and a changed key: never run,
    removed, the run unharmed."""
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
            "header only": good[:48],
            "length lies": good[:40] + struct.pack("<Q", 1 << 40) + good[48:],
            "oversized": None,
            "symlink": None,
        }
        for name, data in hostile.items():
            for mode, args in MODES:
                if os.path.lexists(path):
                    os.remove(path)
                if name == "oversized":
                    with open(path, "wb") as f:
                        f.truncate((32 << 20) + 81)
                elif name == "symlink":
                    os.symlink(secret, path)
                else:
                    with open(path, "wb") as f:
                        f.write(data)
                assert run(v, app, state, args) == "one", f"{name} {mode}"
                if mode == "isolated":
                    assert not os.path.lexists(path), f"{name}: the bad entry was kept"
                else:
                    assert open(path, "rb").read() == good, f"{name}: not rebuilt"
        assert open(secret, "rb").read() == good, "the link's target was touched"
        # a new key: every old entry fails its HMAC and is rebuilt under the new key
        key = os.path.join(state, "cache", "bytecode", "key")
        os.remove(key)
        assert run(v, app, state, ["--no-isolate"]) == "one"
        assert os.path.getsize(key) == 32 and open(path, "rb").read() != good, "the entry was not re-signed"
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
