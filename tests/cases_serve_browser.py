"""tests/cases_serve_browser.py — `chidori serve` against a hostile web page and against connection
exhaustion (issue 23, findings 5 and 6), each exploit replayed as it was found:

- a cross-site `text/plain` POST (what an HTML form or a no-preflight fetch() of any page can send)
  approving a pending workspace write of a server without a key: refused (403: its Origin is
  another site; 415: a body not declared JSON), the write not done;
- DNS rebinding: requests with `Host: evil.example` reading the session list and a checkpoint:
  refused (421) on every route but /health, with the loopback names, --host and
  CHIDORI_ALLOWED_HOSTS still answered;
- 515 idle connections from one client (more than the per-client cap and than the old server's 512
  threads): /health and an authorized client on another address are answered at once, and the
  idle connections are closed after CHIDORI_SERVE_IDLE_TIMEOUT;
- requests that wait (for a run, for a stream's events) do not hold the HTTP threads: a server with
  one such thread still answers while several wait, and they outlive the idle timeout;
- slowloris: more connections than the per-client cap from one address, each sending a header line
  every second (never silent, so the idle timeout never comes): closed once their headers are late
  (CHIDORI_SERVE_HEADER_TIMEOUT), then /health and an authorized client on that address are
  answered; a kept-alive connection's next request is due within the same time;
- a request refused by the Host, Origin, content-type or key check closes its connection, so a
  refused client cannot keep it.
"""
import http.client
import json
import os
import socket
import threading
import time

from cases_serve import Server, create, serving

CROSS_SITE = {"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors",
              "Content-Type": "text/plain;charset=UTF-8"}


def awaiting_write(s):
    """A session waiting for the approval of a workspace write (supervised profile)."""
    view = create(s, {"input": {"mode": "write"}, "policy_profile": "supervised"})
    assert view["status"] == "awaitingapproval" and view["pending_approval"]["target"] == "workspace:write", view
    return view["id"]


def case_serve_browser_cross_site_text_plain_post_cannot_approve_a_write(v):
    """The exploit: a page of another site posts `{"decision":"allow"}` as text/plain to
    /sessions/{id}/approve of a server on loopback without a key."""
    with serving(v, "--trusted") as s:
        sid = awaiting_write(s)
        body = json.dumps({"decision": "allow"})
        status, _, got = s.request("POST", f"/sessions/{sid}/approve", body, headers=CROSS_SITE)
        assert status == 403 and "cross-site request refused" in got["error"], (status, got)
        # the same without the browser's Origin (Sec-Fetch-Site only), or with a JSON body
        for headers in ({"Sec-Fetch-Site": "cross-site", "Content-Type": "application/json"},
                        {"Sec-Fetch-Site": "same-site", "Content-Type": "application/json"},
                        {"Origin": "http://evil.example", "Content-Type": "application/json"},
                        {"Origin": "null", "Content-Type": "application/json"},
                        {"Origin": f"http://{s.host}:{s.port}.evil.example", "Content-Type": "application/json"}):
            status, _, got = s.request("POST", f"/sessions/{sid}/approve", body, headers=headers)
            assert status == 403 and "cross-site request refused" in got["error"], (headers, status, got)
        # a body not declared JSON is a 415 even from no browser at all
        for ctype in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
                      "application/jsonx", None):
            headers = {"Content-Type": ctype} if ctype else {"Content-Type": ""}
            status, _, got = s.request("POST", f"/sessions/{sid}/approve", body, headers=headers)
            assert status == 415 and "Content-Type: application/json" in got["error"], (ctype, status, got)
        status, _, got = s.request("POST", "/sessions", "{}", headers={"Content-Type": "text/plain"})
        assert status == 415, (status, got)
        view = s.request("GET", f"/sessions/{sid}")[2]
        assert view["status"] == "awaitingapproval", view
        assert not os.path.exists(os.path.join(s.folder, "out.txt")), "a refused approval wrote the file"
        # the server's own page (same origin), a JSON body with parameters: allowed
        same = {"Origin": f"http://{s.host}:{s.port}", "Sec-Fetch-Site": "same-origin",
                "Content-Type": "Application/JSON; charset=utf-8"}
        status, _, got = s.request("POST", f"/sessions/{sid}/approve", body, headers=same)
        assert status == 200 and got["status"] == "completed", (status, got)
        with open(os.path.join(s.folder, "out.txt")) as f:
            assert f.read() == "hello"
        # a POST without a body needs no content type; a GET is not state-changing
        status, _, got = s.request("POST", f"/sessions/{awaiting_write(s)}/cancel")
        assert status == 200 and got["status"] == "cancelled", (status, got)
        status, _, _ = s.request("GET", "/sessions", headers={"Origin": "http://evil.example"})
        assert status == 200

    # with a key, a cross-site request that carries it is refused all the same; a CORS origin is let in
    env = {"CHIDORI_API_KEY": "k1", "CHIDORI_CORS_ORIGINS": "http://app.test"}
    with serving(v, "--trusted", env=env) as s:
        auth = {"Authorization": "Bearer k1"}
        view = s.request("POST", "/sessions", {"input": {"mode": "write"}, "policy_profile": "supervised"},
                         headers=dict(auth, **{"Content-Type": "application/json"}))[2]
        sid = view["id"]
        status, _, got = s.request("POST", f"/sessions/{sid}/approve", {"decision": "allow"},
                                   headers=dict(auth, Origin="http://evil.example"))
        assert status == 403, (status, got)
        status, _, got = s.request("POST", f"/sessions/{sid}/approve", {"decision": "allow"},
                                   headers=dict(auth, Origin="http://app.test"))
        assert status == 200 and got["status"] == "completed", (status, got)


