"""tests/cases_streaming.py — prompt streaming (docs/effects.md, docs/http-api.md): a live prompt's
reply reaches `chidori run --stream` (NDJSON on stdout) and serve's session streams (SSE) as
prompt_start, prompt_delta… and prompt_end, before the prompt's `call` record, in-process and
isolated (the deltas come from the trusted side, never through the worker).

What every case holds to: the deltas of one prompt concatenate to the reply its record holds; the
record of a streamed prompt is the record of the same reply not streamed; a replay performs
nothing live and streams nothing. Providers: the static test provider (its reply in several
pieces) and tests/providers/fake_llm.py speaking the OpenAI-compatible chunks and Anthropic's
message events on loopback.
"""
import json
import os
import shutil
import tempfile

from cases import chidori
from cases_effects import fake_llm, run_id_of
from cases_serve import Server
from run import ROOT

AGENT_DIR = os.path.join(ROOT, "tests", "streaming")
TEXT = "The quick brown fox jumps over the lazy dog"
# every provider variable blank (empty is unset), so the machine's own cannot choose a provider
NO_PROVIDERS = {k: "" for k in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL",
                                "ANTHROPIC_MODEL", "CHIDORI_MODEL", "CHIDORI_OPENAI_COMPAT_URL",
                                "CHIDORI_OPENAI_COMPAT_KEY", "LITELLM_API_URL", "LITELLM_API_KEY",
                                "OPENROUTER_API_KEY", "CHIDORI_OPENROUTER_URL")}
PINNED = {"CHIDORI_SEED": "11", "CHIDORI_CLOCK_START_MS": "1700000000000"}


def project():
    tmp = tempfile.mkdtemp(prefix="chidori-stream-")
    shutil.copy(os.path.join(AGENT_DIR, "agent.js"), os.path.join(tmp, "agent.js"))
    return tmp


def env_of(**extra):
    env = dict(NO_PROVIDERS)
    env.update(PINNED)
    env.update(extra)
    return env


def reply_text(record):
    """The reply a prompt record holds (its result's content, or the result itself when the record
    keeps the reply text as its result)."""
    r = record["result"]
    return r if isinstance(r, str) else r["content"]


def response_of(record):
    """The provider's response object a prompt record holds ({content, toolCalls, stopReason, usage,
    model, provider, id?}): the one place these tests know where a record keeps it. A record in the
    original's shape keeps the reply text as its result, the rest of the response under `response`
    and the token counts as `token_usage` (docs/durable-runs.md); an older one, all of it as result."""
    r = record["result"]
    if not isinstance(r, str) and "response" not in record:
        return r
    out = {"content": r if isinstance(r, str) else r.get("content")}
    out.update(record.get("response") or {})
    if "usage" not in out and record.get("token_usage") is not None:
        t = record["token_usage"]
        out["usage"] = {"inputTokens": t["input_tokens"], "outputTokens": t["output_tokens"]}
        if "cache_read_tokens" in t:
            out["usage"]["cacheReadTokens"] = t["cache_read_tokens"]
        if "cache_creation_tokens" in t:
            out["usage"]["cacheCreationTokens"] = t["cache_creation_tokens"]
    return out


def ndjson(out):
    lines = [line for line in out.split("\n") if line]
    parsed = [json.loads(line) for line in lines]
    for line, obj in zip(lines, parsed):
        assert line == json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False) or \
            line == json.dumps(obj, sort_keys=True, separators=(",", ":")), f"not one compact line with sorted keys: {line}"
    return parsed


