/* ssrf.c — the address classifier and the CHIDORI_HTTP_ALLOW_HOSTS allowlist (see ssrf.h).
 *
 * Owns: which addresses count as non-public, the strict literal-address syntax accepted in the
 * allowlist, and the allow/refuse decision for one connection. Trusts nothing it is given: the
 * allowlist text is the operator's but may be mistyped (every bad entry is an error naming it),
 * host names come from guest URLs (bounded, control characters refused).
 */
#define _GNU_SOURCE
#include "host/ssrf.h"
#include "util/buf.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* ---- classification ---- */

static bool in4(uint32_t a, uint32_t net, int prefix)
{
    uint32_t mask = prefix == 0 ? 0 : 0xffffffffu << (32 - prefix);
    return (a & mask) == (net & mask);
}

#define V4(a, b, c, d) (((uint32_t)(a) << 24) | ((uint32_t)(b) << 16) | ((uint32_t)(c) << 8) | (uint32_t)(d))

static uint32_t load4(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static ssrf_class classify4(uint32_t a)
{
    if (in4(a, V4(0, 0, 0, 0), 8)) return SSRF_UNSPECIFIED;
    if (in4(a, V4(10, 0, 0, 0), 8)) return SSRF_PRIVATE;
    if (in4(a, V4(100, 64, 0, 0), 10)) return SSRF_CGNAT;
    if (in4(a, V4(127, 0, 0, 0), 8)) return SSRF_LOOPBACK;
    if (in4(a, V4(169, 254, 0, 0), 16)) return SSRF_LINK_LOCAL;
    if (in4(a, V4(172, 16, 0, 0), 12)) return SSRF_PRIVATE;
    if (in4(a, V4(192, 0, 0, 0), 24)) return SSRF_IETF_PROTOCOL;
    if (in4(a, V4(192, 0, 2, 0), 24)) return SSRF_DOCUMENTATION;
    if (in4(a, V4(192, 168, 0, 0), 16)) return SSRF_PRIVATE;
    if (in4(a, V4(198, 18, 0, 0), 15)) return SSRF_BENCHMARKING;
    if (in4(a, V4(198, 51, 100, 0), 24)) return SSRF_DOCUMENTATION;
    if (in4(a, V4(203, 0, 113, 0), 24)) return SSRF_DOCUMENTATION;
    if (in4(a, V4(224, 0, 0, 0), 4)) return SSRF_MULTICAST;
    if (a == 0xffffffffu) return SSRF_BROADCAST;
    if (in4(a, V4(240, 0, 0, 0), 4)) return SSRF_RESERVED;
    return SSRF_PUBLIC;
}

static bool zero(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i]) return false;
    return true;
}

/* The IPv4 address carried at p decides when it is not public. */
static ssrf_class carried4(const uint8_t p[4], ssrf_addr *carried)
{
    ssrf_class c = classify4(load4(p));
    if (c != SSRF_PUBLIC && carried) {
        carried->family = 4;
        memset(carried->bytes, 0, sizeof carried->bytes);
        memcpy(carried->bytes, p, 4);
    }
    return c;
}

static ssrf_class classify6(const uint8_t *b, ssrf_addr *carried)
{
    static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    static const uint8_t nat64[12] = {0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0};
    static const uint8_t nat64_local[6] = {0, 0x64, 0xff, 0x9b, 0, 1};
    if (zero(b, 16)) return SSRF_UNSPECIFIED;
    if (zero(b, 15) && b[15] == 1) return SSRF_LOOPBACK;
    if (!memcmp(b, mapped, 12)) return carried4(b + 12, carried);
    if (zero(b, 12)) { /* IPv4-compatible: deprecated, never a valid destination */
        ssrf_class c = carried4(b + 12, carried);
        return c != SSRF_PUBLIC ? c : SSRF_IPV4_COMPATIBLE;
    }
    if (!memcmp(b, nat64, 12)) return carried4(b + 12, carried);
    if (!memcmp(b, nat64_local, 6)) {
        /* RFC 8215 local-use prefix: the translator's prefix length is a local choice, so the
         * address may carry IPv4 after a /96 (last 32 bits) or a /48 (bits 48-63 and 72-87,
         * around the reserved octet). A reading that names a non-public range is reported; the
         * prefix is refused whatever it carries, being local by definition. */
        uint8_t v4[4] = {b[6], b[7], b[9], b[10]};
        ssrf_class c = carried4(b + 12, carried);
        if (c != SSRF_PUBLIC && c != SSRF_UNSPECIFIED) return c;
        c = carried4(v4, carried);
        if (c != SSRF_PUBLIC && c != SSRF_UNSPECIFIED) return c;
        if (carried) carried->family = 0;
        return SSRF_NAT64_LOCAL;
    }
    if (b[0] == 0x20 && b[1] == 0x02) return carried4(b + 2, carried); /* 6to4 */
    if (b[0] == 0x01 && zero(b + 1, 7)) return SSRF_DISCARD;            /* 100::/64 */
    if (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0d && b[3] == 0xb8) return SSRF_DOCUMENTATION;
    if (b[0] == 0x3f && b[1] == 0xff && (b[2] & 0xf0) == 0) return SSRF_DOCUMENTATION; /* 3fff::/20 */
    if ((b[0] & 0xfe) == 0xfc) return SSRF_UNIQUE_LOCAL;
    if (b[0] == 0xfe && (b[1] & 0xc0) == 0x80) return SSRF_LINK_LOCAL;
    if (b[0] == 0xfe && (b[1] & 0xc0) == 0xc0) return SSRF_SITE_LOCAL;
    if (b[0] == 0xff) return SSRF_MULTICAST;
    return SSRF_PUBLIC;
}

