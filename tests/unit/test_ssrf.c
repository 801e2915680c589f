/* test_ssrf.c — the SSRF guard's pure half (src/host/ssrf.c): every refused class with the
 * addresses on both sides of each range edge, the IPv6 forms that carry IPv4 (mapped, NAT64,
 * 6to4, compatible), the strict literal syntax, the CHIDORI_HTTP_ALLOW_HOSTS parser (good entries
 * and every kind of garbage as an error), and the per-connection decision. Table-driven; a
 * failing row names its index. */
#include "unit.h"
#include "host/ssrf.h"
#include "util/buf.h"

#include <stdlib.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))

#define CHECK_ROW(cond, i)                                                          \
    do {                                                                            \
        if (!(cond)) {                                                              \
            char m_[512];                                                           \
            snprintf(m_, sizeof m_, "row %zu (%s): %s", (size_t)(i), rows[i].text, #cond); \
            unit_fail(__FILE__, __LINE__, m_);                                      \
            return;                                                                 \
        }                                                                           \
    } while (0)

static ssrf_addr addr(const char *s)
{
    ssrf_addr a;
    if (!ssrf_parse_addr(s, strlen(s), &a)) a.family = 0;
    return a;
}

TEST(ssrf_classifies_every_ipv4_range_at_its_edges)
{
    static const struct { const char *text; ssrf_class want; } rows[] = {
        {"0.0.0.0", SSRF_UNSPECIFIED}, {"0.255.255.255", SSRF_UNSPECIFIED}, {"1.0.0.0", SSRF_PUBLIC},
        {"9.255.255.255", SSRF_PUBLIC}, {"10.0.0.0", SSRF_PRIVATE}, {"10.255.255.255", SSRF_PRIVATE},
        {"11.0.0.0", SSRF_PUBLIC},
        {"100.63.255.255", SSRF_PUBLIC}, {"100.64.0.0", SSRF_CGNAT}, {"100.127.255.255", SSRF_CGNAT},
        {"100.128.0.0", SSRF_PUBLIC},
        {"126.255.255.255", SSRF_PUBLIC}, {"127.0.0.0", SSRF_LOOPBACK}, {"127.0.0.1", SSRF_LOOPBACK},
        {"127.255.255.255", SSRF_LOOPBACK}, {"128.0.0.0", SSRF_PUBLIC},
        {"169.253.255.255", SSRF_PUBLIC}, {"169.254.0.0", SSRF_LINK_LOCAL}, {"169.254.169.254", SSRF_LINK_LOCAL},
        {"169.254.255.255", SSRF_LINK_LOCAL}, {"169.255.0.0", SSRF_PUBLIC},
        {"172.15.255.255", SSRF_PUBLIC}, {"172.16.0.0", SSRF_PRIVATE}, {"172.31.255.255", SSRF_PRIVATE},
        {"172.32.0.0", SSRF_PUBLIC},
        {"191.255.255.255", SSRF_PUBLIC}, {"192.0.0.0", SSRF_IETF_PROTOCOL}, {"192.0.0.255", SSRF_IETF_PROTOCOL},
        {"192.0.1.0", SSRF_PUBLIC}, {"192.0.1.255", SSRF_PUBLIC}, {"192.0.2.0", SSRF_DOCUMENTATION},
        {"192.0.2.255", SSRF_DOCUMENTATION}, {"192.0.3.0", SSRF_PUBLIC},
        {"192.167.255.255", SSRF_PUBLIC}, {"192.168.0.0", SSRF_PRIVATE}, {"192.168.255.255", SSRF_PRIVATE},
        {"192.169.0.0", SSRF_PUBLIC},
        {"198.17.255.255", SSRF_PUBLIC}, {"198.18.0.0", SSRF_BENCHMARKING}, {"198.19.255.255", SSRF_BENCHMARKING},
        {"198.20.0.0", SSRF_PUBLIC},
        {"198.51.99.255", SSRF_PUBLIC}, {"198.51.100.0", SSRF_DOCUMENTATION}, {"198.51.100.255", SSRF_DOCUMENTATION},
        {"198.51.101.0", SSRF_PUBLIC},
        {"203.0.112.255", SSRF_PUBLIC}, {"203.0.113.0", SSRF_DOCUMENTATION}, {"203.0.113.255", SSRF_DOCUMENTATION},
        {"203.0.114.0", SSRF_PUBLIC},
        {"223.255.255.255", SSRF_PUBLIC}, {"224.0.0.0", SSRF_MULTICAST}, {"239.255.255.255", SSRF_MULTICAST},
        {"240.0.0.0", SSRF_RESERVED}, {"255.255.255.254", SSRF_RESERVED}, {"255.255.255.255", SSRF_BROADCAST},
        {"8.8.8.8", SSRF_PUBLIC}, {"1.1.1.1", SSRF_PUBLIC},
    };
    for (size_t i = 0; i < N(rows); i++) {
        ssrf_addr a = addr(rows[i].text);
        CHECK_ROW(a.family == 4, i);
        CHECK_ROW(ssrf_classify(&a, NULL) == rows[i].want, i);
    }
}

TEST(ssrf_classifies_ipv6_ranges_and_forms_that_carry_ipv4)
{
    static const struct { const char *text; ssrf_class want; const char *carried; } rows[] = {
        {"::", SSRF_UNSPECIFIED, NULL},
        {"::1", SSRF_LOOPBACK, NULL},
        {"::2", SSRF_UNSPECIFIED, "0.0.0.2"}, /* compatible form of 0.0.0.2 */
        {"::ffff:127.0.0.1", SSRF_LOOPBACK, "127.0.0.1"},
        {"::ffff:7f00:1", SSRF_LOOPBACK, "127.0.0.1"},
        {"::ffff:10.1.2.3", SSRF_PRIVATE, "10.1.2.3"},
        {"::ffff:169.254.169.254", SSRF_LINK_LOCAL, "169.254.169.254"},
        {"::ffff:0.0.0.0", SSRF_UNSPECIFIED, "0.0.0.0"},
        {"::ffff:8.8.8.8", SSRF_PUBLIC, NULL},
        {"::127.0.0.1", SSRF_LOOPBACK, "127.0.0.1"},             /* IPv4-compatible */
        {"::8.8.8.8", SSRF_IPV4_COMPATIBLE, NULL},                /* refused even when public */
        {"::1:0:0:0", SSRF_PUBLIC, NULL},                         /* just outside ::/96 */
        {"64:ff9b::127.0.0.1", SSRF_LOOPBACK, "127.0.0.1"},      /* NAT64 well-known */
        {"64:ff9b::a00:1", SSRF_PRIVATE, "10.0.0.1"},
        {"64:ff9b::8.8.8.8", SSRF_PUBLIC, NULL},
        {"64:ff9b:1::7f00:1", SSRF_LOOPBACK, "127.0.0.1"},       /* local-use NAT64, /96 layout */
        {"64:ff9b:1:7f00:0:100::", SSRF_LOOPBACK, "127.0.0.1"},  /* local-use NAT64, /48 layout */
        {"64:ff9b:1:808:8:808::", SSRF_NAT64_LOCAL, NULL},    /* local-use: refused even when public */
        {"64:ff9b:1::808:808", SSRF_NAT64_LOCAL, NULL},
        {"64:ff9b:1::", SSRF_NAT64_LOCAL, NULL},
        {"64:ff9b:1:a00:0:100::", SSRF_PRIVATE, "10.0.0.1"},
        {"64:ff9b:2::7f00:1", SSRF_PUBLIC, NULL},                /* outside both NAT64 prefixes */
        {"2002:7f00:1::", SSRF_LOOPBACK, "127.0.0.1"},           /* 6to4 */
        {"2002:c0a8:101::1", SSRF_PRIVATE, "192.168.1.1"},
        {"2002:808:808::1", SSRF_PUBLIC, NULL},
        {"2001:db7:ffff:ffff:ffff:ffff:ffff:ffff", SSRF_PUBLIC, NULL},
        {"2001:db8::", SSRF_DOCUMENTATION, NULL},
        {"2001:db8:ffff:ffff:ffff:ffff:ffff:ffff", SSRF_DOCUMENTATION, NULL},
        {"2001:db9::", SSRF_PUBLIC, NULL},
        {"3fff::", SSRF_DOCUMENTATION, NULL},
        {"3fff:fff::", SSRF_DOCUMENTATION, NULL},
        {"3fff:1000::", SSRF_PUBLIC, NULL},
        {"100::", SSRF_DISCARD, NULL},
        {"100::ffff:ffff:ffff:ffff", SSRF_DISCARD, NULL},
        {"100:0:0:1::", SSRF_PUBLIC, NULL},
        {"fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", SSRF_PUBLIC, NULL},
        {"fc00::", SSRF_UNIQUE_LOCAL, NULL},
        {"fd00::2", SSRF_UNIQUE_LOCAL, NULL},
        {"fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", SSRF_UNIQUE_LOCAL, NULL},
        {"fe00::", SSRF_PUBLIC, NULL},
        {"fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff", SSRF_PUBLIC, NULL},
        {"fe80::", SSRF_LINK_LOCAL, NULL},
        {"fe80::fc:ff:fe00:1", SSRF_LINK_LOCAL, NULL},
        {"febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff", SSRF_LINK_LOCAL, NULL},
        {"fec0::", SSRF_SITE_LOCAL, NULL},
        {"feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", SSRF_SITE_LOCAL, NULL},
        {"ff00::", SSRF_MULTICAST, NULL},
        {"ff02::1", SSRF_MULTICAST, NULL},
        {"ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", SSRF_MULTICAST, NULL},
        {"2606:4700:4700::1111", SSRF_PUBLIC, NULL},
        {"2001:4860:4860::8888", SSRF_PUBLIC, NULL},
    };
    for (size_t i = 0; i < N(rows); i++) {
        ssrf_addr a = addr(rows[i].text), carried;
        CHECK_ROW(a.family == 6, i);
        CHECK_ROW(ssrf_classify(&a, &carried) == rows[i].want, i);
        if (rows[i].carried) {
            ssrf_addr want = addr(rows[i].carried);
            CHECK_ROW(carried.family == 4 && !memcmp(carried.bytes, want.bytes, 4), i);
        } else {
            CHECK_ROW(carried.family == 0, i);
        }
    }
}

TEST(ssrf_every_class_has_a_name)
{
    for (int c = 0; c < SSRF_CLASS_COUNT; c++) {
        const char *n = ssrf_class_name((ssrf_class)c);
        CHECK(n && *n);
        for (int d = 0; d < c; d++) CHECK(strcmp(n, ssrf_class_name((ssrf_class)d)) != 0);
    }
    CHECK_STR(ssrf_class_name(SSRF_LOOPBACK), "loopback");
    ssrf_addr bogus = {.family = 5};
    CHECK(ssrf_classify(&bogus, NULL) != SSRF_PUBLIC); /* not an address: refused */
}

TEST(ssrf_literal_addresses_are_strict)
{
    static const struct { const char *text; int family; const char *shown; } rows[] = {
        {"127.0.0.1", 4, "127.0.0.1"}, {"0.0.0.0", 4, "0.0.0.0"}, {"255.255.255.255", 4, "255.255.255.255"},
        {"::1", 6, "::1"}, {"[::1]", 6, "::1"}, {"[::ffff:127.0.0.1]", 6, "::ffff:127.0.0.1"},
        {"FE80::1", 6, "fe80::1"},
        /* refused: the forms URL parsers read as IPv4 but this list must not guess at */
        {"0177.0.0.1", 0, NULL}, {"127.1", 0, NULL}, {"2130706433", 0, NULL}, {"0x7f000001", 0, NULL},
        {"127.0.0.01", 0, NULL}, {"256.0.0.1", 0, NULL}, {"1.2.3.4.5", 0, NULL}, {"1.2.3.", 0, NULL},
        {".1.2.3", 0, NULL}, {"1..2.3", 0, NULL}, {"1.2.3.4 ", 0, NULL}, {"1.2.3.1000", 0, NULL},
        {"fe80::1%eth0", 0, NULL}, {"[fe80::1%25eth0]", 0, NULL}, {"[::1", 0, NULL}, {"::1]", 0, NULL},
        {"[]", 0, NULL}, {"", 0, NULL}, {":::", 0, NULL}, {"1:2:3:4:5:6:7:8:9", 0, NULL}, {"localhost", 0, NULL},
        {"[127.0.0.1]", 0, NULL},
    };
    for (size_t i = 0; i < N(rows); i++) {
        ssrf_addr a;
        bool ok = ssrf_parse_addr(rows[i].text, strlen(rows[i].text), &a);
        CHECK_ROW(ok == (rows[i].family != 0), i);
        if (!ok) continue;
        CHECK_ROW(a.family == rows[i].family, i);
        char buf[64];
        ssrf_format_addr(&a, buf, sizeof buf);
        CHECK_ROW(!strcmp(buf, rows[i].shown), i);
    }
    /* a length that stops before a NUL is honoured */
    ssrf_addr a;
    CHECK(ssrf_parse_addr("10.0.0.1junk", 8, &a) && a.family == 4 && a.bytes[3] == 1);
}

TEST(ssrf_allowlist_accepts_names_addresses_and_cidrs)
{
    char *err = NULL;
    ssrf_allow *a = ssrf_allow_parse(" Allowed.Example ,10.1.2.3\t192.168.0.0/16\n::1, fd00::/8 ,[fe80::]/10,,"
                                     "internal_host my-host.local 0.0.0.0/0x", &err);
    CHECK(!a && err && strstr(err, "0.0.0.0/0x")); /* one bad entry spoils the list */
    free(err);
    a = ssrf_allow_parse(" Allowed.Example ,10.1.2.3\t192.168.0.0/16\n::1, fd00::/8 ,[fe80::]/10,,"
                         "internal_host my-host.local 100.64.0.0/10", &err);
    CHECK(a && !err);
    CHECK(ssrf_allow_count(a) == 9);
    CHECK(ssrf_allow_has_host(a, "allowed.example"));
    CHECK(ssrf_allow_has_host(a, "ALLOWED.example"));
    CHECK(ssrf_allow_has_host(a, "internal_host"));
    CHECK(!ssrf_allow_has_host(a, "allowed.example.")); /* exact: no trailing-dot alias */
    CHECK(!ssrf_allow_has_host(a, "x.allowed.example"));
    CHECK(!ssrf_allow_has_host(a, "allowed.examplex"));
    CHECK(!ssrf_allow_has_host(a, "10.1.2.3")); /* addresses match by address, below */
    static const struct { const char *text; bool want; } rows[] = {
        {"10.1.2.3", true}, {"10.1.2.4", false}, {"192.168.0.0", true}, {"192.168.255.255", true},
        {"192.169.0.0", false}, {"192.167.255.255", false}, {"100.64.0.1", true}, {"100.128.0.0", false},
        {"::1", true}, {"::2", false}, {"fd12::1", true}, {"fc00::1", false}, {"fe80::1", true}, {"febf::1", true},
        {"fec0::1", false}, {"::ffff:10.1.2.3", true}, {"::ffff:192.168.3.4", true}, {"::ffff:10.1.2.4", false},
        {"64:ff9b::a01:203", false}, /* only the mapped form stands for its IPv4 address */
        {"127.0.0.1", false},
    };
    for (size_t i = 0; i < N(rows); i++) {
        ssrf_addr x = addr(rows[i].text);
        CHECK_ROW(x.family != 0, i);
        CHECK_ROW(ssrf_allow_has_addr(a, &x) == rows[i].want, i);
    }
    ssrf_allow_free(a);

    /* empty and absent lists */
    a = ssrf_allow_parse(NULL, &err);
    CHECK(a && !err && ssrf_allow_count(a) == 0);
    ssrf_allow_free(a);
    a = ssrf_allow_parse(" , ,\n", &err);
    CHECK(a && !err && ssrf_allow_count(a) == 0);
    ssrf_addr lo = addr("127.0.0.1");
    CHECK(!ssrf_allow_has_addr(a, &lo) && !ssrf_allow_has_host(a, "localhost"));
    ssrf_allow_free(a);

    /* /0 is a deliberate "everything" */
    a = ssrf_allow_parse("0.0.0.0/0", &err);
    CHECK(a && ssrf_allow_has_addr(a, &lo));
    ssrf_addr v6 = addr("::1");
    CHECK(!ssrf_allow_has_addr(a, &v6));
    ssrf_allow_free(a);
}

TEST(ssrf_allowlist_garbage_is_an_error_naming_the_entry)
{
    static const struct { const char *text; const char *words; } rows[] = {
        {"localhost:8080", "no scheme, port or path"},
        {"http://example.com", "no scheme, port or path"},
        {"example.com/path", "not a valid IPv4"},
        {"*.example.com", "wildcards are not supported"},
        {"example.com.", "drop the trailing dot"},
        {"a..b", "empty label"},
        {"exa mple", NULL}, /* two entries: "exa" and "mple", both fine */
        {"ex!ample", "only letters, digits"},
        {"caf\xc3\xa9.example", "only letters, digits"},
        {"127.1", "shortened or numeric form"},
        {"2130706433", "shortened or numeric form"},
        {"0x7f000001", "shortened or numeric form"},
        {"0177.0.0.1", "shortened or numeric form"},
        {"999.1.1.1", "shortened or numeric form"},
        {"10.0.0.0/33", "0 to 32"},
        {"::/129", "0 to 128"},
        {"10.0.0.0/", "decimal number"},
        {"10.0.0.0/8/8", "decimal number"},
        {"10.0.0.0/-1", "decimal number"},
        {"10.0.0.0/08", "0 to 32"},
        {"10.1.0.0/8", "did you mean 10.0.0.0/8?"},
        {"fd00::1/8", "did you mean fd00::/8?"},
        {"fe80::1%eth0", "not a valid IPv4"},
        {"[::1]:80", "not a valid IPv4"},
        {"1:2:3:4:5:6:7:8:9", "not a valid IPv4"},
        {"/8", "not a valid IPv4"},
        {"-", "start or end with '-'"},
        {"host-.example", "start or end with '-'"},
        {"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.com", "at most 63"},
    };
    for (size_t i = 0; i < N(rows); i++) {
        char *err = NULL;
        ssrf_allow *a = ssrf_allow_parse(rows[i].text, &err);
        if (!rows[i].words) {
            CHECK_ROW(a && !err, i);
            ssrf_allow_free(a);
            continue;
        }
        CHECK_ROW(!a && err, i);
        CHECK_ROW(strstr(err, rows[i].words) != NULL, i);
        CHECK_ROW(strstr(err, "is not a host name, an IP address or a CIDR range") != NULL, i);
        free(err);
    }
    /* control characters in the echo are made harmless; overlong entries are cut */
    char *err = NULL;
    CHECK(!ssrf_allow_parse("bad\x01name", &err) && err && !strchr(err, '\x01'));
    free(err);
    char *longname = xmalloc(400);
    memset(longname, 'a', 399);
    longname[399] = 0;
    CHECK(!ssrf_allow_parse(longname, &err) && err && strstr(err, "at most 253") && strlen(err) < 300);
    free(err);
    free(longname);
    /* too many entries, too much text */
    buf many = {0};
    for (int i = 0; i <= SSRF_ALLOW_MAX_ENTRIES; i++) buf_printf(&many, "h%d ", i);
    CHECK(!ssrf_allow_parse(many.data, &err) && err && strstr(err, "more than"));
    free(err);
    buf_free(&many);
    char *huge = xmalloc(SSRF_ALLOW_MAX_TEXT + 2);
    memset(huge, ' ', SSRF_ALLOW_MAX_TEXT + 1);
    huge[SSRF_ALLOW_MAX_TEXT + 1] = 0;
    CHECK(!ssrf_allow_parse(huge, &err) && err && strstr(err, "longer than"));
    free(err);
    free(huge);
}

TEST(ssrf_host_keys_and_the_decision)
{
    char key[SSRF_HOST_MAX + 1];
    CHECK(ssrf_host_key("LocalHost", key) && !strcmp(key, "localhost"));
    CHECK(ssrf_host_key("[::1]", key) && !strcmp(key, "::1"));
    CHECK(!ssrf_host_key("", key) && !ssrf_host_key("[]", key) && !ssrf_host_key(NULL, key));
    CHECK(!ssrf_host_key("a b", key) && !ssrf_host_key("a\nb", key) && !ssrf_host_key("a\x7f", key));
    char *longhost = xmalloc(300);
    memset(longhost, 'a', 299);
    longhost[299] = 0;
    CHECK(!ssrf_host_key(longhost, key));
    free(longhost);

    char *err = NULL;
    ssrf_allow *a = ssrf_allow_parse("allowed.localhost 10.0.0.0/8", &err);
    CHECK(a);
    bool exempt;
    ssrf_addr lo = addr("127.0.0.1"), ten = addr("10.9.9.9"), pub = addr("8.8.8.8"), meta = addr("169.254.169.254");
    ssrf_addr mapped = addr("::ffff:127.0.0.1");
    /* public: always, not an exemption */
    CHECK(ssrf_decide(a, "example.com", &pub, &exempt) == SSRF_PUBLIC && !exempt);
    /* refused, with the class */
    CHECK(ssrf_decide(a, "example.com", &lo, &exempt) == SSRF_LOOPBACK && !exempt);
    CHECK(ssrf_decide(a, "example.com", &meta, &exempt) == SSRF_LINK_LOCAL && !exempt);
    CHECK(ssrf_decide(a, "127.0.0.1", &mapped, &exempt) == SSRF_LOOPBACK && !exempt);
    CHECK(ssrf_decide(a, NULL, &lo, &exempt) == SSRF_LOOPBACK);
    /* exempt by the hop's host name, whatever it resolves to */
    CHECK(ssrf_decide(a, "Allowed.Localhost", &lo, &exempt) == SSRF_PUBLIC && exempt);
    /* exempt by address */
    CHECK(ssrf_decide(a, "anything", &ten, &exempt) == SSRF_PUBLIC && exempt);
    /* an empty list exempts nothing */
    ssrf_allow *none = ssrf_allow_parse("", &err);
    CHECK(ssrf_decide(none, "localhost", &lo, &exempt) == SSRF_LOOPBACK && !exempt);
    CHECK(ssrf_decide(NULL, "localhost", &lo, &exempt) == SSRF_LOOPBACK && !exempt);
    ssrf_allow_free(none);
    ssrf_allow_free(a);
}
