"""tests/cases_url_crypto.py — node:url and node:crypto against Node itself.

URL: tests/node/oracle_url/corpus.json (parse cases, setters, URLSearchParams, the live link,
node:url helpers) goes through tests/node/oracle_url/probe.mjs twice, once under Node 20 (the
oracle, computed here at test time) and once under chidori, and every field must agree. The
corpus's "spec" section lists inputs where Node 20 (ada 2.9) departs from the URL Standard; there
chidori must give the standard's answer. A second, generated corpus of mutated inputs (fixed seed)
is compared the same way; its only allowed disagreements are the known Node deviations, each
recognised by a predicate below.

crypto: every digest and HMAC agrees with Node's (tests/node/oracle_crypto/digest_probe.mjs),
isolated and in-process; captured randomness is recorded in the call log (random_bytes records,
at most 65536 bytes each), replays byte-for-byte, and differs between fresh runs.
"""
import json
import os
import random
import re
import shutil
import subprocess
import tempfile

from cases import chidori, Skip
from run import ROOT

URL_DIR = os.path.join(ROOT, "tests", "node", "oracle_url")
CRYPTO_DIR = os.path.join(ROOT, "tests", "node", "oracle_crypto")
CORPUS = os.path.join(URL_DIR, "corpus.json")
SPECIAL = {"http", "https", "ws", "wss", "ftp", "file"}


def node():
    """The Node binary (version 20 or later), or Skip."""
    path = shutil.which("node")
    if not path:
        raise Skip("node is not installed: the oracle cannot run")
    version = subprocess.run([path, "--version"], capture_output=True, text=True).stdout.strip()
    if not re.match(r"^v(2\d|[3-9]\d)\.", version):
        raise Skip(f"node {version} is older than 20: the oracle needs URL.canParse")
    return path