def case_serve_browser_dns_rebinding_host_is_refused(v):
    """The exploit: the session list and a checkpoint read with `Host: evil.example`."""
    with serving(v) as s:
        sid = create(s, {"input": {"name": "secret"}})["id"]
        for path in ("/sessions", f"/sessions/{sid}", f"/sessions/{sid}/checkpoint", f"/sessions/{sid}/stream",
                     "/ui/", "/ui/app.js", "/nowhere"):
            for host in ("evil.example", f"evil.example:{s.port}", f"127.0.0.1.evil.example:{s.port}",
                         f"localhost.evil.example:{s.port}", "[::2]", "127.0.0.1:x", "", "a b",
                         "x" * 300):
                status, _, got = s.request("GET", path, headers={"Host": host})
                assert status == 421 and "does not answer to the host name" in got["error"], (path, host, status, got)
                assert "secret" not in json.dumps(got), got
        status, _, got = s.request("POST", "/sessions", {"input": {}}, headers={"Host": "evil.example"})
        assert status == 421, (status, got)
        status, _, got = s.request("OPTIONS", "/sessions", headers={"Host": "evil.example"})
        assert status == 421, (status, got)
        # /health says only "ok", to any name (a load balancer's probe uses the address it knows)
        status, _, got = s.request("GET", "/health", headers={"Host": "evil.example"})
        assert status == 200 and got == {"status": "ok"}, (status, got)
        for host in (f"127.0.0.1:{s.port}", "127.0.0.1", f"localhost:{s.port}", "LOCALHOST", "localhost.",
                     "127.9.8.7:1", f"[::1]:{s.port}", "[::1]", "[::ffff:127.0.0.1]"):
            status, _, got = s.request("GET", f"/sessions/{sid}/checkpoint", headers={"Host": host})
            assert status == 200 and got["id"] == sid, (host, status, got)
    # CHIDORI_ALLOWED_HOSTS adds names (any port); `*` only with a key
    with serving(v, env={"CHIDORI_ALLOWED_HOSTS": "MyHost.lan, 10.1.2.3,[fd00::1]"}) as s:
        for host, want in (("myhost.lan:9", 200), ("myhost.lan", 200), ("10.1.2.3", 200), ("[fd00::1]:80", 200),
                           ("other.lan", 421), ("10.1.2.4", 421)):
            status, _, got = s.request("GET", "/sessions", headers={"Host": host})
            assert status == want, (host, status, got)
    assert "Hosts: localhost, 127.x.y.z, [::1], myhost.lan, 10.1.2.3, [fd00::1] (" in s.stderr(), s.stderr()
    with serving(v, env={"CHIDORI_ALLOWED_HOSTS": "*", "CHIDORI_API_KEY": "k"}) as s:
        status, _, got = s.request("GET", "/sessions", headers={"Host": "anything.example", "Authorization": "Bearer k"})
        assert status == 200, (status, got)
    srv = Server(v, env={"CHIDORI_CORS_ORIGINS": "http://app.test,*"})  # any origin, without a key
    try:
        srv.start(expect_listen=False)
        code = srv.proc.wait(timeout=20 * v.slow)
        srv.reader.join(timeout=5)
        assert code == 2 and "CHIDORI_CORS_ORIGINS=* needs CHIDORI_API_KEY" in srv.stderr(), (code, srv.stderr())
    finally:
        srv.cleanup()
    for value, words in (("*", "needs CHIDORI_API_KEY"), ("http://myhost.lan/", "is not a host name"),
                         ("myhost.lan:8080", "is not a host name"), (" , ", "names no host"),
                         ("a b", "is not a host name")):
        srv = Server(v, env={"CHIDORI_ALLOWED_HOSTS": value})
        try:
            srv.start(expect_listen=False)
            code = srv.proc.wait(timeout=20 * v.slow)
            srv.reader.join(timeout=5)
            assert code == 2 and words in srv.stderr() and "Listening" not in srv.stderr(), (value, code, srv.stderr())
        finally:
            srv.cleanup()


