/* urlnorm.c — normalizing an http(s) URL (see urlnorm.h for the rules and why).
 *
 * Owns the parse of guest URLs before the `http` effect's gate; trusts nothing in them. Every
 * loop is bounded by the input length, itself capped at URLNORM_MAX.
 */
#include "host/urlnorm.h"
#include "host/ssrf.h"
#include "util/buf.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The URL for a message: at most 200 bytes, anything not printable ASCII as '?'. */
static char *shown(const char *url, size_t len)
{
    size_t n = len > 200 ? 200 : len;
    char *s = xmalloc(n + 4);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)url[i];
        s[i] = c < 0x20 || c >= 0x7f ? '?' : (char)c;
    }
    strcpy(s + n, len > n ? "..." : "");
    return s;
}

static char *fail(char **error, const char *url, size_t len, const char *what)
{
    char *u = shown(url, len);
    *error = xasprintf("`%s`%s%s", u, what[0] == ':' ? "" : " ", what);
    free(u);
    return NULL;
}

static int hexval(unsigned char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static char lower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c + 32) : c; }

/* ---- hosts ---- */

/* One WHATWG IPv4 number: decimal, 0x hex (digits may be empty) or 0-prefixed octal. Values
 * above 2^32 saturate (they are errors anyway). false when it is not a number. */
static bool ipv4_number(const char *s, size_t n, uint64_t *out)
{
    if (n == 0) return false;
    int base = 10;
    if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) base = 16, s += 2, n -= 2;
    else if (n >= 2 && s[0] == '0') base = 8, s++, n--;
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        int d = hexval((unsigned char)s[i]);
        if (d < 0 || d >= base) return false;
        v = v * (uint64_t)base + (uint64_t)d;
        if (v > 0xffffffffull + 1) v = 0xffffffffull + 1;
    }
    *out = v;
    return true;
}

/* Does the host end in a number (WHATWG "ends in a number"), making it an IPv4 address or an
 * error? */
static bool ends_in_number(const char *h, size_t n)
{
    if (n && h[n - 1] == '.') n--;
    if (n == 0) return false;
    size_t start = n;
    while (start > 0 && h[start - 1] != '.') start--;
    const char *last = h + start;
    size_t len = n - start;
    if (len == 0) return false;
    bool digits = true;
    for (size_t i = 0; i < len; i++) digits &= last[i] >= '0' && last[i] <= '9';
    if (digits) return true;
    uint64_t ignored;
    return len >= 2 && last[0] == '0' && (last[1] == 'x' || last[1] == 'X') && ipv4_number(last, len, &ignored);
}

/* The WHATWG IPv4 parser; false on an invalid address. */
static bool parse_ipv4(const char *h, size_t n, uint32_t *out)
{
    if (n && h[n - 1] == '.' && n > 1) n--; /* one trailing dot is allowed */
    uint64_t parts[4];
    size_t count = 0, start = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && h[i] != '.') continue;
        if (count == 4 || !ipv4_number(h + start, i - start, &parts[count])) return false;
        count++;
        start = i + 1;
    }
    for (size_t i = 0; i + 1 < count; i++)
        if (parts[i] > 255) return false;
    uint64_t limit = 1ull << (8 * (5 - count));
    if (parts[count - 1] >= limit) return false;
    uint64_t v = parts[count - 1];
    for (size_t i = 0; i + 1 < count; i++) v += parts[i] << (8 * (3 - i));
    *out = (uint32_t)v;
    return true;
}

/* An IPv6 address as WHATWG serializes it: lower-case hex, the first longest run of two or more
 * zero pieces as "::". */
static void put_ipv6(buf *b, const uint8_t bytes[16])
{
    unsigned pieces[8];
    for (int i = 0; i < 8; i++) pieces[i] = (unsigned)bytes[2 * i] << 8 | bytes[2 * i + 1];
    int best = -1, best_len = 1;
    for (int i = 0; i < 8;) {
        if (pieces[i]) {
            i++;
            continue;
        }
        int j = i;
        while (j < 8 && !pieces[j]) j++;
        if (j - i > best_len) best = i, best_len = j - i;
        i = j;
    }
    buf_putc(b, '[');
    for (int i = 0; i < 8; i++) {
        if (i == best) {
            buf_puts(b, i == 0 ? "::" : ":");
            i += best_len - 1;
            continue;
        }
        buf_printf(b, "%x", pieces[i]);
        if (i < 7) buf_putc(b, ':');
    }
    buf_putc(b, ']');
}

static bool forbidden_in_domain(unsigned char c)
{
    return c <= 0x20 || c >= 0x7f || strchr("#%/:<>?@[\\]^|", c);
}

