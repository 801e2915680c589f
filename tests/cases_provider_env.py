"""tests/cases_provider_env.py — the LLM provider variables (docs/effects.md, docs/settings.md):
the original chidori's names and order (the OpenAI-compatible pair and its LiteLLM aliases,
OpenRouter, ANTHROPIC_MODEL, the Anthropic family names), URL normalization, error labels, and
the response id and cache token counts reaching the record and the `chat` span, the request
limits (CHIDORI_*_RPM) and the retries of a refused call, and CHIDORI_TEST_LLM_TOOL_CALL.

Every provider is tests/providers/fake_llm.py on loopback; the agent is tests/streaming/agent.js,
run with `--stream` so the call lines show each record, and every variable the case does not set
is blank so the machine's own cannot choose a provider.
"""
import json
import os
import shutil
import tempfile
import time

from cases import chidori
from cases_effects import fake_llm
from cases_otel import by_name, collector, need_decoder
from cases_serve import Server, create
from cases_streaming import AGENT_DIR, env_of, ndjson, project, prompts_of, reply_text, response_of


def prompt_record(v, proj, env, model=None, code_wanted=0):
    """Run the agent's one prompt; (its record or None, its prompt_end, the done line)."""
    inp = {"model": model} if model else {}
    code, out, err = chidori(v, "run", os.path.join(proj, "agent.js"), "--stream", "-i", json.dumps(inp), env=env)
    assert code == code_wanted, (code, out, err)
    events = ndjson(out)
    (start, deltas, end, rec), = prompts_of(events)
    return rec, end, start


def case_provider_env_litellm_pair_and_the_compat_names(v):
    """LITELLM_API_URL / LITELLM_API_KEY (the original's SDK tests' names) reach any model through
    an OpenAI-compatible endpoint, `/chat/completions` appended to a `/v1` base; the
    CHIDORI_OPENAI_COMPAT_* pair wins over them, and a URL already ending in /chat/completions is
    used as it is; an error names the endpoint's host."""
    proj = project()
    try:
        with fake_llm([{"text": "via litellm"}, {"text": "via compat"}, {"status": 500, "json": {"error": {"message": "down"}}}]) as (base, requests):
            env = env_of(LITELLM_API_URL=base + "/v1/", LITELLM_API_KEY="test-key")
            rec, _, start = prompt_record(v, proj, env, model="llama-3-70b")
            assert response_of(rec)["provider"] == "openai-compatible" and reply_text(rec) == "via litellm", rec
            assert start["model"] == "llama-3-70b", start
            env.update(CHIDORI_OPENAI_COMPAT_URL=base + "/gateway/chat/completions", CHIDORI_OPENAI_COMPAT_KEY="compat-key")
            rec, _, _ = prompt_record(v, proj, env, model="mixtral")
            assert reply_text(rec) == "via compat", rec
            rec, end, _ = prompt_record(v, proj, env, model="mixtral", code_wanted=1)
            host = base.split("//")[1]
            assert end["error"] == f"OpenAI-compatible endpoint {host}: HTTP 500: down", end
            got = requests()["requests"]
        assert [r["path"] for r in got] == ["/v1/chat/completions", "/gateway/chat/completions", "/gateway/chat/completions"], got
        assert got[0]["headers"]["authorization"] == "Bearer test-key" and got[0]["body"]["model"] == "llama-3-70b", got[0]
        assert got[1]["headers"]["authorization"] == "Bearer compat-key", got[1]
    finally:
        shutil.rmtree(proj)


