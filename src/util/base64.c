/* base64.c — see base64.h. */
#include "util/base64.h"
#include "util/buf.h"

#include <stdint.h>
#include <stdlib.h>

static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

size_t base64_encoded_len(size_t n) { return (n + 2) / 3 * 4; }

char *base64_encode(const void *data, size_t n, size_t *out_len)
{
    const unsigned char *p = data;
    size_t len = base64_encoded_len(n);
    char *out = xmalloc(len + 1), *o = out;
    size_t i = 0;
    for (; i + 3 <= n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];
        *o++ = alphabet[v >> 18];
        *o++ = alphabet[(v >> 12) & 63];
        *o++ = alphabet[(v >> 6) & 63];
        *o++ = alphabet[v & 63];
    }
    if (n - i == 1) {
        uint32_t v = (uint32_t)p[i] << 16;
        *o++ = alphabet[v >> 18];
        *o++ = alphabet[(v >> 12) & 63];
        *o++ = '=';
        *o++ = '=';
    } else if (n - i == 2) {
        uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8;
        *o++ = alphabet[v >> 18];
        *o++ = alphabet[(v >> 12) & 63];
        *o++ = alphabet[(v >> 6) & 63];
        *o++ = '=';
    }
    *o = '\0';
    if (out_len) *out_len = len;
    return out;
}

static int value_of(unsigned char c)
{
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

unsigned char *base64_decode(const char *text, size_t len, size_t *out_len)
{
    if (len % 4) return NULL;
    size_t pad = 0;
    if (len && text[len - 1] == '=') pad++;
    if (len > 1 && text[len - 2] == '=') pad++;
    size_t n = len / 4 * 3 - pad;
    unsigned char *out = xmalloc(n + 1), *o = out;
    for (size_t i = 0; i < len; i += 4) {
        bool last = i + 4 == len;
        int a = value_of(text[i]), b = value_of(text[i + 1]);
        int c = last && pad == 2 ? 0 : value_of(text[i + 2]);
        int d = last && pad >= 1 ? 0 : value_of(text[i + 3]);
        if (a < 0 || b < 0 || c < 0 || d < 0) {
            free(out);
            return NULL;
        }
        uint32_t v = (uint32_t)a << 18 | (uint32_t)b << 12 | (uint32_t)c << 6 | (uint32_t)d;
        *o++ = (unsigned char)(v >> 16);
        if (!(last && pad == 2)) *o++ = (unsigned char)(v >> 8);
        if (!(last && pad >= 1)) *o++ = (unsigned char)v;
    }
    *o = '\0';
    *out_len = n;
    return out;
}