def prompts_of(events):
    """Check the prompt events of a stream ([{type, …}], `call` with its record) and return one
    (start, deltas, end, record) per prompt: start, deltas, end and then the prompt's record, in
    that order, with one stream_id, the record's seq, and deltas that concatenate to its reply."""
    out, i = [], 0
    while i < len(events):
        e = events[i]
        if e["type"] != "prompt_start":
            assert not e["type"].startswith("prompt_"), f"a {e['type']} outside a prompt: {events}"
            i += 1
            continue
        assert set(e) >= {"type", "stream_id", "seq", "prompt_type", "model"}, e
        sid, seq = e["stream_id"], e["seq"]
        assert len(sid) == 36 and sid[14] == "4", sid  # a v4 UUID
        j, deltas = i + 1, []
        while events[j]["type"] == "prompt_delta":
            d = events[j]
            assert d["stream_id"] == sid and d["seq"] == seq and d["prompt_type"] == e["prompt_type"], (d, e)
            assert isinstance(d["delta"], str) and d["delta"], d
            deltas.append(d["delta"])
            j += 1
        end = events[j]
        assert end["type"] == "prompt_end" and end["stream_id"] == sid and end["seq"] == seq, (end, e)
        rec = None
        if end["error"] is None:
            call = events[j + 1]
            assert call["type"] == "call" and call["record"]["seq"] == seq, ("the prompt's record does not follow its end", call)
            rec = call["record"]
            assert rec["function"] == "prompt", rec
            assert "".join(deltas) == reply_text(rec), (deltas, rec)
        out.append((e, deltas, end, rec))
        i = j + 1
    return out


def run_stream(v, proj, *args, env, code_wanted=0, state=None):
    code, out, err = chidori(v, "run", os.path.join(proj, "agent.js"), "--stream", *args, env=env, state=state)
    assert code == code_wanted, (code, out, err)
    events = ndjson(out)
    assert events and events[-1]["type"] == "done", events
    return events, err


def records_of(state, rid):
    with open(os.path.join(state, "runs", rid, "records.jsonl")) as f:
        return [json.loads(line) for line in f if line.strip()]


def case_streaming_run_stream_test_provider_in_process_and_isolated(v):
    """`run --stream`: prompt_start, several deltas, prompt_end, the call, done; the same in-process
    and isolated; the streamed record equals the record of the same run not streamed; a replay
    streams nothing and matches."""
    proj = project()
    try:
        seen = {}
        for posture in ("--no-isolate", "--isolate"):
            state = os.path.join(proj, "state" + posture)
            env = env_of(CHIDORI_TEST_LLM_RESPONSE=TEXT)
            events, err = run_stream(v, proj, posture, env=env, state=state)
            rid = run_id_of(err)
            prompts = prompts_of(events)
            assert len(prompts) == 1, events
            start, deltas, end, rec = prompts[0]
            assert len(deltas) >= 3, ("the test provider streams in several pieces", deltas)
            assert start["prompt_type"] == "summary" and start["model"] == "test" and start["seq"] == 1, start
            assert end["error"] is None, end
            done = events[-1]
            assert done == {"type": "done", "status": "completed", "run_id": rid, "output": {"reply": TEXT}}, done
            # the call lines are the records written to the run's log
            calls = [e["record"] for e in events if e["type"] == "call"]
            assert calls == records_of(state, rid), (calls, records_of(state, rid))
            seen[posture] = [e for e in events if e["type"] != "done"]
            # not streamed: the same record (but its timing)
            plain_state = state + "-plain"
            code, out, err2 = chidori(v, "run", os.path.join(proj, "agent.js"), posture, env=env, state=plain_state)
            assert code == 0 and json.loads(out) == {"reply": TEXT}, (code, out, err2)
            plain = records_of(plain_state, run_id_of(err2))
            strip = lambda rs: [{k: r[k] for k in r if k not in ("timestamp", "duration_ms", "duration_us")} for r in rs]
            assert strip(plain) == strip(calls), (plain, calls)
            # a replay performs nothing live, so it streams nothing; --stream is refused there
            code, out, err3 = chidori(v, "replay", os.path.join(proj, "agent.js"), rid, posture, state=state,
                                      env=env_of(CHIDORI_TEST_LLM_RESPONSE="a different reply"))
            assert code == 0 and json.loads(out) == {"reply": TEXT}, (code, out, err3)
            code, out, err3 = chidori(v, "replay", os.path.join(proj, "agent.js"), rid, "--stream", state=state, env=env)
            assert code == 2 and out == "" and "--stream goes with run and resume" in err3, (code, out, err3)
        strip_ids = lambda es: [{k: x for k, x in e.items() if k not in ("stream_id", "record")} for e in es]
        assert strip_ids(seen["--no-isolate"]) == strip_ids(seen["--isolate"]), seen
    finally:
        shutil.rmtree(proj)


