"""tests/cases_idna_uts46.py — host names through UTS #46 (ICU's, src/engine/idna_native.c) as the
URL Standard uses it.

tests/node/idna/rows.json holds rows we wrote, each with its reason and the answer Node 20 gives
(the oracle): mapping (case, compatibility forms, full stops, ignored code points), CheckJoiners
with its virama and Arabic joining exceptions, CheckBidi, disallowed and unassigned code points,
A-labels, and the options the URL Standard turns off (CheckHyphens, VerifyDnsLength). Each goes
through `new URL("https://" + input + "/x")`, and a few through node:url's domainToASCII /
domainToUnicode (tests/node/idna/probe.mjs), isolated (ICU linked into the worker) and in-process
(ICU loaded on first use): every answer must be the stored one. The `deviations` rows are where
Node 20 follows an older revision of UTS #46 or applies only part of CheckBidi; there chidori must
give ICU's (the current standard's) answer. When Node is installed, the stored answers are checked
against it again, so they cannot drift.

The simplified mapping this replaced failed 10 of the `url` rows (the virama and Arabic joiner
exceptions, unassigned code points, the Cherokee and capital sharp s mappings).
"""
import json
import os
import re
import shutil
import subprocess
import tempfile

from cases import chidori
from run import ROOT

IDNA_DIR = os.path.join(ROOT, "tests", "node", "idna")
ROWS = os.path.join(IDNA_DIR, "rows.json")
SECTIONS = ("url", "deviations", "ascii", "unicode")


def load_rows():
    with open(ROWS, encoding="utf-8") as f:
        return json.load(f)


def run_probe(v, *flags):
    code, out, err = chidori(v, "run", *flags, os.path.join(IDNA_DIR, "probe.mjs"), "-i", "@" + ROWS, timeout=60)
    assert code == 0, f"chidori run {' '.join(flags)} probe.mjs: exit {code}\n{err[-3000:]}"
    return json.loads(out)


def compare(rows, got, what):
    problems = []
    for section in SECTIONS:
        assert len(got[section]) == len(rows[section]), f"{what}: {section} answered {len(got[section])} rows"
        for row, g in zip(rows[section], got[section]):
            if g != row[1]:
                why = f" ({row[2]})" if len(row) > 2 else ""
                problems.append(f"{section} {json.dumps(row[0])}{why}: expected {row[1]!r}, {what} gave {g!r}")
    return problems


def case_idna_rows_match_the_oracle_isolated_and_in_process(v):
    """Every row gives the stored answer (Node 20's, or the standard's for the deviations), in a
    confined worker and in-process."""
    rows = load_rows()
    assert len(rows["url"]) >= 40, "the IDNA rows shrank below 40"
    problems = []
    for flags, what in (((), "isolated"), (("--no-isolate",), "in-process")):
        problems += compare(rows, run_probe(v, *flags), what)
    assert not problems, f"{len(problems)} IDNA answers differ:\n" + "\n".join(problems[:40])


def case_idna_stored_answers_are_node_20s(v):
    """The stored answers are what Node 20 gives today (deviations excepted: there Node must still
    differ, or the row no longer documents a deviation). Without Node the stored answers stand."""
    node = shutil.which("node")
    if not node:
        return
    version = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=30).stdout.strip()
    if not re.match(r"^v20\.", version):
        return
    rows = load_rows()
    p = subprocess.run([node, os.path.join(IDNA_DIR, "node_runner.mjs"), ROWS], capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 0, f"node node_runner.mjs failed: {p.stderr[-2000:]}"
    want = json.loads(p.stdout)
    problems = []
    for section in ("url", "ascii", "unicode"):
        for row, w in zip(rows[section], want[section]):
            if w != row[1]:
                problems.append(f"{section} {json.dumps(row[0])}: stored {row[1]!r}, Node 20 gives {w!r}")
    for row, w in zip(rows["deviations"], want["deviations"]):
        if w == row[1]:
            problems.append(f"deviation {json.dumps(row[0])}: Node 20 now agrees ({w!r}); move it to `url`")
    assert not problems, "\n".join(problems)


def case_idna_ascii_hosts_do_not_load_icu(v):
    """A run whose URLs have ASCII hosts only never loads ICU (the fast path in internal_idna.js);
    a non-ASCII host does. Seen through the dynamic loader's own log (in-process runs dlopen ICU)."""
    with tempfile.TemporaryDirectory() as tmp:
        agent = os.path.join(tmp, "hosts.mjs")
        with open(agent, "w", encoding="utf-8") as f:
            f.write("export async function agent(input) {\n"
                    "  const hosts = [];\n"
                    "  for (const h of input.hosts) hosts.push(new URL('https://' + h + '/').host);\n"
                    "  return hosts;\n}\n")
        for hosts, loads in ((["API.Example.com", "a-b.example", "127.0.0.1"], False), (["bücher.example"], True)):
            code, out, err = chidori(v, "run", "--no-isolate", agent, "-i", json.dumps({"hosts": hosts}),
                                     env={"LD_DEBUG": "files"}, timeout=60)
            assert code == 0, f"exit {code}: {err[-2000:]}"
            assert "file=" in err, "LD_DEBUG printed nothing: cannot tell what was loaded\n" + err[-1000:]
            loaded = "libicu" in err
            assert loaded == loads, f"{hosts}: ICU {'loaded' if loaded else 'not loaded'} (expected the opposite)"
