"""tests/cases_http.py — the `http` effect end to end: fetch and node:http against a local server
(tests/http/server.py, which counts requests), recorded and replayed with zero requests, the SSRF
guard refusing every loopback spelling before anything reaches the server, the caps, bad
arguments, and the policy gate. Only 127.0.0.1 and ::1 are ever contacted."""
import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

from cases import chidori
from cases_effects import run_id_of
from run import ROOT

HTTP = os.path.join(ROOT, "tests", "http")
PY = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable


@contextlib.contextmanager
def server():
    """Starts tests/http/server.py; yields (port, counts()) where counts() is {"total", "paths"}."""
    p = subprocess.Popen([PY, os.path.join(HTTP, "server.py")], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         text=True)
    try:
        port = int(p.stdout.readline())

        def counts():
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/__requests", timeout=10) as r:
                return json.load(r)
        yield port, counts
    finally:
        p.stdin.close()
        p.terminate()
        p.wait(timeout=10)


def project(*names):
    tmp = tempfile.mkdtemp(prefix="chidori-http-")
    for n in names:
        shutil.copy(os.path.join(HTTP, n), os.path.join(tmp, n))
    return tmp


def run_json(v, agent, inp, env, *extra, state=None):
    code, out, err = chidori(v, "run", agent, "-i", json.dumps(inp), *extra, env=env, state=state)
    assert code == 0, f"{os.path.basename(agent)}: exit {code}\n{out}\n{err}"
    return json.loads(out), out, err


def records_of(state, rid):
    with open(os.path.join(state, "runs", rid, "records.jsonl")) as f:
        return [json.loads(line) for line in f]


def record_replay_isolated_and_not(v, name):
    """Runs tests/http/<name> isolated, replays it, runs it again in-process: same bytes each time,
    and the replay sends nothing. Returns (output, records)."""
    proj = project(name)
    state = os.path.join(proj, "state")
    agent = os.path.join(proj, name)
    try:
        with server() as (port, counts):
            base = f"http://127.0.0.1:{port}"
            env = {"CHIDORI_HTTP_ALLOW_HOSTS": "127.0.0.1"}
            _, out, err = run_json(v, agent, {"base": base}, env, state=state)
            assert "Isolation: process" in err, err
            rid = run_id_of(err)
            sent = counts()["total"]
            assert sent > 0, "the run reached no server"
            code, out2, err2 = chidori(v, "replay", agent, rid, env=env, state=state)
            assert code == 0, f"replay: exit {code}\n{err2}"
            assert out2 == out, f"replay printed\n{out2}\nthe run printed\n{out}"
            assert counts()["total"] == sent, f"the replay sent {counts()['total'] - sent} request(s)"
            # without the allowlist the replay still answers from the log: nothing is performed
            code, out3, err3 = chidori(v, "replay", agent, rid, state=state)
            assert code == 0 and out3 == out, f"replay without the allowlist: exit {code}\n{err3}"
            assert counts()["total"] == sent
            _, out4, err4 = run_json(v, agent, {"base": base}, env, "--no-isolate")
            assert "Isolation: off" in err4, err4
            assert out4 == out, f"--no-isolate printed\n{out4}\nisolated printed\n{out}"
            records = records_of(state, rid)
        return out, records
    finally:
        shutil.rmtree(proj)


