"""models.py — what the client hands back: Session, Checkpoint and SignalQueued.

A Session is the server's session view (a dict, exactly as sent, so `s["status"]` keeps working)
that also reads as attributes (`s.status`, `s.pending_prompt`, `s.ok`), with the attribute names
of the original chidori SDK; a field the server did not send reads as its default (None, or an
empty list for the list fields). A Checkpoint is a session's call log plus its input, savable to
a JSON file and loadable again (the file holds session_id, input, call_log, snapshot_manifest).
Nothing here talks to the network except through the client a Session was made by.
"""
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, Optional

# Fields of a session the original SDK exposes, and what they read as when the server omits them.
_SESSION_DEFAULTS: Dict[str, Any] = {
    "input": dict, "output": None, "error": None, "call_log": list, "pending_seq": None,
    "pending_prompt": None, "pending_details": None, "run_id": None, "pending_signal_name": None,
    "pending_signal_names": list, "pending_signal_deadline": None, "snapshot_manifest": None,
    # this server's own fields
    "call_count": None, "pending_approval": None, "policy_profile": None, "created_at": None,
    "replayed_from": None,
}


def _default(table: Dict[str, Any], name: str) -> Any:
    d = table[name]
    return d() if callable(d) else d


class _AttrDict(dict):
    """A dict whose keys also read (and write) as attributes; names starting with _ are plain
    attributes of the object, never keys."""

    _DEFAULTS: Dict[str, Any] = {}

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        if name in self:
            return self[name]
        if name in self._DEFAULTS:
            return _default(self._DEFAULTS, name)
        raise AttributeError(f"{type(self).__name__} has no field {name!r}")

    def __setattr__(self, name: str, value: Any) -> None:
        if name.startswith("_"):
            object.__setattr__(self, name, value)
        else:
            self[name] = value


class Session(_AttrDict):
    """One session: the server's view, readable as a dict or through attributes.

    Made by the client; `Session(id, status, input, output=None, error=None, call_log=None, ...)`
    (the original SDK's field order) builds one by hand."""

    _DEFAULTS = _SESSION_DEFAULTS
    _FIELDS = ("id", "status", "input", "output", "error", "call_log", "pending_seq", "pending_prompt",
               "pending_details", "run_id", "pending_signal_name", "pending_signal_names",
               "pending_signal_deadline", "snapshot_manifest")

    def __init__(self, *args: Any, _client: Any = None, **fields: Any) -> None:
        super().__init__()
        if len(args) > len(self._FIELDS):
            raise TypeError(f"Session takes at most {len(self._FIELDS)} positional fields")
        for name, value in zip(self._FIELDS, args):
            fields[name] = value
        for name, value in fields.items():
            if value is not None or name in ("id", "status"):
                self[name] = value
        self._client = _client

    @classmethod
    def from_view(cls, view: Any, client: Any = None) -> "Session":
        s = cls(_client=client)
        if isinstance(view, dict):
            dict.update(s, view)
        return s

    @property
    def ok(self) -> bool:
        """True when the session completed."""
        return self.get("status") == "completed"

    def checkpoint(self) -> "Checkpoint":
        """The session's checkpoint; its call log (and snapshot manifest) are fetched from the
        server unless this session already holds them."""
        if (not self.get("call_log") or self.get("snapshot_manifest") is None) and self._client is not None:
            cp = self._client.get_checkpoint(self["id"])
            self["call_log"] = cp.call_log
            self["snapshot_manifest"] = cp.snapshot_manifest
            if "input" not in self:
                self["input"] = cp.input
        return Checkpoint(self.get("id"), self.input, self.call_log, self.get("snapshot_manifest"))

    def replay(self, **kwargs: Any) -> "Session":
        """A new session replaying this one's call log (client.replay(self.checkpoint()))."""
        if self._client is None:
            raise RuntimeError("Session not connected to a client: use client.replay(checkpoint)")
        return self._client.replay(self.checkpoint(), **kwargs)


class Checkpoint(_AttrDict):
    """A session's call log, with its input and (when the server has one) its snapshot manifest.

    `Checkpoint(session_id, input, call_log, snapshot_manifest=None)`; from the server it also
    keeps whatever else the checkpoint route sent (`cp["id"]`, `cp["status"]` ...)."""

    _DEFAULTS = {"input": dict, "call_log": list, "snapshot_manifest": None, "session_id": None}

    def __init__(self, session_id: Optional[str] = None, input: Any = None, call_log: Any = None,
                 snapshot_manifest: Any = None) -> None:
        super().__init__()
        self["session_id"] = session_id
        self["input"] = {} if input is None else input
        self["call_log"] = [] if call_log is None else call_log
        self["snapshot_manifest"] = snapshot_manifest

    @classmethod
    def from_server(cls, session_id: str, body: Any) -> "Checkpoint":
        body = body if isinstance(body, dict) else {}
        cp = cls(session_id, body.get("input"), body.get("call_log"), body.get("snapshot_manifest"))
        for k, v in body.items():
            if k not in cp or cp[k] is None:
                dict.__setitem__(cp, k, v)
        return cp

    def to_json(self) -> Dict[str, Any]:
        """What save() writes: session_id, input, call_log, snapshot_manifest."""
        return {"session_id": self.session_id, "input": self.input, "call_log": self.call_log,
                "snapshot_manifest": self.snapshot_manifest}

    def save(self, path: "str | Path") -> None:
        """Writes the checkpoint to a JSON file."""
        Path(path).write_text(json.dumps(self.to_json(), indent=2))

    @classmethod
    def load(cls, path: "str | Path") -> "Checkpoint":
        """Reads a file written by save() (or by the original SDK)."""
        data = json.loads(Path(path).read_text())
        if not isinstance(data, dict) or not isinstance(data.get("call_log"), list):
            raise ValueError(f"{path}: not a checkpoint (no call_log list)")
        return cls(data.get("session_id"), data.get("input"), data["call_log"], data.get("snapshot_manifest"))


@dataclass
class SignalQueued:
    """The answer of signal() when the signal did not resolve a pause at once: it waits in the
    run's mailbox ("queued") or went to a live run ("delivered_live")."""

    id: str
    name: str
    delivery_seq: int
    status: str = "queued"
