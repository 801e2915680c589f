/* effects/crypto.c — the host half of node:crypto.
 *
 * `crypto_digest` {algorithm, data: base64, key?: base64} → {digest: base64}: a hash, or an HMAC
 * when `key` is present, computed by libcrypto (util/crypto_lazy.c). Pure and deterministic, so
 * it is not recorded: it is performed again on replay. Data and key are capped.
 * `random_bytes` {size} → {bytes: base64}: `size` bytes from getrandom(2), at most 65536 per call
 * (the Web Crypto limit; node/crypto.js splits larger requests). Recorded: replay answers from the
 * call log, which is how a run's randomness is captured.
 * Trusts nothing in args: types, sizes and base64 are checked before anything is computed.
 */
#include "host/host_internal.h"
#include "host/ops.h"
#include "util/base64.h"
#include "util/buf.h"
#include "util/crypto_lazy.h"
#include "util/random.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DIGEST_DATA_MAX ((size_t)32 << 20) /* base64 of it still fits one worker frame */
#define DIGEST_KEY_MAX ((size_t)1 << 20)
#define RANDOM_BYTES_MAX 65536

/* The bytes of a base64 string argument; NULL with *error when absent (and required), not a
 * string, not base64, or larger than max. *present tells an absent optional one apart. */
static unsigned char *bytes_arg(const json_t *args, const char *name, size_t max, int required, size_t *len,
                                int *present, char **error)
{
    const json_t *v = json_object_get(args, name);
    *present = v && v->type != JSON_NULL;
    if (!*present) {
        if (required) *error = xasprintf("crypto_digest: `%s` is required", name);
        return NULL;
    }
    if (v->type != JSON_STRING) {
        *error = xasprintf("crypto_digest: `%s` must be a base64 string", name);
        return NULL;
    }
    int too_big = 0;
    unsigned char *bytes = base64_decode(v->u.string.bytes, v->u.string.len, max, len, &too_big);
    if (!bytes) {
        *error = too_big ? xasprintf("crypto_digest: `%s` is larger than the %zu MiB limit", name, max >> 20)
                         : xasprintf("crypto_digest: `%s` is not valid base64", name);
    }
    return bytes;
}

int effect_crypto_digest(host *h, const json_t *args, json_t **result, char **error)
{
    (void)h;
    const char *algorithm = host_arg_string(args, "algorithm", error);
    if (!algorithm) return HOST_ERROR;
    size_t len = 0, key_len = 0;
    int present, key_present;
    unsigned char *data = bytes_arg(args, "data", DIGEST_DATA_MAX, 1, &len, &present, error);
    if (!data) return HOST_ERROR;
    unsigned char *key = bytes_arg(args, "key", DIGEST_KEY_MAX, 0, &key_len, &key_present, error);
    if (key_present && !key) {
        free(data);
        return HOST_ERROR;
    }
    unsigned char out[CRYPTO_DIGEST_MAX];
    size_t n = crypto_digest(algorithm, data, len, key, key_len, out, error);
    free(data);
    free(key);
    if (n == 0) return HOST_ERROR;
    char *b64 = base64_encode(out, n, NULL);
    *result = json_object();
    json_object_set(*result, "digest", json_string(b64));
    free(b64);
    return HOST_OK;
}

int effect_random_bytes(host *h, const json_t *args, json_t **result, char **error)
{
    (void)h;
    const json_t *v = json_object_get(args, "size");
    if (!v || v->type != JSON_NUMBER || !(v->u.number >= 0) || v->u.number != floor(v->u.number)) {
        *error = xstrdup("random_bytes: `size` must be a non-negative integer");
        return HOST_ERROR;
    }
    if (v->u.number > RANDOM_BYTES_MAX) {
        *error = xasprintf("random_bytes: `size` %.0f is over the %d-byte limit of one call", v->u.number,
                           RANDOM_BYTES_MAX);
        return HOST_ERROR;
    }
    size_t n = (size_t)v->u.number;
    unsigned char *bytes = xmalloc(n + 1);
    random_bytes(bytes, n);
    char *b64 = base64_encode(bytes, n, NULL);
    free(bytes);
    *result = json_object();
    json_object_set(*result, "bytes", json_string(b64));
    free(b64);
    return HOST_OK;
}

static const op_def crypto_ops[] = {
    {.name = "crypto_digest", .flags = 0, .perform = effect_crypto_digest}, /* pure: performed again on replay */
    {.name = "random_bytes", .flags = OP_RECORDED, .perform = effect_random_bytes},
    {0},
};

const effect_module crypto_module = {.name = "crypto", .ops = crypto_ops};
