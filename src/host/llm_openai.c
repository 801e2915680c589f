/* llm_openai.c — the OpenAI chat-completions wire format (POST {base}/chat/completions).
 *
 * Owns: building the request body from a validated neutral request, and parsing a 2xx answer.
 * Trusts: the neutral request's shape (llm_validate_request ran). NOTHING in the answer: it is
 * parsed with size and depth limits, every field is type-checked, and tool-call arguments (a JSON
 * string on this wire) are parsed with the same limits; a malformed answer is an error naming the
 * missing or wrong field, never a crash or a partial result.
 *
 * Mapping:
 *   system / format "json"  → a leading {"role":"system"} message (format "json" also sets
 *                              response_format {"type":"json_object"}, which requires the word JSON
 *                              in the messages, hence the instruction)
 *   assistant + toolCalls   → {"role":"assistant","content":text|null,"tool_calls":[{id,type:"function",
 *                              function:{name, arguments: JSON text of input}}]}
 *   tool                    → {"role":"tool","tool_call_id","content"}
 *   tools                   → [{"type":"function","function":{name, description, parameters}}]
 *   maxTokens               → max_tokens (max_completion_tokens for the o-series reasoning models,
 *                              which reject max_tokens)
 * In the answer, "id" is kept and usage.prompt_tokens_details.cached_tokens becomes
 * usage.cacheReadTokens.
 */
#include "host/llm_internal.h"

#include <stdlib.h>
#include <string.h>

static json_t *content_string(const json_t *content)
{
    if (!content || content->type == JSON_NULL) return json_string("");
    if (content->type == JSON_STRING) return json_copy(content);
    char *s = json_dump(content, JSON_COMPACT, NULL);
    json_t *v = json_string(s);
    free(s);
    return v;
}

static bool reasoning_model(const char *model)
{
    return (model[0] == 'o' && model[1] >= '1' && model[1] <= '9');
}

json_t *llm_openai_body(const json_t *req, const char *model)
{
    json_t *body = json_object();
    json_object_set(body, "model", json_string(model));
    json_t *msgs = json_array();

    const json_t *system = json_object_get(req, "system");
    bool want_json = llm_wants_json(req);
    if (json_is_string(system) || want_json) {
        buf b = {0};
        if (json_is_string(system)) buf_append(&b, system->u.string.bytes, system->u.string.len);
        if (want_json) {
            if (b.len) buf_puts(&b, "\n\n");
            buf_puts(&b, LLM_JSON_INSTRUCTION);
        }
        json_t *m = json_object();
        json_object_set(m, "role", json_string("system"));
        json_object_set(m, "content", json_stringn(b.data, b.len));
        json_array_push(msgs, m);
        buf_free(&b);
    }

    const json_t *in = json_object_get(req, "messages");
    for (size_t i = 0; i < in->u.array.len; i++) {
        const json_t *src = in->u.array.items[i];
        const char *role = json_string_value(json_object_get(src, "role"));
        const json_t *content = json_object_get(src, "content");
        json_t *m = json_object();
        json_object_set(m, "role", json_string(role));
        if (strcmp(role, "tool") == 0) {
            json_object_set(m, "tool_call_id", json_copy(json_object_get(src, "toolCallId")));
            json_object_set(m, "content", content_string(content));
        } else if (strcmp(role, "assistant") == 0) {
            const json_t *calls = json_object_get(src, "toolCalls");
            bool has_calls = json_is_array(calls) && calls->u.array.len > 0;
            bool empty = !json_is_string(content) || content->u.string.len == 0;
            json_object_set(m, "content", has_calls && empty ? json_null() : content_string(content));
            if (has_calls) {
                json_t *out = json_array();
                for (size_t j = 0; j < calls->u.array.len; j++) {
                    const json_t *c = calls->u.array.items[j];
                    const json_t *input = json_object_get(c, "input");
                    char *args = input ? json_dump(input, JSON_COMPACT, NULL) : xstrdup("{}");
                    json_t *fn = json_object();
                    json_object_set(fn, "name", json_copy(json_object_get(c, "name")));
                    json_object_set(fn, "arguments", json_string(args));
                    free(args);
                    json_t *tc = json_object();
                    json_object_set(tc, "id", json_copy(json_object_get(c, "id")));
                    json_object_set(tc, "type", json_string("function"));
                    json_object_set(tc, "function", fn);
                    json_array_push(out, tc);
                }
                json_object_set(m, "tool_calls", out);
            }
        } else {
            json_object_set(m, "content", content_string(content));
        }
        json_array_push(msgs, m);
    }
    json_object_set(body, "messages", msgs);

    const json_t *mt = json_object_get(req, "maxTokens");
    if (mt && mt->type == JSON_NUMBER)
        json_object_set(body, reasoning_model(model) ? "max_completion_tokens" : "max_tokens", json_copy(mt));
    const json_t *t = json_object_get(req, "temperature");
    if (t && t->type == JSON_NUMBER) json_object_set(body, "temperature", json_copy(t));

    const json_t *tools = json_object_get(req, "tools");
    if (json_is_array(tools) && tools->u.array.len > 0) {
        json_t *out = json_array();
        for (size_t i = 0; i < tools->u.array.len; i++) {
            json_t *fn = llm_tool_spec(tools->u.array.items[i], "parameters");
            json_t *w = json_object();
            json_object_set(w, "type", json_string("function"));
            json_object_set(w, "function", fn);
            json_array_push(out, w);
        }
        json_object_set(body, "tools", out);
    }
    if (want_json) {
        json_t *rf = json_object();
        json_object_set(rf, "type", json_string("json_object"));
        json_object_set(body, "response_format", rf);
    }
    return body;
}