def case_provider_env_order_of_the_original(v):
    """The first provider that applies: Anthropic for claude models, OpenAI for its model names (or
    every model once OPENAI_BASE_URL is set), then the compatible endpoint, then OpenRouter; an
    Anthropic family name is sent as its full id; OPENAI_BASE_URL ending in /chat/completions is
    used as it is."""
    proj = project()
    try:
        script = [{"text": "a"}, {"text": "b"}, {"text": "c"}, {"text": "d"}, {"text": "e"}]
        with fake_llm(script) as (base, requests):
            env = env_of(ANTHROPIC_API_KEY="ak", ANTHROPIC_BASE_URL=base, OPENAI_API_KEY="sk",
                         CHIDORI_OPENAI_COMPAT_URL=base + "/compat", OPENROUTER_API_KEY="or",
                         CHIDORI_OPENROUTER_URL=base + "/router/api/v1")
            providers = []
            for model in ("claude-sonnet", "llama-3-70b"):
                rec, _, _ = prompt_record(v, proj, env, model=model)
                providers.append(response_of(rec)["provider"])
            env.update(CHIDORI_OPENAI_COMPAT_URL="")
            rec, _, _ = prompt_record(v, proj, env, model="llama-3-70b")
            providers.append(response_of(rec)["provider"])
            env.update(OPENAI_BASE_URL=base + "/v1/chat/completions")
            for model in ("gpt-4o", "llama-3-70b"):
                rec, _, _ = prompt_record(v, proj, env, model=model)
                providers.append(response_of(rec)["provider"])
            got = requests()["requests"]
        assert providers == ["anthropic", "openai-compatible", "openrouter", "openai", "openai"], providers
        assert [r["path"] for r in got] == ["/v1/messages", "/compat/chat/completions", "/router/api/v1/chat/completions",
                                            "/v1/chat/completions", "/v1/chat/completions"], got
        assert got[0]["body"]["model"] == "claude-sonnet-4-6", got[0]["body"]
        assert got[2]["body"]["model"] == "llama-3-70b" and got[2]["headers"]["authorization"] == "Bearer or", got[2]
        assert got[3]["headers"]["authorization"] == "Bearer sk", got[3]
    finally:
        shutil.rmtree(proj)


def case_provider_env_openrouter_slugs_and_anthropic_model(v):
    """OpenRouter gets model slugs (anthropic/claude-sonnet-4.6, openai/gpt-4o, a name with `/` as
    it is); ANTHROPIC_MODEL is the default model when CHIDORI_MODEL is unset, and CHIDORI_MODEL wins."""
    proj = project()
    try:
        script = [{"text": str(i)} for i in range(6)]
        with fake_llm(script) as (base, requests):
            env = env_of(OPENROUTER_API_KEY="or", CHIDORI_OPENROUTER_URL=base + "/api/v1")
            for model in ("claude-sonnet-4-6", "claude-opus", "gpt-4o", "meta-llama/llama-3-70b"):
                prompt_record(v, proj, env, model=model)
            env.update(ANTHROPIC_MODEL="claude-haiku")
            rec, _, start = prompt_record(v, proj, env)
            assert start["model"] == "anthropic/claude-haiku-4.5", start
            env.update(CHIDORI_MODEL="gpt-4o-mini")
            prompt_record(v, proj, env)
            got = requests()["requests"]
        assert [r["body"]["model"] for r in got] == ["anthropic/claude-sonnet-4.6", "anthropic/claude-opus-4.7", "openai/gpt-4o",
                                                     "meta-llama/llama-3-70b", "anthropic/claude-haiku-4.5",
                                                     "openai/gpt-4o-mini"], got
    finally:
        shutil.rmtree(proj)