def case_fetch_records_replays_with_no_requests_and_isolation_agrees(v):
    out, records = record_replay_isolated_and_not(v, "fetch_roundtrip.js")
    got = json.loads(out)
    assert got["get"]["echoed"] == ["GET", "x=1", "1", "a, b"], got["get"]
    assert got["get"]["url"] == "BASE/echo?x=1" and got["get"]["type"] == "basic", got["get"]
    assert got["post"] == {"method": "POST", "body": {"a": [1, "two"]}, "contentType": "application/json",
                           "length": "15"}, got["post"]
    assert got["bodies"]["string"] == ["PUT", "héllo", "text/plain;charset=UTF-8"], got["bodies"]
    assert got["bodies"]["dataView"] == ["PUT", "BC", None], got["bodies"]
    assert got.get("form") in (None, ["q=a+b&n=1", "application/x-www-form-urlencoded;charset=UTF-8"]), got["form"]
    assert got["headers"] == [["content-length", "2"], ["content-type", "application/json"], ["set-cookie", "a=1"],
                              ["set-cookie", "b=2"], ["x-latin1", "café"], ["x-multi", "one, two"]], got["headers"]
    assert got["follow"] == [200, "BASE/chain/0", True, "end of chain"], got["follow"]
    assert got["manual"] == [302, "/chain/2", False, "BASE/chain/3"], got["manual"]
    assert got["see_other"] == ["GET", "", None, True], got["see_other"]
    assert got["temporary"] == ["POST", "kept"], got["temporary"]
    assert "redirect mode is \\\"error\\\"" in json.dumps(got["redirect_error"]), got["redirect_error"]
    assert got["custom"] == [299, "Custom Reason", "status 299"], got["custom"]
    assert got["clone"] == ["status 200", True, "TypeError", 10], got["clone"]
    assert got["aborted"] == "AbortError", got["aborted"]
    assert got["roundtrip"] == [True] * 7, got["roundtrip"]
    # BOM dropped; 0xff → U+FFFD; a truncated 3-byte sequence → one U+FFFD; the emoji whole
    assert got["decoded"] == ["fffd", "61", "fffd", "62", "1f600"], got["decoded"]
    http_records = [r for r in records if r["function"] == "http"]
    assert len(http_records) >= 20, len(http_records)
    first = http_records[0]
    assert list(first["args"]) == ["method", "url", "headers", "body", "redirect"], first["args"]
    assert first["args"]["method"] == "GET" and first["args"]["url"].endswith("/echo?x=1"), first["args"]
    assert ["x-multi", "a"] in first["args"]["headers"], first["args"]
    assert list(first["result"]) == ["status", "status_text", "url", "redirected", "headers", "body"], first["result"]
    failed = [r for r in http_records if r.get("error")]
    assert len(failed) == 1 and "redirect mode is \"error\"" in failed[0]["error"], failed


def case_node_http_records_replays_with_no_requests_and_isolation_agrees(v):
    out, records = record_replay_isolated_and_not(v, "node_http.js")
    got = json.loads(out)
    assert got["get"] == {"status": 200, "message": "OK", "type": "application/json", "echo": ["GET", "q=1", "yes"]}, got
    assert got["post"]["body"] == {"n": [1, 2]} and got["post"]["set"] == "1" and got["post"]["removed"] is None, got
    assert got["headers"]["headers"]["set-cookie"] == ["a=1", "b=2"], got["headers"]
    assert got["headers"]["headers"]["x-multi"] == "one, two", got["headers"]
    assert got["redirect"] == [302, "/chain/1"], got["redirect"]
    assert got["errors"]["httpsOnHttp"].startswith("ERR_INVALID_PROTOCOL"), got["errors"]
    assert got["errors"]["server"].startswith("ERR_CHIDORI_UNAVAILABLE"), got["errors"]
    posts = [r for r in records if r["function"] == "http" and r["args"]["method"] == "POST"]
    assert len(posts) == 1 and posts[0]["args"]["redirect"] == "manual", posts
    assert all(n.lower() != "content-length" for n, _ in posts[0]["args"]["headers"]), posts


LOOPBACK_SPELLINGS = ["127.0.0.1", "localhost", "0.0.0.0", "[::1]", "[::ffff:127.0.0.1]", "2130706433",
                      "0x7f000001", "0177.0.0.1", "127.1", "something.localhost", "LOCALHOST", "[::ffff:7f00:1]",
                      "[0:0:0:0:0:ffff:127.0.0.1]", "[64:ff9b::127.0.0.1]", "127.000.000.001"]


