"""tests/cases_ng.py — how the engine is pinned and built (docs/building.md, docs/conformance.md
"Engine decision"). The engine is quickjs-ng 0.17.0: its pinned source (deps/quickjs-ng.lock,
Debian's `qjs-src`) is fetched, checked against its SHA-256 and refused when it does not match,
and our ng patch series applies to it; the preparing script refuses a wrong tree given as NG_SRC
with a clear error and touches nothing; an unknown engine is refused by make; `make` builds on ng
by default, and `make ENGINE=quickjs` (QuickJS 2025-04-26, the engine before, kept for comparing)
still lays out its pinned source with its patch series applied.
"""
import os
import shutil
import subprocess
import tempfile

from run import ROOT

PREPARE = os.path.join(ROOT, "scripts", "prepare-quickjs-ng.sh")


def _run(argv, **kw):
    p = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=120, **kw)
    return p.returncode, p.stdout, p.stderr


def case_ng_prepare_refuses_a_missing_or_wrong_tree(v):
    """An NG_SRC folder without quickjs.c/quickjs.h, or one that does not exist: exit 1 with a
    message saying what to pass, and build/ng-src is neither created nor changed. Then no NG_SRC:
    the pinned source is fetched and our whole ng patch series applies to it."""
    out_dir = os.path.join(ROOT, "build", "ng-src")
    before = os.path.exists(os.path.join(out_dir, ".stamp")) and open(os.path.join(out_dir, ".stamp")).read()
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "quickjs.h"), "w") as f:
            f.write("/* not a tree */\n")
        for args in ([d], [os.path.join(d, "absent")]):
            code, out, err = _run([PREPARE] + args)
            assert code == 1, (args, code, err)
            assert "NG_SRC must name a quickjs-ng source tree" in err, (args, err)
            assert "make NG_SRC=" in err, (args, err)
    after = os.path.exists(os.path.join(out_dir, ".stamp")) and open(os.path.join(out_dir, ".stamp")).read()
    assert before == after, "a refused tree changed build/ng-src"
    # then, in the same case (both touch build/ng-src): no NG_SRC means the pinned source
    _patch_series_applies_to_the_pinned_source()


def case_ng_make_refuses_an_unknown_engine(v):
    """ENGINE takes ng (the default) or quickjs; anything else stops make before it builds."""
    code, out, err = _run(["make", "-n", "ENGINE=v8"])
    assert code != 0, out[-500:]
    assert "unknown ENGINE v8 (ng or quickjs)" in err, err[-1000:]


def case_ng_default_engine_is_the_pinned_quickjs_ng(v):
    """Without ENGINE, make prepares quickjs-ng with prepare-quickjs-ng.sh in build/ng-src and
    compiles with the ng compat header into build/; ENGINE=quickjs lays out QuickJS with
    fetch-quickjs.sh in build/quickjs-src and builds into build/quickjs, without the ng header."""
    code, out, err = _run(["make", "-n", "-B", "NG_SRC=/nonexistent", "build/obj/src/engine/limits.o"])
    assert code == 0, err[-1000:]
    assert "prepare-quickjs-ng.sh" in out and "fetch-quickjs.sh" not in out, out[-2000:]
    assert "-include src/engine/qjs_compat_ng.h" in out and "-DCHIDORI_ENGINE_NG" in out, out[-2000:]
    assert "-Ibuild/ng-src" in out, out[-2000:]
    code, out, err = _run(["make", "-n", "-B", "ENGINE=quickjs", "build/quickjs/obj/quickjs/quickjs.o"])
    assert code == 0, err[-1000:]
    assert "scripts/fetch-quickjs.sh" in out and "build/quickjs-src/quickjs.c" in out, out[-2000:]
    assert "qjs_compat_ng" not in out and "CHIDORI_ENGINE_NG" not in out, out[-2000:]


def case_ng_quickjs_alternative_still_pinned_and_patched(v):
    """make ENGINE=quickjs's preparation: the pinned QuickJS source (deps/quickjs.lock) is fetched,
    checked and every patches/quickjs patch applies (so the engine kept for comparing does not rot
    while make test builds on ng)."""
    p = subprocess.run([os.path.join(ROOT, "scripts", "fetch-quickjs.sh")], cwd=ROOT, capture_output=True,
                       text=True, timeout=900)
    assert p.returncode == 0, p.stderr[-2000:]
    src = os.path.join(ROOT, "build", "quickjs-src")
    with open(os.path.join(src, "VERSION")) as f:
        assert f.read().strip() == "2025-04-26"
    with open(os.path.join(src, "quickjs.c")) as f:
        c = f.read()
    # marks of the first, a middle and the last patch of the QuickJS series
    for mark in ("JS_SetDateNowFunc", "js_poll_interrupts", "JS_GetProxyDetails"):
        assert mark in c, mark