def case_provider_env_response_id_and_cache_tokens_in_record_and_span(v):
    """The provider's response id and cache token counts, where it reports them, are in the prompt's
    response (id, usage.cacheReadTokens, usage.cacheCreationTokens) and on its `chat` span
    (gen_ai.response.id, gen_ai.usage.cache_read.input_tokens, …cache_creation.input_tokens);
    absent, they are left out."""
    need_decoder()
    proj = project()
    try:
        script = [{"text": "cached", "id": "msg_01XYZ", "model": "claude-x",
                   "usage": {"input": 40, "output": 3, "cacheRead": 32, "cacheCreation": 8}},
                  {"text": "openai", "id": "chatcmpl-77", "usage": {"input": 20, "output": 2, "cacheRead": 16}},
                  {"text": "plain", "usage": {"input": 1, "output": 1}}]
        with collector() as col, fake_llm(script) as (base, _):
            env = env_of(ANTHROPIC_API_KEY="ak", ANTHROPIC_BASE_URL=base, OPENAI_API_KEY="sk", OPENAI_BASE_URL=base + "/v1",
                         OTEL_EXPORTER_OTLP_ENDPOINT=col.url)
            a, _, _ = prompt_record(v, proj, env, model="claude-x")
            o, _, _ = prompt_record(v, proj, env, model="gpt-4o")
            p, _, _ = prompt_record(v, proj, env, model="gpt-4o")
            spans = col.decoded()["spans"]
        assert response_of(a)["id"] == "msg_01XYZ", a
        assert response_of(a)["usage"] == {"inputTokens": 40, "outputTokens": 3, "cacheReadTokens": 32, "cacheCreationTokens": 8}, a
        assert response_of(o)["id"] == "chatcmpl-77" and response_of(o)["usage"] == {"inputTokens": 20, "outputTokens": 2, "cacheReadTokens": 16}, o
        assert response_of(p)["usage"] == {"inputTokens": 1, "outputTokens": 1}, p
        chat = by_name(spans, "chat claude-x")[0]["attributes"]
        assert chat["gen_ai.response.id"] == "msg_01XYZ", chat
        assert chat["gen_ai.usage.cache_read.input_tokens"] == 32 and chat["gen_ai.usage.cache_creation.input_tokens"] == 8, chat
        chats = by_name(spans, "chat gpt-4o")
        ids = sorted(c["attributes"].get("gen_ai.response.id", "") for c in chats)
        assert ids == ["chatcmpl-77", "chatcmpl-fake"], ids
        for c in chats:
            at = c["attributes"]
            assert "gen_ai.usage.cache_creation.input_tokens" not in at, at
            assert at.get("gen_ai.usage.cache_read.input_tokens") == (16 if at["gen_ai.response.id"] == "chatcmpl-77" else None), at
    finally:
        shutil.rmtree(proj)


TWO_PROMPTS = r"""
// two prompts; the second one's error is caught and returned
export default async function (input, chidori) {
  const first = await chidori.prompt("one", { model: input.model });
  let second;
  try { second = await chidori.prompt("two", { model: input.model }); }
  catch (e) { second = "error: " + e.message; }
  return { first, second };
}
"""


def case_provider_env_retries_and_request_limits_of_the_original(v):
    """A call the provider refuses for now (429 with Retry-After) is tried again and is one record;
    every attempt takes a slot of the provider's request limit (CHIDORI_OPENAI_RPM=2: a burst of
    two), so the run's next prompt finds none within its time (CHIDORI_LLM_TIMEOUT_MS) and fails at
    once, without reaching the provider. The same in-process and isolated (the host performs it)."""
    proj = project()
    try:
        with open(os.path.join(proj, "two.js"), "w") as f:
            f.write(TWO_PROMPTS)
        for mode in ("--no-isolate", "--isolate"):
            script = [{"status": 429, "json": {"error": {"message": "slow down"}}, "headers": {"Retry-After": "0"}},
                      {"text": "after a retry"}, {"text": "never sent"}]
            with fake_llm(script) as (base, requests):
                env = env_of(OPENAI_API_KEY="sk", OPENAI_BASE_URL=base + "/v1", CHIDORI_OPENAI_RPM="2",
                             CHIDORI_LLM_TIMEOUT_MS="5000")
                code, out, err = chidori(v, "run", mode, os.path.join(proj, "two.js"), "--stream",
                                         "-i", json.dumps({"model": "gpt-4o"}), env=env)
                got = requests()["requests"]
            assert code == 0, (mode, code, out, err)
            events = ndjson(out)
            done = events[-1]
            assert done["type"] == "done" and done["output"]["first"] == "after a retry", (mode, done)
            second = done["output"]["second"]
            assert second.startswith("error: openai: rate limit CHIDORI_OPENAI_RPM=2: the next request slot is ") and \
                second.endswith(" ms away, after the call's time (CHIDORI_LLM_TIMEOUT_MS) runs out"), (mode, second)
            records = [e["record"] for e in events if e["type"] == "call" and e["record"]["function"] == "prompt"]
            assert len(records) == 2, (mode, records)  # one record per call, however many attempts
            assert reply_text(records[0]) == "after a retry", records[0]
            assert "rate limit CHIDORI_OPENAI_RPM=2" in records[1]["error"], records[1]
            assert len(got) == 2, (mode, got)  # the refused attempt and its retry; the third prompt never left
            assert got[0]["body"] == got[1]["body"], got
            assert got[1]["atMs"] - got[0]["atMs"] >= 450, got  # Retry-After: 0 waits the 500 ms floor
    finally:
        shutil.rmtree(proj)