def open_idle(host, port, n, source):
    socks = []
    for _ in range(n):
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind((source, 0))
        sock.settimeout(10)
        try:
            sock.connect((host, port))
        except OSError:
            sock.close()
            break
        socks.append(sock)
    return socks


def closed_by_server(sock):
    sock.setblocking(False)
    try:
        return sock.recv(1) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def timed_request(s, method, path, body=None, headers=None, source="127.0.0.2", timeout=10):
    t0 = time.monotonic()
    conn = http.client.HTTPConnection(s.host, s.port, timeout=timeout * s.v.slow, source_address=(source, 0))
    conn.request(method, path, body=json.dumps(body) if body is not None else None,
                 headers=dict(headers or {}, **({"Content-Type": "application/json"} if body is not None else {})))
    r = conn.getresponse()
    got = json.loads(r.read() or b"null")
    conn.close()
    return r.status, got, time.monotonic() - t0


def case_serve_browser_idle_connections_do_not_starve_the_server(v):
    """The exploit: 515 idle connections (the old server gave each a thread, up to 512, kept 300 s)
    blocked /health and every authorized client."""
    env = {"CHIDORI_API_KEY": "k1", "CHIDORI_SERVE_IDLE_TIMEOUT": "2", "CHIDORI_SERVE_MAX_CONNECTIONS_PER_CLIENT": "100"}
    with serving(v, env=env) as s:
        idle = open_idle(s.host, s.port, 515, "127.0.0.1")
        try:
            assert len(idle) == 515, len(idle)  # the kernel accepts them; the server closes those over the cap
            time.sleep(0.5 * v.slow)
            status, got, took = timed_request(s, "GET", "/health")
            assert status == 200 and got == {"status": "ok"} and took < 3 * v.slow, (status, got, took)
            auth = {"Authorization": "Bearer k1"}
            status, got, took = timed_request(s, "POST", "/sessions", {"input": {"name": "through"}}, auth)
            assert status == 201 and got["status"] == "completed", (status, got)
            status, got, took = timed_request(s, "GET", "/sessions", headers=auth)
            assert status == 200 and len(got["sessions"]) == 1 and took < 3 * v.slow, (status, took)
            refused = sum(closed_by_server(x) for x in idle)
            assert refused >= 515 - 100, f"only {refused} of 515 connections from one address were refused"
            # the ones kept are closed once idle for CHIDORI_SERVE_IDLE_TIMEOUT (2 s)
            deadline = time.monotonic() + 2 + 8 * v.slow
            while time.monotonic() < deadline and not all(closed_by_server(x) for x in idle):
                time.sleep(0.2)
            left = sum(not closed_by_server(x) for x in idle)
            assert left == 0, f"{left} idle connections still open after the idle timeout"
        finally:
            for x in idle:
                x.close()
        # and a client that keeps to the cap is served as before
        status, got, _ = timed_request(s, "GET", "/sessions", headers={"Authorization": "Bearer k1"},
                                       source="127.0.0.1")
        assert status == 200, (status, got)


