/*
 * fuzz_ts_strip.c — libFuzzer target for chidori's TypeScript eraser.
 * Owns: only this harness.  Feeds arbitrary bytes to ts_strip() and checks
 * its invariants: either an error with a sane position and message, or a
 * NUL-terminated output with exactly as many '\n' as the input (erasure and
 * rewrites never add or remove lines).
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I src/engine \
 *     tests/fuzz/fuzz_ts_strip.c src/engine/ts_strip.c src/engine/ts_lex.c -o fuzz_ts_strip
 *   ./fuzz_ts_strip tests/fuzz/corpus/ts_strip
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/engine/ts_strip.h"

static size_t count_newlines(const char *s, size_t n)
{
    size_t c = 0;
    for (size_t k = 0; k < n; k++) c += s[k] == '\n';
    return c;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* Copy into an exact-size buffer so ASan catches any read past the end. */
    char *src = malloc(size ? size : 1);
    if (!src) return 0;
    if (size) memcpy(src, data, size);
    ts_error err;
    size_t out_len = 12345;
    char *out = ts_strip(src, size, &out_len, &err);
    if (out) {
        if (out[out_len] != '\0') abort();
        if (count_newlines(out, out_len) != count_newlines(src, size)) abort();
        free(out);
    } else {
        if (err.line < 1 || err.col < 1) abort();
        if (memchr(err.message, '\0', sizeof err.message) == NULL || err.message[0] == '\0') abort();
    }
    free(src);
    return 0;
}