/* The host (between the authority's start and its port), appended normalized to out. */
static const char *put_host(buf *out, const char *h, size_t n)
{
    if (n == 0) return "is not a valid absolute URL: it has no host";
    if (h[0] == '[') {
        if (n < 3 || h[n - 1] != ']') return "has an IPv6 host without its closing `]`";
        ssrf_addr a;
        if (!ssrf_parse_addr(h, n, &a) || a.family != 6) return "has a host that is not a valid IPv6 address";
        put_ipv6(out, a.bytes);
        return NULL;
    }
    char *d = xmalloc(n + 1);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        int hi, lo;
        if (h[i] == '%' && i + 2 < n && (hi = hexval((unsigned char)h[i + 1])) >= 0 &&
            (lo = hexval((unsigned char)h[i + 2])) >= 0) {
            d[m++] = (char)(hi << 4 | lo);
            i += 2;
        } else {
            d[m++] = lower(h[i]);
        }
    }
    for (size_t i = 0; i < m; i++) d[i] = lower(d[i]);
    const char *why = NULL;
    for (size_t i = 0; i < m && !why; i++) {
        unsigned char c = (unsigned char)d[i];
        if (c >= 0x80) why = "has a non-ASCII host (write it in its xn-- form)";
        else if (forbidden_in_domain(c)) why = "has a character in its host that no host name can have";
    }
    if (!why && m == 0) why = "is not a valid absolute URL: it has no host";
    if (!why && ends_in_number(d, m)) {
        uint32_t v;
        if (!parse_ipv4(d, m, &v)) why = "has a host that ends in a number but is not a valid IPv4 address";
        else buf_printf(out, "%u.%u.%u.%u", v >> 24, (v >> 16) & 255, (v >> 8) & 255, v & 255);
    } else if (!why) {
        buf_append(out, d, m);
    }
    free(d);
    return why;
}

/* ---- paths and queries ---- */

static bool is_dot(const char *s, size_t n)
{
    return (n == 1 && s[0] == '.') || (n == 3 && s[0] == '%' && s[1] == '2' && lower(s[2]) == 'e');
}

static bool is_dot_dot(const char *s, size_t n)
{
    if (n == 2) return s[0] == '.' && s[1] == '.';
    if (n == 4) return (s[0] == '.' && is_dot(s + 1, 3)) || (is_dot(s, 3) && s[3] == '.');
    return n == 6 && is_dot(s, 3) && is_dot(s + 3, 3);
}

/* Bytes of a path or query as WHATWG writes them: the set's characters percent-encoded, the hex
 * digits of an existing %XX upper-cased (a lone % stays). */
static void put_encoded(buf *out, const char *s, size_t n, const char *set)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '%' && i + 2 < n && hexval((unsigned char)s[i + 1]) >= 0 &&
            hexval((unsigned char)s[i + 2]) >= 0) {
            char hex[3] = {'%', s[i + 1], s[i + 2]};
            for (int k = 1; k < 3; k++)
                if (hex[k] >= 'a' && hex[k] <= 'f') hex[k] = (char)(hex[k] - 32);
            buf_append(out, hex, 3);
            i += 2;
        } else if (strchr(set, c) && c) {
            buf_printf(out, "%%%02X", c);
        } else {
            buf_putc(out, (char)c);
        }
    }
}

/* A segment a server could still read as "." or "..": after percent-decoding it once, a piece
 * between (decoded) slashes or backslashes, or the part before a ';', is a dot segment. */
static bool hides_dot_segment(const char *s, size_t n)
{
    char *d = xmalloc(n + 1);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        int hi, lo;
        if (s[i] == '%' && i + 2 < n && (hi = hexval((unsigned char)s[i + 1])) >= 0 &&
            (lo = hexval((unsigned char)s[i + 2])) >= 0) {
            d[m++] = (char)(hi << 4 | lo);
            i += 2;
        } else {
            d[m++] = s[i];
        }
    }
    bool hidden = false;
    size_t start = 0;
    for (size_t i = 0; i <= m && !hidden; i++) {
        if (i < m && d[i] != '/' && d[i] != '\\') continue;
        const char *p = d + start;
        size_t len = i - start;
        const char *semi = memchr(p, ';', len);
        if (semi) len = (size_t)(semi - p);
        hidden = (len == 1 && p[0] == '.') || (len == 2 && p[0] == '.' && p[1] == '.');
        start = i + 1;
    }
    free(d);
    return hidden;
}

typedef struct seg {
    const char *p;
    size_t n;
} seg;

