/* fuzz_ssrf.c — the SSRF guard's pure half: the literal-address parser, the classifier, the
 * CHIDORI_HTTP_ALLOW_HOSTS parser and the per-connection decision over a URL host.
 *
 * The input is split at NUL bytes: part 0 is an allowlist text, part 1 a URL host, part 2 (its
 * first 16 bytes) an address; the whole input is also tried as a literal address, a list and a
 * host. Properties (abort on violation):
 *   - a parsed literal prints and parses back to the same bytes;
 *   - an IPv4 address and its IPv4-mapped IPv6 form get the same class; its NAT64 (64:ff9b::/96)
 *     and 6to4 forms are refused whenever the IPv4 address is;
 *   - a rejected list always has an error and a message without control characters; an accepted
 *     one parses again to the same count, and a literal it names is covered by it;
 *   - host keys are lower case, bounded, free of spaces and control characters, and idempotent;
 *     a name accepted into a list matches its host in any letter case;
 *   - ssrf_decide allows exactly when the address is public or the list names the host or covers
 *     the address, and an exemption is reported only for a non-public address. */
#include "host/ssrf.h"
#include "util/buf.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void check_literal(const char *s, size_t n)
{
    ssrf_addr a;
    if (!ssrf_parse_addr(s, n, &a)) return;
    if (a.family != 4 && a.family != 6) abort();
    char text[64];
    ssrf_format_addr(&a, text, sizeof text);
    ssrf_addr b;
    if (!ssrf_parse_addr(text, strlen(text), &b) || b.family != a.family || memcmp(a.bytes, b.bytes, 16) != 0) abort();
    ssrf_class c = ssrf_classify(&a, NULL);
    if ((unsigned)c >= SSRF_CLASS_COUNT) abort();
    if (a.family == 4) {
        ssrf_addr m = {.family = 6}, nat = {.family = 6}, six = {.family = 6}, carried;
        m.bytes[10] = m.bytes[11] = 0xff;
        memcpy(m.bytes + 12, a.bytes, 4);
        if (ssrf_classify(&m, &carried) != c) abort();
        if (c != SSRF_PUBLIC && (carried.family != 4 || memcmp(carried.bytes, a.bytes, 4) != 0)) abort();
        nat.bytes[1] = 0x64, nat.bytes[2] = 0xff, nat.bytes[3] = 0x9b;
        memcpy(nat.bytes + 12, a.bytes, 4);
        if ((c != SSRF_PUBLIC) != (ssrf_classify(&nat, NULL) != SSRF_PUBLIC)) abort();
        six.bytes[0] = 0x20, six.bytes[1] = 0x02;
        memcpy(six.bytes + 2, a.bytes, 4);
        if ((c != SSRF_PUBLIC) != (ssrf_classify(&six, NULL) != SSRF_PUBLIC)) abort();
    }
    bool exempt;
    if (ssrf_decide(NULL, NULL, &a, &exempt) != c || exempt) abort();
}

static void check_message(const char *e)
{
    if (!e || !*e) abort();
    for (const char *p = e; *p; p++)
        if ((unsigned char)*p < 0x20) abort();
}

static ssrf_allow *check_list(const char *text)
{
    char *err = NULL;
    ssrf_allow *a = ssrf_allow_parse(text, &err);
    if (!a) {
        check_message(err);
        free(err);
        return NULL;
    }
    if (err) abort();
    char *err2 = NULL;
    ssrf_allow *again = ssrf_allow_parse(text, &err2);
    if (!again || err2 || ssrf_allow_count(again) != ssrf_allow_count(a)) abort();
    ssrf_allow_free(again);
    /* a list that is one literal covers it */
    size_t n = strlen(text);
    ssrf_addr lit;
    if (ssrf_parse_addr(text, n, &lit) && !ssrf_allow_has_addr(a, &lit)) abort();
    /* a list that is one name matches it in any case */
    if (ssrf_allow_count(a) == 1 && !ssrf_parse_addr(text, n, &lit) && !strpbrk(text, ":/[, \t\r\n")) {
        char *upper = xstrdup(text);
        for (char *p = upper; *p; p++) *p = (char)toupper((unsigned char)*p);
        if (!ssrf_allow_has_host(a, text) || !ssrf_allow_has_host(a, upper)) abort();
        free(upper);
    }
    return a;
}

static void check_host(const char *host)
{
    char key[SSRF_HOST_MAX + 1], key2[SSRF_HOST_MAX + 1];
    if (!ssrf_host_key(host, key)) return;
    size_t n = strlen(key);
    if (n == 0 || n > SSRF_HOST_MAX) abort();
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)key[i];
        if (c <= 0x20 || c == 0x7f || isupper(c)) abort();
    }
    if (key[0] == '[' && key[n - 1] == ']') {
        /* "[[x]]" keeps one pair; anything else lost its brackets */
    } else if (!ssrf_host_key(key, key2) || strcmp(key, key2) != 0) {
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096) return 0;
    char *whole = xmalloc(size + 1);
    memcpy(whole, data, size);
    whole[size] = 0;

    check_literal(whole, size);
    ssrf_allow_free(check_list(whole));
    check_host(whole);

    /* parts at NULs: list, host, address bytes */
    const char *list_text = whole;
    const char *host = NULL;
    const uint8_t *raw = NULL;
    size_t raw_len = 0;
    const char *nul = memchr(whole, 0, size);
    if (nul && (size_t)(nul - whole) < size) {
        host = nul + 1;
        size_t off = (size_t)(host - whole);
        const char *nul2 = memchr(host, 0, size - off);
        if (nul2 && (size_t)(nul2 - whole) < size) {
            raw = (const uint8_t *)nul2 + 1;
            raw_len = size - (size_t)((const char *)raw - whole);
        }
    }
    ssrf_allow *allow = check_list(list_text);
    if (host) check_host(host);
    if (allow && host) {
        ssrf_addr a = {0};
        a.family = raw_len > 0 && (raw[0] & 1) ? 6 : 4;
        if (raw_len > 1) memcpy(a.bytes, raw + 1, raw_len - 1 < 16 ? raw_len - 1 : 16);
        if (a.family == 4) memset(a.bytes + 4, 0, 12);
        bool exempt;
        ssrf_class c = ssrf_classify(&a, NULL);
        ssrf_class d = ssrf_decide(allow, host, &a, &exempt);
        bool by_list = ssrf_allow_has_host(allow, host) || ssrf_allow_has_addr(allow, &a);
        if (c == SSRF_PUBLIC && (d != SSRF_PUBLIC || exempt)) abort();
        if (c != SSRF_PUBLIC && by_list && (d != SSRF_PUBLIC || !exempt)) abort();
        if (c != SSRF_PUBLIC && !by_list && (d != c || exempt)) abort();
        char text[64];
        ssrf_format_addr(&a, text, sizeof text);
        (void)strlen(ssrf_class_name(c));
    }
    ssrf_allow_free(allow);
    free(whole);
    return 0;
}
