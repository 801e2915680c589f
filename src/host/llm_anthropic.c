/* llm_anthropic.c — the Anthropic messages wire format (POST {base}/v1/messages, headers x-api-key
 * and anthropic-version: 2023-06-01, added by llm.c).
 *
 * Owns: building the request body from a validated neutral request, and parsing a 2xx answer.
 * Trusts: the neutral request's shape (llm_validate_request ran). NOTHING in the answer: it is
 * parsed with size and depth limits and every field is type-checked; a malformed answer is an
 * error naming the field, never a crash or a partial result.
 *
 * Mapping:
 *   system, "system" messages → top-level "system" (joined by blank lines); format "json" appends
 *                                an instruction there (the reply is then validated by llm.c)
 *   maxTokens                 → max_tokens (required by the API; LLM_DEFAULT_MAX_TOKENS if absent)
 *   assistant + toolCalls     → content blocks [{"type":"text"} if non-empty, {"type":"tool_use",id,name,input}…]
 *   tool                      → a user message with a {"type":"tool_result",tool_use_id,content[,is_error]} block
 *   consecutive messages of the same role are merged into one message with the blocks in order
 *   (the API wants every tool_result of a turn in the one user message that follows it)
 *   tools                     → [{name, description, input_schema}]
 *   cacheSystem, cacheTools, a message's cache ("5m" | "1h", set by chidori.context requests)
 *                             → cache_control {type: "ephemeral"[, ttl: "1h"]} on the system block,
 *                               the last tool, the message's last block; at most four, the latest kept
 * In the answer, "text" blocks are concatenated into content, "tool_use" blocks become toolCalls,
 * other block types (thinking, …) are ignored. The message id becomes "id", usage's
 * cache_read_input_tokens / cache_creation_input_tokens usage.cacheReadTokens / cacheCreationTokens.
 */
#include "host/llm_internal.h"

#include <stdlib.h>
#include <string.h>

#define LLM_MAX_CACHE_MARKS 4

static json_t *text_block(const json_t *text)
{
    json_t *b = json_object();
    json_object_set(b, "type", json_string("text"));
    json_object_set(b, "text", json_copy(text));
    return b;
}

/* Turn a message's string content into a block array in place. */
static json_t *as_blocks(json_t *msg)
{
    json_t *content = json_object_get(msg, "content");
    if (json_is_array(content)) return content;
    json_t *blocks = json_array();
    if (json_is_string(content) && content->u.string.len > 0) json_array_push(blocks, text_block(content));
    json_object_set(msg, "content", blocks); /* frees the old string */
    return blocks;
}

static void push_message(json_t *msgs, const char *role, json_t *content)
{
    json_t *last = msgs->u.array.len ? msgs->u.array.items[msgs->u.array.len - 1] : NULL;
    const char *last_role = json_string_value(json_object_get(last, "role"));
    if (last_role && strcmp(last_role, role) == 0) {
        json_t *blocks = as_blocks(last);
        if (json_is_array(content)) {
            for (size_t i = 0; i < content->u.array.len; i++) json_array_push(blocks, content->u.array.items[i]);
            content->u.array.len = 0;
            json_free(content);
        } else {
            if (content->u.string.len > 0) json_array_push(blocks, text_block(content));
            json_free(content);
        }
        return;
    }
    json_t *m = json_object();
    json_object_set(m, "role", json_string(role));
    json_object_set(m, "content", content);
    json_array_push(msgs, m);
}

static json_t *string_of(const json_t *content)
{
    if (!content || content->type == JSON_NULL) return json_string("");
    if (content->type == JSON_STRING) return json_copy(content);
    char *s = json_dump(content, JSON_COMPACT, NULL);
    json_t *v = json_string(s);
    free(s);
    return v;
}

/* cache_control on a block: {"type":"ephemeral"} (five minutes) or with "ttl":"1h". */
static void mark_cache(json_t *block, const char *ttl)
{
    json_t *cc = json_object();
    json_object_set(cc, "type", json_string("ephemeral"));
    if (!strcmp(ttl, "1h")) json_object_set(cc, "ttl", json_string("1h"));
    json_object_set(block, "cache_control", cc);
}

static void collect_marks(json_t *blocks, json_t **marked, size_t *n, size_t cap)
{
    for (size_t i = 0; json_is_array(blocks) && i < blocks->u.array.len; i++)
        if (json_object_get(blocks->u.array.items[i], "cache_control") && *n < cap) marked[(*n)++] = blocks->u.array.items[i];
}

