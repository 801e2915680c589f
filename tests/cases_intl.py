"""tests/cases_intl.py — Intl (src/engine/intl_*.c over ICU, src/engine/js/intl.js) end to end.

tests/intl/formats.mjs formats numbers, dates, lists, plurals and relative times and collates in
en-US, en-GB, de-DE, fr-FR and ja-JP, and checks the error paths. chidori must print exactly
tests/intl/expected/formats.json, in process and isolated. That file is Node 20's output (TZ=UTC)
with the few values where ICU 72's CLDR 42 data differs from Node's newer CLDR replaced by ICU 72's
(ICU72_DIFFERENCES below); case_intl_expected_is_node_except_noted re-derives it from Node when
Node 20 is installed, so it cannot drift. Regenerate it with:

    python3 tests/cases_intl.py --update
"""
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from cases import chidori, Skip  # noqa: E402
from run import ROOT  # noqa: E402

INTL_DIR = os.path.join(ROOT, "tests", "intl")
FORMATS = os.path.join(INTL_DIR, "formats.mjs")
EXPECTED = os.path.join(INTL_DIR, "expected", "formats.json")
NODE_RUNNER = os.path.join(ROOT, "tests", "node", "oracle", "_run_node.mjs")

# (path in the JSON, Node 20's value, ours): CLDR 42 (ICU 72, Debian 12) against the
# newer CLDR of Node 20's bundled ICU. Data, not behaviour: the same ICU call gives these.
ICU72_DIFFERENCES = [
    (["en-GB", "compact", 0], "1.2k", "1.2K"),
    (["en-GB", "compact", 1], "1.2m", "1.2M"),
    (["en-GB", "range", 0], "10\u2009\u2013\u200914 Mar", "10\u201314 Mar"),
    (["de-DE", "dateComponents", 4], "7 AM", "7 Uhr AM"),
    # not data: ECMA-402 (2025, and test262) orders pluralCategories; Node 20 gives ICU's order
    (["fr-FR", "pluralCategories"], ["many", "one", "other"], ["one", "many", "other"]),
]

ENV_NOISE = {"TZ": "Asia/Tokyo", "LANG": "de_DE.UTF-8", "LC_ALL": "de_DE.UTF-8", "LANGUAGE": "de"}


def _node():
    node = shutil.which("node")
    if not node:
        return None, "node is not installed"
    version = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=20).stdout.strip()
    if not version.startswith("v20."):
        return None, f"the oracle is Node 20; found {version or 'an unknown version'}"
    return node, ""


def _node_output(node):
    env = dict(os.environ, TZ="UTC")
    p = subprocess.run([node, NODE_RUNNER, FORMATS], capture_output=True, text=True, timeout=120, cwd="/", env=env)
    if p.returncode != 0:
        raise AssertionError(f"node failed on formats.mjs: {p.stderr[-2000:]}")
    return p.stdout


def _patched(node_text):
    data = json.loads(node_text)
    for path, node_value, icu_value in ICU72_DIFFERENCES:
        at = data
        for key in path[:-1]:
            at = at[key]
        assert at[path[-1]] == node_value, f"Node no longer prints {node_value!r} at {path}: {at[path[-1]]!r}"
        at[path[-1]] = icu_value
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _first_difference(got, want):
    for i, (a, b) in enumerate(zip(got.splitlines(), want.splitlines())):
        if a != b:
            return f"line {i + 1}:\n  got:  {a!r}\n  want: {b!r}"
    return "lengths differ"


def _expected():
    with open(EXPECTED, encoding="utf-8") as f:
        return f.read()


def case_intl_formats_like_node_in_process(v):
    """Five locales, every constructor, formatToParts and resolvedOptions: Node 20's output."""
    code, out, err = chidori(v, "run", FORMATS, "--no-isolate", timeout=60)
    assert code == 0, f"exit {code}: {err[-2000:]}"
    want = _expected()
    assert out == want, "formats.mjs differs from the expected output: " + _first_difference(out, want)


def case_intl_isolated_same_bytes(v):
    """The confined worker (ICU linked in, no file opened) prints the very same bytes."""
    code, out, err = chidori(v, "run", FORMATS, timeout=60)
    assert code == 0, f"exit {code}: {err[-2000:]}"
    assert "Isolation: process" in err or "Isolation: off" in err, err
    want = _expected()
    assert out == want, "isolated formats.mjs differs: " + _first_difference(out, want)


def case_intl_expected_is_node_except_noted(v):
    """The stored expected output is Node 20's own, but for the noted CLDR-version differences."""
    node, why = _node()
    if node is None:
        raise Skip(why)
    got = _patched(_node_output(node))
    want = _expected()
    assert got == want, "expected/formats.json is stale (python3 tests/cases_intl.py --update): " + \
        _first_difference(got, want)


