/* llm.h — the LLM providers behind `chidori.prompt`: OpenAI-compatible chat completions,
 * Anthropic messages, and a static test provider.
 *
 * Owns: turning one provider-neutral request (below) into a call of the provider and the provider's
 * answer back into one provider-neutral response. A call the provider refuses for now (429, 503,
 * 529) is tried again, up to 8 attempts, after the wait the provider asks for (llm_pace.h), and
 * every attempt first takes a request slot of the provider's rate limit (CHIDORI_*_RPM); both
 * waits count in the call's time (timeout_ms). It does not loop over tool calls (the JS side does)
 * or record anything: however many attempts it made, a call is one record. With a prompt cache
 * (cache_dir, llm_cache.h) an exact repeat of a request answered before is answered from it.
 *
 * Trusts: the llm_config it is given (operator configuration). It trusts nothing in the request
 * beyond it being a json_t (the request is built from guest arguments, so every field is
 * type-checked) and NOTHING a provider answers: the body is size-capped while it is read, parsed
 * with json_parse limits, and every field is checked before use; tool-call arguments are parsed
 * with the same limits. API keys are sent only in headers and never appear in an error message
 * (errors are scrubbed of both keys before they are returned).
 *
 * Transport (llm.c): one libcurl easy handle per call; http and https only; redirects are NOT
 * followed (a 3xx is reported as an error); proxies from the environment (http_proxy, …) are NOT
 * used — provider endpoints are operator-configured, and an operator who needs a gateway points
 * OPENAI_BASE_URL/ANTHROPIC_BASE_URL at it; the whole request is bounded by timeout_ms.
 *
 * Threads: llm_complete may be called from several threads at once. curl_global_init runs once,
 * on the first call, under pthread_once; the rate-limit buckets (llm_pace.c) and the test
 * provider's count of calls are the process's, shared by every thread. (libcurl's own global init is not
 * thread-safe on every build, which is why it is funnelled through pthread_once; a program that
 * also uses libcurl elsewhere should call llm_global_init() before starting threads.)
 */
#ifndef CHIDORI_LLM_H
#define CHIDORI_LLM_H

#include "util/json.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LLM_DEFAULT_OPENAI_BASE_URL "https://api.openai.com/v1"
#define LLM_DEFAULT_ANTHROPIC_BASE_URL "https://api.anthropic.com"
#define LLM_DEFAULT_OPENAI_MODEL "gpt-4o-mini"
#define LLM_DEFAULT_ANTHROPIC_MODEL "claude-sonnet-4-5"
#define LLM_DEFAULT_TIMEOUT_MS 120000L
#define LLM_DEFAULT_MAX_RESPONSE_BYTES ((size_t)16 << 20)
#define LLM_DEFAULT_MAX_TOKENS 4096 /* Anthropic requires max_tokens; used when maxTokens is absent */

#define LLM_DEFAULT_OPENROUTER_BASE_URL "https://openrouter.ai/api/v1"

typedef struct llm_config {
    const char *openai_api_key, *openai_base_url;       /* OPENAI_API_KEY, OPENAI_BASE_URL (default https://api.openai.com/v1) */
    bool openai_base_url_set;                           /* OPENAI_BASE_URL was given: that provider serves every model */
    const char *anthropic_api_key, *anthropic_base_url; /* ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL (default https://api.anthropic.com) */
    const char *compat_url, *compat_key;                /* CHIDORI_OPENAI_COMPAT_URL / _KEY, else LITELLM_API_URL / _KEY */
    const char *openrouter_api_key, *openrouter_base_url; /* OPENROUTER_API_KEY, CHIDORI_OPENROUTER_URL */
    bool openrouter_key_saved;                          /* the key is the one in ~/.chidori/credentials.json */
    const char *test_response;                          /* CHIDORI_TEST_LLM_RESPONSE: static provider, no network */
    const char *default_model;                          /* CHIDORI_MODEL, else ANTHROPIC_MODEL, or NULL */
    const char *test_tool_call;                         /* CHIDORI_TEST_LLM_TOOL_CALL: the test provider's first reply */
    const char *cache_dir;                              /* CHIDORI_PROMPT_CACHE_DIR: answered prompts (llm_cache.h), or NULL */
    uint64_t cache_max_bytes;                           /* CHIDORI_PROMPT_CACHE_MAX_MB in bytes; 0: 1 GiB */
    long timeout_ms;                                    /* whole call, retries and waits included; default 120000 */
    size_t max_response_bytes;                          /* default 16 MiB */
    uint32_t rpm[4];                                    /* requests a minute by pace_provider (llm_pace.h); 0: none */
    const atomic_int *cancel;                           /* the run's cancel flag, or NULL: ends a wait */
    const void *pace_owner;                             /* whose turn a rate-limit wait is (llm_pace.h): one
                                                           per run tree, so one per session of a server */
} llm_config;

