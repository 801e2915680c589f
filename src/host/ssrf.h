/* ssrf.h — which network addresses the `http` effect may connect to.
 *
 * The parent runs `http` with its own network reach, so every connection it opens is checked
 * here first (effects/http.c calls ssrf_decide from libcurl's open-socket callback, with the
 * address actually being connected). Addresses that are not globally reachable — loopback,
 * private, link-local, CGNAT, multicast, documentation and reserved ranges and their IPv6 forms,
 * including IPv6 spellings that carry an IPv4 address (mapped, NAT64, 6to4, compatible) — are
 * refused unless CHIDORI_HTTP_ALLOW_HOSTS names the host or covers the address.
 *
 * Pure functions over bytes and strings: no sockets, no resolver, no libcurl, so they are unit
 * tested (tests/unit/test_ssrf.c) and fuzzed (tests/fuzz/fuzz_ssrf.c) directly. Trusts nothing:
 * the allowlist text comes from the environment, host names from guest URLs.
 */
#ifndef CHIDORI_SSRF_H
#define CHIDORI_SSRF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct ssrf_addr {
    int family;         /* 4 or 6 */
    uint8_t bytes[16];  /* network order; an IPv4 address uses bytes[0..3] */
} ssrf_addr;

typedef enum ssrf_class {
    SSRF_PUBLIC = 0,       /* globally reachable: allowed */
    SSRF_UNSPECIFIED,      /* 0.0.0.0/8, :: */
    SSRF_LOOPBACK,         /* 127.0.0.0/8, ::1 */
    SSRF_PRIVATE,          /* 10/8, 172.16/12, 192.168/16 */
    SSRF_CGNAT,            /* 100.64.0.0/10 (shared address space) */
    SSRF_LINK_LOCAL,       /* 169.254/16 (cloud metadata lives here), fe80::/10 */
    SSRF_IETF_PROTOCOL,    /* 192.0.0.0/24 */
    SSRF_DOCUMENTATION,    /* 192.0.2/24, 198.51.100/24, 203.0.113/24, 2001:db8::/32, 3fff::/20 */
    SSRF_BENCHMARKING,     /* 198.18.0.0/15 */
    SSRF_MULTICAST,        /* 224.0.0.0/4, ff00::/8 */
    SSRF_RESERVED,         /* 240.0.0.0/4 (but the broadcast address) */
    SSRF_BROADCAST,        /* 255.255.255.255 */
    SSRF_UNIQUE_LOCAL,     /* fc00::/7 */
    SSRF_SITE_LOCAL,       /* fec0::/10 (deprecated, still routed inside some sites) */
    SSRF_DISCARD,          /* 100::/64 */
    SSRF_IPV4_COMPATIBLE,  /* ::/96 holding a public IPv4 address (deprecated form) */
    SSRF_NAT64_LOCAL,      /* 64:ff9b:1::/48 carrying nothing more specific (local by definition) */
    SSRF_CLASS_COUNT
} ssrf_class;

/* Classify an address. IPv6 forms that carry an IPv4 address (::ffff:0:0/96 mapped,
 * 64:ff9b::/96 and 64:ff9b:1::/48 NAT64, 2002::/16 6to4, ::/96 compatible) are classified by the
 * IPv4 address they carry; when that decides, *carried (if given) receives it, else its family
 * is set to 0. The local-use NAT64 prefix is refused whatever it carries. */
ssrf_class ssrf_classify(const ssrf_addr *a, ssrf_addr *carried);
/* "loopback", "private (RFC 1918)", … for messages. */
const char *ssrf_class_name(ssrf_class c);

/* Parse a literal address: a strict dotted quad (four decimal parts, no leading zeros) or an
 * IPv6 address, optionally in brackets, without a zone. len bytes of s (no NUL needed). */
bool ssrf_parse_addr(const char *s, size_t len, ssrf_addr *out);
/* The usual text form (inet_ntop). buf should hold 46 bytes. */
void ssrf_format_addr(const ssrf_addr *a, char *buf, size_t cap);

/* CHIDORI_HTTP_ALLOW_HOSTS: entries separated by commas and/or white space, each a host name
 * (matched exactly, case-insensitively, against a URL's host), an IPv4 or IPv6 address, or a
 * CIDR range (v4 or v6) matched against the connected address. Empty entries are skipped; any
 * other entry that is not one of these is an error, never ignored. */
typedef struct ssrf_allow ssrf_allow;

#define SSRF_ALLOW_MAX_ENTRIES 1024
#define SSRF_ALLOW_MAX_TEXT (64 * 1024)
#define SSRF_HOST_MAX 253

/* NULL or empty text gives an empty list. NULL with *error (malloc'd) on a bad entry. */
ssrf_allow *ssrf_allow_parse(const char *text, char **error);
void ssrf_allow_free(ssrf_allow *a);
size_t ssrf_allow_count(const ssrf_allow *a);
/* The URL host (already lower-cased or not; brackets around IPv6 allowed) is an allowed name. */
bool ssrf_allow_has_host(const ssrf_allow *a, const char *host);
/* The address is covered by an address or CIDR entry (an IPv4-mapped IPv6 address also by the
 * IPv4 entries covering the address it maps). */
bool ssrf_allow_has_addr(const ssrf_allow *a, const ssrf_addr *addr);

/* Canonical form of a URL host for matching and messages: lower case, IPv6 brackets removed.
 * Returns false (and leaves out unspecified) for an empty, overlong or control-character host.
 * out must hold SSRF_HOST_MAX + 1 bytes. */
bool ssrf_host_key(const char *host, char *out);

/* The decision for one connection: the hop's URL host and the address being connected.
 * Returns SSRF_PUBLIC when the connection may go ahead (a public address, or an exempt host or
 * address — *exempt then says so), else the class that refuses it. */
ssrf_class ssrf_decide(const ssrf_allow *allow, const char *host, const ssrf_addr *addr, bool *exempt);

#endif
