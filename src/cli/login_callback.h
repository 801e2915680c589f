/* login_callback.h — the untrusted half of `chidori model-login` (model_login.c): the bytes that
 * reach its callback port on loopback, which any local process or any web page in the user's
 * browser can send, and the PKCE values of the sign-in.
 *
 * Owns: finding the request target in what a connection sent (at most LOGIN_REQUEST_MAX bytes),
 * telling this sign-in's one-time callback path from anything else (in constant time), reading a
 * query parameter (percent-decoded), and making the one-time values (state, PKCE verifier and
 * challenge). Trusts nothing in the bytes it is given; runs no I/O but util/random's.
 */
#ifndef CHIDORI_LOGIN_CALLBACK_H
#define CHIDORI_LOGIN_CALLBACK_H

#include <stdbool.h>
#include <stddef.h>

/* The most a connection may send before its request line is complete: more is refused. */
#define LOGIN_REQUEST_MAX 8192
/* A query parameter's value at most (a code is tens of bytes). */
#define LOGIN_PARAM_MAX 2048

typedef enum login_parse { LOGIN_MORE, LOGIN_BAD, LOGIN_TARGET } login_parse;

/* The target of a `GET <target> HTTP/1.x` request line at the start of buf[0..len):
 * LOGIN_TARGET with *target (malloc'd), LOGIN_MORE while the line is incomplete and len is under
 * LOGIN_REQUEST_MAX, LOGIN_BAD for anything that cannot become such a line (another method, a
 * target that is not a path, a control byte, too long). */
login_parse login_request_target(const char *buf, size_t len, char **target);

/* Whether target's path (before any `?`) is <prefix><secret> (prefix: "/callback/", say), a
 * trailing `/` allowed; the secret is compared in time that does not depend on where it differs. */
bool login_path_is(const char *target, const char *prefix, const char *secret);

/* The value of the first `name=` parameter of target's query, percent-decoded (`+` is a space),
 * malloc'd; NULL when there is none, or it is over LOGIN_PARAM_MAX, or it decodes to a control
 * byte or is not valid percent-encoding. */
char *login_query_param(const char *target, const char *name);

/* base64url without padding (RFC 4648 §5) of n bytes, malloc'd. */
char *login_base64url(const unsigned char *data, size_t n);

/* A one-time state (24 random bytes, base64url: 32 characters), and a PKCE verifier (32 random
 * bytes, base64url: 43 characters) with its S256 challenge (base64url of the verifier's SHA-256,
 * RFC 7636 §4.2). Each malloc'd. */
char *login_new_state(void);
void login_new_pkce(char **verifier, char **challenge);
char *login_pkce_challenge(const char *verifier);

/* text with every byte but ALPHA / DIGIT / `-._~` percent-encoded (a query value), malloc'd. */
char *login_url_encode(const char *text);

#endif