ssrf_class ssrf_classify(const ssrf_addr *a, ssrf_addr *carried)
{
    if (carried) carried->family = 0;
    if (a->family == 4) return classify4(load4(a->bytes));
    if (a->family == 6) return classify6(a->bytes, carried);
    return SSRF_UNSPECIFIED; /* not an address: refuse */
}

const char *ssrf_class_name(ssrf_class c)
{
    switch (c) {
    case SSRF_PUBLIC: return "public";
    case SSRF_UNSPECIFIED: return "unspecified (this host)";
    case SSRF_LOOPBACK: return "loopback";
    case SSRF_PRIVATE: return "private (RFC 1918)";
    case SSRF_CGNAT: return "shared address space (CGNAT)";
    case SSRF_LINK_LOCAL: return "link-local (incl. cloud metadata)";
    case SSRF_IETF_PROTOCOL: return "IETF protocol assignments";
    case SSRF_DOCUMENTATION: return "documentation-only";
    case SSRF_BENCHMARKING: return "benchmarking";
    case SSRF_MULTICAST: return "multicast";
    case SSRF_RESERVED: return "reserved";
    case SSRF_BROADCAST: return "broadcast";
    case SSRF_UNIQUE_LOCAL: return "unique local (private IPv6)";
    case SSRF_SITE_LOCAL: return "site-local (deprecated private IPv6)";
    case SSRF_DISCARD: return "discard-only";
    case SSRF_IPV4_COMPATIBLE: return "IPv4-compatible IPv6 (deprecated)";
    case SSRF_NAT64_LOCAL: return "local-use NAT64 (RFC 8215)";
    case SSRF_CLASS_COUNT: break;
    }
    return "not public";
}

/* ---- literal addresses ---- */

static bool parse4(const char *s, size_t len, uint8_t out[4])
{
    size_t i = 0;
    for (int part = 0; part < 4; part++) {
        if (part > 0) {
            if (i >= len || s[i] != '.') return false;
            i++;
        }
        size_t start = i;
        unsigned v = 0;
        while (i < len && s[i] >= '0' && s[i] <= '9' && i - start < 3) v = v * 10 + (unsigned)(s[i++] - '0');
        size_t n = i - start;
        if (n == 0 || v > 255 || (n > 1 && s[start] == '0')) return false;
        out[part] = (uint8_t)v;
    }
    return i == len;
}

bool ssrf_parse_addr(const char *s, size_t len, ssrf_addr *out)
{
    memset(out, 0, sizeof *out);
    if (len >= 2 && s[0] == '[' && s[len - 1] == ']') {
        s++, len -= 2;
        char tmp[64];
        if (len == 0 || len >= sizeof tmp || memchr(s, '%', len) || memchr(s, 0, len)) return false;
        memcpy(tmp, s, len);
        tmp[len] = 0;
        if (inet_pton(AF_INET6, tmp, out->bytes) != 1) return false;
        out->family = 6;
        return true;
    }
    if (parse4(s, len, out->bytes)) {
        out->family = 4;
        return true;
    }
    char tmp[64];
    if (len == 0 || len >= sizeof tmp || !memchr(s, ':', len) || memchr(s, '%', len) || memchr(s, 0, len))
        return false;
    memcpy(tmp, s, len);
    tmp[len] = 0;
    if (inet_pton(AF_INET6, tmp, out->bytes) != 1) return false;
    out->family = 6;
    return true;
}

void ssrf_format_addr(const ssrf_addr *a, char *buf, size_t cap)
{
    if (!cap) return;
    if (!inet_ntop(a->family == 4 ? AF_INET : AF_INET6, a->bytes, buf, (socklen_t)cap)) snprintf(buf, cap, "?");
}

/* ---- the allowlist ---- */

