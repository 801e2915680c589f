/* base64.h — standard base64 (RFC 4648, with padding) for bytes that cross the host seam as JSON
 * strings. The decoder is strict: only the standard alphabet, correct padding, no whitespace. */
#ifndef CHIDORI_BASE64_H
#define CHIDORI_BASE64_H

#include <stdbool.h>
#include <stddef.h>

/* The encoded length of n bytes (without a NUL). */
size_t base64_encoded_len(size_t n);
/* Encode n bytes; returns a malloc'd NUL-terminated string, its length in *out_len if given. */
char *base64_encode(const void *data, size_t n, size_t *out_len);
/* Decode text (len bytes); returns malloc'd bytes (NUL-terminated for convenience) with the
 * decoded length in *out_len, or NULL when the text is not valid base64. */
unsigned char *base64_decode(const char *text, size_t len, size_t *out_len);

#endif
