"""events.py — the typed events a session stream yields.

Every event has `type` (the SSE event name), `data` (the parsed JSON payload, or the text when it
is not JSON) and `id` (the SSE id, or None). The subclasses add accessors for their payloads.

An event also reads as the dict the original SDK yielded: `ev["type"]`, `ev["record"]` for a
call, and the payload's own fields for the others (`ev["status"]`, `ev["output"]`,
`ev["delta"]`, `ev["id"]` — the session's id, not the SSE id); `as_dict()` gives that dict.
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

    def as_dict(self) -> dict:
        """The event as the original SDK's dict: {"type": "call", "record": ...}, or the payload's
        fields with "type" (a payload that is not an object comes as "data")."""
        if self.type == "call":
            return {"type": "call", "record": self.data}
        if isinstance(self.data, dict):
            return {**self.data, "type": self.type}
        return {"type": self.type, "data": self.data}

    def __getitem__(self, key: str) -> Any:
        return self.as_dict()[key]

    def __contains__(self, key: object) -> bool:
        return key in self.as_dict()

    def get(self, key: str, default: Any = None) -> Any:
        return self.as_dict().get(key, default)

    def keys(self):
        return self.as_dict().keys()

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
