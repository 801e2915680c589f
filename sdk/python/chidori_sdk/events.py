"""events.py — the typed events a session stream yields.

Every event has `type` (the SSE event name), `data` (the parsed JSON payload, or the text when it
is not JSON) and `id` (the SSE id, or None). The subclasses add accessors for their payloads.
"""
import json
from dataclasses import dataclass
from typing import Any, Optional

from .sse import SseMessage


@dataclass(frozen=True)
class StreamEvent:
    type: str
    data: Any
    id: Optional[str] = None

    @property
    def status(self) -> Optional[str]:
        """The session status the payload carries, if any."""
        if isinstance(self.data, dict) and isinstance(self.data.get("status"), str):
            return self.data["status"]
        return None


@dataclass(frozen=True)
class CallEvent(StreamEvent):
    """One call record of the session's log."""

    @property
    def record(self) -> Any:
        return self.data


@dataclass(frozen=True)
class PromptDeltaEvent(StreamEvent):
    """A piece of a streamed LLM reply."""

    @property
    def delta(self) -> str:
        if isinstance(self.data, dict):
            d = self.data.get("delta")
            return d if isinstance(d, str) else ""
        return str(self.data)


@dataclass(frozen=True)
class PausedEvent(StreamEvent):
    """The session waits for an input (answer it with resume)."""


@dataclass(frozen=True)
class AwaitingApprovalEvent(StreamEvent):
    """The session waits for an approval (settle it with approve)."""


@dataclass(frozen=True)
class DoneEvent(StreamEvent):
    """The last event of a stream; `status` says how the session settled."""


_CLASSES = {
    "call": CallEvent,
    "prompt_delta": PromptDeltaEvent,
    "paused": PausedEvent,
    "awaitingapproval": AwaitingApprovalEvent,
    "done": DoneEvent,
}


def typed_event(msg: SseMessage) -> StreamEvent:
    try:
        data: Any = json.loads(msg.data)
    except ValueError:
        data = msg.data
    cls = _CLASSES.get(msg.event, StreamEvent)
    return cls(type=msg.event, data=data, id=msg.id or None)
