/* fuzz_otel.c — the two parsers of telemetry/otel.c: a W3C traceparent (from a client's request
 * header under serve) and the `k=v,k2=v2` lists of OTEL_EXPORTER_OTLP_HEADERS and
 * OTEL_RESOURCE_ATTRIBUTES. The input is the text (NUL cut). Properties: no crash, hang or leak;
 * a traceparent is accepted only at its one length, with lowercase hex and dashes where they go;
 * a pairs list that fails says why; the pair count never exceeds the commas plus one. */
#include "telemetry/otel.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = 0;
    size_t len = strlen(text);
    if (otel_traceparent_valid(text)) {
        if (len != 55 || text[2] != '-' || text[35] != '-' || text[52] != '-') abort();
        for (size_t i = 0; i < len; i++)
            if (i != 2 && i != 35 && i != 52 && !((text[i] >= '0' && text[i] <= '9') || (text[i] >= 'a' && text[i] <= 'f')))
                abort();
    }
    size_t commas = 0;
    for (size_t i = 0; i < len; i++) commas += text[i] == ',';
    for (int headers = 0; headers < 2; headers++) {
        char *error = NULL;
        int n = otel_check_pairs("OTEL_RESOURCE_ATTRIBUTES", text, headers, &error);
        if (n < 0 ? !error || !*error : error != NULL || (size_t)n > commas + 1) abort();
        free(error);
    }
    free(text);
    return 0;
}