def case_provider_env_test_tool_call_answers_the_first_prompt(v):
    """CHIDORI_TEST_LLM_TOOL_CALL (the original's test knob): with CHIDORI_TEST_LLM_RESPONSE, the
    process's first prompt answers that tool call; the agent's defineTool handle runs, and the
    next turn (which carries the tool's result) answers the text. A value that is not a JSON
    object is refused at the edge."""
    proj = project()
    try:
        with open(os.path.join(proj, "tool.js"), "w") as f:
            f.write("""
export default async function (input, chidori) {
  const lookup = chidori.defineTool({ name: "lookup", description: "doubles q", parameters: { type: "object" },
    run: async (args) => ({ doubled: args.q * 2 }) });
  return await chidori.prompt("find it", { tools: [lookup] });
}
""")
        env = env_of(CHIDORI_TEST_LLM_RESPONSE="final answer",
                     CHIDORI_TEST_LLM_TOOL_CALL=json.dumps({"id": "t1", "name": "lookup", "input": {"q": 21}}))
        code, out, err = chidori(v, "run", os.path.join(proj, "tool.js"), "--stream", env=env)
        assert code == 0, (code, out, err)
        events = ndjson(out)
        assert events[-1]["output"] == "final answer", events[-1]
        recs = [e["record"] for e in events if e["type"] == "call"]
        assert [r["function"] for r in recs] == ["prompt", "mark", "prompt"], recs
        assert response_of(recs[0])["toolCalls"] == [{"id": "t1", "name": "lookup", "input": {"q": 21}}], recs[0]
        assert recs[1]["args"] == {"label": "tool:lookup", "data": {"args": {"q": 21}}}, recs[1]
        tool_msgs = [m for m in recs[2]["args"]["request"]["messages"] if m["role"] == "tool"]
        assert len(tool_msgs) == 1 and tool_msgs[0]["toolCallId"] == "t1", recs[2]
        assert json.loads(tool_msgs[0]["content"]) == {"doubled": 42} if isinstance(tool_msgs[0]["content"], str) \
            else tool_msgs[0]["content"] == {"doubled": 42}, tool_msgs
        env["CHIDORI_TEST_LLM_TOOL_CALL"] = "[1, 2]"
        code, out, err = chidori(v, "run", os.path.join(proj, "tool.js"), env=env)
        assert code == 2 and "CHIDORI_TEST_LLM_TOOL_CALL: must be a JSON object" in err, (code, err)
    finally:
        shutil.rmtree(proj)


def case_provider_env_request_limit_is_the_whole_servers(v):
    """Under serve, a provider's request limit is one bucket for every session of the server:
    with CHIDORI_ANTHROPIC_RPM=1, the first session's prompt takes the minute's slot and the next
    session's prompt fails at once, naming the limit; another provider's bucket is its own."""
    folder = tempfile.mkdtemp(prefix="chidori-rpm-serve-")
    shutil.copy(os.path.join(AGENT_DIR, "agent.js"), os.path.join(folder, "agent.js"))
    with fake_llm([{"text": "first session"}, {"text": "openai session"}, {"text": "never sent"}]) as (base, requests):
        env = env_of(ANTHROPIC_API_KEY="ak", ANTHROPIC_BASE_URL=base, OPENAI_API_KEY="sk", OPENAI_BASE_URL=base + "/v1",
                     CHIDORI_ANTHROPIC_RPM="1", CHIDORI_LLM_TIMEOUT_MS="3000")
        s = Server(v, "--trusted", env=env, folder=folder, agent=os.path.join(folder, "agent.js"))
        try:
            s.start()
            a = create(s, {"input": {"model": "claude-x"}})
            b = create(s, {"input": {"model": "claude-x"}})
            c = create(s, {"input": {"model": "gpt-4o"}})
            s.stop()
        finally:
            s.cleanup()
        got = requests()["requests"]
    assert a["status"] == "completed" and a["output"] == {"reply": "first session"}, a
    assert b["status"] == "failed" and "anthropic: rate limit CHIDORI_ANTHROPIC_RPM=1: the next request slot is " in b["error"], b
    assert c["status"] == "completed" and c["output"] == {"reply": "openai session"}, c
    assert [r["format"] for r in got] == ["anthropic", "openai"], got


