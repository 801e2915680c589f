/* crypto_lazy.c — libcrypto loaded on first use (see crypto_lazy.h).
 *
 * Only four entry points are bound, through our own declarations (no OpenSSL headers are needed
 * to build): EVP_get_digestbyname, EVP_MD_get_size, EVP_Digest and HMAC. The algorithm names are
 * an allowlist checked here, so guest text never reaches libcrypto's name lookup. Inputs are
 * bounded by the caller (effects/crypto.c caps the data size). Thread-safe: loading happens once
 * under pthread_once; the functions used are reentrant.
 */
#include "util/crypto_lazy.h"
#include "util/buf.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <string.h>

typedef struct md md; /* libcrypto's EVP_MD, opaque */

typedef struct api {
    const md *(*get_digestbyname)(const char *);
    int (*md_get_size)(const md *);
    int (*digest)(const void *, size_t, unsigned char *, unsigned int *, const md *, void *);
    unsigned char *(*hmac)(const md *, const void *, int, const unsigned char *, size_t, unsigned char *,
                           unsigned int *);
    void *lib;
} api;

static int load(const char *soname, api *a, char **error)
{
    memset(a, 0, sizeof *a);
    a->lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!a->lib) {
        const char *why = dlerror();
        *error = xasprintf("OpenSSL's libcrypto (%s) could not be loaded, so hashes and HMAC are unavailable: %s",
                           soname, why ? why : "not found");
        return -1;
    }
#define BIND(field, name) *(void **)&a->field = dlsym(a->lib, name)
    BIND(get_digestbyname, "EVP_get_digestbyname");
    BIND(md_get_size, "EVP_MD_get_size");
    BIND(digest, "EVP_Digest");
    BIND(hmac, "HMAC");
#undef BIND
    if (!a->get_digestbyname || !a->md_get_size || !a->digest || !a->hmac) {
        *error = xasprintf("%s lacks the digest functions chidori needs (OpenSSL 3 is required)", soname);
        dlclose(a->lib);
        a->lib = NULL;
        return -1;
    }
    return 0;
}

static api shared;
static char *shared_error;
static pthread_once_t shared_once = PTHREAD_ONCE_INIT;

static void load_shared(void)
{
    if (load(CRYPTO_LIBRARY, &shared, &shared_error) != 0) shared.lib = NULL;
}

int crypto_library_check(const char *soname, char **error)
{
    api a;
    if (load(soname, &a, error) != 0) return -1;
    dlclose(a.lib);
    return 0;
}

static const char *const ALGORITHMS[] = {"md5", "sha1", "sha256", "sha384", "sha512"};

size_t crypto_digest(const char *algorithm, const void *data, size_t len, const void *key, size_t key_len,
                     unsigned char out[CRYPTO_DIGEST_MAX], char **error)
{
    int known = 0;
    for (size_t i = 0; i < sizeof ALGORITHMS / sizeof *ALGORITHMS; i++) known |= strcmp(algorithm, ALGORITHMS[i]) == 0;
    if (!known) {
        *error = xasprintf("digest algorithm `%s` is not supported (use md5, sha1, sha256, sha384 or sha512)", algorithm);
        return 0;
    }
    pthread_once(&shared_once, load_shared);
    if (!shared.lib) {
        *error = xstrdup(shared_error ? shared_error : "libcrypto is not loaded");
        return 0;
    }
    const md *type = shared.get_digestbyname(algorithm);
    if (!type || shared.md_get_size(type) <= 0 || shared.md_get_size(type) > CRYPTO_DIGEST_MAX) {
        *error = xasprintf("libcrypto does not provide the digest `%s`", algorithm);
        return 0;
    }
    static const unsigned char empty[1];
    unsigned int n = 0;
    if (!data) data = empty;
    if (key) {
        if (key_len > INT_MAX) {
            *error = xstrdup("HMAC key is too long");
            return 0;
        }
        if (!shared.hmac(type, key_len ? key : empty, (int)key_len, data, len, out, &n)) n = 0;
    } else if (!shared.digest(data, len, out, &n, type, NULL)) {
        n = 0;
    }
    if (n == 0 || n > CRYPTO_DIGEST_MAX) {
        *error = xasprintf("libcrypto failed to compute %s%s", key ? "HMAC-" : "", algorithm);
        return 0;
    }
    return n;
}