/* The API takes at most LLM_MAX_CACHE_MARKS cache_control marks; in prefix order (tools, system,
 * messages) the latest ones are kept. */
static void keep_latest_marks(json_t *body)
{
    size_t cap = 4096, n = 0;
    json_t **marked = xcalloc(cap, sizeof *marked);
    collect_marks(json_object_get(body, "tools"), marked, &n, cap);
    collect_marks(json_object_get(body, "system"), marked, &n, cap);
    const json_t *msgs = json_object_get(body, "messages");
    for (size_t i = 0; json_is_array(msgs) && i < msgs->u.array.len; i++)
        collect_marks(json_object_get(msgs->u.array.items[i], "content"), marked, &n, cap);
    for (size_t i = 0; n > LLM_MAX_CACHE_MARKS && i < n - LLM_MAX_CACHE_MARKS; i++) {
        json_t *b = marked[i];
        json_t *kept = json_object();
        for (size_t k = 0; k < b->u.object.len; k++)
            if (strcmp(b->u.object.items[k].key, "cache_control"))
                json_object_set(kept, b->u.object.items[k].key, json_copy(b->u.object.items[k].value));
        /* swap the contents: the block stays where it is */
        json_t tmp = *b;
        *b = *kept;
        *kept = tmp;
        json_free(kept);
    }
    free(marked);
}

json_t *llm_anthropic_body(const json_t *req, const char *model)
{
    json_t *body = json_object();
    json_object_set(body, "model", json_string(model));
    const json_t *mt = json_object_get(req, "maxTokens");
    json_object_set(body, "max_tokens", mt && mt->type == JSON_NUMBER ? json_copy(mt) : json_number(LLM_DEFAULT_MAX_TOKENS));

    buf system = {0};
    const json_t *sys = json_object_get(req, "system");
    if (json_is_string(sys)) buf_append(&system, sys->u.string.bytes, sys->u.string.len);

    json_t *msgs = json_array();
    const json_t *in = json_object_get(req, "messages");
    for (size_t i = 0; i < in->u.array.len; i++) {
        const json_t *src = in->u.array.items[i];
        const char *role = json_string_value(json_object_get(src, "role"));
        const json_t *content = json_object_get(src, "content");
        if (strcmp(role, "system") == 0) {
            if (json_is_string(content) && content->u.string.len > 0) {
                if (system.len) buf_puts(&system, "\n\n");
                buf_append(&system, content->u.string.bytes, content->u.string.len);
            }
        } else if (strcmp(role, "tool") == 0) {
            json_t *b = json_object();
            json_object_set(b, "type", json_string("tool_result"));
            json_object_set(b, "tool_use_id", json_copy(json_object_get(src, "toolCallId")));
            json_object_set(b, "content", string_of(content));
            const json_t *is_err = json_object_get(src, "isError");
            if (is_err && is_err->type == JSON_TRUE) json_object_set(b, "is_error", json_bool(true));
            json_t *blocks = json_array();
            json_array_push(blocks, b);
            push_message(msgs, "user", blocks);
        } else if (strcmp(role, "assistant") == 0) {
            const json_t *calls = json_object_get(src, "toolCalls");
            if (json_is_array(calls) && calls->u.array.len > 0) {
                json_t *blocks = json_array();
                if (json_is_string(content) && content->u.string.len > 0) json_array_push(blocks, text_block(content));
                for (size_t j = 0; j < calls->u.array.len; j++) {
                    const json_t *c = calls->u.array.items[j];
                    const json_t *input = json_object_get(c, "input");
                    json_t *b = json_object();
                    json_object_set(b, "type", json_string("tool_use"));
                    json_object_set(b, "id", json_copy(json_object_get(c, "id")));
                    json_object_set(b, "name", json_copy(json_object_get(c, "name")));
                    json_object_set(b, "input", json_is_object(input) ? json_copy(input) : json_object());
                    json_array_push(blocks, b);
                }
                push_message(msgs, "assistant", blocks);
            } else {
                push_message(msgs, "assistant", string_of(content));
            }
        } else {
            push_message(msgs, "user", string_of(content));
        }
        const char *ttl = json_string_value(json_object_get(src, "cache"));
        if (ttl && strcmp(role, "system") != 0 && msgs->u.array.len) {
            json_t *blocks = as_blocks(msgs->u.array.items[msgs->u.array.len - 1]);
            if (blocks->u.array.len) mark_cache(blocks->u.array.items[blocks->u.array.len - 1], ttl);
        }
    }

    if (llm_wants_json(req)) {
        if (system.len) buf_puts(&system, "\n\n");
        buf_puts(&system, LLM_JSON_INSTRUCTION);
    }
    const char *cache_system = json_string_value(json_object_get(req, "cacheSystem"));
    if (system.len && cache_system) { /* a marked system prompt is a block list */
        json_t *blocks = json_array(), *b = json_object();
        json_object_set(b, "type", json_string("text"));
        json_object_set(b, "text", json_stringn(system.data, system.len));
        mark_cache(b, cache_system);
        json_array_push(blocks, b);
        json_object_set(body, "system", blocks);
    } else if (system.len) {
        json_object_set(body, "system", json_stringn(system.data, system.len));
    }
    buf_free(&system);
    json_object_set(body, "messages", msgs);

    const json_t *t = json_object_get(req, "temperature");
    if (t && t->type == JSON_NUMBER) json_object_set(body, "temperature", json_copy(t));

    const json_t *tools = json_object_get(req, "tools");
    if (json_is_array(tools) && tools->u.array.len > 0) {
        json_t *out = json_array();
        for (size_t i = 0; i < tools->u.array.len; i++) {
            json_array_push(out, llm_tool_spec(tools->u.array.items[i], "input_schema"));
        }
        const char *cache_tools = json_string_value(json_object_get(req, "cacheTools"));
        if (cache_tools) mark_cache(out->u.array.items[out->u.array.len - 1], cache_tools);
        json_object_set(body, "tools", out);
    }
    keep_latest_marks(body);
    return body;
}

