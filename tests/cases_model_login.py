"""tests/cases_model_login.py — `chidori model-login` (docs/cli.md): the OpenRouter sign-in in a
browser, with PKCE, and the key saved in ~/.chidori/credentials.json.

OpenRouter is a small server of this file on loopback: its sign-in page (`/auth`) redirects the
browser to the callback address it was given, with a code, and its `/api/v1/auth/keys` gives a
key only for that code and a verifier whose SHA-256 is the challenge the sign-in page saw. The
browser is a script of this file (`BROWSER`), which chidori starts with the sign-in address: it
can first knock on the callback port the way a hostile page or process would (garbage, a line
that never ends, a connection that says nothing, another path with a code of its own) and then
follows the sign-in like a browser. It writes what each knock was answered to a log.
"""
import base64
import hashlib
import json
import os
import shutil
import stat
import sys
import tempfile
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cases import chidori

CODE = "code-from-the-sign-in-7f3a"
KEY = "sk-or-v1-signed-in-key-0042"

BROWSER = r'''#!PYTHON
import http.client, json, os, socket, sys, urllib.parse, urllib.request, urllib.error
start = sys.argv[1]
plan = os.environ.get("FAKE_BROWSER_PLAN", "")
log = open(os.environ["FAKE_BROWSER_LOG"], "a")
st = urllib.parse.urlsplit(start)
def get(port, path, host="127.0.0.1"):
    c = http.client.HTTPConnection(host, port, timeout=10)
    c.request("GET", path)
    r = c.getresponse()
    out = (r.status, r.getheader("Location"), r.read().decode())
    c.close()
    return out
def knock(data, family=socket.AF_INET, host="127.0.0.1"):
    s = socket.socket(family, socket.SOCK_STREAM)
    s.settimeout(10)
    s.connect((host, st.port))
    if data: s.sendall(data)
    got = b""
    try:
        while True:
            b = s.recv(4096)
            if not b: break
            got += b
    except OSError:
        pass
    s.close()
    return got.split(b"\r\n", 1)[0].decode("latin-1")
other_user = "not root: not tried"
if "knock" in plan and os.geteuid() == 0:
    # another user of the machine, who read the start address from this process's command line
    # (raw socket calls only: the child may not read this Python's own files once it is nobody)
    req = ("GET " + st.path + " HTTP/1.1\r\nHost: localhost\r\n\r\n").encode()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        got = b"?"
        try:
            os.close(r)
            os.setgid(65534); os.setuid(65534)
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.settimeout(10)
            s.connect(("127.0.0.1", st.port))
            s.sendall(req)
            got = b"answered: " + s.recv(64)
        except BaseException as e:
            got = type(e).__name__.encode()
        finally:
            os.write(w, got)
            os._exit(0)
    os.close(w)
    os.waitpid(pid, 0)
    other_user = os.read(r, 4096).decode("latin-1")
status, auth_url, _ = get(st.port, st.path)           # the one-time start address
q = urllib.parse.parse_qs(urllib.parse.urlsplit(auth_url or "").query)
callback = q.get("callback_url", [""])[0]
cb = urllib.parse.urlsplit(callback)
log.write(json.dumps({"start": start, "start_status": status, "auth_url": auth_url, "callback": callback,
                      "other_user": other_user}) + "\n"); log.flush()
if "knock" in plan:
    silent = [socket.create_connection(("127.0.0.1", st.port), timeout=10) for _ in range(40)]  # say nothing
    answers = {
        "garbage": knock(b"\x16\x03\x01\x00\xff\x01garbage\r\n\r\n"),
        "endless": knock(b"GET /" + b"a" * 9000),
        "other_state": knock(("GET /callback/" + "A" * 32 + "?code=attacker-code HTTP/1.1\r\n\r\n").encode()),
        "other_path": knock(b"GET /callback/not-the-state?code=attacker-code HTTP/1.1\r\n\r\n"),
        "no_code": knock(("GET " + cb.path + "?nothing=1 HTTP/1.1\r\n\r\n").encode()),
    }
    try:
        answers["ipv6"] = knock(b"GET /favicon.ico HTTP/1.1\r\n\r\n", socket.AF_INET6, "::1")
    except OSError as e:
        answers["ipv6"] = "no ::1 here: " + repr(e)
    for c in silent: c.close()
    log.write(json.dumps({"answers": answers}) + "\n"); log.flush()
if "start_twice" in plan:
    try:
        log.write(json.dumps({"second_start": get(st.port, st.path)[0]}) + "\n")
    except Exception as e:
        log.write(json.dumps({"second_start": repr(e)}) + "\n")
    log.flush()
    sys.exit(0)
try:
    r = urllib.request.urlopen(auth_url, timeout=20)
    log.write(json.dumps({"final": r.status, "page": r.read().decode()}) + "\n")
except urllib.error.HTTPError as e:
    log.write(json.dumps({"final": e.code, "page": e.read().decode()}) + "\n")
log.close()
'''