def case_provider_env_prompt_cache_answers_a_repeat_across_runs(v):
    """CHIDORI_PROMPT_CACHE_DIR (the original's local prompt cache): a second run asking exactly
    what the first asked is answered from the folder, not the provider, streamed as one piece, and
    records the same call; another question still goes to the provider."""
    proj = project()
    cache = tempfile.mkdtemp(prefix="chidori-prompt-cache-")
    try:
        script = [{"text": "a cached answer", "id": "msg_7", "usage": {"input": 9, "output": 3}}, {"text": "a new question"}]
        with fake_llm(script) as (base, requests):
            env = env_of(ANTHROPIC_API_KEY="ak", ANTHROPIC_BASE_URL=base, CHIDORI_PROMPT_CACHE_DIR=os.path.join(cache, "c"))
            first, _, _ = prompt_record(v, proj, env, model="claude-x")
            code, out, err = chidori(v, "run", os.path.join(proj, "agent.js"), "--stream", "-i", json.dumps({"model": "claude-x"}),
                                     env=env)
            assert code == 0, (code, out, err)
            (start, deltas, end, second), = prompts_of(ndjson(out))
            inp = {"model": "claude-x", "text": "Something else?"}
            code, out, err = chidori(v, "run", os.path.join(proj, "agent.js"), "-i", json.dumps(inp), env=env)
            assert code == 0 and json.loads(out)["reply"] == "a new question", (code, out, err)
            got = requests()["requests"]
        assert deltas == ["a cached answer"] and end["error"] is None, (deltas, end)
        strip = lambda r: {k: x for k, x in r.items() if k not in ("timestamp", "duration_ms", "duration_us")}
        assert strip(first) == strip(second), (first, second)
        assert response_of(second)["id"] == "msg_7", second
        assert len(got) == 2, got  # the repeat never reached the provider
        assert len([n for n in os.listdir(os.path.join(cache, "c")) if n.endswith(".json")]) == 2
    finally:
        shutil.rmtree(proj)
        shutil.rmtree(cache)


def case_provider_env_a_cancel_drops_the_call_in_flight(v):
    """Cancelling a session whose prompt is waiting on the provider drops that request within a
    second: the run ends and frees its slot, so the next session (CHIDORI_MAX_CONCURRENT_SESSIONS=1,
    waiting up to 5 s for a slot) runs long before the provider would have answered (8 s)."""
    folder = tempfile.mkdtemp(prefix="chidori-cancel-call-")
    shutil.copy(os.path.join(AGENT_DIR, "agent.js"), os.path.join(folder, "agent.js"))
    with fake_llm([{"delayMs": 8000, "text": "too late"}, {"text": "next session"}]) as (base, requests):
        env = env_of(ANTHROPIC_API_KEY="ak", ANTHROPIC_BASE_URL=base, CHIDORI_MAX_CONCURRENT_SESSIONS="1",
                     CHIDORI_ACQUIRE_TIMEOUT_MS="5000")
        s = Server(v, "--trusted", env=env, folder=folder, agent=os.path.join(folder, "agent.js"))
        try:
            s.start()
            a = create(s, {"input": {"model": "claude-x"}, "wait": False})
            deadline = time.monotonic() + 10 * v.slow
            while time.monotonic() < deadline and requests()["counts"]["anthropic"] == 0:
                time.sleep(0.02)  # the call is in flight
            t0 = time.monotonic()
            status, _, got = s.request("POST", f"/sessions/{a['id']}/cancel")
            assert status == 200 and got["status"] == "cancelled", (status, got)
            b = create(s, {"input": {"model": "claude-x"}})
            took = time.monotonic() - t0
            s.stop()
        finally:
            s.cleanup()
    assert b["status"] == "completed" and b["output"] == {"reply": "next session"}, b
    assert took < 4 * v.slow, f"the next session waited {took:.1f} s: the cancelled call held its slot"


