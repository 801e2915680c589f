"""tests/cases_npm_sdks.py — the official LLM SDKs from npm (`openai`, `@anthropic-ai/sdk`, pinned in
tests/npm/package-lock.json) running inside the sandbox against a local fake provider on loopback
(tests/npm/fake_provider.py), allowed by CHIDORI_HTTP_ALLOW_HOSTS.

Their requests go through the global fetch, i.e. the `http` op: recorded, replayed with zero
requests, refused by the SSRF guard without the allowlist and by the policy gate. Results (chat,
streaming, pagination, a multipart upload, embeddings, typed API errors) equal Node's running the
same file (tests/npm/sdk.js) against the same server, isolated and in-process.
"""
import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.request

from cases import chidori, Skip
from cases_effects import run_id_of
from run import ROOT

NPM = os.path.join(ROOT, "tests", "npm")
PY = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
MODES = (("isolated", []), ("in-process", ["--no-isolate"]))
ALLOW = {"CHIDORI_HTTP_ALLOW_HOSTS": "127.0.0.1"}


def need_sdks():
    for pkg in ("openai", os.path.join("@anthropic-ai", "sdk")):
        if not os.path.isdir(os.path.join(NPM, "node_modules", pkg)):
            raise Skip("tests/npm/node_modules has no " + pkg + ": run scripts/test-deps.sh")


@contextlib.contextmanager
def provider():
    """Starts the fake provider; yields (base URL, requests()) where requests() lists what it got."""
    p = subprocess.Popen([PY, os.path.join(NPM, "fake_provider.py")], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         text=True)
    try:
        port = int(p.stdout.readline())
        base = f"http://127.0.0.1:{port}"

        def requests():
            with urllib.request.urlopen(base + "/__requests", timeout=10) as r:
                return json.load(r)["requests"]
        yield base, requests
    finally:
        p.stdin.close()
        p.terminate()
        p.wait(timeout=10)


def records_of(state, rid):
    with open(os.path.join(state, "runs", rid, "records.jsonl")) as f:
        return [json.loads(line) for line in f]


def shape(r):
    multipart = r["headers"].get("content-type", "").startswith("multipart/form-data")
    return r["method"], r["path"], "(multipart)" if multipart else r["body"]


def case_npm_sdks_match_node_record_and_replay(v):
    """openai and @anthropic-ai/sdk inside chidori give Node's results; every request is one
    recorded `http` call; the replay prints the same and sends nothing."""
    need_sdks()
    if not shutil.which("node"):
        raise Skip("node is not installed: nothing to compare with (scripts/test-deps.sh)")
    agent = os.path.join(NPM, "sdk_agent.js")
    with provider() as (base, requests):
        node = subprocess.run(["node", os.path.join(NPM, "sdk_node.mjs"), base], capture_output=True, text=True,
                              timeout=60)
        assert node.returncode == 0, node.stderr
        want = json.loads(node.stdout)
        assert want["chat"]["text"] == "echo: hello" and want["messageStream"]["text"] == "echo: flux", want
        node_requests = requests()
        for mode, args in MODES:
            state = tempfile.mkdtemp(prefix="chidori-sdk-state-")
            try:
                before = len(requests())
                code, out, err = chidori(v, "run", *args, agent, "-i", json.dumps({"base": base}), env=ALLOW,
                                         state=state, timeout=90)
                assert code == 0, f"{mode}: exit {code}:\n{err}"
                got = json.loads(out)
                for k in want:
                    assert got.get(k) == want[k], f"{mode}: {k} differs from Node:\n{got.get(k)}\n{want[k]}"
                assert got == want
                seen = requests()[before:]
                # the SDKs sent what they send under Node (same routes, same bodies, same auth)
                # (a multipart body's boundary is random in Node: its fields are compared in `upload`)
                assert [shape(r) for r in seen] == [shape(r) for r in node_requests], \
                    f"{mode}: other requests than Node's:\n{[shape(r) for r in seen]}\n{[shape(r) for r in node_requests]}"
                auth = [r["headers"].get("authorization") or r["headers"].get("x-api-key") for r in seen]
                assert all(a and "test" in a for a in auth), auth
                upload = next(r for r in seen if r["path"] == "/v1/files")
                assert upload["headers"]["content-type"].startswith("multipart/form-data; boundary="), upload["headers"]
                # one recorded `http` call per request, in order
                rid = run_id_of(err)
                calls = [r for r in records_of(state, rid) if r.get("function") == "http"]
                assert len(calls) == len(seen), (mode, [c['args']['url'] for c in calls], [r['path'] for r in seen])
                assert [c["args"]["url"].split("?")[0] for c in calls] == [base + r["path"] for r in seen]
                # replay: same output, nothing sent (not even with the allowlist gone)
                after = len(requests())
                code, out2, err2 = chidori(v, "replay", *args, agent, rid, state=state, timeout=90)
                assert code == 0, f"{mode} replay: exit {code}:\n{err2}"
                assert json.loads(out2) == got, f"{mode}: the replay differs:\n{out2}"
                assert len(requests()) == after, f"{mode}: the replay sent {len(requests()) - after} request(s)"
            finally:
                shutil.rmtree(state, ignore_errors=True)




def case_npm_sdks_guard_and_policy_refuse(v):
    """Without the allowlist the SSRF guard refuses loopback; a policy denying `http` refuses the
    call: both reach the SDKs as their connection error, and the server sees nothing."""
    need_sdks()
    tmp = tempfile.mkdtemp(prefix="chidori-sdk-policy-")
    agent = os.path.join(NPM, "sdk_probe_agent.js")
    try:
        deny = os.path.join(tmp, "deny.json")
        with open(deny, "w") as f:
            json.dump({"rules": [{"target": "http", "decision": "never_allow", "reason": "no provider calls"}],
                       "default": "always_allow"}, f)
        with provider() as (base, requests):
            for mode, args in MODES:
                code, out, err = chidori(v, "run", *args, agent, "-i", json.dumps({"base": base}), timeout=60)
                assert code == 0, f"{mode}: exit {code}:\n{err}"
                got = json.loads(out)
                for sdk in ("openai", "anthropic"):
                    assert got[sdk].startswith("APIConnectionError: ") and "127.0.0.1 is loopback" in got[sdk], \
                        f"{mode} {sdk}: {got[sdk]}"
                code, out, err = chidori(v, "run", *args, agent, "-i", json.dumps({"base": base}),
                                         env=dict(ALLOW, CHIDORI_POLICY_FILE=deny), timeout=60)
                assert code == 0, f"{mode}: exit {code}:\n{err}"
                got = json.loads(out)
                for sdk in ("openai", "anthropic"):
                    assert got[sdk].startswith("APIConnectionError: ") and "policy: `http` denied: no provider calls" in got[sdk], \
                        f"{mode} {sdk}: {got[sdk]}"
            assert requests() == [], "a refused request reached the server"
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