class OpenRouter:
    """The sign-in page and the key exchange; mode: ok, deny (the sign-in refused), refuse (the
    exchange answers 403)."""

    def __init__(self, mode="ok"):
        self.mode, self.challenges, self.exchanges = mode, [], []
        outer = self

        class H(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_GET(self):
                u = urllib.parse.urlsplit(self.path)
                q = urllib.parse.parse_qs(u.query)
                if u.path != "/auth":
                    self.send_response(404), self.end_headers()
                    return
                outer.challenges.append((q.get("code_challenge", [""])[0], q.get("code_challenge_method", [""])[0]))
                cb = q["callback_url"][0]
                where = cb + ("?error=access_denied" if outer.mode == "deny" else "?code=" + CODE)
                self.send_response(302)
                self.send_header("Location", where)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                outer.exchanges.append({"path": self.path, "body": body, "type": self.headers.get("Content-Type")})
                v = body.get("code_verifier", "")
                s256 = base64.urlsafe_b64encode(hashlib.sha256(v.encode()).digest()).rstrip(b"=").decode()
                good = (self.path == "/api/v1/auth/keys" and body.get("code") == CODE and
                        body.get("code_challenge_method") == "S256" and outer.challenges and
                        outer.challenges[-1] == (s256, "S256") and outer.mode != "refuse")
                # a refusal that carries a key anyway: chidori prints the error's message, never the body
                out = json.dumps({"key": KEY} if good else {"error": {"message": "bad code or verifier"}, "key": KEY}).encode()
                self.send_response(200 if good else 403)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(out)))
                self.end_headers()
                self.wfile.write(out)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), H)
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def setup(tmp, plan=""):
    home = os.path.join(tmp, "home")
    os.makedirs(home)
    browser = os.path.join(tmp, "browser.py")
    with open(browser, "w") as f:
        f.write(BROWSER.replace("PYTHON", sys.executable, 1))
    os.chmod(browser, 0o755)
    log = os.path.join(tmp, "browser.log")
    env = {"HOME": home, "BROWSER": browser, "FAKE_BROWSER_LOG": log, "FAKE_BROWSER_PLAN": plan,
           "OPENROUTER_API_KEY": ""}
    return home, env, log


def browser_log(log):
    if not os.path.exists(log):
        return []
    with open(log) as f:
        return [json.loads(line) for line in f if line.strip()]


def creds_path(home):
    return os.path.join(home, ".chidori", "credentials.json")