typedef struct allow_entry {
    char *name;     /* a host name (lower case), or NULL for a network */
    ssrf_addr net;  /* the network address (host bits zero) */
    int prefix;     /* its prefix length */
} allow_entry;

struct ssrf_allow {
    allow_entry *items;
    size_t len;
};

static bool is_sep(char c) { return c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* `entry` in a message: at most 80 bytes, control and non-ASCII bytes shown as '?'. */
static char *shown(const char *s, size_t len)
{
    size_t n = len > 80 ? 80 : len;
    char *out = xmalloc(n + 4);
    for (size_t i = 0; i < n; i++) out[i] = (unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x7f ? '?' : s[i];
    if (len > n) memcpy(out + n, "...", 3), n += 3;
    out[n] = 0;
    return out;
}

static char *entry_error(const char *s, size_t len, const char *why)
{
    char *e = shown(s, len);
    char *msg = xasprintf("`%s` is not a host name, an IP address or a CIDR range: %s", e, why);
    free(e);
    return msg;
}

static bool host_bits_zero(const ssrf_addr *a, int prefix)
{
    int bits = a->family == 4 ? 32 : 128;
    for (int i = prefix; i < bits; i++)
        if (a->bytes[i / 8] & (0x80 >> (i % 8))) return false;
    return true;
}

/* One network entry: an address or address/prefix. */
static char *parse_net(const char *s, size_t len, allow_entry *e)
{
    const char *slash = memchr(s, '/', len);
    size_t alen = slash ? (size_t)(slash - s) : len;
    if (!ssrf_parse_addr(s, alen, &e->net)) {
        const char *colon = memchr(s, ':', alen);
        if (colon && !memchr(colon + 1, ':', alen - (size_t)(colon - s) - 1) && s[0] != '[')
            return entry_error(s, len, "name a host or address alone (no scheme, port or path)");
        return entry_error(s, len, "not a valid IPv4 (dotted quad, no leading zeros) or IPv6 address");
    }
    int bits = e->net.family == 4 ? 32 : 128;
    e->prefix = bits;
    if (slash) {
        const char *p = slash + 1;
        size_t plen = len - alen - 1;
        if (plen == 0 || plen > 3) return entry_error(s, len, "the prefix length must be a decimal number");
        int v = 0;
        for (size_t i = 0; i < plen; i++) {
            if (p[i] < '0' || p[i] > '9') return entry_error(s, len, "the prefix length must be a decimal number");
            v = v * 10 + (p[i] - '0');
        }
        if ((plen > 1 && p[0] == '0') || v > bits)
            return entry_error(s, len, e->net.family == 4 ? "the prefix length must be 0 to 32"
                                                          : "the prefix length must be 0 to 128");
        e->prefix = v;
        if (!host_bits_zero(&e->net, v)) {
            char why[160], a[64];
            ssrf_addr masked = e->net;
            for (int i = v; i < bits; i++) masked.bytes[i / 8] &= (uint8_t) ~(0x80 >> (i % 8));
            ssrf_format_addr(&masked, a, sizeof a);
            snprintf(why, sizeof why, "the address has bits set past the prefix (did you mean %s/%d?)", a, v);
            return entry_error(s, len, why);
        }
    }
    return NULL;
}

static bool all_digits(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9') return false;
    return n > 0;
}

/* One host-name entry: letters, digits, '-', '_' in dot-separated labels. */
static char *parse_name(const char *s, size_t len, allow_entry *e)
{
    if (len > SSRF_HOST_MAX) return entry_error(s, len, "a host name is at most 253 characters");
    size_t label = 0, label_start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i == len || s[i] == '.') {
            if (label == 0)
                return entry_error(s, len, i == len && len ? "host names are matched exactly: drop the trailing dot"
                                                            : "empty label");
            if (label > 63) return entry_error(s, len, "a label of a host name is at most 63 characters");
            if (s[label_start] == '-' || s[i - 1] == '-')
                return entry_error(s, len, "a label of a host name cannot start or end with '-'");
            if (i == len) break;
            label = 0;
            label_start = i + 1;
            continue;
        }
        char c = s[i];
        if (c == '*') return entry_error(s, len, "wildcards are not supported; list each host");
        if (c == ':' || c == '/')
            return entry_error(s, len, "name a host alone (no scheme, port or path)");
        if (!(isalnum((unsigned char)c) || c == '-' || c == '_'))
            return entry_error(s, len, "a host name holds only letters, digits, '-', '_' and dots");
        label++;
    }
    /* The last label: numeric (127.1, 2130706433) or hex (0x7f000001) is an IPv4 address in a
     * form URL parsers accept and this list does not; say so rather than match it as a name. */
    const char *last = s + label_start;
    size_t lastn = len - label_start;
    if (all_digits(last, lastn) || (lastn >= 2 && last[0] == '0' && (last[1] == 'x' || last[1] == 'X')))
        return entry_error(s, len, "this is an IPv4 address in a shortened or numeric form; write it as a dotted quad");
    e->name = xstrndup(s, len);
    for (char *p = e->name; *p; p++) *p = (char)tolower((unsigned char)*p);
    return NULL;
}