/* The path (starting at a separator, or empty), normalized into out. NULL or why not. */
static const char *put_path(buf *out, const char *s, size_t n)
{
    seg *segs = xcalloc(n + 1, sizeof *segs); /* one per separator at most */
    size_t count = 0;
    size_t i = n && (s[0] == '/' || s[0] == '\\') ? 1 : 0;
    if (n == 0) segs[count++] = (seg){s, 0};
    while (n && i <= n) {
        size_t j = i;
        while (j < n && s[j] != '/' && s[j] != '\\') j++;
        bool last = j >= n;
        if (is_dot_dot(s + i, j - i)) {
            if (count) count--;
            if (last) segs[count++] = (seg){s + i, 0};
        } else if (is_dot(s + i, j - i)) {
            if (last) segs[count++] = (seg){s + i, 0};
        } else {
            segs[count++] = (seg){s + i, j - i};
        }
        i = j + 1;
    }
    const char *why = NULL;
    for (size_t k = 0; k < count && !why; k++) {
        if (hides_dot_segment(segs[k].p, segs[k].n))
            why = "has a path segment that is a dot segment once its %2F or %5C is read as a slash or its "
                  ";parameter is cut (servers differ on such paths, so it is refused)";
        buf_putc(out, '/');
        put_encoded(out, segs[k].p, segs[k].n, " \"#<>?`{}");
    }
    if (count == 0) buf_putc(out, '/');
    free(segs);
    return why;
}

/* ---- the URL ---- */

char *url_normalize(const char *url, size_t len, char **error)
{
    *error = NULL;
    if (len > URLNORM_MAX) {
        *error = xasprintf("the URL is longer than %d bytes", URLNORM_MAX);
        return NULL;
    }
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)url[i];
        if (c <= 0x20 || c >= 0x7f)
            return fail(error, url, len, "contains a space, control or non-ASCII character (percent-encode it)");
    }
    size_t i = 0;
    while (i < len && ((url[i] >= 'a' && url[i] <= 'z') || (url[i] >= 'A' && url[i] <= 'Z') ||
                       (i > 0 && ((url[i] >= '0' && url[i] <= '9') || url[i] == '+' || url[i] == '-' || url[i] == '.'))))
        i++;
    if (i == 0 || i >= len || url[i] != ':') return fail(error, url, len, "is not a valid absolute URL");
    char scheme[8] = "";
    if (i == 4 || i == 5) {
        for (size_t k = 0; k < i; k++) scheme[k] = lower(url[k]);
        scheme[i] = 0;
    }
    if (strcmp(scheme, "http") != 0 && strcmp(scheme, "https") != 0)
        return fail(error, url, len, ": only http: and https: URLs can be fetched");
    i++;
    while (i < len && (url[i] == '/' || url[i] == '\\')) i++;
    size_t auth = i;
    while (i < len && !strchr("/\\?#", url[i])) i++;
    const char *a = url + auth;
    size_t alen = i - auth;
    if (memchr(a, '@', alen))
        return fail(error, url, len, "has credentials (user:password@) in it; send them in an Authorization header");

    /* host and port: a ':' outside the brackets of an IPv6 literal starts the port */
    size_t hlen = alen;
    bool in_brackets = false;
    for (size_t k = 0; k < alen; k++) {
        if (a[k] == '[') in_brackets = true;
        else if (a[k] == ']') in_brackets = false;
        else if (a[k] == ':' && !in_brackets) {
            hlen = k;
            break;
        }
    }
    buf out = {0};
    buf_puts(&out, scheme);
    buf_puts(&out, "://");
    const char *why = put_host(&out, a, hlen);
    if (why) {
        buf_free(&out);
        return fail(error, url, len, why);
    }
    if (hlen < alen) {
        const char *p = a + hlen + 1;
        size_t plen = alen - hlen - 1;
        unsigned long port = 0;
        for (size_t k = 0; k < plen; k++) {
            if (p[k] < '0' || p[k] > '9' || port > 65535) {
                buf_free(&out);
                return fail(error, url, len, "has a port that is not a number from 0 to 65535");
            }
            port = port * 10 + (unsigned long)(p[k] - '0');
        }
        if (port > 65535) {
            buf_free(&out);
            return fail(error, url, len, "has a port that is not a number from 0 to 65535");
        }
        unsigned long def = scheme[4] == 's' ? 443 : 80;
        if (plen > 0 && port != def) buf_printf(&out, ":%lu", port);
    }

    size_t path = i;
    while (i < len && url[i] != '?' && url[i] != '#') i++;
    why = put_path(&out, url + path, i - path);
    if (why) {
        buf_free(&out);
        return fail(error, url, len, why);
    }
    if (i < len && url[i] == '?') {
        size_t q = i;
        while (i < len && url[i] != '#') i++;
        put_encoded(&out, url + q, i - q, " \"#<>'");
    }
    if (out.len > URLNORM_MAX) {
        buf_free(&out);
        *error = xasprintf("the URL is longer than %d bytes once normalized", URLNORM_MAX);
        return NULL;
    }
    return buf_steal(&out);
}