def case_http_guard_refuses_every_loopback_spelling_and_nothing_arrives(v):
    """Without an allowlist, every spelling of this machine is refused on the address libcurl was
    about to connect; the server (listening on 127.0.0.1 and ::1) sees nothing. libcurl resolves
    `localhost` and names under `.localhost` itself, to loopback."""
    proj = project("probe.js")
    try:
        with server() as (port, counts):
            reqs = [{"url": f"http://{h}:{port}/echo"} for h in LOOPBACK_SPELLINGS]
            reqs.append({"url": f"http://127.0.0.1:{port}/echo", "via": "http"})
            reqs.append({"url": f"http://[::1]:{port}/echo", "via": "http"})
            for isolate in ([], ["--no-isolate"]):
                got, _, _ = run_json(v, os.path.join(proj, "probe.js"), {"requests": reqs}, {}, *isolate)
                assert len(got) == len(reqs), got
                for r, g in zip(reqs, got):
                    assert "error" in g and "http: refused" in g["error"], (r, g)
                    assert "CHIDORI_HTTP_ALLOW_HOSTS" in g["error"], g
                    assert (" is loopback" in g["error"]) or (" is unspecified" in g["error"]), g
                assert "::ffff:127.0.0.1 is loopback (it carries 127.0.0.1)" in got[4]["error"], got[4]
                assert got[0]["error"].startswith("TypeError: http: refused http://127.0.0.1:"), got[0]
                assert counts()["total"] == 0, f"a refused request reached the server: {counts()}"
    finally:
        shutil.rmtree(proj)


def case_http_allowlist_by_name_does_not_follow_a_redirect_elsewhere(v):
    """An allowlisted NAME exempts that host only: its redirect to 127.0.0.1 is refused on that hop,
    and the target is never asked. The allowlist by address works too."""
    proj = project("probe.js")
    try:
        with server() as (port, counts):
            base = f"http://localhost:{port}"
            reqs = [{"url": f"{base}/echo"},
                    {"url": f"{base}/redirect?to=http://127.0.0.1:{port}/target"},
                    {"url": f"{base}/redirect?to=http://[::1]:{port}/target", "init": {"redirect": "follow"}},
                    {"url": f"http://127.0.0.1:{port}/target"},
                    {"url": f"{base}/redirect?to=/chain/0"}]
            got, _, _ = run_json(v, os.path.join(proj, "probe.js"), {"requests": reqs, "base": base},
                                 {"CHIDORI_HTTP_ALLOW_HOSTS": "localhost"})
            assert got[0].get("status") == 200, got[0]
            assert "http: refused http://127.0.0.1:" in got[1]["error"] and "/target" in got[1]["error"], got[1]
            assert "http: refused http://[::1]:" in got[2]["error"], got[2]
            assert "127.0.0.1 is loopback" in got[3]["error"], got[3]
            assert got[4].get("status") == 200 and got[4]["body"] == "end of chain", got[4]
            c = counts()["paths"]
            assert c.get("/target", 0) == 0, f"the redirect target was reached: {c}"
            assert c.get("/redirect") == 3 and c.get("/echo") == 1, c
            # by address (CIDR) instead: 127.0.0.1 is fine, ::1 is not covered
            reqs = [{"url": f"http://127.0.0.1:{port}/echo"}, {"url": f"http://[::1]:{port}/echo"}]
            got, _, _ = run_json(v, os.path.join(proj, "probe.js"), {"requests": reqs},
                                 {"CHIDORI_HTTP_ALLOW_HOSTS": "127.0.0.0/8"})
            assert got[0].get("status") == 200 and "::1 is loopback" in got[1]["error"], got
    finally:
        shutil.rmtree(proj)