/* Fill cfg from the settings (settings.h; NULL: nothing set). Empty variables count as unset. The
 * strings point into s (valid while it is). CHIDORI_LLM_TIMEOUT_MS overrides timeout_ms. NULL
 * base URLs / zero timeout / zero cap passed to llm_complete also mean the defaults. */
struct settings;
void llm_config_from_settings(llm_config *cfg, const struct settings *s);

/* request: {"messages": [{"role": "user"|"assistant"|"tool"|"system", "content": "...",
 *                          "toolCalls"?: [{"id", "name", "input"}],   (assistant only)
 *                          "toolCallId"?: "...", "isError"?: bool}],   (tool only)
 *           "system"?: "...", "model"?: "...", "maxTokens"?: N, "temperature"?: x, "format"?: "json",
 *           "tools"?: [{"name", "description"?, "parameters"?}]}
 * A tool message's content may be any JSON value; a non-string is sent as its compact JSON.
 * A "system" message is sent as an OpenAI system message / appended to Anthropic's `system`.
 *
 * response (on success): {"content": "text", "toolCalls": [{"id", "name", "input"}],
 *           "stopReason": provider's own value ("stop", "end_turn", "tool_calls", …) or null,
 *           "usage": {"inputTokens": N, "outputTokens": N, "cacheReadTokens"?: N, "cacheCreationTokens"?: N},
 *           "model": "...", "id"?: the provider's response id,
 *           "reasoning"?: a reasoning model's reasoning_content (OpenAI-compatible servers; never sent back),
 *           "provider": "openai"|"anthropic"|"openai-compatible"|"openrouter"|"test",
 *           "json"?: value}  — with format "json" and no tool calls: the reply parsed (one ```
 *                              fence stripped); a reply that does not parse is an error.
 *
 * Provider choice (the original chidori's order, then ours): test_response set → "test" (content =
 * that text, no toolCalls, zero usage; streamed in a few pieces; with test_tool_call, the process's
 * first call answers that tool call instead when its messages hold no tool result). Otherwise, with model =
 * request.model ?: default_model, the first that applies:
 *   1. "claude…" and ANTHROPIC_API_KEY                  → anthropic (family names resolved: claude-sonnet
 *                                                          → claude-sonnet-4-6, claude-opus, claude-haiku)
 *   2. OPENAI_API_KEY and a "gpt", "o1", "o3", "o4" or "chatgpt" model, or OPENAI_BASE_URL given
 *                                                        → openai
 *   3. CHIDORI_OPENAI_COMPAT_URL (else LITELLM_API_URL) → "openai-compatible", any model, key
 *                                                          CHIDORI_OPENAI_COMPAT_KEY (else LITELLM_API_KEY, else none)
 *   4. OPENROUTER_API_KEY                               → openrouter, any model, named as a slug
 *                                                          (claude-sonnet-4-6 → anthropic/claude-sonnet-4.6,
 *                                                          gpt-4o → openai/gpt-4o; a name with "/" as is)
 *   5. OPENAI_API_KEY (an OpenAI-compatible gateway)    → openai
 *   6. ANTHROPIC_API_KEY and not an OpenAI model name   → anthropic
 *   7. the OpenRouter key saved in ~/.chidori/credentials.json (openrouter_key_saved; not counted
 *      in 4)                                             → openrouter
 *   else an error naming what to set.
 * Base URLs ending in /chat/completions are used as they are; otherwise trailing slashes are
 * trimmed and /chat/completions (Anthropic: /v1/messages) is appended.
 * With no model at all the provider's default (LLM_DEFAULT_*_MODEL) is used.
 *
 * Returns 0 with *response, or -1 with *error (malloc'd) of the form "<provider>: <cause>":
 * HTTP status + a bounded excerpt of the body, invalid JSON, missing fields, timeout, response
 * over the size cap, connection failure, or an invalid request. */
int llm_complete(const llm_config *cfg, const json_t *request, json_t **response, char **error);

/* Streaming: the same call, told of the reply while it arrives. start is called once, before the
 * request goes out (not at all when no provider can be chosen), with the model actually sent;
 * delta with each piece of reply text, in order (the pieces concatenate to response.content).
 * Providers are asked to stream (OpenAI-compatible: "stream": true with usage; Anthropic: the
 * messages SSE); the response is the one the same reply gives without streaming. The callbacks
 * run on the calling thread and must not call back into llm. */
typedef struct llm_stream {
    void (*start)(void *ctx, const char *model);
    void (*delta)(void *ctx, const char *text, size_t len);
    void *ctx;
} llm_stream;
int llm_complete_stream(const llm_config *cfg, const json_t *request, const llm_stream *stream, json_t **response,
                        char **error);

/* Optional: run curl_global_init now (it otherwise runs on the first llm_complete). 0 or -1. */
int llm_global_init(void);

#endif