def node_json(*args):
    p = subprocess.run([node(), *args], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, f"node {' '.join(args)} failed: {p.stderr[-2000:]}"
    return json.loads(p.stdout)


def chidori_json(v, *args, state=None):
    code, out, err = chidori(v, *args, timeout=120, state=state)
    assert code == 0, f"chidori {' '.join(args)}: exit {code}\n{err[-3000:]}"
    return json.loads(out), err


def describe_mismatch(section, case, want, got):
    if isinstance(want, dict) and isinstance(got, dict):
        diff = {k: (want.get(k), got.get(k)) for k in sorted(set(want) | set(got)) if want.get(k) != got.get(k)}
        return f"{section} {json.dumps(case)}: (node, chidori) differ in {json.dumps(diff)}"
    return f"{section} {json.dumps(case)}:\n    node:    {json.dumps(want)[:400]}\n    chidori: {json.dumps(got)[:400]}"


def case_url_corpus_matches_node(v):
    """Every parse, setter, URLSearchParams, live-link and helper case agrees with Node 20; the
    cases where Node departs from the standard give the standard's answer."""
    with open(CORPUS, encoding="utf-8") as f:
        corpus = json.load(f)
    assert len(corpus["parse"]) >= 300, "the URL corpus shrank below 300 parse cases"
    want = node_json(os.path.join(URL_DIR, "node_runner.mjs"), CORPUS)
    got, _ = chidori_json(v, "run", os.path.join(URL_DIR, "probe.mjs"), "-i", "@" + CORPUS)
    problems, total = [], 0
    for section in ("parse", "setters", "params", "link", "helpers"):
        assert len(got[section]) == len(corpus[section]), f"{section}: chidori answered {len(got[section])} cases"
        for case, w, g in zip(corpus[section], want[section], got[section]):
            total += 1
            if w != g:
                problems.append(describe_mismatch(section, case, w, g))
    for (inp, base, expected), g in zip(corpus["spec"], got["spec"]):
        total += 1
        href = g.get("href") if "error" not in g else None
        if href != expected or (expected is None and g.get("code") != "ERR_INVALID_URL"):
            problems.append(f"spec {json.dumps([inp, base])}: the standard gives {expected!r}, chidori {g!r}")
    assert not problems, f"{len(problems)} of {total} URL cases differ:\n" + "\n".join(problems[:30])


# ---- the mutation corpus ----

MUTATION_ALPHABET = list(":/\\?#@[]%.0123456789xXabcdefABCDEF-+_~!$&'()*,;= \t\n\x00\x1f\x7f\u00e9\u00df\u0130"
                         "\u3002\uff0e\u200d\U0001F600") + \
    ["%2e", "%2E", "..", "./", "//", "[::", "]", "0x", ":65536", "xn--", "file:", "C:", "C|", "%00", "%41", "%zz"]
EXTRA_BASES = ["http://h/a/b", "file:///C:/x/y", "foo://h/p", "sc:opaque"]


def mutations(corpus, count, seed):
    rng = random.Random(seed)
    seeds = [p for p in corpus["parse"] if len(p[0]) < 200]
    bases = sorted({p[1] for p in corpus["parse"] if p[1]} | set(EXTRA_BASES))
    out = []
    for _ in range(count):
        s, base = rng.choice(seeds)
        for _ in range(rng.randint(1, 3)):
            k, pos = rng.random(), rng.randint(0, len(s))
            if k < 0.5:
                s = s[:pos] + rng.choice(MUTATION_ALPHABET) + s[pos:]
            elif k < 0.75 and s:
                s = s[:pos] + s[pos + 1:]
            else:
                j = rng.randint(0, len(s))
                a, b = min(pos, j), max(pos, j)
                s = s[:a] + s[a:b] * 2 + s[b:]
        if rng.random() < 0.3:
            base = rng.choice(bases)
        out.append([s, base])
    return out


def is_opaque_base(base):
    m = re.match(r"^[\x00-\x20]*([A-Za-z][A-Za-z0-9+.\-]*):(.?)", base or "")
    return bool(m) and m.group(1).lower() not in SPECIAL and m.group(2) != "/"


DOT_SEGMENT = re.compile(r"/(\.|\.\.|%2e|%2e%2e|\.%2e|%2e\.)(/|$)", re.I)


def known_node_deviation(case, want, got):
    """The name of the Node 20 (ada 2.9) departure from the URL Standard that explains a
    disagreement, or None. chidori follows the standard in each."""
    inp, base = case
    w_ok, g_ok = "error" not in want, "error" not in got
    # "no scheme state": a base with an opaque path only takes a fragment-only input; Node also
    # accepts any input that contains a "#".
    if w_ok and not g_ok and is_opaque_base(base) and "#" in inp:
        return "opaque-base"
    if w_ok and g_ok:
        differs = {k for k in want if want.get(k) != got.get(k)}
        # Node leaves some dot segments in place, drops the "/" that ".." must leave at the end of
        # a non-special path, and takes "X:" followed by more text for a Windows drive letter.
        if differs <= {"href", "pathname", "json"}:
            if DOT_SEGMENT.search(want["pathname"]):
                return "dot-segments"
            if got["pathname"] == want["pathname"] + "/" and want["protocol"][:-1] not in SPECIAL:
                return "trailing-dot-dot"
            if want["protocol"] == "file:" and re.match(r"^/[A-Za-z][:|][^/]", want["pathname"]):
                return "drive-letter-prefix"
        # URL.canParse says false for some non-ASCII hosts that the constructor accepts.
        if differs == {"canParse"} and want["canParse"] is False:
            return "canParse"
    # IDNA: Node applies only part of CheckBidi and an older UTS 46 revision (an xn-- label that
    # decodes to ASCII only passes there); chidori uses ICU's UTS 46 (idna_native.c).
    if w_ok != g_ok and (re.search(r"[^\x00-\x7f]", inp) or "xn--" in inp.lower()):
        return "idna"
    return None


def case_url_mutations_match_node_or_a_known_node_deviation(v):
    """3000 mutated URLs (malformed on purpose): chidori never crashes, fails only with
    ERR_INVALID_URL, and agrees with Node except where Node departs from the standard."""
    with open(CORPUS, encoding="utf-8") as f:
        corpus = json.load(f)
    cases = mutations(corpus, 3000, seed=20240611)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, encoding="utf-8") as f:
        json.dump({"parse": cases, "setters": [], "params": [], "link": [], "helpers": []}, f)
        path = f.name
    try:
        want = node_json(os.path.join(URL_DIR, "node_runner.mjs"), path)
        got, _ = chidori_json(v, "run", os.path.join(URL_DIR, "probe.mjs"), "-i", "@" + path)
    finally:
        os.unlink(path)
    unexplained, known = [], {}
    for case, w, g in zip(cases, want["parse"], got["parse"]):
        if "error" in g:
            assert g == {"error": "TypeError", "code": "ERR_INVALID_URL", "canParse": False}, \
                f"{json.dumps(case)}: chidori failed with {g}"
        if w == g:
            continue
        why = known_node_deviation(case, w, g)
        if why:
            known[why] = known.get(why, 0) + 1
        else:
            unexplained.append(describe_mismatch("mutation", case, w, g))
    assert len(got["parse"]) == len(cases)
    assert not unexplained, f"{len(unexplained)} of {len(cases)} mutated URLs differ from Node " \
        f"(known deviations: {known}):\n" + "\n".join(unexplained[:30])


# ---- crypto ----

