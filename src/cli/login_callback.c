/* login_callback.c — the callback request and the PKCE values of `chidori model-login` (see
 * login_callback.h). */
#include "cli/login_callback.h"
#include "util/base64.h"
#include "util/buf.h"
#include "util/random.h"
#include "util/sha256.h"

#include <stdlib.h>
#include <string.h>

login_parse login_request_target(const char *buf, size_t len, char **target)
{
    *target = NULL;
    static const char method[] = "GET ";
    size_t m = sizeof method - 1;
    for (size_t i = 0; i < len && i < m; i++)
        if (buf[i] != method[i]) return LOGIN_BAD;
    const char *eol = memchr(buf, '\n', len < LOGIN_REQUEST_MAX ? len : LOGIN_REQUEST_MAX);
    if (!eol) return len >= LOGIN_REQUEST_MAX ? LOGIN_BAD : LOGIN_MORE;
    size_t line = (size_t)(eol - buf);
    if (line && buf[line - 1] == '\r') line--;
    if (line < m) return LOGIN_BAD;
    /* GET SP target SP HTTP/1.x, with no other space and no control byte */
    const char *t = buf + m, *end = buf + line;
    const char *sp = memchr(t, ' ', (size_t)(end - t));
    if (!sp || sp == t || *t != '/') return LOGIN_BAD;
    size_t version = (size_t)(end - sp - 1);
    if (version != 8 || memcmp(sp + 1, "HTTP/1.", 7) != 0 || (sp[8] != '0' && sp[8] != '1')) return LOGIN_BAD;
    for (const char *p = t; p < sp; p++)
        if ((unsigned char)*p <= 0x20 || *p == 0x7f) return LOGIN_BAD;
    *target = xstrndup(t, (size_t)(sp - t));
    return LOGIN_TARGET;
}

bool login_path_is(const char *target, const char *prefix, const char *secret)
{
    size_t pl = strlen(prefix);
    if (strncmp(target, prefix, pl) != 0) return false;
    const char *presented = target + pl;
    size_t n = strcspn(presented, "?");
    while (n && presented[n - 1] == '/') n--;
    size_t want = strlen(secret); /* its length is no secret: every one has the same */
    if (n != want) return false;
    unsigned char diff = 0;
    for (size_t i = 0; i < n; i++) diff |= (unsigned char)(presented[i] ^ secret[i]);
    return diff == 0;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* s[0..n) percent-decoded, or NULL (a bad escape, a control byte). */
static char *decode(const char *s, size_t n)
{
    char *out = xmalloc(n + 1);
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '+') c = ' ';
        else if (c == '%') {
            int hi = i + 2 < n ? hex_digit(s[i + 1]) : -1;
            int lo = i + 2 < n ? hex_digit(s[i + 2]) : -1;
            if (hi < 0 || lo < 0) {
                free(out);
                return NULL;
            }
            c = (unsigned char)(hi << 4 | lo);
            i += 2;
        }
        if (c < 0x20 || c == 0x7f) {
            free(out);
            return NULL;
        }
        out[o++] = (char)c;
    }
    out[o] = 0;
    return out;
}

char *login_query_param(const char *target, const char *name)
{
    const char *q = strchr(target, '?');
    if (!q) return NULL;
    size_t nl = strlen(name);
    for (const char *p = q + 1; *p;) {
        size_t len = strcspn(p, "&#");
        if (len > nl && p[nl] == '=' && !strncmp(p, name, nl)) {
            size_t vl = len - nl - 1;
            return vl > LOGIN_PARAM_MAX ? NULL : decode(p + nl + 1, vl);
        }
        if (p[len] != '&') break; /* the end, or a fragment */
        p += len + 1;
    }
    return NULL;
}

char *login_base64url(const unsigned char *data, size_t n)
{
    /* the standard encoding (util/base64.h) with RFC 4648 §5's two letters and no padding */
    size_t len = 0;
    char *out = base64_encode(data, n, &len);
    while (len && out[len - 1] == '=') out[--len] = 0;
    for (char *p = out; *p; p++) *p = *p == '+' ? '-' : *p == '/' ? '_' : *p;
    return out;
}

static char *random_base64url(size_t n)
{
    unsigned char bytes[64];
    random_bytes(bytes, n);
    char *s = login_base64url(bytes, n);
    explicit_bzero(bytes, sizeof bytes);
    return s;
}

char *login_new_state(void) { return random_base64url(24); }

char *login_pkce_challenge(const char *verifier)
{
    sha256_ctx c;
    unsigned char digest[32];
    sha256_init(&c);
    sha256_update(&c, verifier, strlen(verifier));
    sha256_final(&c, digest);
    return login_base64url(digest, sizeof digest);
}

void login_new_pkce(char **verifier, char **challenge)
{
    *verifier = random_base64url(32);
    *challenge = login_pkce_challenge(*verifier);
}

char *login_url_encode(const char *text)
{
    buf b = {0};
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || strchr("-._~", *p))
            buf_putc(&b, (char)*p);
        else
            buf_printf(&b, "%%%02X", *p);
    }
    return buf_steal(&b);
}
