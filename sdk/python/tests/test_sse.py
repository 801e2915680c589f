"""test_sse.py — the SSE parser and typed events against the format's edge cases."""
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from chidori_sdk import CallEvent, DoneEvent, PromptDeltaEvent, SseMessage, SseParser, StreamEvent, typed_event  # noqa: E402


def parse_all(chunks):
    p = SseParser()
    out = []
    for c in chunks:
        out += p.push(c.encode("utf-8") if isinstance(c, str) else c)
    return out + p.end()


class SseTest(unittest.TestCase):
    def test_names_multiline_comments(self):
        evs = parse_all([': keep-alive\n\nevent: call\ndata: {"seq":1,\ndata:  "x":2}\n\n: ping\nevent: done\ndata: {}\n\n'])
        self.assertEqual(evs, [SseMessage("call", '{"seq":1,\n "x":2}', ""), SseMessage("done", "{}", "")])
        self.assertEqual(json.loads(evs[0].data), {"seq": 1, "x": 2})

    def test_line_endings_split_anywhere(self):
        text = "event: a\r\ndata: 1\r\n\r\nevent: b\rdata: 2\r\revent: c\ndata: 3\n\n"
        whole = parse_all([text])
        self.assertEqual([(e.event, e.data) for e in whole], [("a", "1"), ("b", "2"), ("c", "3")])
        for i in range(1, len(text)):
            self.assertEqual(parse_all([text[:i], text[i:]]), whole, f"split at {i}")
        self.assertEqual(parse_all(list(text)), whole)

    def test_multibyte_split(self):
        p = SseParser()
        out = []
        for b in "data: héllo ✓\n\n".encode("utf-8"):
            out += p.push(bytes([b]))
        self.assertEqual(out, [SseMessage("message", "héllo ✓", "")])

    def test_field_rules(self):
        evs = parse_all(["\ufeffdata:no-space\ndata:  two\ndata\nfoo: bar\nid: 7\nretry: 10x\n\n"])
        self.assertEqual(evs, [SseMessage("message", "no-space\n two\n", "7")])
        p = SseParser()
        p.push("retry: 1500\nid: a\0b\n\n")
        self.assertEqual(p.retry, 1500)
        self.assertEqual(p.last_event_id, "")

    def test_dropped_events(self):
        self.assertEqual(parse_all(["event: nothing\n\ndata: late"]), [])

    def test_typed_events(self):
        call = typed_event(SseMessage("call", '{"seq":0,"function":"log"}', ""))
        self.assertIsInstance(call, CallEvent)
        self.assertEqual(call.record, {"seq": 0, "function": "log"})
        self.assertIsNone(call.id)
        delta = typed_event(SseMessage("prompt_delta", '{"delta":"he"}', "3"))
        self.assertIsInstance(delta, PromptDeltaEvent)
        self.assertEqual((delta.delta, delta.id), ("he", "3"))
        done = typed_event(SseMessage("done", '{"status":"completed"}', ""))
        self.assertIsInstance(done, DoneEvent)
        self.assertEqual(done.status, "completed")
        other = typed_event(SseMessage("other", "not json", ""))
        self.assertEqual(type(other), StreamEvent)
        self.assertEqual((other.type, other.data), ("other", "not json"))


if __name__ == "__main__":
    unittest.main()
