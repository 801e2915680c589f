/* crypto_lazy.h — message digests and HMAC from OpenSSL's libcrypto, which is loaded
 * (dlopen "libcrypto.so.3") the first time a digest is asked for, like libcurl in curl_lazy.c:
 * a start of chidori pays nothing for it, and a machine without it fails only the runs that hash,
 * with a clear error. */
#ifndef CHIDORI_CRYPTO_LAZY_H
#define CHIDORI_CRYPTO_LAZY_H

#include <stddef.h>

#define CRYPTO_LIBRARY "libcrypto.so.3"
#define CRYPTO_DIGEST_MAX 64 /* SHA-512 */

/* The digest (key == NULL) or HMAC (key != NULL, key_len may be 0) of data under algorithm,
 * one of "md5", "sha1", "sha256", "sha384", "sha512" (lowercase; anything else is refused).
 * Returns the digest length written to out, or 0 with *error set (malloc'd). */
size_t crypto_digest(const char *algorithm, const void *data, size_t len, const void *key, size_t key_len,
                     unsigned char out[CRYPTO_DIGEST_MAX], char **error);

/* Loads the named library into a throwaway table and checks it has what crypto_digest needs:
 * 0, or -1 with *error set. For tests of the missing-library message. */
int crypto_library_check(const char *soname, char **error);

#endif
