/* context_request.h — the request a chidori.context segment list stands for (docs/effects.md,
 * "Contexts"): the provider request in the original chidori's shape (its digest is the original's
 * request_digest), the provider-neutral request llm.h sends, and the args a context `prompt` call
 * is recorded with.
 *
 * A context call is a `prompt` call whose args hold `__context` (the segments, oldest first) and
 * `__mode` ("prompt" | "respond"), and may hold `__registry` (the schemas `tool_schemas` gave for
 * the registry names), `__turns` (messages the tool loop appended, in the original's Message
 * shape), `turn` (the tool loop's turn) and the per-call options (model, maxTokens, temperature,
 * cache, system, tools: [names], type). Pure functions of those args: no host, no I/O.
 * Trusts nothing in them (guest code built them): every field is type-checked, sizes are capped,
 * and a bad segment is an error naming it.
 */
#ifndef CHIDORI_CONTEXT_REQUEST_H
#define CHIDORI_CONTEXT_REQUEST_H

#include <stdbool.h>
#include "util/json.h"

#define CONTEXT_MAX_SEGMENTS 20000
#define CONTEXT_DEFAULT_MODEL "claude-sonnet-4-6" /* the original's default, for the digest */
#define CONTEXT_DEFAULT_TEMPERATURE 0.7
#define CONTEXT_MAX_BREAKPOINTS 4 /* Anthropic accepts at most four cache_control marks */

/* Is this prompt call a context call (args hold `__context`)? */
bool context_request_is(const json_t *args);

/* The registry names a context names: those of its tools segments, in order, de-duplicated, then
 * (merge_opts) the string names of opts.tools. A new array. */
json_t *context_tool_names(const json_t *segments, const json_t *opts, bool merge_opts);

/* The original's request {model, system, messages, tools, cache:{system, tools}, max_tokens,
 * temperature} for these segments (+ turns), with registry the schemas of the registry names
 * ([{name, description, parameters}], may be NULL) and opts the call's options. merge_opts: add
 * opts.system and opts.tools (prompt/respond do, digest does not). model_fallback: used when
 * opts has no model (NULL: CONTEXT_DEFAULT_MODEL). need_message: refuse a request without any
 * message. NULL with *error on a bad segment. */
json_t *context_original_request(const json_t *segments, const json_t *turns, const json_t *registry, const json_t *opts,
                                 bool merge_opts, const char *model_fallback, bool need_message, char **error);

/* The lowercase hex SHA-256 of the request's canonical JSON (v:1, keys sorted at every level,
 * temperature printed as a float): the original's request_digest. out holds 65 bytes. */
void context_request_digest(const json_t *original, char out[65]);

/* The provider-neutral request (llm.h) a context call sends, or NULL with *error. */
json_t *context_llm_request(const json_t *args, char **error);

/* The original's args of a context prompt record: {model, type, tools, turn, context_segments,
 * max_tokens, temperature, request_digest}. result (may be NULL) names the model when args do not. */
json_t *context_record_args(const json_t *args, const json_t *result);

/* Is the record's result the response object (respond, or a tool-loop turn), not the reply text? */
bool context_result_is_response(const json_t *args);

#endif
