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

#endif
