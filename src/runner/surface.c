/* surface.c — see surface.h. Trusts the settings (checked when they were built); the seed file is
 * read with a cap and parsed with limits like any other input. */
#define _GNU_SOURCE
#include "runner/surface.h"
#include "host/vfs.h"
#include "settings/settings.h"
#include "util/buf.h"
#include "util/files.h"
#include "util/sha256.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The non-deterministic sources, one row each: the setting (its choices, default and what "host"
 * is told are in the settings table, src/settings/settings.c) and its key in run.json's `surface`. */
static const struct source {
    const char *var, *key;
    size_t offset; /* of the choice in surface_settings */
} SOURCES[] = {
    {"CHIDORI_TS_DATE", "date", offsetof(surface_settings, date)},
    {"CHIDORI_TS_RANDOM", "random", offsetof(surface_settings, random)},
    {"CHIDORI_TS_TIMERS", "timers", offsetof(surface_settings, timers)},
    {"CHIDORI_TS_CRYPTO", "crypto", offsetof(surface_settings, crypto)},
    {"CHIDORI_TS_FS", "fs", offsetof(surface_settings, fs)},
};
#define N_SOURCES (sizeof SOURCES / sizeof SOURCES[0])

static const char **choice_slot(surface_settings *s, const struct source *src)
{
    return (const char **)((char *)s + src->offset);
}

static int load_seed(surface_settings *s, const char *path, char **error)
{
    size_t len;
    char *why = NULL;
    char *text = read_file_capped(path, VFS_SEED_MAX_BYTES, &len, &why);
    if (!text) {
        *error = xasprintf("CHIDORI_VFS_SEED: %s", why);
        free(why);
        return -1;
    }
    json_error jerr;
    json_limits lim = {VFS_SEED_MAX_BYTES, 8, 0};
    json_t *doc = json_parse(text, len, &lim, &jerr);
    if (!doc) {
        *error = xasprintf("CHIDORI_VFS_SEED %s is not valid JSON: line %d col %d: %s", path, jerr.line, jerr.col, jerr.message);
        free(text);
        return -1;
    }
    sha256_hex(text, len, s->vfs_seed_sha256);
    free(text);
    s->vfs_seed = doc;
    s->vfs_seed_path = xstrdup(path);
    return 0;
}

int surface_check_seed(const surface_settings *s, char **error)
{
    if (!s->vfs_seed) return 0;
    /* Applied once to a scratch tree, so a bad entry or a seed too large for the cap stops the
     * run before it starts. */
    vfs_limits vl = {s->vfs_max_bytes, VFS_DEFAULT_MAX_NODES};
    vfs *scratch = vfs_new(&vl, 0);
    char *why = NULL;
    int rc = vfs_seed_from_json(scratch, s->vfs_seed, 0, &why);
    vfs_free(scratch);
    if (rc < 0) {
        *error = xasprintf("CHIDORI_VFS_SEED %s: %s", s->vfs_seed_path, why);
        free(why);
        return -1;
    }
    return 0;
}

void surface_apply_to_engine(const surface_settings *s, engine_config *cfg)
{
    cfg->frozen_clock = s->date && !strcmp(s->date, "frozen");
    cfg->fixed_random = s->random && !strcmp(s->random, "fixed");
}

int surface_from_settings(surface_settings *s, const settings *set, char **error)
{
    memset(s, 0, sizeof *s);
    for (size_t i = 0; i < N_SOURCES; i++) *choice_slot(s, &SOURCES[i]) = settings_word(set, SOURCES[i].var);
    s->vfs_max_bytes = settings_u64(set, "CHIDORI_VFS_MAX_BYTES");
    const char *seed = settings_nonempty(set, "CHIDORI_VFS_SEED");
    if (seed && load_seed(s, seed, error) < 0) return -1;
    return 0;
}

json_t *surface_record(const surface_settings *s)
{
    json_t *o = json_object();
    for (size_t i = 0; i < N_SOURCES; i++)
        json_object_set(o, SOURCES[i].key, json_string(*choice_slot((surface_settings *)s, &SOURCES[i])));
    return o;
}

json_t *surface_vfs_record(const surface_settings *s)
{
    json_t *o = json_object();
    json_object_set(o, "max_bytes", json_number((double)s->vfs_max_bytes));
    if (s->vfs_seed) json_object_set(o, "seed_sha256", json_string(s->vfs_seed_sha256));
    return o;
}

int surface_adopt_recorded(surface_settings *s, const char *run_id, const json_t *surface, const json_t *vfs, char **error)
{
    for (size_t i = 0; i < N_SOURCES; i++) {
        const char **slot = choice_slot(s, &SOURCES[i]);
        const json_t *recorded = json_object_get(surface, SOURCES[i].key);
        const char *const *choices = settings_find(SOURCES[i].var)->words;
        *slot = choices[0]; /* runs recorded before the setting existed */
        if (!recorded) continue;
        const char *v = json_string_value(recorded);
        *slot = NULL;
        for (size_t k = 0; v && choices[k]; k++)
            if (!strcmp(v, choices[k])) *slot = choices[k];
        if (!*slot) return *error = xasprintf("run %s records an unknown %s value", run_id, SOURCES[i].var), -1;
    }
    const json_t *max = json_object_get(vfs, "max_bytes");
    if (max) {
        if (max->type != JSON_NUMBER || !(max->u.number >= 1 && max->u.number <= (double)VFS_MAX_MAX_BYTES) ||
            max->u.number != (double)(uint64_t)max->u.number)
            return *error = xasprintf("run %s records a VFS size cap out of range", run_id), -1;
        s->vfs_max_bytes = (uint64_t)max->u.number;
    } else {
        s->vfs_max_bytes = VFS_DEFAULT_MAX_BYTES;
    }
    const char *want = json_string_value(json_object_get(vfs, "seed_sha256"));
    if (want && !s->vfs_seed)
        return *error = xasprintf("run %s started from a VFS seed (SHA-256 %.64s); set CHIDORI_VFS_SEED to that file "
                                  "to replay or resume it", run_id, want), -1;
    if (!want && s->vfs_seed)
        return *error = xasprintf("run %s started with an empty VFS, but CHIDORI_VFS_SEED is set (%s); unset it to "
                                  "replay or resume the run", run_id, s->vfs_seed_path), -1;
    if (want && strcmp(want, s->vfs_seed_sha256) != 0)
        return *error = xasprintf("CHIDORI_VFS_SEED %s (SHA-256 %s) is not the seed run %s started from (SHA-256 %.64s); "
                                  "a replay must start from the same files", s->vfs_seed_path, s->vfs_seed_sha256, run_id, want), -1;
    return surface_check_seed(s, error);
}

void surface_settings_clear(surface_settings *s)
{
    json_free(s->vfs_seed);
    free(s->vfs_seed_path);
    memset(s, 0, sizeof *s);
}