def case_serve_browser_waiting_requests_do_not_hold_the_http_threads(v):
    """With one HTTP thread, requests that wait for a run (wait: true) and event streams are
    suspended off it: /health and other requests are still answered while they wait, and each
    waiter gets its answer when the run ends."""
    env = {"CHIDORI_SERVE_HTTP_THREADS": "1", "CHIDORI_JS_OP_BUDGET": "0", "CHIDORI_SERVE_WARM_WORKERS": "0",
           "CHIDORI_SERVE_IDLE_TIMEOUT": "2"}
    with serving(v, env=env) as s:
        ids = [f"spin-{i}" for i in range(2)]
        results, streams = {}, {}

        def waiter(sid):
            results[sid] = s.request("POST", "/sessions", {"session_id": sid, "input": {"mode": "spin", "loops": 4000000000}},
                                     timeout=60)

        def follower(k, sid):
            streams[k] = s.events("GET", f"/sessions/{sid}/stream", timeout=60)

        threads = [threading.Thread(target=waiter, args=(sid,)) for sid in ids]
        for t in threads:
            t.start()
        for sid in ids:
            s.wait_for(sid, lambda x: x.get("status") == "running", "running")
        threads += [threading.Thread(target=follower, args=(k, ids[k % 2])) for k in range(4)]
        for t in threads[2:]:
            t.start()
        time.sleep(0.5 * v.slow)
        for _ in range(5):
            status, got, took = timed_request(s, "GET", "/health", source="127.0.0.1")
            assert status == 200 and took < 2 * v.slow, (status, took)
            status, got, took = timed_request(s, "GET", f"/sessions/{ids[0]}", source="127.0.0.1")
            assert status == 200 and got["status"] == "running" and took < 2 * v.slow, (got, took)
        time.sleep(3)  # past the idle timeout: a suspended connection does not time out
        assert not results and not streams, "a waiter returned before its run ended"
        for sid in ids:
            status, _, got = s.request("POST", f"/sessions/{sid}/cancel")
            assert status == 200, (status, got)
        for t in threads:
            t.join(timeout=30 * v.slow)
        assert all(results[sid][0] == 201 and results[sid][2]["status"] == "cancelled" for sid in ids), results
        assert len(streams) == 4 and all(ev[-1][0] == "done" and ev[-1][1]["status"] == "cancelled"
                                         for ev in streams.values()), streams


def case_serve_browser_transport_settings_are_checked_at_start(v):
    for name, value in (("CHIDORI_SERVE_IDLE_TIMEOUT", "0"), ("CHIDORI_SERVE_IDLE_TIMEOUT", "ten"),
                        ("CHIDORI_SERVE_HEADER_TIMEOUT", "0"), ("CHIDORI_SERVE_HEADER_TIMEOUT", "2s"),
                        ("CHIDORI_SERVE_HEADER_TIMEOUT", "3601"),
                        ("CHIDORI_SERVE_HTTP_THREADS", "0"), ("CHIDORI_SERVE_MAX_CONNECTIONS", "10"),
                        ("CHIDORI_SERVE_MAX_CONNECTIONS_PER_CLIENT", "-1")):
        srv = Server(v, env={name: value})
        try:
            srv.start(expect_listen=False)
            code = srv.proc.wait(timeout=20 * v.slow)
            srv.reader.join(timeout=5)
            assert code == 2 and f"{name} must be a whole number" in srv.stderr(), (name, value, code, srv.stderr())
        finally:
            srv.cleanup()


