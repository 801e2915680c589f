/* effects/prompt_record.c — the record of a `prompt` call in the original chidori's shape, and the
 * agent's result rebuilt from such a record (record_form.h).
 *
 * args:   {text, model, type, max_tokens, temperature, request_digest} (plus tools: [names] and
 *         turn in the tool loop), then `request`: our whole request as the agent's prelude sent it.
 * result: the reply text; in the tool loop, the turn's response object {content, blocks, toolCalls,
 *         stopReason, inputTokens, outputTokens, cacheCreationTokens, cacheReadTokens, reasoning?}.
 * token_usage: {input_tokens, output_tokens, cache_creation_tokens?, cache_read_tokens?}.
 * response (additional key): every key of the reply the agent saw that the fields above do not give
 *         back (stopReason, toolCalls, model, provider, id, json …), so replay returns it unchanged.
 * A context call (chidori.context, args with `__context`) is recorded with the original's context
 * args {model, type, tools, turn, context_segments, max_tokens, temperature, request_digest}
 * (context_request.c), its result the reply text, or the response object for respond() and
 * tool-loop turns.
 * A record that has `request` is ours and answers exactly that request; one without it was written
 * by the original and is matched on its own keys. Kept apart from the provider code (llm*.c).
 */
#include "host/record_form.h"
#include "host/context_request.h"
#include "host/llm.h"
#include "util/buf.h"
#include "util/sha256.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool has_tools(const json_t *args)
{
    const json_t *t = json_object_get(args, "tools");
    return json_is_array(t) && t->u.array.len > 0;
}

static json_t *or_null(const json_t *v) { return v ? json_copy(v) : json_null(); }

/* The lowercase hex SHA-256 of the request's canonical JSON (keys sorted at every level). */
static json_t *request_digest(const json_t *args, const json_t *model, const json_t *max_tokens,
                              const json_t *temperature)
{
    json_t *d = json_object();
    json_object_set(d, "v", json_number(1));
    json_object_set(d, "model", json_copy(model));
    json_object_set(d, "system", or_null(json_object_get(args, "system")));
    json_object_set(d, "messages", or_null(json_object_get(args, "messages")));
    json_object_set(d, "tools", or_null(json_object_get(args, "tools")));
    json_object_set(d, "max_tokens", json_copy(max_tokens));
    json_object_set(d, "temperature", json_copy(temperature));
    size_t n;
    char *text = json_dump_sorted(d, &n);
    char hex[65];
    sha256_hex(text, n, hex);
    free(text);
    json_free(d);
    return json_string(hex);
}

/* The original's args of this request. model: the agent's, else the one that answered (result may be NULL). */
static json_t *original_args(const json_t *args, const json_t *result)
{
    if (context_request_is(args)) return context_record_args(args, result);
    json_t *o = json_object();
    const json_t *msgs = json_object_get(args, "messages"), *text = NULL;
    size_t assistant_turns = 0;
    for (size_t i = 0; json_is_array(msgs) && i < msgs->u.array.len; i++) {
        const json_t *m = msgs->u.array.items[i];
        const char *role = json_string_value(json_object_get(m, "role"));
        if (!role) continue;
        if (!text && !strcmp(role, "user") && json_is_string(json_object_get(m, "content"))) text = json_object_get(m, "content");
        if (!strcmp(role, "assistant")) assistant_turns++;
    }
    json_object_set(o, "text", or_null(text));
    const json_t *model = json_object_get(args, "model");
    if (!json_is_string(model) || !model->u.string.len) model = json_object_get(result, "model");
    json_object_set(o, "model", json_is_string(model) ? json_copy(model) : json_null());
    const json_t *type = json_object_get(args, "type"); /* the stream label, when one was given */
    json_object_set(o, "type", json_is_string(type) ? json_copy(type) : json_null());
    if (has_tools(args)) {
        const json_t *tools = json_object_get(args, "tools");
        json_t *names = json_array();
        for (size_t i = 0; i < tools->u.array.len; i++) json_array_push(names, or_null(json_object_get(tools->u.array.items[i], "name")));
        json_object_set(o, "tools", names);
        json_object_set(o, "turn", json_number((double)assistant_turns));
    }
    const json_t *mt = json_object_get(args, "maxTokens");
    json_object_set(o, "max_tokens", mt && mt->type == JSON_NUMBER ? json_copy(mt) : json_number(LLM_DEFAULT_MAX_TOKENS));
    const json_t *t = json_object_get(args, "temperature");
    json_object_set(o, "temperature", t && t->type == JSON_NUMBER ? json_copy(t) : json_null());
    json_object_set(o, "request_digest", request_digest(args, json_object_get(o, "model"), json_object_get(o, "max_tokens"),
                                                        json_object_get(o, "temperature")));
    return o;
}

static double count(const json_t *v)
{
    return v && v->type == JSON_NUMBER && v->u.number >= 0 && v->u.number < 9e15 ? floor(v->u.number) : 0;
}

