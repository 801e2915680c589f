"""client.py — AgentClient: a small HTTP client for `chidori serve` (the session API).

Standard library only (http.client). What it owns: building requests (bearer auth, JSON bodies),
timeouts, the retry rule, mapping failures to the typed errors of errors.py, and reading
Server-Sent Events streams into typed events. It trusts the server only to speak HTTP: bodies
that are not JSON come back as text; error messages are taken from {"error": "..."} when present.

Retry rule: a request is sent again (with exponential backoff) only when sending it twice cannot
do anything twice: a GET (after a connection failure, a timeout, or a 429/502/503/504 answer),
or any request whose connection could not be opened (nothing of it was sent). A POST that reached
the server is never sent again.

`timeout` is in seconds and bounds each wait for the server (connecting, and each read): a
server that keeps sending keep-alives on a stream never times it out.
"""
import http.client
import json
import random
import socket
import time
import urllib.parse
from email.utils import parsedate_to_datetime
from typing import Any, Dict, Iterator, List, Optional

from .errors import ChidoriConnectionError, ChidoriError, ChidoriTimeoutError, HttpError
from .events import StreamEvent, typed_event
from .sse import SseParser

SETTLED_STATUSES = ("completed", "failed", "cancelled", "paused", "awaitingapproval")
_RETRY_STATUSES = (429, 502, 503, 504)
_MAX_BACKOFF = 5.0
_CHUNK = 65536


def _parse_body(raw: bytes) -> Any:
    if not raw:
        return None
    text = raw.decode("utf-8", "replace")
    try:
        return json.loads(text)
    except ValueError:
        return text


def _wait_field(wait: Optional[bool]) -> Dict[str, Any]:
    """wait=False is passed on (the server then answers at once); otherwise nothing is sent and
    the server's default (answer once settled) holds."""
    return {"wait": False} if wait is False else {}


def _retry_after(resp: http.client.HTTPResponse) -> Optional[float]:
    h = resp.getheader("Retry-After")
    if not h:
        return None
    try:
        secs = float(h)
        return secs if secs >= 0 else None
    except ValueError:
        pass
    try:
        return max(0.0, parsedate_to_datetime(h).timestamp() - time.time())
    except (TypeError, ValueError):
        return None


