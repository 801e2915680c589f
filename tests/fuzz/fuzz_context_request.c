/* fuzz_context_request.c — libFuzzer target for the context request builder
 * (src/host/context_request.c): the segments a guest sends with a context `prompt` call, and the
 * Anthropic body with its cache_control marks (src/host/llm_anthropic.c).
 *
 * The input is parsed as JSON (as the seam parses a call's args); what parses is given, as the
 * args of a context call, to context_llm_request (and, when it validates, to llm_anthropic_body),
 * context_record_args, and, as the digest op does, context_original_request + context_request_digest.
 * Checked: no crash/leak/UB (sanitizers); an error is a short one-line message; a body never carries
 * more than four cache_control marks; a digest is 64 lowercase hex digits.
 *
 *   make VARIANT=fuzz fuzz-bins && build/fuzz/fuzz_context_request tests/fuzz/corpus/context_request
 */
#include "host/context_request.h"
#include "host/llm_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void check_error(char *err)
{
    if (!err) abort();
    size_t n = strlen(err);
    if (n == 0 || n > 2000) abort();
    free(err);
}

static size_t marks_in(const json_t *blocks)
{
    size_t n = 0;
    for (size_t i = 0; json_is_array(blocks) && i < blocks->u.array.len; i++)
        if (json_object_get(blocks->u.array.items[i], "cache_control")) n++;
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_limits lim = {.max_bytes = 1 << 20, .max_depth = 64};
    json_t *args = json_parse((const char *)data, size, &lim, NULL);
    if (!args) return 0;
    if (!json_is_object(args)) {
        json_free(args);
        return 0;
    }
    char *err = NULL;
    json_t *req = context_llm_request(args, &err);
    if (req) {
        if (llm_validate_request(req, &err) == 0) {
            json_t *body = llm_anthropic_body(req, "claude-fuzz");
            size_t marks = marks_in(json_object_get(body, "tools")) + marks_in(json_object_get(body, "system"));
            const json_t *msgs = json_object_get(body, "messages");
            for (size_t i = 0; json_is_array(msgs) && i < msgs->u.array.len; i++)
                marks += marks_in(json_object_get(msgs->u.array.items[i], "content"));
            if (marks > CONTEXT_MAX_BREAKPOINTS) abort();
            json_free(body);
        } else {
            check_error(err);
        }
        json_free(req);
    } else {
        check_error(err);
    }
    json_t *rec = context_record_args(args, NULL);
    if (!json_is_object(rec)) abort();
    json_free(rec);
    err = NULL;
    json_t *orig = context_original_request(json_object_get(args, "__context"), NULL, json_object_get(args, "__registry"),
                                            json_object_get(args, "opts"), false, NULL, false, &err);
    if (orig) {
        char hex[65];
        context_request_digest(orig, hex);
        if (strlen(hex) != 64 || strspn(hex, "0123456789abcdef") != 64) abort();
        json_free(orig);
    } else {
        check_error(err);
    }
    json_free(args);
    return 0;
}