def case_model_login_saves_the_key_of_the_browser_sign_in(v):
    """The sign-in page gets a PKCE challenge and the callback address on 127.0.0.1; the key is
    fetched with the code and the verifier that matches the challenge, and saved mode 0600 in a
    0700 folder, the file's other members kept. A process of another user gets nothing from the
    port (not the start address's redirect either). What knocks on the callback port first — garbage,
    a line that never ends, a connection that says nothing, another path carrying a code of its
    own, the path without a code — is answered 400 or 404 and changes nothing; the key is never
    printed."""
    tmp = tempfile.mkdtemp(prefix="chidori-login-")
    o = OpenRouter()
    try:
        home, env, log = setup(tmp, plan="knock")
        os.makedirs(os.path.join(home, ".chidori"))
        with open(creds_path(home), "w") as f:
            json.dump({"deploy_url": "https://deploy.example", "openrouter_api_key": "sk-or-old"}, f)
        os.chmod(creds_path(home), 0o644)
        env.update(CHIDORI_OPENROUTER_AUTH_URL=o.base + "/auth", CHIDORI_OPENROUTER_URL=o.base + "/api/v1/")
        t0 = time.monotonic()
        code, out, err = chidori(v, "model-login", env=env, timeout=60)
        took = time.monotonic() - t0
        assert code == 0, (code, out, err)
        # 40 silent connections did not hold the real answer back (each would cost 2 s in turn)
        assert took < 10 * v.slow, f"the sign-in took {took:.1f} s"
        entries = browser_log(log)
        first = entries[0]
        st = urllib.parse.urlsplit(first["start"])
        assert st.scheme == "http" and st.hostname == "localhost" and st.path.startswith("/start/"), first
        assert len(st.path) == len("/start/") + 32 and first["start_status"] == 302, first
        # another user's process gets no answer at all, and the start address stays unopened
        if os.geteuid() == 0:
            assert first["other_user"] in ("answered: ", "ConnectionResetError"), first  # closed, unanswered
        assert first["start"] in out and first["auth_url"] not in out, out  # the state stays in the process
        cb = urllib.parse.urlsplit(first["callback"])
        assert cb.scheme == "http" and cb.hostname == "localhost" and cb.port == st.port, first
        assert cb.path.startswith("/callback/") and len(cb.path) == len("/callback/") + 32, first
        assert cb.path[len("/callback/"):] != st.path[len("/start/"):], first
        assert first["auth_url"].startswith(o.base + "/auth?callback_url="), first
        answers = entries[1]["answers"]
        v6 = answers.pop("ipv6")
        assert v6 == "HTTP/1.1 404 Not Found" or v6.startswith("no ::1 here"), repr(v6)  # where ::1 exists, chidori holds it too
        assert answers == {"garbage": "HTTP/1.1 400 Bad Request", "endless": "HTTP/1.1 400 Bad Request",
                           "other_state": "HTTP/1.1 404 Not Found",
                           "other_path": "HTTP/1.1 404 Not Found", "no_code": "HTTP/1.1 400 Bad Request"}, answers
        assert entries[2]["final"] == 200 and "chidori has OpenRouter's answer" in entries[2]["page"], entries[2]
        (challenge, method), = o.challenges
        assert method == "S256" and len(challenge) == 43, o.challenges
        (ex,) = o.exchanges  # one exchange: the knocking page's code was never tried
        assert ex["path"] == "/api/v1/auth/keys" and ex["type"] == "application/json", ex
        assert ex["body"]["code"] == CODE and len(ex["body"]["code_verifier"]) == 43, ex
        with open(creds_path(home)) as f:
            saved = json.load(f)
        assert saved == {"deploy_url": "https://deploy.example", "openrouter_api_key": KEY}, saved
        assert stat.S_IMODE(os.stat(creds_path(home)).st_mode) == 0o600
        assert stat.S_IMODE(os.stat(os.path.join(home, ".chidori")).st_mode) == 0o700
        assert KEY not in out + err, (out, err)
        assert "already holds an OpenRouter key" in out and creds_path(home) in out, out
    finally:
        o.close()
        shutil.rmtree(tmp)


