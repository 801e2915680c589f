"""tests/cases_serve_compat.py — server details the original chidori's clients rely on
(docs/http-api.md): `/approve` without a decision (or without a body) approves; a busy server's
503 says so and carries `acquire_timeout_ms`; an allowed CORS preflight is answered 200, while the
Host and Origin checks stay as strict (a foreign origin's preflight is still a 403, a foreign Host
a 421).
"""
import http.client
import json
import os
import time

from cases_serve import create, serving


def post_without_body(s, path):
    conn = http.client.HTTPConnection(s.host, s.port, timeout=30 * s.v.slow)
    conn.request("POST", path)  # no body, no Content-Type
    r = conn.getresponse()
    got = json.loads(r.read() or b"null")
    conn.close()
    return r.status, got


def case_serve_approve_without_a_decision_allows(v):
    with serving(v, "--trusted") as s:
        for how in ("no body", "{}", "wait only"):
            view = create(s, {"input": {"mode": "write"}, "policy_profile": "supervised"})
            assert view["status"] == "awaitingapproval", view
            path = f"/sessions/{view['id']}/approve"
            if how == "no body":
                status, got = post_without_body(s, path)
            else:
                status, _, got = s.request("POST", path, {} if how == "{}" else {"wait": True})
            assert status == 200 and got["status"] == "completed" and got["output"]["wrote"] is True, (how, status, got)
            os.remove(os.path.join(s.folder, "out.txt"))
        view = create(s, {"input": {"mode": "write"}, "policy_profile": "supervised"})
        for body in ({"decision": None}, {"decision": "maybe"}, {"allow_source_change": 1}):
            status, _, got = s.request("POST", f"/sessions/{view['id']}/approve", body)
            assert status == 400, (body, status, got)
        assert s.request("GET", f"/sessions/{view['id']}")[2]["status"] == "awaitingapproval"


def case_serve_busy_answer_carries_acquire_timeout(v):
    with serving(v, env={"CHIDORI_MAX_CONCURRENT_SESSIONS": "1"}) as s:
        busy = create(s, {"input": {"mode": "spin", "loops": 2000000000}, "wait": False})
        status, hdrs, got = s.request("POST", "/sessions", {"input": {}})
        assert status == 503 and hdrs.get("retry-after") == "1", (status, hdrs, got)
        assert "busy" in got["error"] and "CHIDORI_MAX_CONCURRENT_SESSIONS" in got["error"], got
        assert isinstance(got.get("acquire_timeout_ms"), int) and got["acquire_timeout_ms"] >= 0, got
        s.request("POST", f"/sessions/{busy['id']}/cancel")
        s.wait_for(busy["id"], lambda x: x["status"] == "cancelled", "cancelled")
        deadline = time.monotonic() + 20 * v.slow
        while s.request("POST", "/sessions", {"input": {}})[0] != 201:  # the slot frees once the run has ended
            assert time.monotonic() < deadline, "the slot never freed"
            time.sleep(0.05)


def case_serve_busy_request_waits_for_a_slot_up_to_the_acquire_timeout(v):
    """CHIDORI_ACQUIRE_TIMEOUT_MS, as the original: a request that finds every slot taken waits that
    long for one; a slot that frees in time starts it (201), else the 503 names the wait."""
    import threading
    env = {"CHIDORI_MAX_CONCURRENT_SESSIONS": "1", "CHIDORI_ACQUIRE_TIMEOUT_MS": "400"}
    with serving(v, env=env) as s:
        busy = create(s, {"input": {"mode": "spin", "loops": 2000000000}, "wait": False})
        t0 = time.monotonic()
        status, _, got = s.request("POST", "/sessions", {"input": {}})
        waited = time.monotonic() - t0
        assert status == 503 and got["acquire_timeout_ms"] == 400 and "busy" in got["error"], (status, got)
        assert waited >= 0.35, f"answered after {waited:.3f} s, before the 400 ms wait"
    env["CHIDORI_ACQUIRE_TIMEOUT_MS"] = "30000"
    with serving(v, env=env) as s:
        busy = create(s, {"input": {"mode": "spin", "loops": 2000000000}, "wait": False})
        answer = {}

        def second():
            answer["got"] = s.request("POST", "/sessions", {"input": {}, "wait": False})
        th = threading.Thread(target=second)
        th.start()
        time.sleep(0.3)
        assert "got" not in answer, f"answered while every slot was taken: {answer}"
        s.request("POST", f"/sessions/{busy['id']}/cancel")
        th.join(30 * v.slow)
        assert not th.is_alive() and answer["got"][0] == 201, answer


def case_serve_cors_preflight_status_and_strictness(v):
    with serving(v, env={"CHIDORI_CORS_ORIGINS": "http://app.test"}) as s:
        status, hdrs, body = s.request("OPTIONS", "/sessions", headers={
            "Origin": "http://app.test", "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type"})
        assert status == 200 and hdrs.get("access-control-allow-origin") == "http://app.test", (status, hdrs)
        assert "POST" in hdrs.get("access-control-allow-methods", ""), hdrs
        assert "Content-Type" in hdrs.get("access-control-allow-headers", ""), hdrs
        assert not body, body
        # a foreign origin: still refused, with no CORS header
        status, hdrs, _ = s.request("OPTIONS", "/sessions", headers={
            "Origin": "http://evil.test", "Access-Control-Request-Method": "POST"})
        assert status == 403 and "access-control-allow-origin" not in hdrs, (status, hdrs)
        # an allowed origin on a foreign Host name (DNS rebinding): still a 421
        status, hdrs, _ = s.request("OPTIONS", "/sessions", headers={
            "Host": "evil.example", "Origin": "http://app.test", "Access-Control-Request-Method": "POST"})
        assert status == 421 and "access-control-allow-origin" not in hdrs, (status, hdrs)
        # and a state-changing request from a foreign page is refused as before
        status, _, got = s.request("POST", "/sessions", {"input": {}}, headers={"Origin": "http://evil.test"})
        assert status == 403, (status, got)
