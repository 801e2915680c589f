/* base64.h — RFC 4648 base64 (standard alphabet, padded), the form bytes take in the JSON that
 * crosses the host seam. The decoder is strict: it refuses any character outside the alphabet,
 * misplaced or missing padding, and non-zero bits in the last symbol's unused part. */
#ifndef CHIDORI_BASE64_H
#define CHIDORI_BASE64_H

#include <stddef.h>

/* Encoded length of n bytes (without the NUL). */
size_t base64_encoded_len(size_t n);
/* A malloc'd, NUL-terminated encoding of data; *out_len (may be NULL) gets its length. */
char *base64_encode(const void *data, size_t n, size_t *out_len);
/* Decodes text into a malloc'd buffer (with a spare NUL after it); NULL when text is not valid
 * base64 or would decode to more than max_bytes (then *too_big is set, when given). */
unsigned char *base64_decode(const char *text, size_t len, size_t max_bytes, size_t *out_len, int *too_big);

#endif