def _patch_series_applies_to_the_pinned_source():
    """make's preparation with no NG_SRC: the pinned source is fetched and every patches/quickjs-ng
    patch applies to it (a series that drifted from the lock fails here)."""
    p = subprocess.run([PREPARE], cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, p.stderr[-2000:]
    src = os.path.join(ROOT, "build", "ng-src")
    with open(os.path.join(src, "quickjs.h")) as f:
        h = f.read()
    assert "#define QJS_VERSION_MINOR %s\n" % _lock()["DEBIAN_VERSION"].split(".")[1] in h
    patches = sorted(f for f in os.listdir(os.path.join(ROOT, "patches", "quickjs-ng")) if f.endswith(".patch"))
    assert len(patches) >= 21, patches
    with open(os.path.join(src, "quickjs.c")) as f:
        c = f.read()
    # a mark of the first, a middle and the last patch of the series is in the tree
    for mark in ("JS_SetDateNowFunc", "js_poll_interrupts_cost", "the empty arena each size class keeps"):
        assert mark in c, mark


def _lock():
    vals = {}
    with open(os.path.join(ROOT, "deps", "quickjs-ng.lock")) as f:
        for line in f:
            if "=" in line and not line.startswith("#"):
                k, val = line.strip().split("=", 1)
                vals[k] = val
    return vals


def case_ng_pinned_source_fetched_checked_and_refused_when_tampered(v):
    """fetch-quickjs-ng.sh, run from a copy of the scripts and the lock: apt fetches Debian's
    qjs-src .deb from the first of the lock's suites that has it (a missing suite put first is
    passed over), the SHA-256 matches the lock, the tree (quickjs.c of the pinned version and the
    Debian copyright as LICENSE) is laid out with a stamp; with one digit of the lock's SHA-256
    changed, the same download is refused with a clear error and no tree is laid out."""
    lock = _lock()
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, "scripts"))
        os.makedirs(os.path.join(d, "deps"))
        for name in ("fetch-quickjs-ng.sh", "private-apt.sh"):
            shutil.copy2(os.path.join(ROOT, "scripts", name), os.path.join(d, "scripts", name))
        # a suite the archive does not have goes first: the fetch falls through to the next one
        with open(os.path.join(ROOT, "deps", "quickjs-ng.lock")) as f:
            text = f.read()
        assert 'SUITES="%s"' % lock["SUITES"].strip('"') in text, lock
        with open(os.path.join(d, "deps", "quickjs-ng.lock"), "w") as f:
            f.write(text.replace('SUITES="', 'SUITES="chidori-no-such-suite '))
        fetch = os.path.join(d, "scripts", "fetch-quickjs-ng.sh")
        p = subprocess.run([fetch], cwd=d, capture_output=True, text=True, timeout=600)
        assert p.returncode == 0, p.stderr[-2000:]
        assert "(chidori-no-such-suite)" in p.stderr and "(%s)" % lock["SUITES"].strip('"').split()[0] in p.stderr, \
            p.stderr[-2000:]
        tree = p.stdout.strip().splitlines()[-1]
        assert tree == os.path.join(d, ".cache", "quickjs-ng", "src"), p.stdout
        version = lock["DEBIAN_VERSION"].split("-")[0].split(".")
        with open(os.path.join(tree, "quickjs.h")) as f:
            h = f.read()
        for name, part in zip(("MAJOR", "MINOR", "PATCH"), version):
            assert "#define QJS_VERSION_%s %s\n" % (name, part) in h, name
        assert os.path.getsize(os.path.join(tree, "quickjs.c")) > 1000000
        assert "Copyright" in open(os.path.join(tree, "LICENSE")).read()
        assert open(os.path.join(tree, ".stamp")).read().strip() == lock["DEB_SHA256"]
        # a second run uses the laid-out tree, offline
        p = subprocess.run([fetch], cwd=d, capture_output=True, text=True, timeout=60,
                           env=dict(os.environ, http_proxy="http://127.0.0.1:9", https_proxy="http://127.0.0.1:9"))
        assert p.returncode == 0 and p.stdout.strip() == tree, p.stderr[-1000:]
        # tampered pin: the digest no longer matches what the archive serves
        bad = lock["DEB_SHA256"][:-1] + ("0" if lock["DEB_SHA256"][-1] != "0" else "1")
        lp = os.path.join(d, "deps", "quickjs-ng.lock")
        text = open(lp).read().replace(lock["DEB_SHA256"], bad)
        open(lp, "w").write(text)
        shutil.rmtree(tree)
        p = subprocess.run([fetch], cwd=d, capture_output=True, text=True, timeout=600)
        assert p.returncode == 1, (p.returncode, p.stderr[-1000:])
        assert "does not match the pinned SHA-256" in p.stderr and "refusing to build" in p.stderr, p.stderr[-1000:]
        assert not os.path.exists(tree), "a refused download was laid out"
        assert not os.path.exists(os.path.join(d, ".cache", "quickjs-ng", lock["DEB_FILE"])), "a refused .deb was kept"
