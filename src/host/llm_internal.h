/* llm_internal.h — shared by llm.c, llm_openai.c, llm_anthropic.c, the unit tests and the fuzzer.
 *
 * The wire-format halves are pure functions (no I/O): build a provider request body from a
 * request llm_validate_request accepted, and turn a provider's 2xx body into the neutral
 * response. Errors returned from here carry no provider prefix; llm_complete adds it.
 */
#ifndef CHIDORI_LLM_INTERNAL_H
#define CHIDORI_LLM_INTERNAL_H

#include "host/llm.h"
#include "util/buf.h"

#include <stdbool.h>

#define LLM_JSON_MAX_DEPTH 128 /* provider bodies and tool arguments */
#define LLM_EXCERPT_BYTES 300  /* of a provider body quoted in an error */

/* Appended to the system prompt with format "json" (OpenAI also requires the word "JSON" in the
 * messages when response_format is json_object). */
extern const char LLM_JSON_INSTRUCTION[];

/* Checks the shape of a request (see llm.h). 0, or -1 with *error. */
int llm_validate_request(const json_t *request, char **error);
bool llm_wants_json(const json_t *request);

/* Request bodies. `request` has passed llm_validate_request. */
json_t *llm_openai_body(const json_t *request, const char *model);
json_t *llm_anthropic_body(const json_t *request, const char *model);

/* Parse a 2xx body into {"content", "toolCalls", "stopReason", "usage", "model"}. fallback_model
 * is used when the body names none. 0, or -1 with *error. */
int llm_openai_parse(const char *body, size_t len, size_t max_bytes, const char *fallback_model, json_t **out,
                     char **error);
int llm_anthropic_parse(const char *body, size_t len, size_t max_bytes, const char *fallback_model, json_t **out,
                        char **error);

/* Describe a non-2xx answer: "HTTP 500: <error.message or body excerpt>". */
char *llm_http_error(long status, const char *body, size_t len);

/* With format "json": parse the reply text (surrounding whitespace and one ``` fence stripped).
 * 0 with *value, or -1 with *error. */
int llm_parse_json_reply(const char *text, size_t len, size_t max_bytes, json_t **value, char **error);

/* Tests: the test provider's count of calls back to 0 (CHIDORI_TEST_LLM_TOOL_CALL answers the
 * first). */
void llm_test_provider_reset(void);

/* Helpers. */
json_t *llm_parse_limited(const char *s, size_t len, size_t max_bytes, json_error *err);
/* A provider's reply body as JSON, or NULL with *error quoting where it broke and an excerpt. */
json_t *llm_parse_reply(const char *body, size_t len, size_t max_bytes, char **error);
/* A printable, valid-UTF-8 excerpt of at most max bytes (plus "…" when cut). Caller frees. */
char *llm_excerpt(const char *s, size_t len, size_t max);
/* Non-negative finite number, else 0. */
double llm_count(const json_t *v);

/* A tool as both wire formats describe it: {name, description?, <schema_key>: parameters or an
 * empty object schema}. */
json_t *llm_tool_spec(const json_t *tool, const char *schema_key);

/* The response object both wire formats end in: {content, toolCalls (taken), stopReason, usage
 * {inputTokens, outputTokens} read from usage[in_key]/usage[out_key], model (or fallback_model)}. */
json_t *llm_make_response(const char *text, size_t len, json_t *calls, const json_t *stop_reason, const json_t *usage,
                          const char *in_key, const char *out_key, const json_t *model, const char *fallback_model);

/* The provider's response id and cache token counts, added to a response when the provider
 * reported them: "id" (a non-empty string), usage.cacheReadTokens, usage.cacheCreationTokens (a
 * non-negative number; NULL or not a number: left out). */
void llm_response_extras(json_t *res, const json_t *id, const json_t *cache_read, const json_t *cache_creation);

/* Model names: the Anthropic family names the original accepts (claude-sonnet, claude-opus,
 * claude-haiku) as full ids (a static string), else model itself; and a model as an OpenRouter slug
 * (malloc'd). */
const char *llm_anthropic_alias(const char *model);
char *llm_openrouter_slug(const char *model);

/* ---------- streaming (llm_stream.c) ----------
 *
 * An incremental Server-Sent Events parser of provider bytes (untrusted): lines end in LF, CRLF
 * or CR; `data:` lines of one event are joined with LF, `event:` names it, `:` lines are comments,
 * a blank line dispatches. One event's data (and any one line) is capped at max_event bytes and
 * the whole stream at max_total: past either the feed fails with an error naming the limit. */
typedef int llm_sse_event_fn(void *ctx, const char *event, const char *data, size_t len, char **error);
typedef struct llm_sse {
    size_t max_event, max_total, total;
    buf line, data, event;
    bool has_data, last_cr;
    llm_sse_event_fn *on_event;
    void *ctx;
} llm_sse;
void llm_sse_init(llm_sse *p, size_t max_event, size_t max_total, llm_sse_event_fn *fn, void *ctx);
/* 0, or -1 with *error (a limit, or the callback's error). */
int llm_sse_feed(llm_sse *p, const char *bytes, size_t n, char **error);
/* The end of the stream: an event not closed by a blank line is dispatched. 0 or -1. */
int llm_sse_finish(llm_sse *p, char **error);
void llm_sse_free(llm_sse *p);

/* A streamed reply being put together: fed each SSE event's data, it calls delta with each piece
 * of text and, at the end, gives the neutral response the same reply parsed whole would give (it
 * rebuilds the non-streamed body and runs llm_openai_parse / llm_anthropic_parse on it). */
typedef enum { LLM_WIRE_OPENAI, LLM_WIRE_ANTHROPIC } llm_wire;
typedef struct llm_stream_acc llm_stream_acc;
llm_stream_acc *llm_stream_acc_new(llm_wire wire, size_t max_bytes, void (*delta)(void *, const char *, size_t),
                                   void *ctx);
/* An llm_sse_event_fn (ctx: the acc). Unparseable frames and [DONE] are skipped; an error the
 * provider reports in the stream is an error. */
int llm_stream_acc_event(void *acc, const char *event, const char *data, size_t len, char **error);
/* 0 with *out, or -1 with *error (nothing usable arrived, the provider never said the reply was
 * complete, a tool call's arguments do not parse). */
int llm_stream_acc_finish(llm_stream_acc *acc, const char *fallback_model, json_t **out, char **error);
void llm_stream_acc_free(llm_stream_acc *acc);
/* Whether the stream ended on an error that refuses the call for now (the provider overloaded or
 * rate-limited) before any text went to the caller: the call may then be tried again as for HTTP
 * 429 or 529 (nothing of this attempt was told, so the next starts clean). */
bool llm_stream_acc_refused_for_now(const llm_stream_acc *acc);

#endif
