#!/usr/bin/env python3
"""fuzz_seeds.py — lay out the generated seeds of the engine fuzz targets (fuzz_engine, fuzz_regexp).

Owns: build/fuzz/seeds/{engine,regexp}/ (wiped and rewritten on each call). Reads, never writes:
tests/hostile/*.js and tests/limits/*.js (our own fixtures), and, when given, a test262 checkout
(not vendored: the caller points at one, e.g. FUZZ_TEST262_DIR). Trusts nothing it reads beyond
treating it as text; a file that cannot be read is skipped.

Engine seeds are programs as fuzz_engine reads them: plain scripts, or "//mod\\n" + an ES module.
test262 tests get a small stand-in harness of our own (assert, Test262Error, $DONE, ...) in front,
so they run past their first assertion instead of stopping at a ReferenceError.

Regexp seeds are fuzz_regexp inputs ([flags][mode: 6, through the engine too][pattern length, 2 bytes LE][pattern][subject]),
made from the regular expression literals found in the same files.

  scripts/fuzz_seeds.py OUT_DIR [TEST262_DIR] [MAX_TEST262_FILES]
"""
import hashlib
import os
import re
import struct
import sys

MAX_SEED_BYTES = 4096

# Our own minimal stand-in for test262's harness (only what most tests call first).
SHIM = """var Test262Error = function (m) { this.message = m || ''; };
Test262Error.prototype.toString = function () { return 'Test262Error: ' + this.message; };
var assert = function (c, m) { if (c !== true) throw new Test262Error(m); };
assert.sameValue = function (a, b, m) { if (!Object.is(a, b)) throw new Test262Error(m); };
assert.notSameValue = function (a, b, m) { if (Object.is(a, b)) throw new Test262Error(m); };
assert.throws = function (C, f, m) { try { f(); } catch (e) { if (!(e instanceof C)) throw new Test262Error(m); return; } throw new Test262Error(m); };
assert.compareArray = function (a, b, m) { if (a.length !== b.length || !a.every(function (v, i) { return Object.is(v, b[i]); })) throw new Test262Error(m); };
var compareArray = function (a, b) { return a.length === b.length && a.every(function (v, i) { return Object.is(v, b[i]); }); };
var verifyProperty = function (o, k) { if (!Object.getOwnPropertyDescriptor(o, k)) throw new Test262Error(String(k)); };
var $DONE = function (e) { if (e) throw e; };
var $DONOTEVALUATE = function () { throw new Test262Error('not to be evaluated'); };
var $262 = { global: globalThis, evalScript: function (s) { return (0, eval)(s); }, gc: function () {}, agent: {},
  detachArrayBuffer: function (b) { if (b.transfer) b.transfer(); } };
var print = console.log;
"""

FRONTMATTER = re.compile(r"/\*---.*?---\*/", re.S)
LICENSE = re.compile(r"\A(\s*//[^\n]*\n)+")
FLAGS = re.compile(r"^\s*flags:\s*\[([^\]]*)\]", re.M)
# A regular expression literal after a token that cannot end an expression.
REGEX_LITERAL = re.compile(r"(?:^|[=(,:;!&|?{}\[]|return)\s*/((?:\\.|\[(?:\\.|[^\]\\\n])*\]|[^/\\\n\[*])(?:\\.|\[(?:\\.|[^\]\\\n])*\]|[^/\\\n\[])*)/([dgimsuyv]*)", re.M)
STRING_LITERAL = re.compile(r"'((?:\\.|[^'\\\n]){1,80})'|\"((?:\\.|[^\"\\\n]){1,80})\"")
FLAG_BITS = {"g": 1, "i": 2, "m": 4, "s": 8, "u": 16, "y": 32, "d": 64}


def write(dirname, data):
    name = hashlib.sha1(data).hexdigest()[:16]
    with open(os.path.join(dirname, name), "wb") as f:
        f.write(data)


