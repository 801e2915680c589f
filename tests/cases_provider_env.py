"""tests/cases_provider_env.py — the LLM provider variables (docs/effects.md, docs/settings.md):
the original chidori's names and order (the OpenAI-compatible pair and its LiteLLM aliases,
OpenRouter, ANTHROPIC_MODEL, the Anthropic family names), URL normalization, error labels, and
the response id and cache token counts reaching the record and the `chat` span.

Every provider is tests/providers/fake_llm.py on loopback; the agent is tests/streaming/agent.js,
run with `--stream` so the call lines show each record, and every variable the case does not set
is blank so the machine's own cannot choose a provider.
"""
import json
import os
import shutil

from cases import chidori
from cases_effects import fake_llm
from cases_otel import by_name, collector, need_decoder
from cases_streaming import env_of, ndjson, project, prompts_of, reply_text, response_of


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
