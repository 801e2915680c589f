/* fuzz_frames.c — the frame decoder and classifier every byte from a hostile worker goes through.
 * The input is treated as a stream: decode frames one after another until the decoder needs more
 * bytes or fails. Properties: no crash, no read past len, a length prefix over the cap is refused
 * before any allocation, consumed never exceeds len, a decoded frame re-encodes to a frame that
 * decodes to the same serialization, and classification is total (a type or FRAME_INVALID with an error). */
#include "isolate/protocol.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t off = 0;
    for (int frames = 0; frames < 64 && off <= size; frames++) {
        json_t *v = NULL;
        size_t used = 0;
        char *err = NULL;
        int rc = frame_decode(data + off, size - off, &used, &v, &err);
        if (rc <= 0) {
            if (rc < 0 && !err) abort();
            if (rc == 0 && (used != 0 || v)) abort();
            free(err);
            break;
        }
        if (used < 4 || used > size - off || !v) abort();
        off += used;
        char *cerr = NULL;
        frame_type t = frame_classify(v, &cerr);
        if ((t == FRAME_INVALID) != (cerr != NULL)) abort();
        free(cerr);
        /* re-encode and decode again */
        size_t n;
        char *body = json_dump(v, JSON_COMPACT, &n);
        uint8_t *f = malloc(n + 4);
        f[0] = (uint8_t)n;
        f[1] = (uint8_t)(n >> 8);
        f[2] = (uint8_t)(n >> 16);
        f[3] = (uint8_t)(n >> 24);
        memcpy(f + 4, body, n);
        json_t *w = NULL;
        size_t used2;
        if (frame_decode(f, n + 4, &used2, &w, NULL) != 1 || used2 != n + 4) abort();
        /* dump is a fixed point (numbers beyond double range parse as Infinity and print as
         * null, exactly as JSON.parse/stringify do, so compare serializations, not values) */
        size_t n2;
        char *body2 = json_dump(w, JSON_COMPACT, &n2);
        if (n2 != n || memcmp(body, body2, n) != 0) abort();
        free(body2);
        if (frame_classify(w, NULL) != t) abort();
        json_free(w);
        free(f);
        free(body);
        json_free(v);
    }
    return 0;
}
