/* test_crypto.c — base64, the lazily loaded libcrypto (known digests, HMAC, a missing library),
 * and the crypto host ops' argument checks and caps. */
#include "unit.h"
#include "host/host.h"
#include "host/ops.h"
#include "util/base64.h"
#include "util/buf.h"
#include "util/crypto_lazy.h"
#include "util/json.h"

#include <stdlib.h>

static char *hex_of(const unsigned char *p, size_t n)
{
    char *out = xmalloc(2 * n + 1);
    for (size_t i = 0; i < n; i++) snprintf(out + 2 * i, 3, "%02x", p[i]);
    out[2 * n] = '\0';
    return out;
}

TEST(base64_rfc4648_vectors_and_strict_decoding)
{
    const char *plain[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
    const char *coded[] = {"", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"};
    for (int i = 0; i < 7; i++) {
        char *e = base64_encode(plain[i], strlen(plain[i]), NULL);
        CHECK_STR(e, coded[i]);
        free(e);
        size_t n;
        unsigned char *d = base64_decode(coded[i], strlen(coded[i]), 100, &n, NULL);
        CHECK(d && n == strlen(plain[i]) && memcmp(d, plain[i], n) == 0);
        free(d);
    }
    const char *bad[] = {"Zg=", "Z===", "Zg==Zg==", "Zm9v!A==", "Zh==", "Zm9=", "=Zm9", "Zm 9v"};
    for (int i = 0; i < 8; i++) {
        size_t n;
        int too_big = 0;
        CHECK(base64_decode(bad[i], strlen(bad[i]), 100, &n, &too_big) == NULL && !too_big);
    }
    size_t n;
    int too_big = 0;
    CHECK(base64_decode("Zm9vYmFy", 8, 5, &n, &too_big) == NULL && too_big);
}

TEST(crypto_digest_known_values)
{
    unsigned char out[CRYPTO_DIGEST_MAX];
    char *error = NULL;
    size_t n = crypto_digest("sha256", "abc", 3, NULL, 0, out, &error);
    CHECK(n == 32);
    char *h = hex_of(out, n);
    CHECK_STR(h, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    free(h);
    n = crypto_digest("md5", NULL, 0, NULL, 0, out, &error);
    h = hex_of(out, n);
    CHECK_STR(h, "d41d8cd98f00b204e9800998ecf8427e");
    free(h);
    /* RFC 4231 test case 2 and RFC 2104's example. */
    const char *msg = "what do ya want for nothing?";
    n = crypto_digest("sha256", msg, strlen(msg), "Jefe", 4, out, &error);
    h = hex_of(out, n);
    CHECK_STR(h, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    free(h);
    n = crypto_digest("md5", msg, strlen(msg), "Jefe", 4, out, &error);
    h = hex_of(out, n);
    CHECK_STR(h, "750c783e6ab0b503eaa86e310a5db738");
    free(h);
    n = crypto_digest("sha512", "", 0, "", 0, out, &error); /* HMAC with an empty key */
    CHECK(n == 64 && error == NULL);
    n = crypto_digest("sha3-256", "x", 1, NULL, 0, out, &error);
    CHECK(n == 0 && error && strstr(error, "not supported"));
    free(error);
}

TEST(crypto_missing_library_is_a_clear_error)
{
    char *error = NULL;
    CHECK(crypto_library_check("libchidori-absent-crypto.so.0", &error) == -1);
    CHECK(error && strstr(error, "libchidori-absent-crypto.so.0") && strstr(error, "could not be loaded"));
    free(error);
    error = NULL;
    CHECK(crypto_library_check(CRYPTO_LIBRARY, &error) == 0 && error == NULL);
}

static int call(host_perform_fn *fn, const char *args_json, json_t **result, char **error)
{
    json_error jerr;
    json_t *args = json_parse(args_json, strlen(args_json), NULL, &jerr);
    *result = NULL;
    *error = NULL;
    int rc = fn(NULL, args, result, error);
    json_free(args);
    return rc;
}

TEST(random_bytes_op_sizes_and_cap)
{
    json_t *r;
    char *error;
    CHECK(call(effect_random_bytes, "{\"size\":32}", &r, &error) == HOST_OK);
    const char *b = json_string_value(json_object_get(r, "bytes"));
    size_t n;
    unsigned char *bytes = b ? base64_decode(b, strlen(b), 64, &n, NULL) : NULL;
    CHECK(bytes && n == 32);
    json_t *r2;
    CHECK(call(effect_random_bytes, "{\"size\":32}", &r2, &error) == HOST_OK);
    CHECK(strcmp(b, json_string_value(json_object_get(r2, "bytes"))) != 0);
    free(bytes);
    json_free(r);
    json_free(r2);
    CHECK(call(effect_random_bytes, "{\"size\":65536}", &r, &error) == HOST_OK);
    json_free(r);
    CHECK(call(effect_random_bytes, "{\"size\":0}", &r, &error) == HOST_OK);
    CHECK_STR(json_string_value(json_object_get(r, "bytes")), "");
    json_free(r);
    const char *bad[] = {"{\"size\":65537}", "{\"size\":-1}", "{\"size\":1.5}", "{\"size\":\"8\"}", "{}",
                         "{\"size\":1e300}"};
    for (int i = 0; i < 6; i++) {
        CHECK(call(effect_random_bytes, bad[i], &r, &error) == HOST_ERROR && error && r == NULL);
        if (i == 0) CHECK(strstr(error, "65536-byte limit"));
        free(error);
    }
}

TEST(crypto_digest_op_checks_its_arguments)
{
    json_t *r;
    char *error;
    CHECK(call(effect_crypto_digest, "{\"algorithm\":\"sha1\",\"data\":\"YWJj\"}", &r, &error) == HOST_OK);
    CHECK_STR(json_string_value(json_object_get(r, "digest")), "qZk+NkcGgWq6PiVxeFDCbJzQ2J0=");
    json_free(r);
    CHECK(call(effect_crypto_digest, "{\"algorithm\":\"sha256\",\"data\":\"\",\"key\":\"\"}", &r, &error) == HOST_OK);
    json_free(r);
    const char *bad[] = {"{\"algorithm\":\"sha1\",\"data\":\"YWJ\"}", "{\"algorithm\":\"sha1\"}",
                         "{\"algorithm\":\"whirlpool\",\"data\":\"\"}", "{\"data\":\"\"}",
                         "{\"algorithm\":\"sha1\",\"data\":\"\",\"key\":7}", "{\"algorithm\":\"sha1\",\"data\":[]}"};
    for (int i = 0; i < 6; i++) {
        CHECK(call(effect_crypto_digest, bad[i], &r, &error) == HOST_ERROR && error && r == NULL);
        free(error);
    }
    /* Data over the 32 MiB cap is refused from its length alone, before it is decoded. */
    size_t len = ((((size_t)32 << 20) + 3) / 3) * 4;
    json_t *args = json_object();
    json_object_set(args, "algorithm", json_string("sha256"));
    char *big = xmalloc(len + 1);
    memset(big, 'A', len);
    big[len] = '\0';
    json_object_set(args, "data", json_stringn(big, len));
    free(big);
    error = NULL;
    r = NULL;
    CHECK(effect_crypto_digest(NULL, args, &r, &error) == HOST_ERROR && error && strstr(error, "32 MiB limit"));
    free(error);
    json_free(args);
    /* A key over 1 MiB likewise. */
    len = ((((size_t)1 << 20) + 3) / 3) * 4;
    args = json_object();
    json_object_set(args, "algorithm", json_string("sha256"));
    json_object_set(args, "data", json_string(""));
    big = xmalloc(len + 1);
    memset(big, 'A', len);
    json_object_set(args, "key", json_stringn(big, len));
    free(big);
    error = NULL;
    CHECK(effect_crypto_digest(NULL, args, &r, &error) == HOST_ERROR && error && strstr(error, "`key` is larger"));
    free(error);
    json_free(args);
}
