/* fuzz_module_barrel.c — the barrel recognizer (host/effects/module_barrel.c), which reads every ES
 * module of a package that declares no side effects. Properties: no crash, no read past len, and
 * a table only with 1..BARREL_MAX_ENTRIES lines of three fields, names without blanks and no
 * field empty. */
#include "host/effects/module_barrel.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *copy = malloc(size ? size : 1);
    memcpy(copy, data, size);
    buf t = {0};
    size_t n = 0;
    if (barrel_scan(copy, size, &t, &n) == 0) {
        if (n == 0 || n > BARREL_MAX_ENTRIES || strlen(t.data) != t.len) abort();
        size_t lines = 0;
        for (char *line = t.data; *line; lines++) {
            char *nl = strchr(line, '\n');
            if (!nl) abort();
            char *sp1 = memchr(line, ' ', (size_t)(nl - line));
            char *sp2 = sp1 ? memchr(sp1 + 1, ' ', (size_t)(nl - sp1 - 1)) : NULL;
            if (!sp2 || sp1 == line || sp2 == sp1 + 1 || nl == sp2 + 1) abort();
            line = nl + 1;
        }
        if (lines != n) abort();
    } else if (t.len != 0) {
        abort();
    }
    buf_free(&t);
    free(copy);
    return 0;
}