def case_streaming_run_stream_failure_and_pause_lines(v):
    """A failed prompt: prompt_end carries the error, the last line is a failed `done` without a
    run id, exit 1 and the error on stderr too. A paused run: done paused, exit 0; its resume
    --stream streams only the prompt performed live after the answer."""
    proj = project()
    try:
        state = os.path.join(proj, "state")
        # no provider at all: the prompt fails
        events, err = run_stream(v, proj, "-i", '{"model": "gpt-4o"}', env=env_of(), code_wanted=1, state=state)
        prompts = prompts_of(events)
        assert len(prompts) == 1 and prompts[0][1] == [], events
        assert prompts[0][2]["error"].startswith("no LLM provider configured"), prompts[0][2]
        assert prompts[0][0]["model"] == "gpt-4o", prompts[0][0]
        done = events[-1]
        assert done["status"] == "failed" and "run_id" not in done and "no LLM provider configured" in done["error"], done
        assert "chidori: run failed:" in err and "no LLM provider configured" in err, err
        # an input pause: exit 0 with a paused `done`
        env = env_of(CHIDORI_TEST_LLM_RESPONSE=TEXT)
        events, err = run_stream(v, proj, "-i", '{"mode": "input"}', env=env, state=state)
        rid = run_id_of(err)
        assert len(prompts_of(events)) == 1, events
        done = events[-1]
        assert done["status"] == "paused" and done["run_id"] == rid and done["pending"]["function"] == "input", done
        code, out, err = chidori(v, "resume", os.path.join(proj, "agent.js"), rid, "--response", "yes", "--stream",
                                 env=env, state=state)
        assert code == 0, (code, out, err)
        events = ndjson(out)
        prompts = prompts_of(events)
        assert len(prompts) == 1 and prompts[0][0]["seq"] == 3, ("only the prompt after the answer is live", events)
        assert events[-1]["status"] == "completed" and events[-1]["output"] == {"a": TEXT, "b": TEXT, "answer": "yes"}, events
    finally:
        shutil.rmtree(proj)


PROVIDERS = {
    "openai": {"OPENAI_API_KEY": "sk-test", "model": "gpt-4o", "path": "/v1/chat/completions"},
    "anthropic": {"ANTHROPIC_API_KEY": "ak-test", "model": "claude-test", "path": "/v1/messages"},
}


def provider_env(kind, base):
    env = env_of()
    if kind == "openai":
        env.update(OPENAI_API_KEY="sk-test", OPENAI_BASE_URL=base + "/v1")
    else:
        env.update(ANTHROPIC_API_KEY="ak-test", ANTHROPIC_BASE_URL=base)
    return env