def case_http_caps_timeouts_and_bad_arguments_fail_clearly(v):
    proj = project("probe.js")
    try:
        with server() as (port, counts):
            b = f"http://127.0.0.1:{port}"
            reqs = [
                {"url": f"{b}/big?n=100000"},                      # at the cap: fine
                {"url": f"{b}/big?n=100001"},                      # over, with Content-Length
                {"url": f"{b}/big?n=300000&unsized=1"},           # over, no length: stopped while reading
                {"url": f"{b}/chain/3"},                           # 3 redirects: at the cap
                {"url": f"{b}/chain/4"},                           # 4: over
                {"url": f"{b}/loop"},
                {"url": f"{b}/slow?ms=5000"},
                {"url": "file:///etc/passwd"},
                {"url": "ftp://127.0.0.1/"},
                {"url": f"{b}/redirect?to=file:///etc/passwd"},
                {"url": f"{b}/echo", "init": {"headers": {"x-bad": "a\r\nInjected: 1"}}},
                {"url": f"{b}/echo", "init": {"method": "GET", "body": "no"}},
                {"url": "not a url"},
                {"url": f"{b}/manyheaders?n=990"},
                {"url": f"{b}/manyheaders?n=1001"},
            ]
            env = {"CHIDORI_HTTP_ALLOW_HOSTS": "127.0.0.1", "CHIDORI_HTTP_MAX_BYTES": "100000",
                   "CHIDORI_HTTP_MAX_REDIRECTS": "3", "CHIDORI_HTTP_TIMEOUT_MS": "700"}
            t0 = time.monotonic()
            got, _, _ = run_json(v, os.path.join(proj, "probe.js"), {"requests": reqs, "base": b}, env)
            took = time.monotonic() - t0
            assert got[0].get("status") == 200 and got[0]["length"] == 100000, got[0]
            for i in (1, 2):
                assert "larger than CHIDORI_HTTP_MAX_BYTES (100000 bytes)" in got[i]["error"], got[i]
            assert got[3].get("status") == 200, got[3]
            assert "too many redirects" in got[4]["error"] and "CHIDORI_HTTP_MAX_REDIRECTS" in got[4]["error"], got[4]
            assert "too many redirects" in got[5]["error"], got[5]
            assert "timed out after 700 ms" in got[6]["error"], got[6]
            assert "only http: and https: URLs can be fetched" in got[7]["error"], got[7]
            assert "only http: and https: URLs can be fetched" in got[8]["error"], got[8]
            assert "the redirect from BASE/redirect" in got[9]["error"] and "only http: and https:" in got[9]["error"], got[9]
            assert got[10]["error"].startswith("TypeError: Headers: invalid value"), got[10]
            assert "cannot have a body" in got[11]["error"], got[11]
            assert got[12]["error"].startswith("TypeError:") and "URL" in got[12]["error"], got[12]
            assert got[13].get("status") == 200, got[13]
            assert "response headers from BASE/manyheaders?n=1001 are larger than" in got[14]["error"], got[14]
            assert took < 4.5 * v.slow, f"the timeout did not bound the slow request ({took:.1f}s)"
            c = counts()["paths"]
            assert c.get("/loop") == 4 and c.get("/chain/4") == 1, c
            assert "/echo" not in c, f"a request with bad arguments was sent: {c}"
        # settings are checked when the run starts
        for name, value, words in [("CHIDORI_HTTP_ALLOW_HOSTS", "localhost:8080", "no scheme, port or path"),
                                   ("CHIDORI_HTTP_ALLOW_HOSTS", "10.1.0.0/8", "did you mean 10.0.0.0/8?"),
                                   ("CHIDORI_HTTP_MAX_BYTES", "lots", "CHIDORI_HTTP_MAX_BYTES must be")]:
            code, out, err = chidori(v, "run", os.path.join(proj, "probe.js"), "-i", '{"requests": []}',
                                     env={name: value})
            assert code != 0 and name in err and words in err, (name, value, code, err)
            assert out == "", out
    finally:
        shutil.rmtree(proj)


