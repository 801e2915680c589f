/* base64.c — RFC 4648 base64 (see base64.h). */
#include "util/base64.h"
#include "util/buf.h"

#include <stdlib.h>

static const char ALPHABET[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

size_t base64_encoded_len(size_t n) { return (n + 2) / 3 * 4; }

char *base64_encode(const void *data, size_t n, size_t *out_len)
{
    const unsigned char *p = data;
    size_t len = base64_encoded_len(n);
    char *out = xmalloc(len + 1), *o = out;
    size_t i = 0;
    for (; i + 3 <= n; i += 3) {
        unsigned v = (unsigned)p[i] << 16 | (unsigned)p[i + 1] << 8 | p[i + 2];
        *o++ = ALPHABET[v >> 18];
        *o++ = ALPHABET[(v >> 12) & 63];
        *o++ = ALPHABET[(v >> 6) & 63];
        *o++ = ALPHABET[v & 63];
    }
    if (n - i == 1) {
        unsigned v = (unsigned)p[i] << 16;
        *o++ = ALPHABET[v >> 18];
        *o++ = ALPHABET[(v >> 12) & 63];
        *o++ = '=';
        *o++ = '=';
    } else if (n - i == 2) {
        unsigned v = (unsigned)p[i] << 16 | (unsigned)p[i + 1] << 8;
        *o++ = ALPHABET[v >> 18];
        *o++ = ALPHABET[(v >> 12) & 63];
        *o++ = ALPHABET[(v >> 6) & 63];
        *o++ = '=';
    }
    *o = '\0';
    if (out_len) *out_len = len;
    return out;
}

static int symbol(unsigned char c)
{
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

unsigned char *base64_decode(const char *text, size_t len, size_t max_bytes, size_t *out_len, int *too_big)
{
    if (too_big) *too_big = 0;
    if (len % 4 != 0) return NULL;
    size_t pad = 0;
    if (len >= 1 && text[len - 1] == '=') pad++;
    if (len >= 2 && text[len - 2] == '=') pad++;
    size_t n = len / 4 * 3 - pad;
    if (n > max_bytes) {
        if (too_big) *too_big = 1;
        return NULL;
    }
    unsigned char *out = xmalloc(n + 1), *o = out;
    for (size_t i = 0; i < len; i += 4) {
        int last = i + 4 == len;
        int s[4];
        for (int k = 0; k < 4; k++) {
            unsigned char c = (unsigned char)text[i + k];
            if (c == '=' && last && k >= 4 - (int)pad) {
                s[k] = 0;
                continue;
            }
            s[k] = symbol(c);
            if (s[k] < 0) {
                free(out);
                return NULL;
            }
        }
        unsigned v = (unsigned)s[0] << 18 | (unsigned)s[1] << 12 | (unsigned)s[2] << 6 | (unsigned)s[3];
        if (last && ((pad == 1 && (v & 0xff)) || (pad == 2 && (v & 0xffff)))) { /* non-canonical */
            free(out);
            return NULL;
        }
        *o++ = (unsigned char)(v >> 16);
        if (!last || pad < 2) *o++ = (unsigned char)(v >> 8);
        if (!last || pad < 1) *o++ = (unsigned char)v;
    }
    *o = '\0';
    *out_len = n;
    return out;
}