def case_provider_env_openrouter_key_saved_by_model_login(v):
    """The OpenRouter key the original's `chidori model-login` saved in ~/.chidori/credentials.json
    serves prompts when OPENROUTER_API_KEY is blank; the environment's key wins over it."""
    proj = project()
    home = tempfile.mkdtemp(prefix="chidori-home-")
    try:
        os.makedirs(os.path.join(home, ".chidori"), mode=0o700)
        with open(os.path.join(home, ".chidori", "credentials.json"), "w") as f:
            json.dump({"openrouter_api_key": "sk-or-saved-key-42"}, f, indent=2)
        with fake_llm([{"text": "via the saved key"}, {"text": "via the env key"}]) as (base, requests):
            env = env_of(HOME=home, CHIDORI_OPENROUTER_URL=base + "/api/v1")
            rec, _, _ = prompt_record(v, proj, env, model="gpt-4o")
            assert response_of(rec)["provider"] == "openrouter" and reply_text(rec) == "via the saved key", rec
            env.update(OPENROUTER_API_KEY="sk-or-env")
            prompt_record(v, proj, env, model="gpt-4o")
            got = requests()["requests"]
        assert [r["headers"]["authorization"] for r in got] == ["Bearer sk-or-saved-key-42", "Bearer sk-or-env"], got
    finally:
        shutil.rmtree(proj)
        shutil.rmtree(home)


def case_provider_env_reasoning_model_reasoning_is_recorded(v):
    """A reasoning model's reasoning_content (whole, or streamed) is the response's `reasoning`: in
    the record, never a prompt_delta, and a replay gives the same output."""
    proj = project()
    try:
        body = {"id": "r1", "model": "deepseek-reasoner", "choices": [{"index": 0, "finish_reason": "stop", "message": {
            "role": "assistant", "content": "forty-two", "reasoning_content": "six times seven"}}],
            "usage": {"prompt_tokens": 3, "completion_tokens": 5}}
        sse = ('data: {"id":"r2","model":"deepseek-reasoner","choices":[{"index":0,"delta":{"reasoning_content":"add "}}]}\n\n'
               'data: {"choices":[{"index":0,"delta":{"reasoning_content":"them"}}]}\n\n'
               'data: {"choices":[{"index":0,"delta":{"content":"three"},"finish_reason":"stop"}]}\n\n'
               'data: [DONE]\n\n')
        with fake_llm([{"json": body}, {"sse": sse}]) as (base, _):
            env = env_of(CHIDORI_OPENAI_COMPAT_URL=base + "/v1")
            state = tempfile.mkdtemp(prefix="chidori-reasoning-")
            code, out, err = chidori(v, "run", os.path.join(proj, "agent.js"), "-i", json.dumps({"model": "deepseek-reasoner"}),
                                     env=env, state=state)
            assert code == 0 and json.loads(out) == {"reply": "forty-two"}, (code, out, err)
            rid = [n for n in os.listdir(os.path.join(state, "runs"))][0]
            with open(os.path.join(state, "runs", rid, "records.jsonl")) as f:
                rec = [json.loads(line) for line in f if line.strip()][0]
            assert response_of(rec)["reasoning"] == "six times seven", rec
            code, out2, err = chidori(v, "replay", os.path.join(proj, "agent.js"), rid, env=env, state=state)
            assert code == 0 and out2 == out, (code, out2, err)
            shutil.rmtree(state)
            rec2, end, _ = prompt_record(v, proj, env, model="deepseek-reasoner")
        assert reply_text(rec2) == "three" and response_of(rec2)["reasoning"] == "add them", rec2
    finally:
        shutil.rmtree(proj)