def case_streaming_openai_and_anthropic_providers_stream(v):
    """Against loopback providers: the request asks to stream (OpenAI-compatible: stream with
    include_usage; Anthropic: stream), the reply comes as several deltas, and the record (text,
    tool calls, usage, cache tokens, response id) is the record of the same reply answered whole."""
    proj = project()
    try:
        for kind in ("openai", "anthropic"):
            model = PROVIDERS[kind]["model"]
            usage = {"input": 21, "output": 9, "cacheRead": 13}
            if kind == "anthropic":
                usage["cacheCreation"] = 5
            text_entry = {"text": TEXT, "usage": usage, "id": "resp-" + kind, "model": model + "-2025", "pieces": 4}
            tool_entries = [{"toolCalls": [{"id": "call_1", "name": "add", "input": {"a": 2, "b": 40}}], "text": "Let me add."},
                            {"text": "It is 42.", "usage": usage}]
            # the same script twice: streamed, then not
            script = [text_entry] + tool_entries + [text_entry] + tool_entries
            with fake_llm(script) as (base, requests):
                env = provider_env(kind, base)
                streamed = []
                for mode in ("one", "tool"):
                    events, _ = run_stream(v, proj, "-i", json.dumps({"mode": mode, "model": model}), env=env)
                    prompts = prompts_of(events)
                    assert len(prompts) == (1 if mode == "one" else 2), events
                    for start, deltas, end, rec in prompts:
                        assert start["model"] == model and end["error"] is None, (start, end)
                        if reply_text(rec):
                            assert len(deltas) >= 2, (kind, deltas)
                    streamed += [p[3] for p in prompts]
                    assert events[-1]["status"] == "completed", events[-1]
                assert response_of(streamed[0])["usage"]["cacheReadTokens"] == 13, streamed[0]
                assert response_of(streamed[0])["id"] == "resp-" + kind, streamed[0]
                if kind == "anthropic":
                    assert response_of(streamed[0])["usage"]["cacheCreationTokens"] == 5, streamed[0]
                assert response_of(streamed[1])["toolCalls"] == [{"id": "call_1", "name": "add", "input": {"a": 2, "b": 40}}], streamed[1]
                whole = []
                for mode in ("one", "tool"):
                    proj_state = tempfile.mkdtemp(prefix="chidori-stream-state-")
                    try:
                        code, out, err = chidori(v, "run", os.path.join(proj, "agent.js"), "-i",
                                                 json.dumps({"mode": mode, "model": model}), env=env, state=proj_state)
                        assert code == 0, (code, out, err)
                        whole += [r for r in records_of(proj_state, run_id_of(err)) if r["function"] == "prompt"]
                    finally:
                        shutil.rmtree(proj_state)
                assert [response_of(r) for r in whole] == [response_of(r) for r in streamed], (whole, streamed)
                got = requests()["requests"]
            assert len(got) == 6 and all(r["path"] == PROVIDERS[kind]["path"] for r in got), got
            for r in got[:3]:
                assert r["body"]["stream"] is True and r["headers"]["accept"] == "text/event-stream", r
                if kind == "openai":
                    assert r["body"]["stream_options"] == {"include_usage": True}, r["body"]
            for r in got[3:]:
                assert "stream" not in r["body"] and r["headers"]["accept"] == "application/json", r
    finally:
        shutil.rmtree(proj)


def case_streaming_provider_garbage_errors_and_a_whole_answer(v):
    """Provider bytes are untrusted: frames that do not parse are skipped; an error event fails the
    prompt with the provider's message (prompt_end.error, a failed run); a stream with nothing
    usable is a clear error; a server that answers a streamed request whole still gives the reply
    (as one delta)."""
    proj = project()
    chunk = lambda t: "data: " + json.dumps({"id": "c9", "model": "gpt-4o", "choices": [{"index": 0, "delta": {"content": t}}]}) + "\n\n"
    garbage = ("data: {not json\n\n" + chunk("Hel") + ": a comment\n\ndata: \x01\x02\x03\n\n" + "event: odd\ndata: [1,2]\n\n" +
               chunk("lo") + "data: " + json.dumps({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}) + "\n\n"
               + "data: [DONE]\n\n")
    overloaded = chunk("par") + "data: " + json.dumps({"error": {"message": "Overloaded, try later"}}) + "\n\n"
    script = [{"sse": garbage}, {"sse": overloaded}, {"sse": "data: nothing useful\n\n"},
              {"text": "whole answer", "noStream": True}]
    try:
        with fake_llm(script) as (base, _):
            env = provider_env("openai", base)
            args = ("-i", '{"model": "gpt-4o"}')
            events, _ = run_stream(v, proj, *args, env=env)
            (start, deltas, end, rec), = prompts_of(events)
            assert deltas == ["Hel", "lo"] and reply_text(rec) == "Hello" and response_of(rec)["stopReason"] == "stop", (deltas, rec)
            events, err = run_stream(v, proj, *args, env=env, code_wanted=1)
            (start, deltas, end, rec), = prompts_of(events)
            assert deltas == ["par"] and end["error"] == "openai: the stream reports an error: Overloaded, try later", end
            assert events[-1]["status"] == "failed" and "Overloaded, try later" in events[-1]["error"], events[-1]
            events, err = run_stream(v, proj, *args, env=env, code_wanted=1)
            (start, deltas, end, rec), = prompts_of(events)
            assert end["error"] == "openai: the stream ended before any event that parses", end
            events, _ = run_stream(v, proj, *args, env=env)
            (start, deltas, end, rec), = prompts_of(events)
            assert deltas == ["whole answer"] and reply_text(rec) == "whole answer", (deltas, rec)
    finally:
        shutil.rmtree(proj)