def regexp_seeds(text):
    """fuzz_regexp inputs for the regular expression literals of a program."""
    strings = [a or b for a, b in STRING_LITERAL.findall(text)]
    out = []
    for i, m in enumerate(REGEX_LITERAL.finditer(text)):
        pattern, flags = m.group(1), m.group(2)
        bits = sum(FLAG_BITS.get(c, 0) for c in flags)
        subject = strings[i % len(strings)] if strings else pattern
        p = pattern.encode("utf-8", "surrogatepass")
        out.append(bytes([bits, 6]) + struct.pack("<H", len(p)) + p + subject.encode("utf-8", "surrogatepass"))
    return out


def fixture_seeds(root):
    """Our hostile and limits fixtures: eval-mode ones are scripts, the rest agent modules."""
    for suite in ("hostile", "limits"):
        d = os.path.join(root, "tests", suite)
        for name in sorted(os.listdir(d)) if os.path.isdir(d) else []:
            if not name.endswith(".js"):
                continue
            with open(os.path.join(d, name), encoding="utf-8", errors="replace") as f:
                text = f.read()
            header = "".join(l for l in text.splitlines(True) if l.startswith("//!"))
            body = "".join(l for l in text.splitlines(True) if not l.startswith("//!"))
            yield (body if "mode: eval" in header else "//mod\n" + body), text


def test262_seeds(top, limit):
    """Up to `limit` test262 tests, spread evenly over the tree, with the stand-in harness."""
    base = os.path.join(top, "test") if os.path.isdir(os.path.join(top, "test")) else top
    files = []
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames[:] = sorted(d for d in dirnames if d not in ("intl402", "staging"))
        files += [os.path.join(dirpath, f) for f in sorted(filenames) if f.endswith(".js") and "_FIXTURE" not in f]
    step = max(1, len(files) // limit) if limit else 1
    picked = 0
    for path in files[::step]:
        if picked >= limit:
            break
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError:
            continue
        m = FLAGS.search(text)
        flags = {s.strip() for s in m.group(1).split(",")} if m else set()
        body = LICENSE.sub("", FRONTMATTER.sub("", text)).strip() + "\n"
        if "raw" in flags:
            program = body
        else:
            program = ('"use strict";\n' if "onlyStrict" in flags else "") + SHIM + body
        if "module" in flags:
            program = "//mod\n" + program
        if len(program.encode("utf-8", "surrogatepass")) > MAX_SEED_BYTES:
            continue
        picked += 1
        yield program, body


def test262_regexp_texts(top):
    """Every test of test262's RegExp directory, for its regular expression literals only."""
    base = os.path.join(top, "test") if os.path.isdir(os.path.join(top, "test")) else top
    d = os.path.join(base, "built-ins", "RegExp")
    for dirpath, dirnames, filenames in os.walk(d):
        dirnames.sort()
        for f in sorted(filenames):
            if f.endswith(".js"):
                with open(os.path.join(dirpath, f), encoding="utf-8", errors="replace") as fh:
                    yield None, fh.read()


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: fuzz_seeds.py OUT_DIR [TEST262_DIR] [MAX_TEST262_FILES]")
    out = sys.argv[1]
    t262 = sys.argv[2] if len(sys.argv) > 2 and sys.argv[2] else None
    limit = int(sys.argv[3]) if len(sys.argv) > 3 else 3000
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    eng, rx = os.path.join(out, "engine"), os.path.join(out, "regexp")
    for d in (eng, rx):
        os.makedirs(d, exist_ok=True)
        for f in os.listdir(d):
            os.remove(os.path.join(d, f))
    if t262 and not os.path.isdir(t262):
        sys.exit(f"fuzz_seeds: test262 directory {t262} does not exist (FUZZ_TEST262_DIR): point it at a test262 checkout")
    sources = list(fixture_seeds(root))
    if t262:
        sources += list(test262_seeds(t262, limit)) + list(test262_regexp_texts(t262))
    counts = [0, 0]
    for program, text in sources:
        data = program.encode("utf-8", "surrogatepass") if program is not None else b""
        if data and len(data) <= MAX_SEED_BYTES:
            write(eng, data)
            counts[0] += 1
        for seed in regexp_seeds(text):
            write(rx, seed)
            counts[1] += 1
    print(f"fuzz seeds: {counts[0]} programs, {counts[1]} regular expressions in {out}"
          + (f" (test262 from {t262})" if t262 else " (no test262: set FUZZ_TEST262_DIR to add it)"))


if __name__ == "__main__":
    main()
