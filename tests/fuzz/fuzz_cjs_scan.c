/* fuzz_cjs_scan.c — the static scan of CommonJS export names (engine/cjs_scan.c), which reads every
 * CommonJS file of every package an agent imports, and the blanking of import attributes. Properties:
 * no crash, no read past len, at most CJS_SCAN_MAX_NAMES names, each an identifier of at most
 * CJS_SCAN_MAX_NAME bytes, and blanking keeps the length and every newline. */
#include "engine/cjs_scan.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *copy = malloc(size ? size : 1);
    memcpy(copy, data, size);
    cjs_names n;
    cjs_scan(copy, size, &n);
    if (n.len > CJS_SCAN_MAX_NAMES) abort();
    for (size_t i = 0; i < n.len; i++)
        if (!n.names[i][0] || strlen(n.names[i]) > CJS_SCAN_MAX_NAME || !strcmp(n.names[i], "default")) abort();
    cjs_names_free(&n);
    strip_import_attributes(copy, size);
    for (size_t i = 0; i < size; i++)
        if ((data[i] == '\n') != (copy[i] == '\n')) abort();
    free(copy);
    return 0;
}