static int fail(char **error, char *msg)
{
    *error = msg;
    return -1;
}

int llm_anthropic_parse(const char *body, size_t len, size_t max_bytes, const char *fallback_model, json_t **out,
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
    const char *type = json_string_value(json_object_get(v, "type"));
    const json_t *err = json_object_get(v, "error");
    if ((type && strcmp(type, "error") == 0) || (err && err->type != JSON_NULL)) {
        const json_t *m = json_is_object(err) ? json_object_get(err, "message") : err;
        char *ex = json_is_string(m) ? llm_excerpt(m->u.string.bytes, m->u.string.len, LLM_EXCERPT_BYTES) : xstrdup("(no message)");
        fail(error, xasprintf("the response reports an error: %s", ex));
        free(ex);
        goto done;
    }
    const json_t *content = json_object_get(v, "content");
    if (!json_is_array(content)) {
        fail(error, xstrdup("the response has no content array"));
        goto done;
    }
    for (size_t i = 0; i < content->u.array.len; i++) {
        const json_t *b = content->u.array.items[i];
        const char *bt = json_string_value(json_object_get(b, "type"));
        if (!bt) {
            fail(error, xasprintf("content[%zu] has no type", i));
            goto done;
        }
        if (strcmp(bt, "text") == 0) {
            const json_t *t = json_object_get(b, "text");
            if (!json_is_string(t)) {
                fail(error, xasprintf("content[%zu] (text) has no text string", i));
                goto done;
            }
            buf_append(&text, t->u.string.bytes, t->u.string.len);
        } else if (strcmp(bt, "tool_use") == 0) {
            const json_t *id = json_object_get(b, "id"), *name = json_object_get(b, "name");
            const json_t *input = json_object_get(b, "input");
            if (!json_is_string(name) || name->u.string.len == 0) {
                fail(error, xasprintf("content[%zu] (tool_use) has no name", i));
                goto done;
            }
            if (!json_is_string(id) || id->u.string.len == 0) {
                fail(error, xasprintf("content[%zu] (tool_use) has no id", i));
                goto done;
            }
            json_t *tc = json_object();
            json_object_set(tc, "id", json_copy(id));
            json_object_set(tc, "name", json_copy(name));
            json_object_set(tc, "input", input && input->type != JSON_NULL ? json_copy(input) : json_object());
            json_array_push(calls, tc);
        }
    }
    *out = llm_make_response(text.data, text.len, calls, json_object_get(v, "stop_reason"), json_object_get(v, "usage"), "input_tokens",
                             "output_tokens", json_object_get(v, "model"), fallback_model);
    const json_t *usage = json_object_get(v, "usage");
    llm_response_extras(*out, json_object_get(v, "id"), json_object_get(usage, "cache_read_input_tokens"),
                        json_object_get(usage, "cache_creation_input_tokens"));
    calls = NULL;
    r = 0;
done:
    json_free(calls);
    buf_free(&text);
    json_free(v);
    return r;
}