def case_model_login_a_refusal_saves_nothing(v):
    """A sign-in the user refused (the callback carries `error`), or a key exchange that fails,
    ends with exit 1 and a message saying why, and the credentials file as it was; with no file
    before, none after."""
    for mode, want in (("deny", "OpenRouter refused the sign-in: access_denied"),
                       ("refuse", "answered HTTP 403: bad code or verifier")):
        tmp = tempfile.mkdtemp(prefix="chidori-login-")
        o = OpenRouter(mode)
        try:
            home, env, log = setup(tmp)
            env.update(CHIDORI_OPENROUTER_AUTH_URL=o.base + "/auth", CHIDORI_OPENROUTER_URL=o.base + "/api/v1")
            code, out, err = chidori(v, "model-login", env=env, timeout=60)
            assert code == 1 and want in err and "nothing was saved" in err, (mode, code, out, err)
            assert KEY not in out + err, (out, err)
            assert not os.path.exists(creds_path(home)), mode
            assert len(o.exchanges) == (1 if mode == "refuse" else 0), (mode, o.exchanges)
        finally:
            o.close()
            shutil.rmtree(tmp)


def case_model_login_keeps_what_it_must_not_overwrite(v):
    """OPENROUTER_API_KEY set: that key is the one used, so nothing is signed in or written. A
    credentials file that is not a JSON object stops the sign-in before the browser opens, and is
    left byte for byte. No answer within CHIDORI_MODEL_LOGIN_TIMEOUT_MS: exit 1, nothing saved."""
    tmp = tempfile.mkdtemp(prefix="chidori-login-")
    try:
        home, env, log = setup(tmp)
        code, out, err = chidori(v, "model-login", env=dict(env, OPENROUTER_API_KEY="sk-or-env"))
        assert code == 0 and "OPENROUTER_API_KEY is set" in out, (code, out, err)
        assert not os.path.exists(os.path.join(home, ".chidori")) and not browser_log(log)
        os.makedirs(os.path.join(home, ".chidori"))
        for bad in (b"not json {", b"[\"a list\"]"):
            with open(creds_path(home), "wb") as f:
                f.write(bad)
            code, out, err = chidori(v, "model-login", env=env)
            assert code == 1 and "does not hold a JSON object" in err and "leaves it as it is" in err, (code, out, err)
            with open(creds_path(home), "rb") as f:
                assert f.read() == bad
            assert not browser_log(log), "the browser was opened"
        os.remove(creds_path(home))
        code, out, err = chidori(v, "model-login", env=dict(env, BROWSER="/bin/true", CHIDORI_MODEL_LOGIN_TIMEOUT_MS="300"))
        assert code == 1 and "no answer from the browser in 300 ms" in err, (code, out, err)
        assert not os.path.exists(creds_path(home))
        code, out, err = chidori(v, "model-login", "extra", env=env)
        assert code == 2 and "takes no arguments" in err, (code, out, err)
    finally:
        shutil.rmtree(tmp)


def case_model_login_stops_when_its_start_address_is_opened_twice(v):
    """The start address, the only one printed and given to the browser (other users of the
    machine may read a process's command line), leads to the sign-in page once: a second opening
    stops the sign-in (409, exit 1), since whoever opened it first holds the state."""
    tmp = tempfile.mkdtemp(prefix="chidori-login-")
    o = OpenRouter()
    try:
        home, env, log = setup(tmp, plan="start_twice")
        env.update(CHIDORI_OPENROUTER_AUTH_URL=o.base + "/auth", CHIDORI_OPENROUTER_URL=o.base + "/api/v1")
        code, out, err = chidori(v, "model-login", env=env, timeout=60)
        assert code == 1 and "opened twice" in err and "nothing was saved" in err, (code, out, err)
        entries = browser_log(log)
        assert entries[0]["start_status"] == 302 and entries[1]["second_start"] == 409, entries
        assert not os.path.exists(creds_path(home)) and not o.exchanges
    finally:
        o.close()
        shutil.rmtree(tmp)
