"""sse.py — a Server-Sent Events parser (text/event-stream), incremental, transport-free.

The format's rules: lines end in CRLF, LF or CR (a CR ending one chunk and an LF starting the next
are one line end); lines starting with ":" are comments (keep-alives); "field: value" loses one
leading space; `data` lines join with "\\n"; `event` names the event (default "message"); `id`
sets the last event id unless it contains NUL; `retry` takes digits only; a blank line dispatches
and an event without data is dropped; a leading byte-order mark is skipped. Nothing parsed here
is evaluated.
"""
import codecs
from dataclasses import dataclass
from typing import List, Optional


@dataclass(frozen=True)
class SseMessage:
    event: str
    data: str
    id: str


class SseParser:
    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._buffer = ""
        self._saw_cr = False
        self._started = False
        self._event = ""
        self._data: List[str] = []
        self.last_event_id = ""
        self.retry: Optional[int] = None

    def push(self, chunk) -> List[SseMessage]:
        """Feeds bytes or text; returns the messages it completed."""
        text = chunk if isinstance(chunk, str) else self._decoder.decode(chunk)
        return self._push_text(text)

    def end(self) -> List[SseMessage]:
        """Ends the stream; an event not closed by a blank line is discarded."""
        rest = self._decoder.decode(b"", final=True)
        out = self._push_text(rest) if rest else []
        self._buffer = ""
        self._event, self._data = "", []
        return out

    def _push_text(self, text: str) -> List[SseMessage]:
        if not self._started and text:
            self._started = True
            if text[0] == "\ufeff":
                text = text[1:]
        if self._saw_cr and text.startswith("\n"):
            text = text[1:]
        self._saw_cr = False
        buf = self._buffer + text
        out: List[SseMessage] = []
        start, n = 0, len(buf)
        while True:
            i = start
            while i < n and buf[i] not in "\r\n":
                i += 1
            if i >= n:
                break
            line = buf[start:i]
            if buf[i] == "\r":
                if i + 1 < n:
                    start = i + 2 if buf[i + 1] == "\n" else i + 1
                else:
                    start = i + 1
                    self._saw_cr = True
            else:
                start = i + 1
            msg = self._line(line)
            if msg is not None:
                out.append(msg)
        self._buffer = buf[start:]
        return out

    def _line(self, line: str) -> Optional[SseMessage]:
        if line == "":
            if not self._data:
                self._event = ""
                return None
            msg = SseMessage(self._event or "message", "\n".join(self._data), self.last_event_id)
            self._event, self._data = "", []
            return msg
        if line[0] == ":":
            return None
        field, sep, value = line.partition(":")
        if sep and value.startswith(" "):
            value = value[1:]
        if field == "event":
            self._event = value
        elif field == "data":
            self._data.append(value)
        elif field == "id":
            if "\0" not in value:
                self.last_event_id = value
        elif field == "retry":
            if value.isascii() and value.isdigit():
                self.retry = int(value)
        return None
