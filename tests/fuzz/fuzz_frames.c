/* fuzz_frames.c — the frame decoder and classifier every byte from a hostile worker goes through.
 * The input is treated as a stream: decode frames one after another until the decoder needs more
 * bytes or fails. Properties: no crash, no read past len, a length prefix over the cap is refused
 * before any allocation, consumed never exceeds len, a decoded frame re-encodes to a frame that
 * decodes to the same serialization, and classification is total (a type or FRAME_INVALID with an error).
 * The same bytes read through frame_reader (the supervisor's buffered reader, from a file) give the
 * same frames in the same order, and then an error. */
#define _GNU_SOURCE
#include "isolate/protocol.h"
#include "util/buf.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* frame_reader over the bytes: each frame it gives must be the next of decoded[0..n). */
static void read_back(const uint8_t *data, size_t size, char **decoded, size_t n, bool decoder_failed)
{
    int fd = memfd_create("frames", 0);
    if (fd < 0) return;
    if (size && write(fd, data, size) != (ssize_t)size) abort();
    if (lseek(fd, 0, SEEK_SET) != 0) abort();
    frame_reader r;
    frame_reader_init(&r, fd);
    for (size_t i = 0;; i++) {
        json_t *v = NULL;
        char *err = NULL;
        int rc = frame_reader_next(&r, 0, &v, &err);
        if (rc != 0) {
            if (!err || v || i < n) abort(); /* an error, and only once the decoded frames are out */
            if (decoder_failed && strncmp(err, "worker closed the pipe", 22) == 0) abort();
            free(err);
            break;
        }
        if (i >= n) abort();
        char *text = json_dump(v, JSON_COMPACT, NULL);
        if (strcmp(text, decoded[i]) != 0) abort();
        free(text);
        json_free(v);
    }
    frame_reader_free(&r);
    close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t off = 0, kept = 0;
    char *decoded[64];
    bool failed = false, capped = true;
    for (int frames = 0; frames < 64 && off <= size; frames++) {
        json_t *v = NULL;
        size_t used = 0;
        char *err = NULL;
        int rc = frame_decode(data + off, size - off, &used, &v, &err);
        if (rc <= 0) {
            if (rc < 0 && !err) abort();
            if (rc == 0 && (used != 0 || v)) abort();
            failed = rc < 0;
            capped = false;
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
        decoded[kept++] = body;
        json_free(v);
    }
    if (!capped) read_back(data, size, decoded, kept, failed); /* past 64 frames the two would differ */
    for (size_t i = 0; i < kept; i++) free(decoded[i]);
    return 0;
}
