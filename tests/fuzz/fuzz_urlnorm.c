/* fuzz_urlnorm.c — the `http` effect's URL normalizer (src/host/urlnorm.c) on arbitrary bytes.
 *
 * Properties (abort on violation):
 *   - an error is a printable ASCII message and no result; a result is no error;
 *   - a result is printable ASCII, at most URLNORM_MAX bytes, starts with "http://" or "https://",
 *     has no fragment, no backslash before its query and no dot segment in its path (in any %2e spelling);
 *   - normalizing a result gives it back unchanged (one normalized form: what the gate checks is
 *     what is sent and recorded). */
#include "host/urlnorm.h"
#include "util/buf.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static bool dot_like(const char *s, size_t n)
{
    char d[8];
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (m >= 3) return false;
        if (s[i] == '%' && i + 2 < n && s[i + 1] == '2' && (s[i + 2] == 'e' || s[i + 2] == 'E')) d[m++] = '.', i += 2;
        else d[m++] = s[i];
    }
    return (m == 1 && d[0] == '.') || (m == 2 && d[0] == '.' && d[1] == '.');
}

static void check_result(const char *r)
{
    size_t n = strlen(r);
    if (n > URLNORM_MAX) abort();
    const char *q = strchr(r, '?');
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)r[i] <= 0x20 || (unsigned char)r[i] >= 0x7f || r[i] == '#' ||
            (r[i] == '\\' && (!q || r + i < q)))
            abort();
    const char *p;
    if (!strncmp(r, "http://", 7)) p = r + 7;
    else if (!strncmp(r, "https://", 8)) p = r + 8;
    else abort();
    p = strchr(p, '/');
    if (!p) abort();
    const char *end = strchr(p, '?');
    if (!end) end = r + n;
    while (p < end) {
        const char *s = p + 1, *e = s;
        while (e < end && *e != '/') e++;
        if (dot_like(s, (size_t)(e - s))) abort();
        p = e;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > URLNORM_MAX + 16) return 0;
    char *err = NULL;
    char *r = url_normalize((const char *)data, size, &err);
    if (!r) {
        if (!err) abort();
        for (const char *c = err; *c; c++)
            if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f) abort();
        free(err);
        return 0;
    }
    if (err) abort();
    check_result(r);
    char *again = url_normalize(r, strlen(r), &err);
    if (!again || strcmp(again, r) != 0) abort();
    free(again);
    free(r);
    return 0;
}
