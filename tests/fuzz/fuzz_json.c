/* fuzz_json.c — the JSON parser every untrusted byte goes through (effect arguments, records,
 * run files, inputs, provider and MCP replies). Properties: no crash, no read past len, and
 * dump(parse(x)) is a fixed point: parsing it again and dumping gives the same bytes (numbers
 * out of double range become Infinity and print as null, exactly as JSON.parse/stringify do). */
#include "util/json.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_error err;
    json_limits lim = {1 << 20, 64, 0};
    json_t *v = json_parse((const char *)data, size, &lim, &err);
    if (!v) return 0;
    size_t n1, n2;
    char *a = json_dump(v, JSON_COMPACT, &n1);
    json_t *w = json_parse(a, n1, NULL, &err);
    if (!w) abort();
    char *b = json_dump(w, JSON_COMPACT, &n2);
    if (n1 != n2 || memcmp(a, b, n1) != 0) abort();
    char *p = json_dump(v, JSON_PRETTY, NULL);
    free(p);
    free(a);
    free(b);
    json_free(v);
    json_free(w);
    return 0;
}