/* The reply's usage as the original's token_usage (cache fields only when not 0), or NULL. */
static json_t *token_usage_of(const json_t *usage)
{
    if (!json_is_object(usage)) return NULL;
    json_t *u = json_object();
    json_object_set(u, "input_tokens", json_number(count(json_object_get(usage, "inputTokens"))));
    json_object_set(u, "output_tokens", json_number(count(json_object_get(usage, "outputTokens"))));
    double cc = count(json_object_get(usage, "cacheCreationTokens")), cr = count(json_object_get(usage, "cacheReadTokens"));
    if (cc > 0) json_object_set(u, "cache_creation_tokens", json_number(cc));
    if (cr > 0) json_object_set(u, "cache_read_tokens", json_number(cr));
    return u;
}

/* The agent's usage object given back by a token_usage (what decode makes when none is kept). */
static json_t *usage_of(const json_t *token_usage)
{
    json_t *u = json_object();
    json_object_set(u, "inputTokens", json_number(count(json_object_get(token_usage, "input_tokens"))));
    json_object_set(u, "outputTokens", json_number(count(json_object_get(token_usage, "output_tokens"))));
    const json_t *cr = json_object_get(token_usage, "cache_read_tokens");
    const json_t *cc = json_object_get(token_usage, "cache_creation_tokens");
    if (cr) json_object_set(u, "cacheReadTokens", json_number(count(cr)));
    if (cc) json_object_set(u, "cacheCreationTokens", json_number(count(cc)));
    return u;
}

/* The tool loop's per-turn record: the original's response object. */
static json_t *turn_response(const json_t *result, const json_t *usage)
{
    json_t *o = json_object();
    const json_t *content = json_object_get(result, "content");
    const json_t *calls = json_object_get(result, "toolCalls");
    json_object_set(o, "content", json_is_string(content) ? json_copy(content) : json_string(""));
    json_t *blocks = json_array();
    if (json_is_string(content) && content->u.string.len) {
        json_t *b = json_object();
        json_object_set(b, "type", json_string("text"));
        json_object_set(b, "text", json_copy(content));
        json_array_push(blocks, b);
    }
    json_t *tool_calls = json_array();
    for (size_t i = 0; json_is_array(calls) && i < calls->u.array.len; i++) {
        const json_t *c = calls->u.array.items[i];
        json_t *b = json_object(), *tc = json_object();
        json_object_set(b, "type", json_string("tool_use"));
        json_object_set(b, "id", or_null(json_object_get(c, "id")));
        json_object_set(b, "name", or_null(json_object_get(c, "name")));
        json_object_set(b, "input", or_null(json_object_get(c, "input")));
        json_array_push(blocks, b);
        json_object_set(tc, "id", or_null(json_object_get(c, "id")));
        json_object_set(tc, "name", or_null(json_object_get(c, "name")));
        json_object_set(tc, "input", or_null(json_object_get(c, "input")));
        json_array_push(tool_calls, tc);
    }
    json_object_set(o, "blocks", blocks);
    json_object_set(o, "toolCalls", tool_calls);
    json_object_set(o, "stopReason", or_null(json_object_get(result, "stopReason")));
    json_object_set(o, "inputTokens", json_number(count(json_object_get(usage, "inputTokens"))));
    json_object_set(o, "outputTokens", json_number(count(json_object_get(usage, "outputTokens"))));
    json_object_set(o, "cacheCreationTokens", json_number(count(json_object_get(usage, "cacheCreationTokens"))));
    json_object_set(o, "cacheReadTokens", json_number(count(json_object_get(usage, "cacheReadTokens"))));
    const json_t *reasoning = json_object_get(result, "reasoning"); /* a reasoning model's, as the original keeps it */
    if (json_is_string(reasoning)) json_object_set(o, "reasoning", json_copy(reasoning));
    return o;
}

static json_t *decode_with(const json_t *result, const json_t *args, const json_t *token_usage, const json_t *response);

static void prompt_encode(const json_t *args, const json_t *result, json_t **rec_args, json_t **rec_result,
                          json_t **token_usage, json_t **extra)
{
    json_t *a = original_args(args, result);
    json_object_set(a, "request", json_copy(args));
    *rec_args = a;
    *rec_result = NULL;
    *token_usage = NULL;
    *extra = NULL;
    if (!result) return;
    const json_t *usage = json_object_get(result, "usage");
    *token_usage = token_usage_of(usage);
    const json_t *content = json_object_get(result, "content");
    bool response_shaped = context_request_is(args) ? context_result_is_response(args) : has_tools(args);
    *rec_result = response_shaped ? turn_response(result, usage) : json_is_string(content) ? json_copy(content) : json_string("");
    /* keep what the original's fields do not give back: the reply less its content, and its usage
     * unless decode rebuilds the same object in the same place */
    json_t *resp = json_object();
    for (size_t i = 0; json_is_object(result) && i < result->u.object.len; i++) {
        const json_member *m = &result->u.object.items[i];
        if (!strcmp(m->key, "content") && i == 0 && json_is_string(m->value)) continue;
        /* a tool turn's response object holds the reasoning already: not twice (decode puts it
         * back where the reply had it, before `provider`) */
        if (response_shaped && !strcmp(m->key, "reasoning") && json_is_string(m->value) &&
            json_object_get(*rec_result, "reasoning"))
            continue;
        json_object_set(resp, m->key, json_copy(m->value));
    }
    if (json_object_get(resp, "usage")) {
        /* try without it: kept only if the rebuilt reply would differ */
        json_t *trial = json_object();
        for (size_t i = 0; i < resp->u.object.len; i++)
            if (strcmp(resp->u.object.items[i].key, "usage"))
                json_object_set(trial, resp->u.object.items[i].key, json_copy(resp->u.object.items[i].value));
        json_t *rebuilt = decode_with(*rec_result, args, *token_usage, trial);
        bool same = json_equal(rebuilt, result) && rebuilt->u.object.len == result->u.object.len;
        for (size_t i = 0; same && i < result->u.object.len; i++) /* json_equal ignores key order; the agent may not */
            same = !strcmp(rebuilt->u.object.items[i].key, result->u.object.items[i].key);
        json_free(rebuilt);
        if (same) {
            json_free(resp);
            resp = trial;
        } else {
            json_free(trial);
        }
    }
    *extra = json_object();
    json_object_set(*extra, "response", resp);
}

