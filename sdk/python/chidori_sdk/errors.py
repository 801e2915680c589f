"""errors.py — the typed errors the client raises. Owns nothing else.

Every failure of a request is one of three classes, all subclasses of ChidoriError (itself a
RuntimeError, and also exported as AgentClientError, the original SDK's name):
  HttpError               the server answered with a status outside 2xx
  ChidoriTimeoutError     no answer (on a stream: no bytes) within `timeout`; also a builtin TimeoutError
  ChidoriConnectionError  the server could not be reached, or the connection broke; also a builtin
                          ConnectionError
The package exports the last two under the names TimeoutError and ConnectionError as well.
"""
import builtins
from typing import Any, Optional


class ChidoriError(RuntimeError):
    """Base class of the client's errors (a RuntimeError, as the original SDK's were)."""


AgentClientError = ChidoriError


class HttpError(ChidoriError):
    """A non-2xx answer. `status`, `body` (parsed JSON, or text), `error` (the server's message
    from {"error": "..."}, or None; also `detail`), `retry_after` (seconds, from Retry-After, or
    None), `method` and `path`."""

    def __init__(self, status: int, body: Any, method: str = "", path: str = "",
                 retry_after: Optional[float] = None):
        self.status = status
        self.body = body
        self.error = body.get("error") if isinstance(body, dict) and isinstance(body.get("error"), str) else None
        self.detail = self.error
        self.retry_after = retry_after
        self.method = method
        self.path = path
        text = self.error or (body[:200] if isinstance(body, str) and body else f"HTTP {status}")
        prefix = f"{method} {path}: " if method else ""
        super().__init__(f"{prefix}{status} {text}")


class ChidoriTimeoutError(ChidoriError, builtins.TimeoutError):
    """No answer within the client's timeout. `method`, `path` and `timeout_seconds` say which
    request and how long (None when the wait was not a request's, e.g. wait_for)."""

    def __init__(self, message: str, method: Optional[str] = None, path: Optional[str] = None,
                 timeout_seconds: Optional[float] = None):
        super().__init__(message)
        self.method = method
        self.path = path
        self.timeout_seconds = timeout_seconds


class ChidoriConnectionError(ChidoriError, builtins.ConnectionError):
    """The server could not be reached, or the connection broke mid-answer. `not_sent` is True
    when the connection never opened (nothing of the request was sent); `reason` is the
    underlying error, `method` and `path` the request."""

    def __init__(self, message: str, not_sent: bool = False, method: Optional[str] = None,
                 path: Optional[str] = None, reason: Any = None):
        super().__init__(message)
        self.not_sent = not_sent
        self.method = method
        self.path = path
        self.reason = reason
