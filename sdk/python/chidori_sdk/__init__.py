"""chidori_sdk — a client for the `chidori serve` HTTP API (standard library only).

    from chidori_sdk import AgentClient
    client = AgentClient("http://127.0.0.1:8080", api_key="...")
    session = client.run({"name": "Ada"}, wait=True)
"""
from .client import SETTLED_STATUSES, AgentClient
from .errors import ChidoriConnectionError, ChidoriError, ChidoriTimeoutError, HttpError
from .events import (AwaitingApprovalEvent, CallEvent, DoneEvent, PausedEvent, PromptDeltaEvent,
                     StreamEvent, typed_event)
from .sse import SseMessage, SseParser

TimeoutError = ChidoriTimeoutError  # noqa: A001 (the package's name for it; also a builtin TimeoutError)
ConnectionError = ChidoriConnectionError  # noqa: A001

__all__ = [
    "AgentClient", "SETTLED_STATUSES",
    "ChidoriError", "HttpError", "ChidoriTimeoutError", "ChidoriConnectionError", "TimeoutError", "ConnectionError",
    "StreamEvent", "CallEvent", "PromptDeltaEvent", "PausedEvent", "AwaitingApprovalEvent", "DoneEvent",
    "typed_event", "SseParser", "SseMessage",
]