def serve_prompt_events(v, posture):
    folder = tempfile.mkdtemp(prefix="chidori-stream-serve-")
    shutil.copy(os.path.join(AGENT_DIR, "agent.js"), os.path.join(folder, "agent.js"))
    s = Server(v, posture, env=env_of(CHIDORI_TEST_LLM_RESPONSE=TEXT), folder=folder,
               agent=os.path.join(folder, "agent.js"))
    try:
        s.start()
        as_events = lambda evs: [dict(d, type=e) if e.startswith("prompt_") else
                                 {"type": e, "record": d} if e == "call" else dict(d, type=e) for e, d in evs]
        evs = s.events("POST", "/sessions/stream", {"input": {"mode": "two", "generation": {"attemptNumber": 3}}})
        names = [e for e, _ in evs]
        assert names[0] == "prompt_start" and names[-1] == "done" and names.count("call") == 2, names
        prompts = prompts_of(as_events(evs))
        assert [p[0]["prompt_type"] for p in prompts] == ["draft", "final"], prompts
        for start, deltas, end, rec in prompts:
            assert len(deltas) >= 3, deltas
            assert set(start) == {"type", "attempt_number", "model", "prompt_type", "seq", "stream_id"}, start
            assert set(end) == {"type", "attempt_number", "error", "prompt_type", "seq", "stream_id"}, end
            assert start["attempt_number"] == 3 and end["error"] is None, (start, end)
        for e, d in evs:
            if e.startswith("prompt_"):
                assert list(d) == sorted(d), ("payload keys are not sorted", d)
        sid = evs[-1][1]["id"]
        assert evs[-1][1]["output"] == {"a": TEXT, "b": TEXT}, evs[-1]
        # re-attached: the records and done; the prompt events too while the session is still in
        # memory (they are not stored: a session read back from the database has none)
        again = s.events("GET", f"/sessions/{sid}/stream")
        split = lambda xs: ([x for x in xs if not x[0].startswith("prompt_")], [x for x in xs if x[0].startswith("prompt_")])
        assert split(again)[0] == split(evs)[0] and split(again)[1] in ([], split(evs)[1]), (again, evs)
        # no attempt number in the input: none in the events; the prompt before an input pause
        evs = s.events("POST", "/sessions/stream", {"input": {"mode": "input"}})
        names = [e for e, _ in evs]
        assert names[:2] == ["prompt_start", "prompt_delta"] and names[-3:] == ["call", "paused", "done"], names
        assert len(prompts_of(as_events(evs))) == 1, evs
        assert all("attempt_number" not in d for e, d in evs if e.startswith("prompt_")), evs
        assert evs[-1][1]["status"] == "paused", evs[-1]
        s.stop()
    finally:
        s.cleanup()


def case_streaming_serve_sse_prompt_events_in_process(v):
    """serve's session streams carry prompt_start / prompt_delta / prompt_end (keys sorted, with
    attempt_number from input.generation.attemptNumber) before each prompt's `call`, in-process."""
    serve_prompt_events(v, "--no-isolate")


def case_streaming_serve_sse_prompt_events_isolated(v):
    """The same with every run in a confined worker: the deltas reach the stream without it."""
    serve_prompt_events(v, "--isolate")