void ssrf_allow_free(ssrf_allow *a)
{
    if (!a) return;
    for (size_t i = 0; i < a->len; i++) free(a->items[i].name);
    free(a->items);
    free(a);
}

ssrf_allow *ssrf_allow_parse(const char *text, char **error)
{
    *error = NULL;
    ssrf_allow *a = xcalloc(1, sizeof *a);
    if (!text) return a;
    size_t tlen = strlen(text);
    if (tlen > SSRF_ALLOW_MAX_TEXT) {
        *error = xasprintf("the list is longer than %d bytes", SSRF_ALLOW_MAX_TEXT);
        ssrf_allow_free(a);
        return NULL;
    }
    size_t cap = 0;
    for (size_t i = 0; i < tlen;) {
        while (i < tlen && is_sep(text[i])) i++;
        size_t start = i;
        while (i < tlen && !is_sep(text[i])) i++;
        size_t len = i - start;
        if (len == 0) continue;
        if (a->len >= SSRF_ALLOW_MAX_ENTRIES) {
            *error = xasprintf("more than %d entries", SSRF_ALLOW_MAX_ENTRIES);
            ssrf_allow_free(a);
            return NULL;
        }
        allow_entry e = {0};
        const char *s = text + start;
        /* An address or CIDR: has a ':' (IPv6), a '[' or a '/', or is made of digits and dots. */
        bool net = memchr(s, ':', len) || s[0] == '[' || memchr(s, '/', len);
        if (!net) {
            ssrf_addr tmp;
            net = ssrf_parse_addr(s, len, &tmp);
        }
        char *err = net ? parse_net(s, len, &e) : parse_name(s, len, &e);
        if (err) {
            *error = err;
            ssrf_allow_free(a);
            return NULL;
        }
        if (a->len == cap) {
            cap = cap ? cap * 2 : 8;
            a->items = xrealloc(a->items, cap * sizeof *a->items);
        }
        a->items[a->len++] = e;
    }
    return a;
}

size_t ssrf_allow_count(const ssrf_allow *a) { return a ? a->len : 0; }

bool ssrf_host_key(const char *host, char *out)
{
    if (!host) return false;
    size_t len = strlen(host);
    if (len >= 2 && host[0] == '[' && host[len - 1] == ']') host++, len -= 2;
    if (len == 0 || len > SSRF_HOST_MAX) return false;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)host[i];
        if (c <= 0x20 || c == 0x7f) return false;
        out[i] = (char)tolower(c);
    }
    out[len] = 0;
    return true;
}

bool ssrf_allow_has_host(const ssrf_allow *a, const char *host)
{
    char key[SSRF_HOST_MAX + 1];
    if (!a || !ssrf_host_key(host, key)) return false;
    for (size_t i = 0; i < a->len; i++)
        if (a->items[i].name && !strcmp(a->items[i].name, key)) return true;
    return false;
}

static bool net_contains(const allow_entry *e, const ssrf_addr *x)
{
    if (e->net.family != x->family) return false;
    int full = e->prefix / 8, rest = e->prefix % 8;
    if (memcmp(e->net.bytes, x->bytes, (size_t)full) != 0) return false;
    if (rest == 0) return true;
    uint8_t mask = (uint8_t)(0xff << (8 - rest));
    return (e->net.bytes[full] & mask) == (x->bytes[full] & mask);
}

bool ssrf_allow_has_addr(const ssrf_allow *a, const ssrf_addr *addr)
{
    if (!a) return false;
    static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    ssrf_addr v4 = {0};
    bool is_mapped = addr->family == 6 && !memcmp(addr->bytes, mapped, 12);
    if (is_mapped) {
        v4.family = 4;
        memcpy(v4.bytes, addr->bytes + 12, 4);
    }
    for (size_t i = 0; i < a->len; i++) {
        const allow_entry *e = &a->items[i];
        if (e->name) continue;
        if (net_contains(e, addr) || (is_mapped && net_contains(e, &v4))) return true;
    }
    return false;
}

ssrf_class ssrf_decide(const ssrf_allow *allow, const char *host, const ssrf_addr *addr, bool *exempt)
{
    *exempt = false;
    ssrf_class c = ssrf_classify(addr, NULL);
    if (c == SSRF_PUBLIC) return c;
    if ((host && ssrf_allow_has_host(allow, host)) || ssrf_allow_has_addr(allow, addr)) {
        *exempt = true;
        return SSRF_PUBLIC;
    }
    return c;
}