def case_crypto_digests_match_node_isolated_and_in_process(v):
    """md5/sha1/sha256/sha384/sha512 hashes and HMACs of empty, ASCII, UTF-8, binary and 1 MiB
    inputs, split updates, copies and every encoding: identical to Node, in both modes."""
    probe = os.path.join(CRYPTO_DIR, "digest_probe.mjs")
    want = node_json(probe, "--node")
    isolated, _ = chidori_json(v, "run", probe)
    inproc, _ = chidori_json(v, "run", probe, "--no-isolate")
    assert isolated == inproc, "isolated and --no-isolate runs computed different digests"
    assert len(want) > 300, f"the digest probe shrank to {len(want)} values"
    bad = [k for k in want if want[k] != isolated.get(k)]
    assert not bad, f"{len(bad)} of {len(want)} digests differ from Node: " + \
        "; ".join(f"{k}: node {want[k]!r} chidori {isolated.get(k)!r}" for k in bad[:10])


def run_id_of(err):
    m = re.search(r"^Run id: (\S+)$", err, re.M)
    assert m, "no Run id line:\n" + err
    return m.group(1)


def case_crypto_randomness_is_captured_and_replays(v):
    """randomBytes, randomUUID, getRandomValues, randomInt, randomFill(Sync): every byte is a
    recorded random_bytes call (≤ 65536 bytes each, big requests split); replay prints the same
    bytes with no live call; a fresh run differs; in-process runs record the same calls."""
    probe = os.path.join(CRYPTO_DIR, "random_probe.mjs")
    with tempfile.TemporaryDirectory(prefix="chidori-rand-") as state:
        code, out, err = chidori(v, "run", probe, state=state)
        assert code == 0, err
        first = json.loads(out)
        rid = run_id_of(err)
        with open(os.path.join(state, "runs", rid, "records.jsonl")) as f:
            records = [json.loads(line) for line in f]
        code, out2, err2 = chidori(v, "replay", probe, rid, state=state)
        assert code == 0, f"replay failed: {err2}"
        assert out2 == out, f"replay printed different bytes:\n{out2}\nthe run printed\n{out}"
        code, out3, err3 = chidori(v, "run", probe, "--no-isolate", state=state)
        assert code == 0, err3
        with open(os.path.join(state, "runs", run_id_of(err3), "records.jsonl")) as f:
            inproc = [json.loads(line) for line in f]
    second = json.loads(out3)

    sizes = [r["args"]["size"] for r in records if r["function"] == "random_bytes"]
    assert all(0 < s <= 65536 for s in sizes), sizes
    assert any(sizes[i:i + 3] == [65536, 65536, 18928] for i in range(len(sizes))), \
        f"randomBytes(150000) was not split into 65536+65536+18928: {sizes}"
    assert not [r for r in records if r["function"] == "crypto_digest"], "digests were recorded"
    assert [r["function"] for r in records] == [r["function"] for r in inproc] and \
        sizes == [r["args"]["size"] for r in inproc if r["function"] == "random_bytes"], \
        "isolated and --no-isolate runs made different calls"

    for key in ("bytes", "uuid", "globalUuid", "values", "globalValues", "bigints", "big", "callback"):
        assert first[key] != second[key], f"two fresh runs drew the same {key}: {first[key]}"
    for r in (first, second):
        assert r["uuidShape"] and r["intsInRange"], r
        assert r["fill"][:8] == "00000000" and r["fill"][16:] == "00000000", r["fill"]
        assert r["big"][0] == 150000
        assert r["callback"][0] is None and r["fillCallback"][0] is None and r["intCallback"][0] is None
        assert r["errors"] == {
            "overRequestCap": "RangeError/ERR_CHIDORI_LIMIT", "quota": "QuotaExceededError/22",
            "quotaOk": "no error", "floats": "TypeMismatchError/17",
            "negative": "RangeError/ERR_OUT_OF_RANGE", "notNumber": "TypeError/ERR_INVALID_ARG_TYPE",
            "emptyRange": "RangeError/ERR_OUT_OF_RANGE", "hugeRange": "RangeError/ERR_OUT_OF_RANGE",
            "lengths": "RangeError/ERR_CRYPTO_TIMING_SAFE_EQUAL_LENGTH",
            "cipher": "Error/ERR_CHIDORI_UNAVAILABLE", "pbkdf2": "Error/ERR_CHIDORI_UNAVAILABLE",
            "badDigest": "Error/ERR_OSSL_EVP_UNSUPPORTED", "sha3": "Error/ERR_CHIDORI_UNAVAILABLE",
            "hashCap": "RangeError/ERR_CHIDORI_LIMIT", "hmacKeyCap": "RangeError/ERR_CHIDORI_LIMIT",
        }, r["errors"]
        assert r["subtle"] == "ERR_CHIDORI_UNAVAILABLE" and r["equal"] == [True, False], r