def case_http_policy_denial_reaches_no_server_and_url_prefix_matches(v):
    proj = project("probe.js")
    try:
        with server() as (port, counts):
            b = f"http://127.0.0.1:{port}"
            deny = os.path.join(proj, "deny-http.json")
            with open(deny, "w") as f:
                json.dump({"rules": [{"target": "http", "decision": "never_allow", "reason": "no network here"}],
                           "default": "always_allow"}, f)
            reqs = [{"url": f"{b}/echo"}, {"url": f"{b}/echo", "via": "http"}]
            env = {"CHIDORI_HTTP_ALLOW_HOSTS": "127.0.0.1", "CHIDORI_POLICY_FILE": deny}
            got, _, err = run_json(v, os.path.join(proj, "probe.js"), {"requests": reqs}, env)
            assert got[0]["error"] == "TypeError: policy: `http` denied: no network here", got
            assert got[1]["error"] == "Error: policy: `http` denied: no network here", got
            assert "chidori: policy: `http` denied" in err, err
            assert counts()["total"] == 0, counts()
            prefix = os.path.join(proj, "prefix.json")
            with open(prefix, "w") as f:
                json.dump({"rules": [{"target": "http", "decision": "always_allow",
                                      "match_args": {"url_prefix": b + "/echo", "method": "GET"}}],
                           "default": "never_allow"}, f)
            reqs = [{"url": f"{b}/echo?x"}, {"url": f"{b}/headers"}, {"url": f"{b}/echo", "init": {"method": "POST"}}]
            env["CHIDORI_POLICY_FILE"] = prefix
            got, _, _ = run_json(v, os.path.join(proj, "probe.js"), {"requests": reqs}, env)
            assert got[0].get("status") == 200, got
            assert "policy: `http` denied" in got[1]["error"] and "policy: `http` denied" in got[2]["error"], got
            assert counts()["paths"] == {"/echo": 1}, counts()
            # each redirect hop passes the policy again: an allowed URL cannot redirect elsewhere
            with open(prefix, "w") as f:
                json.dump({"rules": [{"target": "http", "decision": "always_allow",
                                      "match_args": {"url_prefix": b + "/redirect"}}],
                           "default": "never_allow", "default_reason": "outside the allowed prefix"}, f)
            reqs = [{"url": f"{b}/redirect?to=/headers"}, {"url": f"{b}/redirect?to=/redirect%3Fto%3D/chain/0"}]
            got, _, err = run_json(v, os.path.join(proj, "probe.js"), {"requests": reqs, "base": b}, env)
            assert "policy: `http` denied: outside the allowed prefix (a redirect to BASE/headers)" in got[0]["error"], got
            assert "a redirect to BASE/chain/0" in got[1]["error"], got
            assert "chidori: policy: `http` denied" in err, err
            c = counts()["paths"]
            assert "/headers" not in c and "/chain/0" not in c and c["/redirect"] == 3, c
    finally:
        shutil.rmtree(proj)


def case_the_captured_surface_records_and_replays_byte_identically(v):
    """One agent using fs, path, crypto, URL, Buffer, events, timers and fetch: the run, its replay
    (zero requests, isolated and in-process) print the same bytes; randomness is in the log."""
    proj = project("surface_tour.js")
    state = os.path.join(proj, "state")
    agent = os.path.join(proj, "surface_tour.js")
    try:
        with server() as (port, counts):
            env = {"CHIDORI_HTTP_ALLOW_HOSTS": "127.0.0.1"}
            _, out, err = run_json(v, agent, {"base": f"http://127.0.0.1:{port}"}, env, state=state)
            assert "Isolation: process" in err, err
            rid = run_id_of(err)
            sent = counts()["total"]
            assert sent == 1, counts()
            for extra in ([], ["--no-isolate"]):
                code, again, err2 = chidori(v, "replay", agent, rid, *extra, state=state)
                assert code == 0, f"replay {extra}: exit {code}\n{err2}"
                assert again == out, f"replay {extra} printed\n{again}\nthe run printed\n{out}"
            assert counts()["total"] == sent, "a replay sent a request"
            _, fresh, _ = run_json(v, agent, {"base": f"http://127.0.0.1:{port}"}, env, "--no-isolate", state=state)
            assert json.loads(fresh)["random"] != json.loads(out)["random"], "random bytes repeat across runs"
            records = records_of(state, rid)
    finally:
        shutil.rmtree(proj)
    got = json.loads(out)
    assert got["status"] == 200 and got["echoedMethod"] == "POST", got
    assert got["searchParams"] == "?from=tour&q=a+b%26c", got["searchParams"]
    assert got["files"] == ["echo.json"] and got["seen"] == ["fetched", "stored"], got
    assert got["waited"] == 250, got["waited"]
    assert len(got["random"]) == 32 and len(got["uuid"]) == 36, got
    assert got["hmac"] == "EEFSxb/coHvGM+69RhmfAlXJ9J0=", got["hmac"]  # HMAC-SHA1("key", "data")
    functions = [r["function"] for r in records]
    assert functions.count("http") == 1, functions
    assert functions.count("random_bytes") >= 2, functions  # randomBytes and randomUUID, captured
    assert "fs" not in functions and "crypto_digest" not in functions, functions  # re-derived, not logged
