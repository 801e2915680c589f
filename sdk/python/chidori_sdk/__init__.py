"""chidori_sdk — a client for the `chidori serve` HTTP API (standard library only).

    from chidori_sdk import AgentClient
    client = AgentClient("http://127.0.0.1:8080", api_key="...")
    session = client.run({"name": "Ada"}, wait=True)
    print(session.status, session["output"])

The same package is importable as `chidori`, with the original chidori SDK's names
(AgentClient, Session, Checkpoint, SignalQueued, AgentClientError, HttpError, TimeoutError,
ConnectionError).
"""
from .client import SETTLED_STATUSES, AgentClient
from .errors import AgentClientError, ChidoriConnectionError, ChidoriError, ChidoriTimeoutError, HttpError
from .events import (AwaitingApprovalEvent, CallEvent, DoneEvent, PausedEvent, PromptDeltaEvent,
                     StreamEvent, typed_event)
from .models import Checkpoint, Session, SignalQueued
from .sse import SseMessage, SseParser

TimeoutError = ChidoriTimeoutError  # noqa: A001 (the package's name for it; also a builtin TimeoutError)
ConnectionError = ChidoriConnectionError  # noqa: A001

__all__ = [
    "AgentClient", "SETTLED_STATUSES", "Session", "Checkpoint", "SignalQueued",
    "ChidoriError", "AgentClientError", "HttpError", "ChidoriTimeoutError", "ChidoriConnectionError",
    "TimeoutError", "ConnectionError",
    "StreamEvent", "CallEvent", "PromptDeltaEvent", "PausedEvent", "AwaitingApprovalEvent", "DoneEvent",
    "typed_event", "SseParser", "SseMessage",
]
