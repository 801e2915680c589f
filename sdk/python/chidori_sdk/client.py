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
from .models import Checkpoint, Session, SignalQueued
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


def _with_input(view: Any, input: Any) -> Any:
    """A view without `input` (a server that leaves it out) gets the input the client sent."""
    if isinstance(view, dict) and "input" not in view:
        view["input"] = input
    return view


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
    """A client of one `chidori serve`. Keyword names of the original SDK are accepted too:
    timeout_seconds (for timeout; 0 means no timeout) and retry_delay_seconds (for retry_delay).
    Headers given in `headers` are sent last, so an explicit Authorization there wins over
    api_key."""

    def __init__(self, base_url: str = "http://127.0.0.1:8080", api_key: Optional[str] = None,
                 timeout: Optional[float] = 300.0, retries: int = 2, retry_delay: float = 0.25,
                 headers: Optional[Dict[str, str]] = None, *, timeout_seconds: Optional[float] = None,
                 retry_delay_seconds: Optional[float] = None) -> None:
        url = urllib.parse.urlsplit(base_url)
        if url.scheme not in ("http", "https") or not url.hostname:
            raise ValueError("AgentClient: base_url must be an http:// or https:// URL")
        self.base_url = base_url.rstrip("/")
        self._scheme = url.scheme
        self._host = url.hostname
        self._port = url.port
        self._prefix = url.path.rstrip("/")
        self.api_key = api_key
        if timeout_seconds is not None:
            timeout = timeout_seconds
        self.timeout = None if not timeout else timeout  # None (or 0): no timeout
        self.retries = max(0, retries)
        self.retry_delay = retry_delay if retry_delay_seconds is None else retry_delay_seconds
        self.headers = dict(headers or {})

    @property
    def timeout_seconds(self) -> float:
        """The original SDK's name for `timeout` (0: none)."""
        return self.timeout or 0

    @property
    def retry_delay_seconds(self) -> float:
        return self.retry_delay

    # ---- the API ----

    def health(self) -> Any:
        """GET /health (no auth needed by the server)."""
        return self._request("GET", "/health")

    def run(self, input: Any = None, policy_profile: Optional[str] = None, session_id: Optional[str] = None,
            wait: Optional[bool] = None, wait_timeout: Optional[float] = None) -> Session:
        """POST /sessions: starts a session and returns its view. The server answers once the run
        has settled (completed, failed, cancelled, paused, awaitingapproval); wait=True also polls
        a session still running until it settles; wait=False asks the server to answer at once
        (status "running"). resume, approve and replay take the same argument."""
        body = self._session_body(input, policy_profile, session_id)
        session = self._request("POST", "/sessions", {**body, **_wait_field(wait)})
        return self._maybe_wait(_with_input(session, body["input"]), wait, wait_timeout)

    def stream(self, input: Any = None, policy_profile: Optional[str] = None, session_id: Optional[str] = None,
               timeout: Optional[float] = None) -> Iterator[StreamEvent]:
        """POST /sessions/stream: starts a session and yields its events until `done`."""
        return self._events("POST", "/sessions/stream", self._session_body(input, policy_profile, session_id), timeout)

    def attach(self, session_id: str, timeout: Optional[float] = None) -> Iterator[StreamEvent]:
        """GET /sessions/{id}/stream: the session's past events, then live ones until `done`."""
        return self._events("GET", f"/sessions/{self._id(session_id)}/stream", None, timeout)

    def resume(self, session_id: str, response: str, wait: Optional[bool] = None,
               wait_timeout: Optional[float] = None) -> Session:
        """POST /sessions/{id}/resume: answers the pending input of a paused session."""
        session = self._request("POST", f"/sessions/{self._id(session_id)}/resume",
                                {"response": response, **_wait_field(wait)})
        return self._maybe_wait(session, wait, wait_timeout)

    def approve(self, session_id: str, decision: str = "allow", wait: Optional[bool] = None,
                wait_timeout: Optional[float] = None) -> Session:
        """POST /sessions/{id}/approve with decision "allow" or "deny"."""
        if decision not in ("allow", "deny"):
            raise ValueError('approve: decision must be "allow" or "deny"')
        session = self._request("POST", f"/sessions/{self._id(session_id)}/approve",
                                {"decision": decision, **_wait_field(wait)})
        return self._maybe_wait(session, wait, wait_timeout)

    def signal(self, session_id: str, name: str, payload: Any = None, from_: Any = None) -> "Session | SignalQueued":
        """POST /sessions/{id}/signal {name, payload, from}: a Session when the signal resolved
        the pause the run waited on, a SignalQueued when it was queued (202) or delivered to a
        live run. (A server without the signal route answers 404: HttpError.)"""
        status, data = self._request_with_status("POST", f"/sessions/{self._id(session_id)}/signal",
                                                 {"name": name, "payload": payload, "from": from_})
        if not isinstance(data, dict):
            raise ChidoriError(f"POST /sessions/{session_id}/signal: unexpected answer {data!r}")
        if status == 202 or data.get("status") in ("queued", "delivered_live"):
            return SignalQueued(id=data.get("id", session_id), name=data.get("name", name),
                                delivery_seq=data.get("delivery_seq"), status=data.get("status", "queued"))
        return Session.from_view(data, self)

    def cancel(self, session_id: str) -> Session:
        """POST /sessions/{id}/cancel."""
        return self._session(self._request("POST", f"/sessions/{self._id(session_id)}/cancel", {}))

    def replay(self, source: Any, wait: Optional[bool] = None, wait_timeout: Optional[float] = None) -> Session:
        """A new session that replays a recorded one.

        replay(checkpoint): POST /sessions {input, replay_from: checkpoint.call_log} (a Checkpoint,
        or a dict with input and call_log): the recorded calls answer from the log, calls past its
        end run live. replay(session_id): POST /sessions/{id}/replay, the stored session's input
        and log again."""
        if isinstance(source, str):
            session = self._request("POST", f"/sessions/{self._id(source)}/replay", _wait_field(wait))
            return self._maybe_wait(session, wait, wait_timeout)
        if isinstance(source, dict):
            inp, log = source.get("input"), source.get("call_log")
        else:
            inp, log = getattr(source, "input", None), getattr(source, "call_log", None)
        if not isinstance(log, list):
            raise ValueError("replay: expected a session id or a checkpoint with a call_log list")
        body = {"input": {} if inp is None else inp, "replay_from": log, **_wait_field(wait)}
        return self._maybe_wait(_with_input(self._request("POST", "/sessions", body), body["input"]), wait, wait_timeout)

    def get_session(self, session_id: str) -> Session:
        """GET /sessions/{id}."""
        return self._session(self._request("GET", f"/sessions/{self._id(session_id)}"))

    def list_sessions(self) -> List[Dict[str, Any]]:
        """GET /sessions: the list (whether or not the server wraps it in {"sessions": ...})."""
        body = self._request("GET", "/sessions")
        if isinstance(body, list):
            return body
        if isinstance(body, dict) and isinstance(body.get("sessions"), list):
            return body["sessions"]
        raise ChidoriError("GET /sessions: unexpected answer (no sessions list)")

    def get_checkpoint(self, session_id: str) -> Checkpoint:
        """GET /sessions/{id}/checkpoint: the session's call log, as a Checkpoint (also a dict
        of what the server sent)."""
        return Checkpoint.from_server(session_id, self._request("GET", f"/sessions/{self._id(session_id)}/checkpoint"))

    def get_snapshot_manifest(self, session_id: str) -> Dict[str, Any]:
        """GET /sessions/{id}/snapshot: the run's snapshot manifest (metadata only)."""
        body = self._request("GET", f"/sessions/{self._id(session_id)}/snapshot")
        if not isinstance(body, dict) or "snapshot_manifest" not in body:
            raise ChidoriError(f"GET /sessions/{session_id}/snapshot: unexpected answer (no snapshot_manifest)")
        return body["snapshot_manifest"]

    def wait_for(self, session_id: str, timeout: Optional[float] = None) -> Session:
        """Polls the session until it settles; ChidoriTimeoutError after `timeout` seconds (the
        client's timeout by default; None when that is none: no limit)."""
        limit = self.timeout if timeout is None else timeout
        deadline = None if not limit else time.monotonic() + limit
        delay = 0.025
        while True:
            session = self.get_session(session_id)
            if session.get("status") in SETTLED_STATUSES:
                return session
            if deadline is not None and time.monotonic() + delay > deadline:
                raise ChidoriTimeoutError(f"session {session_id} still {session.get('status')} after {limit} s")
            time.sleep(delay)
            delay = min(delay * 2, 0.5)

    # ---- plumbing ----

    def _session(self, view: Any) -> Any:
        return Session.from_view(view, self) if isinstance(view, dict) else view

    def _maybe_wait(self, session: Any, wait: Optional[bool], wait_timeout: Optional[float]) -> Any:
        if wait and isinstance(session, dict) and session.get("status") not in SETTLED_STATUSES:
            return self.wait_for(session["id"], wait_timeout)
        return self._session(session)

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
        h = {"Accept": accept}
        if has_body:
            h["Content-Type"] = "application/json"
        if self.api_key and not any(k.lower() == "authorization" for k in self.headers):
            h["Authorization"] = f"Bearer {self.api_key}"
        h.update(self.headers)
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
            raise ChidoriTimeoutError(f"{what}: could not connect within {timeout} s", method, path, timeout) from e
        except OSError as e:
            conn.close()
            raise ChidoriConnectionError(f"{what}: {e}", True, method, path, e) from e
        payload = None if body is None else json.dumps(body).encode("utf-8")
        try:
            conn.request(method, self._prefix + path, body=payload, headers=self._headers(payload is not None, accept))
            return conn, conn.getresponse()
        except (socket.timeout, TimeoutError) as e:
            conn.close()
            raise ChidoriTimeoutError(f"{what}: no answer within {timeout} s", method, path, timeout) from e
        except (OSError, http.client.HTTPException) as e:
            conn.close()
            raise ChidoriConnectionError(f"{what}: {type(e).__name__}: {e}", False, method, path, e) from e

    def _request(self, method: str, path: str, body: Any = None) -> Any:
        return self._request_with_status(method, path, body)[1]

    def _request_with_status(self, method: str, path: str, body: Any = None):
        idempotent = method in ("GET", "HEAD")
        what = f"{method} {path}"
        attempt = 0
        while True:
            try:
                conn, resp = self._open(method, path, body, "application/json", self.timeout)
                try:
                    raw = resp.read()
                except (socket.timeout, TimeoutError) as e:
                    raise ChidoriTimeoutError(f"{what}: the answer stalled for {self.timeout} s", method, path,
                                              self.timeout) from e
                except (OSError, http.client.HTTPException) as e:
                    raise ChidoriConnectionError(f"{what}: {type(e).__name__}: {e}", False, method, path, e) from e
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
                return resp.status, parsed
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
