/* fuzz_settings.c — libFuzzer target for the settings parser (src/settings/settings.c).
 *
 * The input is an environment: NUL-separated "NAME=value" strings. The first byte chooses which
 * setting's name prefixes the first string, so every row of the table is reached. Checked: the
 * parse either fails with an error that names a CHIDORI_* variable, or succeeds and every number
 * is within its row's range, every word one of its row's words, every flag 0 or 1. The same
 * bytes (after the first) are also read as ~/.chidori/credentials.json (saved_keys.c): a key is
 * never blank.
 *
 * Build and run: make VARIANT=fuzz build/fuzz/fuzz_settings && build/fuzz/fuzz_settings
 */
#include "settings/saved_keys.h"
#include "settings/settings.h"
#include "util/buf.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ENTRIES 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 65536) return 0;
    char *key = saved_openrouter_key_of((const char *)data + 1, size - 1);
    if (key && !*key) abort();
    free(key);
    size_t n;
    const setting_def *t = settings_table(&n);
    const setting_def *first = &t[data[0] % n];
    char *text = xmalloc(size + strlen(first->name) + 2);
    size_t len = (size_t)sprintf(text, "%s=", first->name);
    memcpy(text + len, data + 1, size - 1);
    len += size - 1;
    text[len] = '\0';
    char *env[MAX_ENTRIES + 1];
    size_t k = 0;
    for (size_t at = 0; at <= len && k < MAX_ENTRIES;) {
        env[k++] = text + at;
        at += strlen(text + at) + 1;
    }
    env[k] = NULL;
    char *error = NULL;
    settings *s = settings_from_environ(env, &error);
    if (!s) {
        if (!error || strncmp(error, "CHIDORI_", 8) != 0) abort();
        free(error);
        free(text);
        return 0;
    }
    if (error) abort();
    for (size_t i = 0; i < n; i++) {
        const setting_def *d = &t[i];
        if (d->kind == SETTING_NUMBER) {
            uint64_t v = settings_u64(s, d->name);
            if (v < d->min || v > d->max) abort();
        } else if (d->kind == SETTING_WORD) {
            const char *w = settings_word(s, d->name);
            bool found = false;
            for (size_t j = 0; d->words[j]; j++) found |= d->words[j] == w;
            if (!found) abort();
        } else if (d->kind == SETTING_FLAG) {
            (void)settings_flag(s, d->name);
        } else {
            const char *v = settings_text(s, d->name);
            if (v) (void)strlen(v);
        }
    }
    settings_free(s);
    free(text);
    return 0;
}
