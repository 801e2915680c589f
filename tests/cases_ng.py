"""tests/cases_ng.py — the optional quickjs-ng build (issue 25 item 4, docs/conformance.md "Engine
decision"): `make ENGINE=ng NG_SRC=DIR` is for measuring, never the default. These cases guard its
edges without a quickjs-ng tree (CI has none): the preparing script refuses a missing or wrong tree
with a clear error and touches nothing, an unknown engine is refused by make, and the default
engine is still the pinned, patched QuickJS.
"""
import os
import subprocess
import tempfile

from run import ROOT

PREPARE = os.path.join(ROOT, "scripts", "prepare-quickjs-ng.sh")


def _run(argv, **kw):
    p = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=120, **kw)
    return p.returncode, p.stdout, p.stderr


def case_ng_prepare_refuses_a_missing_or_wrong_tree(v):
    """No NG_SRC, or a folder without quickjs.c/quickjs.h: exit 1 with a message saying what to
    pass, and build/ng-src is neither created nor changed."""
    out_dir = os.path.join(ROOT, "build", "ng-src")
    before = os.path.exists(os.path.join(out_dir, ".stamp")) and open(os.path.join(out_dir, ".stamp")).read()
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "quickjs.h"), "w") as f:
            f.write("/* not a tree */\n")
        for args in ([], [""], [d], [os.path.join(d, "absent")]):
            code, out, err = _run([PREPARE] + args)
            assert code == 1, (args, code, err)
            assert "NG_SRC must name a quickjs-ng source tree" in err, (args, err)
            assert "make ENGINE=ng NG_SRC=" in err, (args, err)
    after = os.path.exists(os.path.join(out_dir, ".stamp")) and open(os.path.join(out_dir, ".stamp")).read()
    assert before == after, "a refused tree changed build/ng-src"


def case_ng_make_refuses_an_unknown_engine(v):
    """ENGINE takes quickjs (the default) or ng; anything else stops make before it builds."""
    code, out, err = _run(["make", "-n", "ENGINE=v8"])
    assert code != 0, out[-500:]
    assert "unknown ENGINE v8 (quickjs or ng)" in err, err[-1000:]


def case_ng_default_engine_is_the_pinned_quickjs(v):
    """Without ENGINE, make lays out QuickJS with fetch-quickjs.sh in build/quickjs-src and
    compiles without the ng compat header; ENGINE=ng goes to build/ng and build/ng-src."""
    code, out, err = _run(["make", "-n", "-B", "build/obj/quickjs/quickjs.o"])
    assert code == 0, err[-1000:]
    assert "scripts/fetch-quickjs.sh" in out and "build/quickjs-src/quickjs.c" in out, out[-2000:]
    assert "qjs_compat_ng" not in out and "CHIDORI_ENGINE_NG" not in out, out[-2000:]
    code, out, err = _run(["make", "-n", "-B", "ENGINE=ng", "NG_SRC=/nonexistent", "build/ng/obj/src/engine/limits.o"])
    assert code == 0, err[-1000:]
    assert "prepare-quickjs-ng.sh" in out and "fetch-quickjs.sh" not in out, out[-2000:]
    assert "-include src/engine/qjs_compat_ng.h" in out and "-DCHIDORI_ENGINE_NG" in out, out[-2000:]
