/* saved_keys.c — ~/.chidori/credentials.json's OpenRouter key (see saved_keys.h). */
#include "settings/saved_keys.h"
#include "util/buf.h"
#include "util/files.h"
#include "util/json.h"

#include <stdlib.h>
#include <string.h>

char *saved_openrouter_key_of(const char *text, size_t len)
{
    if (len > CREDENTIALS_MAX_BYTES) return NULL;
    json_limits lim = {CREDENTIALS_MAX_BYTES, 16, 0};
    json_t *v = json_parse(text, len, &lim, NULL);
    const json_t *k = json_object_get(v, "openrouter_api_key");
    char *key = json_is_string(k) && strlen(k->u.string.bytes) == k->u.string.len /* no NUL inside */ &&
                        !text_blank(k->u.string.bytes)
                    ? xstrdup(k->u.string.bytes)
                    : NULL;
    json_free(v);
    return key;
}

char *saved_openrouter_key(const char *home)
{
    if (!home || !*home) return NULL;
    char *path = xasprintf("%s/.chidori/credentials.json", home), *error = NULL;
    size_t len = 0;
    char *text = read_regular_file_capped(path, CREDENTIALS_MAX_BYTES, &len, &error);
    free(path);
    free(error);
    if (!text) return NULL;
    char *key = saved_openrouter_key_of(text, len);
    explicit_bzero(text, len); /* the file holds secrets */
    free(text);
    return key;
}