def case_serve_browser_slowloris_headers_are_due_in_time(v):
    """The exploit: 128 connections from 127.0.0.1, each sending one header line every 5 s, stayed
    open for ever (the idle timeout measures silence only), and every other client on 127.0.0.1 got
    a reset. Here 30 connections over a cap of 20 drip a line a second against a 2 s header deadline
    and a 60 s idle timeout."""
    env = {"CHIDORI_API_KEY": "k1", "CHIDORI_SERVE_HEADER_TIMEOUT": "2", "CHIDORI_SERVE_IDLE_TIMEOUT": "60",
           "CHIDORI_SERVE_MAX_CONNECTIONS_PER_CLIENT": "20"}
    with serving(v, env=env) as s:
        drips = open_idle(s.host, s.port, 30, "127.0.0.1")
        try:
            assert len(drips) == 30, len(drips)
            for x in drips:
                try:
                    x.sendall(b"GET /health HTTP/1.1\r\nHost: localhost\r\n")
                except OSError:
                    pass  # one over the cap, closed at once
            deadline = time.monotonic() + 2 + 8 * v.slow
            while time.monotonic() < deadline:
                open_ = [x for x in drips if not closed_by_server(x)]
                if not open_:
                    break
                for x in open_:
                    try:
                        x.send(b"X-Drip: 1\r\n")
                    except OSError:
                        pass
                time.sleep(1)
            left = sum(not closed_by_server(x) for x in drips)
            assert left == 0, f"{left} connections dripping header lines still open past the header deadline"
            # the client sees a close a moment before the server's thread has counted it (the
            # per-client cap still holds the slot): a connection refused in that moment is retried
            settle = time.monotonic() + 2 * v.slow
            while True:
                try:
                    status, got, took = timed_request(s, "GET", "/health", source="127.0.0.1")
                    break
                except (http.client.RemoteDisconnected, ConnectionResetError):
                    if time.monotonic() > settle:
                        raise
                    time.sleep(0.05)
            assert status == 200 and got == {"status": "ok"}, (status, got)
            status, got, _ = timed_request(s, "POST", "/sessions", {"input": {"name": "through"}},
                                           {"Authorization": "Bearer k1"}, source="127.0.0.1")
            assert status == 201 and got["status"] == "completed", (status, got)
        finally:
            for x in drips:
                x.close()
        # kept alive after a reply, a connection's next request is due within the same 2 s
        conn = http.client.HTTPConnection(s.host, s.port, timeout=10 * v.slow)
        conn.request("GET", "/health")
        r = conn.getresponse()
        assert r.status == 200 and not r.will_close, (r.status, r.getheaders())
        r.read()
        t0 = time.monotonic()
        conn.sock.settimeout(2 + 8 * v.slow)
        try:
            end = conn.sock.recv(1)
        except OSError as e:
            end = e
        took = time.monotonic() - t0
        conn.close()
        assert end == b"" and 1 <= took < 2 + 8 * v.slow, (end, took)


def read_until_closed(sock, limit):
    """Everything the server sends until it closes (b"" from recv), or None if it keeps the
    connection open for `limit` seconds."""
    sock.settimeout(limit)
    got = b""
    t_end = time.monotonic() + limit
    while time.monotonic() < t_end:
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            return None
        except OSError:
            return got  # a reset: closed all the same
        if not chunk:
            return got
        got += chunk
    return None


def case_serve_browser_refused_requests_close_their_connection(v):
    """A request refused before the API (Host 421, Origin 403, key 401, content type 415) used to
    be answered on a connection kept alive, which the refused client could then hold for free."""
    with serving(v, env={"CHIDORI_API_KEY": "k1"}) as s:
        auth = "Authorization: Bearer k1\r\n"
        body = '{"input": {}}'
        refusals = (
            ("421", "GET /sessions HTTP/1.1\r\nHost: evil.example\r\n" + auth + "\r\n"),
            ("403", "POST /sessions HTTP/1.1\r\nHost: localhost\r\nOrigin: http://evil.example\r\n" + auth +
             f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n{body}"),
            ("401", "GET /sessions HTTP/1.1\r\nHost: localhost\r\n\r\n"),
            ("401", "GET /sessions HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer nope\r\n\r\n"),
            ("415", "POST /sessions HTTP/1.1\r\nHost: localhost\r\n" + auth +
             f"Content-Type: text/plain\r\nContent-Length: {len(body)}\r\n\r\n{body}"),
        )
        for status, raw in refusals:
            sock = socket.create_connection((s.host, s.port), timeout=10 * v.slow)
            try:
                sock.sendall(raw.encode())
                got = read_until_closed(sock, 5 * v.slow)
                assert got is not None, f"the connection of a refused request ({status}) was kept open"
                assert got.startswith(f"HTTP/1.1 {status} ".encode()), got[:200]
                assert b"\r\nconnection: close\r\n" in got.lower(), got[:400]
            finally:
                sock.close()
        # an accepted request keeps its connection (keep-alive as before)
        sock = socket.create_connection((s.host, s.port), timeout=10 * v.slow)
        try:
            sock.sendall(("GET /sessions HTTP/1.1\r\nHost: localhost\r\n" + auth + "\r\n").encode())
            assert read_until_closed(sock, 1) is None, "an accepted request's connection was closed"
        finally:
            sock.close()