DEFAULTS_AGENT = r"""
export function agent() {
  const t = Date.UTC(2024, 6, 1, 23, 30);
  return {
    locale: new Intl.NumberFormat().resolvedOptions().locale,
    dtLocale: Intl.DateTimeFormat().resolvedOptions().locale,
    zone: new Intl.DateTimeFormat().resolvedOptions().timeZone,
    number: (1234.5).toLocaleString(),
    date: new Date(t).toLocaleString(),
    dateOnly: new Date(t).toLocaleDateString(),
    time: new Intl.DateTimeFormat(undefined, { timeStyle: "full" }).format(t),
    hours: new Date(t).getHours(),
    compare: ["b", "a", "B"].sort((x, y) => x.localeCompare(y)),
  };
}
"""

DEFAULTS_WANT = {
    "locale": "en-US", "dtLocale": "en-US", "zone": "UTC", "number": "1,234.5",
    "date": "7/1/2024, 11:30:00 PM", "dateOnly": "7/1/2024", "time": "11:30:00 PM Coordinated Universal Time",
    "hours": 23, "compare": ["a", "b", "B"],
}


def case_intl_default_locale_and_zone_are_fixed(v):
    """en-US and UTC whatever TZ, LANG and LC_ALL say, in process and isolated."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "defaults.mjs")
        with open(path, "w") as f:
            f.write(DEFAULTS_AGENT)
        for mode in (["--no-isolate"], []):
            for env in ({}, ENV_NOISE):
                code, out, err = chidori(v, "run", path, *mode, env=env, timeout=60)
                assert code == 0, f"{mode} {env}: exit {code}: {err[-2000:]}"
                assert json.loads(out) == DEFAULTS_WANT, f"{mode} {env}: {out}"


REPLAY_AGENT = r"""
import { chidori } from "chidori:agent";
export async function agent() {
  const nf = new Intl.NumberFormat("de-DE", { style: "currency", currency: "EUR" });
  const text = nf.format(1234.5) + " | " + new Intl.DateTimeFormat("ja-JP", { dateStyle: "full", timeZone: "Asia/Tokyo" }).format(Date.now())
    + " | " + new Intl.ListFormat("fr-FR").format(["a", "b", "c"]) + " | " + new Intl.RelativeTimeFormat("en-GB", { numeric: "auto" }).format(-1, "day");
  console.log(text);
  await new Promise((r) => setTimeout(r, 10));
  return { text, later: new Date().toLocaleTimeString("en-GB"), sorted: ["ä", "z", "a"].sort(new Intl.Collator("de").compare) };
}
"""


def case_intl_replay_is_byte_identical(v):
    """A recorded run that formats replays to the same bytes, in process and isolated."""
    with tempfile.TemporaryDirectory() as d, tempfile.TemporaryDirectory() as state:
        path = os.path.join(d, "agent.mjs")
        with open(path, "w") as f:
            f.write(REPLAY_AGENT)
        for mode in (["--no-isolate"], []):
            code, out, err = chidori(v, "run", path, *mode, state=state, timeout=60)
            assert code == 0, f"{mode}: exit {code}: {err[-2000:]}"
            rid = re.search(r"^Run id: (\S+)$", err, re.M).group(1)
            assert "1.234,50\u00a0\u20ac" in out and "a, b et c" in out and "yesterday" in out, out
            code2, out2, err2 = chidori(v, "replay", path, rid, *mode, state=state, timeout=60)
            assert code2 == 0 and out2 == out, f"{mode} replay: exit {code2}\n{out2}\n{err2[-2000:]}"
            assert "replay matched" in err2, err2


def case_intl_icu_loads_only_when_used(v):
    """A run that never touches Intl never loads ICU (the dynamic loader's own log says which
    libraries came in); one that formats loads it on first use."""
    with tempfile.TemporaryDirectory() as d:
        plain, intl = os.path.join(d, "plain.js"), os.path.join(d, "intl.js")
        with open(plain, "w") as f:
            f.write("console.log([3, 1, 2].sort().join(), new Date(0).toISOString(), (1.5).toFixed(2))\n")
        with open(intl, "w") as f:
            f.write("console.log((1234.5).toLocaleString('de-DE'))\n")
        code, out, err = chidori(v, "eval", "--file", plain, env={"LD_DEBUG": "files"})
        assert code == 0 and out == "1,2,3 1970-01-01T00:00:00.000Z 1.50\n", (code, out, err[-1000:])
        assert "file=" in err, "LD_DEBUG printed nothing: cannot tell what was loaded\n" + err[-1000:]
        assert "libicu" not in err, "a run without Intl loaded ICU:\n" + "\n".join(
            line for line in err.splitlines() if "libicu" in line)
        code, out, err = chidori(v, "eval", "--file", intl, env={"LD_DEBUG": "files"})
        assert code == 0 and out == "1.234,5\n", (code, out, err[-1000:])
        assert "libicui18n" in err, "Intl ran but ICU was not loaded by name:\n" + err[-1000:]


GARBAGE_AGENT = r"""
export function agent(input) {
  let seed = input.seed >>> 0;
  const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
  const pick = (a) => a[Math.floor(rnd() * a.length)];
  const alphabet = "aZ-_@/+09xu\u00e9\u0000\ud800 .:,;'\"";
  const junk = () => { let s = ""; const n = Math.floor(rnd() * 40); for (let i = 0; i < n; i++) s += pick([...alphabet]); return s; };
  const huge = "en-" + "abcdefgh-".repeat(2000) + "x";
  const values = [undefined, null, 0, -1, 1e300, NaN, "", "en", "de-DE-u-nu-arab-ca-gregory-hc-h11-co-phonebk-kn", huge, {}, [], Symbol.iterator, 5n];
  const counts = {};
  const kinds = ["NumberFormat", "DateTimeFormat", "Collator", "PluralRules", "RelativeTimeFormat", "ListFormat"];
  const keys = ["style", "currency", "unit", "notation", "timeZone", "dateStyle", "hour", "hourCycle", "sensitivity", "type", "numeric",
    "minimumFractionDigits", "maximumSignificantDigits", "roundingIncrement", "calendar", "numberingSystem", "era", "timeZoneName"];
  for (let i = 0; i < 3000; i++) {
    const kind = pick(kinds);
    const opts = {};
    for (let k = 0; k < 3; k++) opts[pick(keys)] = rnd() < 0.5 ? junk() : pick(values);
    const locale = rnd() < 0.5 ? junk() : pick(values);
    let outcome;
    try {
      const f = new Intl[kind](locale, opts);
      const x = rnd() < 0.5 ? pick(values) : junk();
      if (kind === "NumberFormat") { f.format(x); f.formatToParts(x); }
      else if (kind === "DateTimeFormat") { f.formatToParts(rnd() * 1e13); }
      else if (kind === "Collator") f.compare(junk(), junk());
      else if (kind === "PluralRules") f.select(x);
      else if (kind === "RelativeTimeFormat") f.format(rnd() * 100 - 50, pick(["day", "weeks", junk()]));
      else f.format([junk(), junk()]);
      f.resolvedOptions();
      outcome = "ok";
    } catch (e) {
      outcome = e instanceof RangeError ? "RangeError" : e instanceof TypeError ? "TypeError" : "other: " + e;
    }
    counts[outcome] = (counts[outcome] || 0) + 1;
  }
  try { Intl.getCanonicalLocales(huge); counts.huge = "accepted"; } catch (e) { counts.huge = e.name; }
  return counts;
}
"""


def case_intl_garbage_options_are_errors_not_crashes(v):
    """Random locales, options and values: every failure is a RangeError or TypeError, the run ends
    normally, in process and isolated (the seed is printed with a failure)."""
    seed = random.randrange(1 << 30)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "garbage.mjs")
        with open(path, "w") as f:
            f.write(GARBAGE_AGENT)
        for mode in (["--no-isolate"], []):
            code, out, err = chidori(v, "run", path, *mode, "--input", json.dumps({"seed": seed}), timeout=120)
            assert code == 0, f"seed {seed} {mode}: exit {code}: {err[-2000:]}"
            counts = json.loads(out)
            odd = {k: n for k, n in counts.items() if k not in ("ok", "RangeError", "TypeError", "huge")}
            assert not odd, f"seed {seed} {mode}: errors other than RangeError/TypeError: {odd}"
            assert counts.get("ok", 0) > 0 and counts.get("RangeError", 0) > 0, f"seed {seed}: {counts}"
            assert counts["huge"] == "RangeError", f"seed {seed}: a 18 kB locale tag was {counts['huge']}"


def update():
    node, why = _node()
    if node is None:
        sys.exit(f"cannot update: {why}")
    os.makedirs(os.path.dirname(EXPECTED), exist_ok=True)
    with open(EXPECTED, "w", encoding="utf-8") as f:
        f.write(_patched(_node_output(node)))
    print(f"wrote {os.path.relpath(EXPECTED, ROOT)}")


if __name__ == "__main__":
    if sys.argv[1:] == ["--update"]:
        update()
    else:
        sys.exit("usage: python3 tests/cases_intl.py --update")


FROZEN_AGENT = r"""export default async () => {
  Object.freeze(globalThis);
  const a = Intl, b = Intl;
  return { same: a === b, n: new a.NumberFormat("de-DE").format(1234.5),
           zone: Temporal.ZonedDateTime.from("2024-03-10T01:30[America/New_York]").add({ hours: 1 }).toString() };
};
"""


def case_intl_on_a_frozen_global_serves_one_object(v):
    """A guest that freezes globalThis before the first read of Intl still gets one Intl (and
    Temporal's named zones, which read Intl while loading): the lazy accessor cannot settle into a
    data property there, and must not throw."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "frozen.mjs")
        with open(path, "w") as f:
            f.write(FROZEN_AGENT)
        for mode in (["--no-isolate"], []):
            code, out, err = chidori(v, "run", path, *mode, timeout=60)
            assert code == 0, f"{mode}: exit {code}: {err[-2000:]}"
            assert json.loads(out) == {"same": True, "n": "1.234,5",
                                       "zone": "2024-03-10T03:30:00-04:00[America/New_York]"}, f"{mode}: {out}"