static int fail(char **error, char *msg)
{
    *error = msg;
    return -1;
}

/* The message content: a string, null, or (some compatible servers) an array of parts. */
static int take_content(const json_t *c, buf *out, char **error)
{
    if (!c || c->type == JSON_NULL) return 0;
    if (c->type == JSON_STRING) {
        buf_append(out, c->u.string.bytes, c->u.string.len);
        return 0;
    }
    if (c->type == JSON_ARRAY) {
        for (size_t i = 0; i < c->u.array.len; i++) {
            const json_t *t = json_object_get(c->u.array.items[i], "text");
            if (json_is_string(t)) buf_append(out, t->u.string.bytes, t->u.string.len);
        }
        return 0;
    }
    return fail(error, xstrdup("choices[0].message.content is neither a string nor null"));
}

static int take_tool_calls(const json_t *calls, size_t max_bytes, json_t *out, char **error)
{
    if (!calls || calls->type == JSON_NULL) return 0;
    if (!json_is_array(calls)) return fail(error, xstrdup("choices[0].message.tool_calls is not an array"));
    for (size_t i = 0; i < calls->u.array.len; i++) {
        const json_t *c = calls->u.array.items[i];
        const json_t *fn = json_object_get(c, "function");
        const json_t *name = json_object_get(fn, "name");
        if (!json_is_object(c) || !json_is_object(fn) || !json_is_string(name) || name->u.string.len == 0)
            return fail(error, xasprintf("tool_calls[%zu] has no function name", i));
        const json_t *args = json_object_get(fn, "arguments");
        json_t *input;
        if (!args || args->type == JSON_NULL || (json_is_string(args) && args->u.string.len == 0)) {
            input = json_object();
        } else if (json_is_string(args)) {
            json_error jerr;
            input = llm_parse_limited(args->u.string.bytes, args->u.string.len, max_bytes, &jerr);
            if (!input) {
                char *n = llm_excerpt(name->u.string.bytes, name->u.string.len, 80);
                char *ex = llm_excerpt(args->u.string.bytes, args->u.string.len, 120);
                *error = xasprintf("tool call \"%s\" has arguments that are not valid JSON (%s at %d:%d): %s", n,
                                   jerr.message, jerr.line, jerr.col, ex);
                free(n);
                free(ex);
                return -1;
            }
        } else if (args->type == JSON_OBJECT) { /* non-standard servers send the object itself */
            input = json_copy(args);
        } else {
            return fail(error, xasprintf("tool_calls[%zu].function.arguments is not a string", i));
        }
        const json_t *id = json_object_get(c, "id");
        json_t *tc = json_object();
        if (json_is_string(id) && id->u.string.len > 0) {
            json_object_set(tc, "id", json_copy(id));
        } else {
            char *syn = xasprintf("call_%zu", i); /* some compatible servers omit ids */
            json_object_set(tc, "id", json_string(syn));
            free(syn);
        }
        json_object_set(tc, "name", json_copy(name));
        json_object_set(tc, "input", input);
        json_array_push(out, tc);
    }
    return 0;
}

int llm_openai_parse(const char *body, size_t len, size_t max_bytes, const char *fallback_model, json_t **out,
                     char **error)
{
    json_t *v = llm_parse_reply(body, len, max_bytes, error);
    if (!v) return -1;
    int r = -1;
    buf text = {0};
    json_t *calls = json_array();
    if (!json_is_object(v)) {
        fail(error, xstrdup("the response is not a JSON object"));
        goto done;
    }
    const json_t *err = json_object_get(v, "error");
    if (err && err->type != JSON_NULL) {
        const json_t *m = json_is_object(err) ? json_object_get(err, "message") : err;
        char *ex = json_is_string(m) ? llm_excerpt(m->u.string.bytes, m->u.string.len, LLM_EXCERPT_BYTES) : xstrdup("(no message)");
        fail(error, xasprintf("the response reports an error: %s", ex));
        free(ex);
        goto done;
    }
    const json_t *choices = json_object_get(v, "choices");
    if (!json_is_array(choices) || choices->u.array.len == 0) {
        fail(error, xstrdup("the response has no choices"));
        goto done;
    }
    const json_t *c0 = choices->u.array.items[0];
    const json_t *msg = json_object_get(c0, "message");
    if (!json_is_object(msg)) {
        fail(error, xstrdup("the response has no choices[0].message object"));
        goto done;
    }
    if (take_content(json_object_get(msg, "content"), &text, error) != 0) goto done;
    if (take_tool_calls(json_object_get(msg, "tool_calls"), max_bytes, calls, error) != 0) goto done;

    *out = llm_make_response(text.data, text.len, calls, json_object_get(c0, "finish_reason"), json_object_get(v, "usage"), "prompt_tokens",
                             "completion_tokens", json_object_get(v, "model"), fallback_model);
    const json_t *details = json_object_get(json_object_get(v, "usage"), "prompt_tokens_details");
    llm_response_extras(*out, json_object_get(v, "id"), json_object_get(details, "cached_tokens"), NULL);
    /* a reasoning model's hidden reasoning (DeepSeek and other compatible servers), kept as the
     * original keeps it; never sent back to the model */
    const json_t *reasoning = json_object_get(msg, "reasoning_content");
    if (json_is_string(reasoning) && reasoning->u.string.len) json_object_set(*out, "reasoning", json_copy(reasoning));
    calls = NULL;
    r = 0;
done:
    json_free(calls);
    buf_free(&text);
    json_free(v);
    return r;
}
