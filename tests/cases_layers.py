"""tests/cases_layers.py — which folder of src/ may include which (ARCHITECTURE: the folders show
the trust boundary and the data flow).

- src/serve/ includes nothing from src/cli/: what both need (a run's set-up from the settings, the
  captured start, the isolation choice, the state folder) is in src/runner/.
- src/engine/ includes nothing from src/host/: the seam's result codes and call type are in a
  neutral header (src/seam.h).
- No two source files of src/ share a name, so a name in a message, a header comment or a stack
  trace points at one file.
"""
import os
import re
import tempfile

from run import ROOT

SRC = os.path.join(ROOT, "src")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def includes_across(src_root, folder, forbidden):
    """[(file, included)] of the files under src_root/folder that include a header under forbidden/."""
    found = []
    base = os.path.join(src_root, folder)
    for d, _, files in os.walk(base):
        for name in sorted(files):
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(d, name)
            with open(path, encoding="utf-8", errors="replace") as f:
                for inc in INCLUDE.findall(f.read()):
                    if inc.startswith(forbidden + "/"):
                        found.append((os.path.relpath(path, src_root), inc))
    return found


def _check_scan_finds_one():
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "serve"))
        with open(os.path.join(tmp, "serve", "x.c"), "w") as f:
            f.write('#include "serve/serve.h"\n  #  include "cli/cli.h"\n// #include "cli/other.h" is a comment\n')
        got = includes_across(tmp, "serve", "cli")
        assert got == [(os.path.join("serve", "x.c"), "cli/cli.h")], got


def case_layers_serve_includes_nothing_from_cli(v):
    _check_scan_finds_one()
    found = includes_across(SRC, "serve", "cli")
    assert not found, "src/serve/ includes from src/cli/ (move what both need to src/runner/):\n" + \
        "\n".join(f"  {p}: {i}" for p, i in found)


def case_layers_engine_includes_nothing_from_host(v):
    found = includes_across(SRC, "engine", "host")
    assert os.path.exists(os.path.join(SRC, "seam.h")), "src/seam.h, the seam's neutral header, is missing"
    assert not found, "src/engine/ includes from src/host/ (use the neutral seam header):\n" + \
        "\n".join(f"  {p}: {i}" for p, i in found)


def files_sharing_a_name(src_root):
    """{name: [relative paths]} of the .c and .h names used more than once under src_root."""
    seen = {}
    for d, _, files in os.walk(src_root):
        for name in files:
            if name.endswith((".c", ".h")):
                seen.setdefault(name, []).append(os.path.relpath(os.path.join(d, name), src_root))
    return {n: sorted(p) for n, p in seen.items() if len(p) > 1}


def case_layers_no_two_source_files_share_a_name(v):
    with tempfile.TemporaryDirectory() as tmp:
        for sub in ("a", "b"):
            os.makedirs(os.path.join(tmp, sub))
            open(os.path.join(tmp, sub, "x.c"), "w").close()
        assert files_sharing_a_name(tmp) == {"x.c": [os.path.join("a", "x.c"), os.path.join("b", "x.c")]}
    shared = files_sharing_a_name(SRC)
    assert not shared, "source files share a name (rename one of each):\n" + \
        "\n".join(f"  {n}: {', '.join(p)}" for n, p in sorted(shared.items()))


# The files that may read a clock directly: the one helper, and the supervisor's per-process CPU
# clock (clock_getcpuclockid), which is another kind of clock.
CLOCK_READERS = {os.path.join("util", "clock.c"), os.path.join("isolate", "supervisor.c")}


def clock_reads(src_root):
    """[(file, line number)] of clock_gettime calls outside CLOCK_READERS (comments and strings
    do not count)."""
    from cases_settings import _code_only
    found = []
    for d, _, files in os.walk(src_root):
        for name in sorted(files):
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(d, name)
            rel = os.path.relpath(path, src_root)
            if rel in CLOCK_READERS:
                continue
            with open(path, encoding="utf-8", errors="replace") as f:
                code = _code_only(f.read())
            for m in re.finditer(r"\bclock_gettime\s*\(", code):
                found.append((rel, code.count("\n", 0, m.start()) + 1))
    return found


def case_layers_one_clock_helper(v):
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "x.c"), "w") as f:
            f.write('/* clock_gettime( in a comment */\nstatic long t(void) { struct timespec ts;\n'
                    '  clock_gettime(CLOCK_MONOTONIC, &ts); return ts.tv_sec; }\n')
        assert clock_reads(tmp) == [("x.c", 3)], clock_reads(tmp)
    found = clock_reads(SRC)
    assert not found, "clocks read outside util/clock.c (use its helpers):\n" + \
        "\n".join(f"  {p}:{n}" for p, n in found)
