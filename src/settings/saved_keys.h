/* saved_keys.h — provider keys a user saved outside the environment: the OpenRouter key the
 * original chidori's `chidori model-login` writes to ~/.chidori/credentials.json.
 *
 * Owns: reading that file, once, when the settings are read (settings.c calls it). Trusts the
 * user's home folder as much as the environment (both are the operator's); not the file's bytes:
 * it must be a regular file of at most 64 KiB holding a JSON object, else it is ignored, as the
 * original ignores it.
 */
#ifndef CHIDORI_SAVED_KEYS_H
#define CHIDORI_SAVED_KEYS_H

#include <stddef.h>

/* The most of credentials.json chidori reads (its readers here and `chidori model-login`). */
#define CREDENTIALS_MAX_BYTES ((size_t)64 << 10)

/* The non-blank string `openrouter_api_key` of the JSON object in text, malloc'd, or NULL. */
char *saved_openrouter_key_of(const char *text, size_t len);

/* The same from <home>/.chidori/credentials.json (home: $HOME; NULL or empty: none), or NULL. */
char *saved_openrouter_key(const char *home);

#endif
