/* request.c — request bodies, strictly: one JSON object, size- and depth-limited, with only the
 * keys the route knows (a misspelt `policy_profile` must not silently run a session under a
 * looser policy than its caller asked for). Trusts nothing in the body. */
#define _GNU_SOURCE
#include "serve/serve.h"
#include "util/buf.h"

#include <string.h>

#define REQUEST_MAX_DEPTH 64
#define SESSION_ID_MAX 128

json_t *request_object(const http_request *req, const char *const *keys, http_reply *rep)
{
    size_t i = 0;
    while (i < req->body_len && strchr(" \t\r\n", req->body[i])) i++;
    if (i == req->body_len) return json_object();
    json_limits lim = {HTTP_BODY_MAX, REQUEST_MAX_DEPTH, 0};
    json_error jerr;
    json_t *v = json_parse(req->body, req->body_len, &lim, &jerr);
    if (!v) {
        reply_error(rep, 400, "the request body is not valid JSON: %d:%d: %s", jerr.line, jerr.col, jerr.message);
        return NULL;
    }
    if (!json_is_object(v)) {
        json_free(v);
        reply_error(rep, 400, "the request body must be a JSON object");
        return NULL;
    }
    for (size_t m = 0; m < v->u.object.len; m++) {
        const char *key = v->u.object.items[m].key;
        bool known = false;
        for (size_t k = 0; keys && keys[k] && !known; k++) known = !strcmp(keys[k], key);
        if (!known || strlen(key) != v->u.object.items[m].key_len) {
            buf expected = {0};
            for (size_t k = 0; keys && keys[k]; k++) buf_printf(&expected, "%s%s", k ? ", " : "", keys[k]);
            reply_error(rep, 400, "unknown field `%.64s` (expected %s)", key,
                        expected.len ? expected.data : "an empty object");
            buf_free(&expected);
            json_free(v);
            return NULL;
        }
    }
    return v;
}

bool request_valid_session_id(const char *id)
{
    size_t n = strlen(id);
    if (n == 0 || n > SESSION_ID_MAX || strspn(id, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") != n)
        return false;
    return strcmp(id, "stream") != 0 && strcmp(id, ".") != 0 && strcmp(id, "..") != 0;
}
