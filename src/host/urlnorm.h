/* urlnorm.h — the one normalized form of an http(s) URL that the `http` effect checks, performs
 * and records.
 *
 * The policy gate compares a `url_prefix` with the bytes of args.url, libcurl connects to what it
 * parses, and the call log keeps args.url. If these saw different spellings of one URL
 * ("/public/../admin", "/public/%2e%2e/admin", "\public\..\admin"), a prefix could allow a
 * request that reaches another path. So the URL is normalized once, before the gate, following
 * the WHATWG URL rules for special schemes, and that one string is what everything after sees:
 *
 *  - scheme and host lower-cased; the slashes after "http:" may be any mix of / and \ (or none);
 *  - the host percent-decoded; IPv4 in any WHATWG spelling (0x7f.1, 2130706433, 0177.0.0.1)
 *    written as a dotted quad; IPv6 in its compressed lower-case form; a non-ASCII host or one
 *    with a forbidden character is an error (use the xn-- form);
 *  - the port without leading zeros, and dropped when it is the scheme's default;
 *  - the path: \ is a separator; ".", "..", and their percent-encoded spellings (%2e, .%2E, …) are
 *    resolved; empty segments stay (as WHATWG keeps them); the characters WHATWG percent-encodes
 *    in a path or query are encoded; the hex digits of every %XX are upper-cased;
 *  - the fragment is dropped (it is never sent).
 *
 * Refused rather than guessed (servers differ on them): credentials in the URL (send an
 * Authorization header), and a segment that is a dot segment once %2F/%5C are read as slashes or
 * once a ";parameter" is cut (`..%2Fadmin`, `..;x`).
 *
 * Pure: bytes in, bytes out; no libcurl, no I/O. Trusts nothing: the URL is guest data. Unit
 * tested in tests/unit/test_urlnorm.c and fuzzed by tests/fuzz/fuzz_urlnorm.c (idempotence).
 */
#ifndef CHIDORI_URLNORM_H
#define CHIDORI_URLNORM_H

#include <stddef.h>

/* The longest URL accepted and the longest produced (the normalized form can be longer). */
#define URLNORM_MAX 16384

/* The normalized form of the absolute http: or https: URL in url[0..len), malloc'd; or NULL with
 * *error (malloc'd, printable ASCII, without a leading "http: "). */
char *url_normalize(const char *url, size_t len, char **error);

#endif
