/* fuzz_llm_response.c — libFuzzer target for the LLM wire formats (src/host/llm*.c).
 *
 * The first input byte picks what the rest is fed to:
 *   bit 3 clear: a provider's 2xx body → llm_openai_parse (bit 0 clear) / llm_anthropic_parse
 *                (bit 0 set), with a 1 MiB cap (bit 2 clear) or 256 bytes (bit 2 set); on
 *                success, the format-"json" reply check runs on the content when bit 1 is set.
 *                The same bytes also go to llm_http_error (a non-2xx body).
 *   bit 3 set:   a guest-derived request → llm_validate_request, and when it passes both
 *                request-body builders; with bit 4 set too, instead the retry headers of a
 *                refusal (retry-after-ms, then Retry-After after the first NUL) →
 *                llm_pace_retry_wait_ms, whose wait must stay within its bounds, and the bytes
 *                as a prompt-cache entry (llm_cache_entry): a response of the documented shape
 *                or nothing.
 * Checked: no crash/leak/UB (sanitizers), errors are short and printable, a success has the
 * documented shape.
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Isrc src/util/json.c src/util/buf.c \
 *       src/host/llm.c src/host/llm_openai.c src/host/llm_anthropic.c \
 *       tests/fuzz/fuzz_llm_response.c -lcurl -lpthread -lm -o build/fuzz_llm_response
 *   build/fuzz_llm_response -max_total_time=300 build/fuzz-llm-corpus tests/fuzz/corpus/llm
 */
#include "host/llm_internal.h"
#include "host/llm_cache.h"
#include "host/llm_pace.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void check_error(const char *err)
{
    if (!err) abort();
    size_t n = strlen(err);
    if (n == 0 || n > 1200) abort();
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)err[i] < 0x20) abort(); /* printable on one line */
}

static void check_response(const json_t *out)
{
    const json_t *content = json_object_get(out, "content");
    const json_t *calls = json_object_get(out, "toolCalls");
    const json_t *usage = json_object_get(out, "usage");
    if (!json_is_string(content) || !json_is_array(calls) || !json_is_object(usage)) abort();
    if (!json_is_string(json_object_get(out, "model"))) abort();
    for (size_t i = 0; i < calls->u.array.len; i++) {
        const json_t *c = calls->u.array.items[i];
        if (!json_is_string(json_object_get(c, "id")) || !json_is_string(json_object_get(c, "name")) ||
            !json_object_get(c, "input"))
            abort();
    }
    double in = json_number_value(json_object_get(usage, "inputTokens"));
    double outn = json_number_value(json_object_get(usage, "outputTokens"));
    if (!(in >= 0) || !(outn >= 0)) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    unsigned sel = data[0];
    const char *body = (const char *)data + 1;
    size_t len = size - 1;
    json_t *out = NULL;
    char *err = NULL;

    if ((sel & 0x18) == 0x18) {
        char *text = malloc(len + 1);
        memcpy(text, body, len);
        text[len] = '\0';
        size_t first = strlen(text);
        const char *ms = (sel & 0x20) ? text : NULL, *after = first < len ? text + first + 1 : text;
        int64_t w = llm_pace_retry_wait_ms(ms, after, 1 + (sel >> 6), 1700000000000LL);
        free(text);
        if (w < 500 || w > 86400000) abort();
        json_t *entry = llm_cache_entry(body, len, (sel & 4) ? 256 : (size_t)1 << 20);
        if (entry) {
            check_response(entry);
            json_free(entry);
        }
        return 0;
    }
    if (sel & 8) {
        json_t *req = llm_parse_limited(body, len, 1 << 20, &(json_error){0});
        if (!req) return 0;
        if (llm_validate_request(req, &err) == 0) {
            json_t *a = llm_openai_body(req, "gpt-fuzz");
            json_t *b = llm_anthropic_body(req, "claude-fuzz");
            char *s = json_dump(a, JSON_COMPACT, NULL);
            free(s);
            s = json_dump(b, JSON_COMPACT, NULL);
            free(s);
            json_free(a);
            json_free(b);
        } else {
            check_error(err);
            free(err);
        }
        json_free(req);
        return 0;
    }

    size_t cap = (sel & 4) ? 256 : (size_t)1 << 20;
    int r = (sel & 1) ? llm_anthropic_parse(body, len, cap, "fallback", &out, &err)
                      : llm_openai_parse(body, len, cap, "fallback", &out, &err);
    if (r == 0) {
        if (err) abort();
        check_response(out);
        if (sel & 2) {
            const json_t *c = json_object_get(out, "content");
            json_t *v = NULL;
            if (llm_parse_json_reply(c->u.string.bytes, c->u.string.len, cap, &v, &err) == 0) {
                json_free(v);
            } else {
                check_error(err);
                free(err);
            }
        }
        char *s = json_dump(out, JSON_COMPACT, NULL);
        free(s);
        json_free(out);
    } else {
        if (out) abort();
        check_error(err);
        free(err);
    }
    char *h = llm_http_error(400 + (long)(sel >> 4), body, len);
    check_error(h);
    free(h);
    return 0;
}
