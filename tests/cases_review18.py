"""tests/cases_review18.py — regressions found by the hostile review of issue 18's surfaces
(signals, branch, actors, context, the bytecode cache). Each case guards one finding; see the
report of the review and the docs' pages named in each case.

The agents here are our own. Assertions are on content (statuses, errors, outputs), never on how
long something took.
"""
import json

from cases_signals import ASKER, serve_agent, signal
from cases_serve import create


def case_serve_signal_mailbox_bytes_are_capped_per_session(v):
    """A client must not grow the database without bound by queueing signals a session never takes:
    the count cap alone (10000) let 10000 bodies of 1 MiB each in. Past 16 MiB of queued bodies a
    send is a 409 that says what to do, nothing is written, and the session still works."""
    s, _ = serve_agent(v, ASKER, "--no-isolate")
    try:
        s.start()
        view = create(s, {"input": {}})
        sid = view["id"]
        assert view["status"] == "paused" and view["pending_prompt"] == "Go?", view
        big = "x" * 1_000_000  # under the 1 MiB request cap
        accepted, refused = 0, None
        for i in range(40):
            status, _, got = signal(s, sid, {"name": "other", "payload": big}) if i else \
                signal(s, sid, {"name": "review", "payload": "first"})
            if status == 202:
                accepted += 1
                continue
            refused = (status, got)
            break
        assert refused is not None, f"{accepted} signals of 1 MB queued for one session, none refused"
        status, got = refused
        assert status == 409 and "mailbox is full" in got["error"] and "16777216 bytes" in got["error"], refused
        assert 10 <= accepted <= 18, accepted
        # a small one still fits; the refused one wrote nothing (delivery_seq goes on from the last)
        status, _, got = signal(s, sid, {"name": "other", "payload": "small"})
        assert status == 202 and got["delivery_seq"] == accepted + 1, (status, got)
        # the session is not harmed: its listen point takes the first queued `review`
        status, _, done = s.request("POST", f"/sessions/{sid}/resume", {"response": "yes"})
        assert status == 200 and done["status"] == "completed", (status, done)
        assert done["output"]["review"] == {"name": "review", "payload": "first", "from": None}, done
        s.stop()
    finally:
        s.cleanup()
