"""tests/cases_load.py — small versions of tests/load/load.py in the test command (`make load`
runs the full size: 10,000 sessions at concurrency 64).

- load: 6,000 sessions at concurrency 16 against one `chidori serve` (isolated runs), zero
  errors, every session listed and completed, a clean SIGTERM exit, and (release build) the
  server's RSS growth from the warm-up point (3,000 sessions) to the end, both taken with the
  server idle, within a fixed 1.5 MiB and nothing per session (load.rss_bound_kib). The first
  few thousand sessions fill the server's bounded caches (SQLite's page cache, 512 KiB a
  connection, growing with the database): measured from 300 sessions, as this test did until
  December, 1,200 more grew it by 0.9 to 1.6 MiB, at the bound, and the test failed now and then
  with nothing leaking; from 3,000, 3,000 more grow it by 0.45 to 0.6 MiB (December). A server
  that kept 0.4 KiB or more per session fails (1 KiB a session, as before sessions left memory:
  about 3.5 MiB). Under ASan the RSS says nothing (the allocator's quarantine grows it by design): there
  LeakSanitizer, at the server's exit, is the leak check.
- fault: 600 sessions of three fetches each at concurrency 16 against a counting server; the
  server is killed with SIGKILL halfway and restarted on the same database; every session
  completes, none is missing from GET /sessions, each call log holds each fetch once, and each
  fetch was performed exactly once (but for a call provably in flight at the kill: see load.py).
"""
import os
import sys

from run import ROOT

sys.path.insert(0, os.path.join(ROOT, "tests", "load"))
import load  # noqa: E402


def explain(out):
    figures = {k: v for k, v in out.items() if k not in ("stderr", "rss", "failures")}
    return "\n".join(out["failures"]) + f"\nfigures: {figures}\nRSS: {out.get('rss')}"


def case_load_sessions_without_errors_and_flat_rss(v):
    release = not v.sanitized
    n, c, warmup = (6000, 16, 3000) if release else (200, 8, 40)
    out = load.run_load(v.chidori, sessions=n, concurrency=c, warmup=warmup, slack_kib=1536, per_session_bytes=0,
                        env=v.env(), check_rss=release)
    assert not out["failures"], explain(out)
    assert out["completed"] == n and out["errors"] == 0, explain(out)


def case_load_kill_9_mid_load_loses_nothing_and_repeats_nothing(v):
    n, c = (600, 16) if not v.sanitized else (200, 8)
    out = load.run_fault(v.chidori, sessions=n, concurrency=c, hits=3, env=v.env(), settle_seconds=60 * v.slow)
    assert not out["failures"], explain(out)
    assert out["completed"] == n and out["rerun"] > 0, explain(out)
