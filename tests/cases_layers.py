"""tests/cases_layers.py — which folder of src/ may include which (ARCHITECTURE: the folders show
the trust boundary and the data flow).

- src/serve/ includes nothing from src/cli/: what both need (a run's set-up from the settings, the
  captured start, the isolation choice, the state folder) is in src/runner/.
- src/engine/ includes nothing from src/host/: the seam's result codes and call type are in a
  neutral header. (Skipped, saying why, until that header exists.)
"""
import os
import re
import tempfile

from cases import Skip
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
    has_seam_h = any("seam.h" in files for _, _, files in os.walk(SRC))
    if found and not has_seam_h:
        raise Skip("src/engine/ still includes from src/host/ (" + ", ".join(f"{p}: {i}" for p, i in found) +
                   "): the neutral seam.h of issue 16 item 7 is not on this branch yet")
    assert not found, "src/engine/ includes from src/host/ (use the neutral seam header):\n" + \
        "\n".join(f"  {p}: {i}" for p, i in found)