/* The reply the agent saw: content first, then the kept keys in their order, usage rebuilt from
 * token_usage right after stopReason when it was not kept; for the original's records, what its
 * fields hold. */
static json_t *decode_with(const json_t *result, const json_t *args, const json_t *token_usage, const json_t *response)
{
    json_t *o = json_object();
    const json_t *content = json_is_string(result) ? result : json_object_get(result, "content");
    json_object_set(o, "content", json_is_string(content) ? json_copy(content) : json_string(""));
    bool kept_usage = json_object_get(response, "usage") != NULL;
    bool placed_usage = kept_usage;
    /* a tool turn's reasoning, kept in its response object only (encode), goes before `provider` */
    const json_t *reasoning = json_is_object(result) ? json_object_get(result, "reasoning") : NULL;
    if (!json_is_string(reasoning)) reasoning = NULL;
    if (json_is_object(response)) {
        if (json_object_get(response, "reasoning")) reasoning = NULL;
        for (size_t i = 0; i < response->u.object.len; i++) {
            const json_member *m = &response->u.object.items[i];
            if (reasoning && !strcmp(m->key, "provider")) {
                json_object_set(o, "reasoning", json_copy(reasoning));
                reasoning = NULL;
            }
            json_object_set(o, m->key, json_copy(m->value));
            if (!placed_usage && !strcmp(m->key, "stopReason")) {
                json_object_set(o, "usage", usage_of(token_usage));
                placed_usage = true;
            }
        }
        if (!placed_usage) json_object_set(o, "usage", usage_of(token_usage));
        if (reasoning) json_object_set(o, "reasoning", json_copy(reasoning));
        return o;
    }
    /* the original's record: its response object (tool loop) or its text */
    const json_t *calls = json_object_get(result, "toolCalls");
    json_object_set(o, "toolCalls", json_is_array(calls) ? json_copy(calls) : json_array());
    json_object_set(o, "stopReason", or_null(json_object_get(result, "stopReason")));
    if (token_usage) {
        json_object_set(o, "usage", usage_of(token_usage));
    } else {
        json_t *u = json_object();
        json_object_set(u, "inputTokens", json_number(count(json_object_get(result, "inputTokens"))));
        json_object_set(u, "outputTokens", json_number(count(json_object_get(result, "outputTokens"))));
        json_object_set(o, "usage", u);
    }
    json_object_set(o, "model", or_null(json_object_get(args, "model")));
    if (reasoning) json_object_set(o, "reasoning", json_copy(reasoning));
    json_object_set(o, "provider", json_null());
    return o;
}

static json_t *prompt_decode(const call_record *rec)
{
    return decode_with(rec->result, call_record_args(rec), rec->token_usage, json_object_get(rec->extra, "response"));
}

bool record_args_agree(const json_t *recorded, const json_t *ours, bool unknown_null)
{
    if (!json_is_object(recorded) || !json_is_object(ours)) return json_equal(recorded, ours);
    for (size_t i = 0; i < ours->u.object.len; i++) {
        const json_member *m = &ours->u.object.items[i];
        if (!strcmp(m->key, "request_digest") || (unknown_null && m->value->type == JSON_NULL)) continue;
        const json_t *theirs = json_object_get(recorded, m->key);
        if (theirs && !json_equal(theirs, m->value)) return false;
    }
    return true;
}

static bool prompt_matches(const call_record *rec, const json_t *args)
{
    const json_t *ours = json_object_get(call_record_args(rec), "request");
    if (ours) return json_equal(ours, args); /* our record: the very request */
    json_t *mine = original_args(args, NULL);
    bool ok = record_args_agree(call_record_args(rec), mine, true);
    json_free(mine);
    return ok;
}

const record_form prompt_record_form = {
    .encode = prompt_encode,
    .matches = prompt_matches,
    .decode = prompt_decode,
};