class AgentClient:
    def __init__(self, base_url: str = "http://127.0.0.1:8080", api_key: Optional[str] = None,
                 timeout: float = 300.0, retries: int = 2, retry_delay: float = 0.25,
                 headers: Optional[Dict[str, str]] = None) -> None:
        url = urllib.parse.urlsplit(base_url)
        if url.scheme not in ("http", "https") or not url.hostname:
            raise ValueError("AgentClient: base_url must be an http:// or https:// URL")
        self.base_url = base_url.rstrip("/")
        self._scheme = url.scheme
        self._host = url.hostname
        self._port = url.port
        self._prefix = url.path.rstrip("/")
        self.api_key = api_key
        self.timeout = timeout
        self.retries = max(0, retries)
        self.retry_delay = retry_delay
        self.headers = dict(headers or {})

    # ---- the API ----

    def health(self) -> Any:
        """GET /health (no auth needed by the server)."""
        return self._request("GET", "/health")

    def run(self, input: Any = None, policy_profile: Optional[str] = None, session_id: Optional[str] = None,
            wait: Optional[bool] = None, wait_timeout: Optional[float] = None) -> Dict[str, Any]:
        """POST /sessions: starts a session and returns its view. The server answers once the run
        has settled (completed, failed, cancelled, paused, awaitingapproval); wait=True also polls
        a session still running until it settles; wait=False asks the server to answer at once
        (status "running"). resume, approve and replay take the same argument."""
        body = self._session_body(input, policy_profile, session_id)
        session = self._request("POST", "/sessions", {**body, **_wait_field(wait)})
        return self._maybe_wait(session, wait, wait_timeout)

    def stream(self, input: Any = None, policy_profile: Optional[str] = None, session_id: Optional[str] = None,
               timeout: Optional[float] = None) -> Iterator[StreamEvent]:
        """POST /sessions/stream: starts a session and yields its events until `done`."""
        return self._events("POST", "/sessions/stream", self._session_body(input, policy_profile, session_id), timeout)

    def attach(self, session_id: str, timeout: Optional[float] = None) -> Iterator[StreamEvent]:
        """GET /sessions/{id}/stream: the session's past events, then live ones until `done`."""
        return self._events("GET", f"/sessions/{self._id(session_id)}/stream", None, timeout)

    def resume(self, session_id: str, response: str, wait: Optional[bool] = None,
               wait_timeout: Optional[float] = None) -> Dict[str, Any]:
        """POST /sessions/{id}/resume: answers the pending input of a paused session."""
        session = self._request("POST", f"/sessions/{self._id(session_id)}/resume",
                                {"response": response, **_wait_field(wait)})
        return self._maybe_wait(session, wait, wait_timeout)

    def approve(self, session_id: str, decision: str = "allow", wait: Optional[bool] = None,
                wait_timeout: Optional[float] = None) -> Dict[str, Any]:
        """POST /sessions/{id}/approve with decision "allow" or "deny"."""
        if decision not in ("allow", "deny"):
            raise ValueError('approve: decision must be "allow" or "deny"')
        session = self._request("POST", f"/sessions/{self._id(session_id)}/approve",
                                {"decision": decision, **_wait_field(wait)})
        return self._maybe_wait(session, wait, wait_timeout)

    def cancel(self, session_id: str) -> Any:
        """POST /sessions/{id}/cancel."""
        return self._request("POST", f"/sessions/{self._id(session_id)}/cancel", {})

    def replay(self, session_id: str, wait: Optional[bool] = None,
               wait_timeout: Optional[float] = None) -> Dict[str, Any]:
        """POST /sessions/{id}/replay: re-runs the stored input and call log as a new session."""
        session = self._request("POST", f"/sessions/{self._id(session_id)}/replay", _wait_field(wait))
        return self._maybe_wait(session, wait, wait_timeout)

    def get_session(self, session_id: str) -> Dict[str, Any]:
        """GET /sessions/{id}."""
        return self._request("GET", f"/sessions/{self._id(session_id)}")

    def list_sessions(self) -> List[Dict[str, Any]]:
        """GET /sessions: the list (whether or not the server wraps it in {"sessions": ...})."""
        body = self._request("GET", "/sessions")
        if isinstance(body, list):
            return body
        if isinstance(body, dict) and isinstance(body.get("sessions"), list):
            return body["sessions"]
        raise ChidoriError("GET /sessions: unexpected answer (no sessions list)")

    def get_checkpoint(self, session_id: str) -> Any:
        """GET /sessions/{id}/checkpoint: the session's call log."""
        return self._request("GET", f"/sessions/{self._id(session_id)}/checkpoint")

    def wait_for(self, session_id: str, timeout: Optional[float] = None) -> Dict[str, Any]:
        """Polls the session until it settles; ChidoriTimeoutError after `timeout` seconds."""
        limit = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + limit
        delay = 0.025
        while True:
            session = self.get_session(session_id)
            if session.get("status") in SETTLED_STATUSES:
                return session
            if time.monotonic() + delay > deadline:
                raise ChidoriTimeoutError(f"session {session_id} still {session.get('status')} after {limit} s")
            time.sleep(delay)
            delay = min(delay * 2, 0.5)

    # ---- plumbing ----

    def _maybe_wait(self, session: Any, wait: Optional[bool], wait_timeout: Optional[float]) -> Any:
        if wait and isinstance(session, dict) and session.get("status") not in SETTLED_STATUSES:
            return self.wait_for(session["id"], wait_timeout)
        return session

    @staticmethod
    def _session_body(input: Any, policy_profile: Optional[str], session_id: Optional[str]) -> Dict[str, Any]:
        body: Dict[str, Any] = {"input": {} if input is None else input}
        if policy_profile is not None:
            body["policy_profile"] = policy_profile
        if session_id is not None:
            body["session_id"] = session_id
        return body

    @staticmethod
    def _id(session_id: str) -> str:
        if not isinstance(session_id, str) or not session_id:
            raise ValueError("a session id must be a non-empty string")
        return urllib.parse.quote(session_id, safe="")

    def _headers(self, has_body: bool, accept: str) -> Dict[str, str]:
        h = {"Accept": accept, **self.headers}
        if has_body:
            h["Content-Type"] = "application/json"
        if self.api_key:
            h["Authorization"] = f"Bearer {self.api_key}"
        return h

    def _backoff(self, attempt: int) -> float:
        base = self.retry_delay * (2 ** attempt)
        return min(_MAX_BACKOFF, base + random.random() * base * 0.25)

    def _connection(self, timeout: float) -> http.client.HTTPConnection:
        cls = http.client.HTTPSConnection if self._scheme == "https" else http.client.HTTPConnection
        return cls(self._host, self._port, timeout=timeout)

    def _open(self, method: str, path: str, body: Any, accept: str, timeout: float):
        """Connects and sends; returns (connection, response). Raises the typed errors; a
        ChidoriConnectionError with not_sent=True when the connection never opened."""
        what = f"{method} {path}"
        conn = self._connection(timeout)
        try:
            conn.connect()
        except (socket.timeout, TimeoutError) as e:
            conn.close()
            raise ChidoriTimeoutError(f"{what}: could not connect within {timeout} s") from e
        except OSError as e:
            conn.close()
            raise ChidoriConnectionError(f"{what}: {e}", not_sent=True) from e
        payload = None if body is None else json.dumps(body).encode("utf-8")
        try:
            conn.request(method, self._prefix + path, body=payload, headers=self._headers(payload is not None, accept))
            return conn, conn.getresponse()
        except (socket.timeout, TimeoutError) as e:
            conn.close()
            raise ChidoriTimeoutError(f"{what}: no answer within {timeout} s") from e
        except (OSError, http.client.HTTPException) as e:
            conn.close()
            raise ChidoriConnectionError(f"{what}: {type(e).__name__}: {e}") from e

    def _request(self, method: str, path: str, body: Any = None) -> Any:
        idempotent = method in ("GET", "HEAD")
        what = f"{method} {path}"
        attempt = 0
        while True:
            try:
                conn, resp = self._open(method, path, body, "application/json", self.timeout)
                try:
                    raw = resp.read()
                except (socket.timeout, TimeoutError) as e:
                    raise ChidoriTimeoutError(f"{what}: the answer stalled for {self.timeout} s") from e
                except (OSError, http.client.HTTPException) as e:
                    raise ChidoriConnectionError(f"{what}: {type(e).__name__}: {e}") from e
                finally:
                    conn.close()
            except (ChidoriTimeoutError, ChidoriConnectionError) as e:
                not_sent = getattr(e, "not_sent", False)
                if attempt < self.retries and (idempotent or not_sent):
                    time.sleep(self._backoff(attempt))
                    attempt += 1
                    continue
                raise
            parsed = _parse_body(raw)
            if 200 <= resp.status < 300:
                return parsed
            wait = _retry_after(resp)
            err = HttpError(resp.status, parsed, method, path, wait)
            if idempotent and resp.status in _RETRY_STATUSES and attempt < self.retries:
                time.sleep(min(_MAX_BACKOFF, max(self._backoff(attempt), wait or 0.0)))
                attempt += 1
                continue
            raise err

    def _events(self, method: str, path: str, body: Any, timeout: Optional[float]) -> Iterator[StreamEvent]:
        idle = self.timeout if timeout is None else timeout
        idempotent = method == "GET"
        what = f"{method} {path}"
        attempt = 0
        while True:
            try:
                conn, resp = self._open(method, path, body, "text/event-stream", idle)
            except (ChidoriTimeoutError, ChidoriConnectionError) as e:
                if attempt < self.retries and (idempotent or getattr(e, "not_sent", False)):
                    time.sleep(self._backoff(attempt))
                    attempt += 1
                    continue
                raise
            if 200 <= resp.status < 300:
                break
            try:
                raw = resp.read()
            except (OSError, http.client.HTTPException):
                raw = b""
            finally:
                conn.close()
            wait = _retry_after(resp)
            err = HttpError(resp.status, _parse_body(raw), method, path, wait)
            if idempotent and resp.status in _RETRY_STATUSES and attempt < self.retries:
                time.sleep(min(_MAX_BACKOFF, max(self._backoff(attempt), wait or 0.0)))
                attempt += 1
                continue
            raise err
        return self._read_events(conn, resp, what, idle)

    @staticmethod
    def _read_events(conn, resp, what: str, idle: float) -> Iterator[StreamEvent]:
        parser = SseParser()
        try:
            while True:
                try:
                    chunk = resp.read1(_CHUNK)
                except (socket.timeout, TimeoutError) as e:
                    raise ChidoriTimeoutError(f"{what}: the stream was silent for {idle} s") from e
                except (OSError, http.client.HTTPException) as e:
                    raise ChidoriConnectionError(f"{what}: {type(e).__name__}: {e}") from e
                messages = parser.push(chunk) if chunk else parser.end()
                for msg in messages:
                    ev = typed_event(msg)
                    yield ev
                    if ev.type == "done":
                        return
                if not chunk:
                    raise ChidoriConnectionError(f"{what}: the event stream ended before its done event")
        finally:
            conn.close()
