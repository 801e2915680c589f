/* effects/crypto.c — placeholder for the captured-surface work (issue 6). */
#include "host/host_internal.h"
#include "host/ops.h"
#include "util/buf.h"

int effect_crypto_digest(host *h, const json_t *args, json_t **result, char **error)
{
    *error = xstrdup("crypto_digest: not implemented yet");
    return HOST_ERROR;
}

int effect_random_bytes(host *h, const json_t *args, json_t **result, char **error)
{
    *error = xstrdup("random_bytes: not implemented yet");
    return HOST_ERROR;
}
