"""tests/cases_settings.py — settings read once, at the edge (docs/settings.md).

- Nothing below src/cli/ and src/serve/ reads (or writes) the environment: the sources are scanned.
- The settings table of the binary (`chidori settings`) and the table of docs/settings.md agree,
  row by row, both ways; every "CHIDORI_*" name the sources quote is in the table.
- A bad value of any kind stops every command with exit 2 naming the variable, before anything
  runs: no output, no run folder, no session database, nothing changed in an existing run.
"""
import hashlib
import os
import re
import subprocess
import tempfile

from cases import chidori
from run import ROOT

SRC = os.path.join(ROOT, "src")
EDGE = ("cli", "serve")  # the folders of src/ that may read the environment
DOCS = os.path.join(ROOT, "docs", "settings.md")
HELLO = os.path.join(ROOT, "examples", "hello.js")

# Reading or changing the environment: the calls and the variable itself (a word of its own, so
# spawn_environ or settings_from_environ do not count).
ENV_ACCESS = re.compile(r"\b(secure_getenv|getenv|setenv|unsetenv|putenv|clearenv|environ|__environ)\b")


def _code_only(text):
    """C source without comments, string and character literals (each replaced by a space or an
    empty literal), so a comment that mentions getenv is not a read of the environment."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
            out.append(" ")
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def environment_reads(src_root):
    """[(path, line number, line)] of every access to the environment in src_root outside the edge."""
    found = []
    for folder, dirs, files in os.walk(src_root):
        rel = os.path.relpath(folder, src_root)
        if rel.split(os.sep)[0] in EDGE:
            continue
        for name in sorted(files):
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8", errors="replace") as f:
                code = _code_only(f.read())
            for no, line in enumerate(code.splitlines(), 1):
                if ENV_ACCESS.search(line):
                    found.append((os.path.relpath(path, ROOT), no, line.strip()))
    return found


def case_settings_nothing_below_the_edge_reads_the_environment(v):
    found = environment_reads(SRC)
    assert not found, "the environment is read below src/cli/ and src/serve/ (pass the settings down instead):\n" + \
        "\n".join(f"  {p}:{n}: {l}" for p, n, l in found)
    # the scan itself finds a read, in code and not in a comment
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "host"))
        os.makedirs(os.path.join(tmp, "cli"))
        with open(os.path.join(tmp, "host", "x.c"), "w") as f:
            f.write('/* getenv in a comment */\nstatic const char *s = "getenv";\nint f(void) { return !!getenv("X"); }\n')
        with open(os.path.join(tmp, "cli", "y.c"), "w") as f:
            f.write('int g(void) { return !!getenv("X"); }\n')  # the edge may
        got = [(os.path.basename(p), n) for p, n, _ in environment_reads(tmp)]
        assert got == [("x.c", 3)], got


def _binary_table(v):
    p = subprocess.run([v.chidori, "settings"], capture_output=True, text=True, env=v.env(), timeout=30 * v.slow)
    assert p.returncode == 0, p.stderr
    settings, others = {}, {}
    for line in p.stdout.splitlines():
        cells = line.split("\t")
        assert len(cells) == 6, f"`chidori settings` printed a row of {len(cells)} cells: {line!r}"
        name, kind, default, accepted, commands, meaning = cells
        if kind == "other":
            others[name] = meaning
        else:
            assert kind in ("text", "number", "word", "flag"), line
            settings[name] = (default, accepted, commands, meaning)
    return settings, others


def _docs_tables():
    """The rows of docs/settings.md's two tables: {name: (default, accepted, read by, meaning)} and
    {name: why}."""
    settings, others = {}, {}
    with open(DOCS, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^\| `([A-Z][A-Z0-9_]*)` \|(.*)\|\s*$", line.rstrip("\n"))
            if not m:
                continue
            cells = [c.strip() for c in m.group(2).split(" | ")]
            name = m.group(1)
            if len(cells) == 4:
                default = cells[0]
                assert default.startswith("`") and default.endswith("`"), f"{name}: default cell {default!r}"
                assert name not in settings, f"{name} is in docs/settings.md twice"
                settings[name] = (default[1:-1], cells[1], cells[2], cells[3])
            elif len(cells) == 1:
                others[name] = cells[0]
            else:
                raise AssertionError(f"docs/settings.md: a row of {len(cells)} cells for {name}: {line!r}")
    return settings, others


def case_settings_table_agrees_with_the_docs_and_the_sources(v):
    binary, bin_others = _binary_table(v)
    docs, doc_others = _docs_tables()
    assert len(binary) >= 50, f"the binary lists only {len(binary)} settings"
    missing = sorted(set(binary) - set(docs))
    extra = sorted(set(docs) - set(binary))
    assert not missing, f"settings missing from docs/settings.md: {missing}"
    assert not extra, f"docs/settings.md lists variables chidori does not read: {extra}"
    differ = [f"  {n}:\n    binary {binary[n]}\n    docs   {docs[n]}" for n in sorted(binary) if binary[n] != docs[n]]
    assert not differ, "docs/settings.md and the binary's table disagree:\n" + "\n".join(differ)
    assert bin_others == doc_others, f"other variables: binary {bin_others}, docs {doc_others}"
    # every CHIDORI_* name the sources quote is a setting of the table (or a test-only one of the
    # table's own file); names only mentioned inside longer texts are not reads
    quoted = set()
    for folder, _, files in os.walk(SRC):
        for name in files:
            if name.endswith((".c", ".h")):
                with open(os.path.join(folder, name), encoding="utf-8", errors="replace") as f:
                    quoted |= set(re.findall(r'"(CHIDORI_[A-Z0-9_]+)"', f.read()))
    unknown = sorted(quoted - set(binary))
    assert not unknown, f"the sources quote variables the settings table does not list: {unknown}"


# One bad value of each kind: (variable, value, words of the message). The HTTP ones used to be read
# when a run's host started, failing the run (exit 1) instead of the command line.
BAD = [
    ("CHIDORI_JS_OP_BUDGET", "-1", "CHIDORI_JS_OP_BUDGET must be a whole number"),
    ("CHIDORI_HTTP_MAX_BYTES", "lots", "CHIDORI_HTTP_MAX_BYTES must be a whole number from 1 to 33554432, got `lots`"),
    ("CHIDORI_HTTP_TIMEOUT_MS", "1e3", "CHIDORI_HTTP_TIMEOUT_MS must be a whole number from 1 to 86400000, got `1e3`"),
    ("CHIDORI_SERVE_HTTP_THREADS", "65", "CHIDORI_SERVE_HTTP_THREADS must be a whole number from 1 to 64, got `65`"),
    ("CHIDORI_LLM_TIMEOUT_MS", "soon", "CHIDORI_LLM_TIMEOUT_MS must be a whole number"),
    ("CHIDORI_TS_FS", "disk", "CHIDORI_TS_FS must be one of `vfs`, `none`, got `disk`"),
    ("CHIDORI_ISOLATE", "maybe", "CHIDORI_ISOLATE must be one of `process`, `off`, got `maybe`"),
    ("CHIDORI_ISOLATE_REQUIRE_SANDBOX", "yes", "CHIDORI_ISOLATE_REQUIRE_SANDBOX must be `0` or `1`, got `yes`"),
    ("CHIDORI_HTTP_ALLOW_HOSTS", "localhost:8080", "CHIDORI_HTTP_ALLOW_HOSTS: `localhost:8080` is not a host name"),
    ("CHIDORI_ISOLATE_SKIP", "x" * 200, "CHIDORI_ISOLATE_SKIP: is too long"),
]


def _tree(path):
    """{relative path: sha256} of every file under path, and the folders."""
    out = {}
    for folder, dirs, files in os.walk(path):
        for d in dirs:
            out[os.path.relpath(os.path.join(folder, d), path) + "/"] = ""
        for name in files:
            p = os.path.join(folder, name)
            with open(p, "rb") as f:
                out[os.path.relpath(p, path)] = hashlib.sha256(f.read()).hexdigest()
    return out


def case_settings_bad_values_stop_every_command_before_anything_runs(v):
    with tempfile.TemporaryDirectory() as tmp:
        agent = os.path.join(tmp, "hello.js")
        with open(HELLO) as src, open(agent, "w") as dst:
            dst.write(src.read())
        state = os.path.join(tmp, "state")
        os.makedirs(state)
        # a real run, paused for an input, so replay and resume have something to touch
        with open(os.path.join(tmp, "ask.js"), "w") as f:
            f.write('export default async (input, chidori) => ({ answer: await chidori.input("name?") });\n')
        code, out, err = chidori(v, "run", os.path.join(tmp, "ask.js"), state=state)
        assert code == 3, (code, err)
        run_id = [l[8:] for l in err.splitlines() if l.startswith("Run id: ")][0]
        before = _tree(state)
        empty = os.path.join(tmp, "empty-state")
        os.makedirs(empty)
        commands = [
            ("run", [agent], empty),
            ("eval", ["1"], empty),
            ("sandbox", [], empty),
            ("serve", [agent, "--port", "0"], empty),
            ("replay", [os.path.join(tmp, "ask.js"), run_id], state),
            ("resume", [os.path.join(tmp, "ask.js"), run_id, "--response", "Ada"], state),
        ]
        for var, value, words in BAD:
            for cmd, args, where in commands:
                code, out, err = chidori(v, cmd, *args, env={var: value}, state=where, timeout=20)
                what = f"{cmd} with {var}={value[:20]}"
                assert code == 2, f"{what}: exit {code}, wanted 2\n{err}"
                assert words in err, f"{what}: stderr lacks {words!r}: {err}"
                assert "docs/settings.md" in err, f"{what}: the error does not point to the settings table: {err}"
                assert out == "", f"{what}: printed {out!r}"
                assert "Run id:" not in err and "Listening" not in err and "Isolation:" not in err, \
                    f"{what}: something started: {err}"
            assert os.listdir(empty) == [], f"{var}: a command wrote {os.listdir(empty)} before stopping"
            assert _tree(state) == before, f"{var}: replay or resume changed the run folder before stopping"
        # an empty value is the default, for numbers, words and flags
        code, out, err = chidori(v, "eval", "console.log(1)", env={"CHIDORI_JS_OP_BUDGET": "", "CHIDORI_TS_FS": "",
                                                                     "CHIDORI_ISOLATE_REQUIRE_SANDBOX": ""})
        assert code == 0 and out == "1\n", (code, out, err)
