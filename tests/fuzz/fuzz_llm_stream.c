/* fuzz_llm_stream.c — libFuzzer target for streamed provider replies (src/host/llm_stream.c): the
 * SSE parser and the OpenAI / Anthropic accumulators, fed untrusted bytes.
 *
 * The first input byte picks: bit 0 the wire (OpenAI / Anthropic); bit 1 small caps (64 bytes per
 * event, 512 in all) instead of 1 MiB; bits 2-4 the piece size the bytes arrive in (1 << n).
 * Checked: no crash/leak/UB (sanitizers); an error is short, printable and one line; a success has
 * the documented shape and its content is exactly the deltas, concatenated.
 *
 *   make VARIANT=fuzz build/fuzz/fuzz_llm_stream
 *   build/fuzz/fuzz_llm_stream -max_total_time=300 build/fuzz/corpus/fuzz_llm_stream tests/fuzz/corpus/llm_stream
 */
#include "host/llm_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void check_error(const char *err)
{
    if (!err) abort();
    size_t n = strlen(err);
    if (n == 0 || n > 1200) abort();
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)err[i] < 0x20) abort();
}

static void on_delta(void *ctx, const char *text, size_t len) { buf_append(ctx, text, len); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    unsigned sel = data[0];
    const char *bytes = (const char *)data + 1;
    size_t len = size - 1;
    size_t cap = sel & 2 ? 512 : (size_t)1 << 20, per_event = sel & 2 ? 64 : cap;
    size_t step = (size_t)1 << ((sel >> 2) & 7);
    buf deltas = {0};
    llm_stream_acc *acc = llm_stream_acc_new(sel & 1 ? LLM_WIRE_ANTHROPIC : LLM_WIRE_OPENAI, cap, on_delta, &deltas);
    llm_sse p;
    llm_sse_init(&p, per_event, cap, llm_stream_acc_event, acc);
    char *err = NULL;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < len; i += step) rc = llm_sse_feed(&p, bytes + i, i + step < len ? step : len - i, &err);
    if (rc == 0) rc = llm_sse_finish(&p, &err);
    json_t *out = NULL;
    if (rc == 0) rc = llm_stream_acc_finish(acc, "fallback", &out, &err);
    if (rc == 0) {
        const json_t *content = json_object_get(out, "content");
        if (!json_is_string(content) || !json_is_array(json_object_get(out, "toolCalls")) ||
            !json_is_object(json_object_get(out, "usage")) || !json_is_string(json_object_get(out, "model")))
            abort();
        if (content->u.string.len != deltas.len || memcmp(content->u.string.bytes, deltas.data ? deltas.data : "", deltas.len))
            abort();
    } else {
        check_error(err);
    }
    free(err);
    json_free(out);
    llm_sse_free(&p);
    llm_stream_acc_free(acc);
    buf_free(&deltas);
    return 0;
}
