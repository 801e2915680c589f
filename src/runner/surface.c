/* surface.c — see surface.h. Trusts the environment only as far as checking it; the seed file is
 * read with a cap and parsed with limits like any other input. */
#define _GNU_SOURCE
#include "runner/surface.h"
#include "host/vfs.h"
#include "util/buf.h"
#include "util/files.h"
#include "util/sha256.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The non-deterministic sources, one row each: the variable, its choices (the first is the
 * default), its key in run.json's `surface`, and what to say to someone who asks for "host". */
static const char *const DATE_CHOICES[] = {"virtual", "frozen", NULL};
static const char *const RANDOM_CHOICES[] = {"seeded", "fixed", NULL};
static const char *const TIMERS_CHOICES[] = {"virtual", NULL};
static const char *const CRYPTO_CHOICES[] = {"captured", NULL};
static const char *const FS_CHOICES[] = {"vfs", "none", NULL};

static const struct source {
    const char *var, *key;
    const char *const *choices;
    size_t offset; /* of the choice in surface_settings */
    const char *host_what, *host_instead;
} SOURCES[] = {
    {"CHIDORI_TS_DATE", "date", DATE_CHOICES, offsetof(surface_settings, date), "a host clock",
     "Date reads a virtual clock that starts at the run's recorded start, so replays see the same times"},
    {"CHIDORI_TS_RANDOM", "random", RANDOM_CHOICES, offsetof(surface_settings, random), "host randomness for Math.random",
     "Math.random is seeded from the run's recorded seed; node:crypto's randomBytes is captured in the call log"},
    {"CHIDORI_TS_TIMERS", "timers", TIMERS_CHOICES, offsetof(surface_settings, timers), "a host timer mode",
     "timers run on virtual time, so a run never sleeps and replays fire them in the same order"},
    {"CHIDORI_TS_CRYPTO", "crypto", CRYPTO_CHOICES, offsetof(surface_settings, crypto), "an uncaptured crypto mode",
     "random bytes are drawn by the host and recorded, so replays get the same bytes"},
    {"CHIDORI_TS_FS", "fs", FS_CHOICES, offsetof(surface_settings, fs), "a host filesystem mode",
     "chidori.workspace is the audited way to real files"},
};
#define N_SOURCES (sizeof SOURCES / sizeof SOURCES[0])

static const char **choice_slot(surface_settings *s, const struct source *src)
{
    return (const char **)((char *)s + src->offset);
}

int surface_choice(const char *var, const char *const *allowed, const char *def, const char **out, char **error)
{
    const char *value = getenv(var);
    *out = def;
    if (!value || !*value) return 0;
    for (size_t i = 0; allowed[i]; i++)
        if (!strcmp(value, allowed[i])) {
            *out = allowed[i];
            return 0;
        }
    if (!strcmp(value, "host")) {
        for (size_t i = 0; i < N_SOURCES; i++)
            if (!strcmp(var, SOURCES[i].var)) {
                *error = xasprintf("%s=host: %s does not exist; %s", var, SOURCES[i].host_what, SOURCES[i].host_instead);
                return -1;
            }
        *error = xasprintf("%s=host: a host mode does not exist; the source is captured so that runs replay", var);
        return -1;
    }
    buf b = {0};
    for (size_t i = 0; allowed[i]; i++) buf_printf(&b, "%s`%s`", i ? ", " : "", allowed[i]);
    *error = xasprintf("%s must be one of %s, got `%.100s`", var, b.data ? b.data : "", value);
    buf_free(&b);
    return -1;
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

int surface_from_env(surface_settings *s, char **error)
{
    memset(s, 0, sizeof *s);
    s->vfs_max_bytes = VFS_DEFAULT_MAX_BYTES;
    for (size_t i = 0; i < N_SOURCES; i++)
        if (surface_choice(SOURCES[i].var, SOURCES[i].choices, SOURCES[i].choices[0], choice_slot(s, &SOURCES[i]), error) < 0)
            return -1;
    const char *max = getenv("CHIDORI_VFS_MAX_BYTES");
    if (max && *max) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(max, &end, 10);
        if (*end || errno || *max == '-' || v == 0 || v > VFS_MAX_MAX_BYTES) {
            *error = xasprintf("CHIDORI_VFS_MAX_BYTES must be a number of bytes from 1 to %llu, got `%.100s`",
                               (unsigned long long)VFS_MAX_MAX_BYTES, max);
            return -1;
        }
        s->vfs_max_bytes = v;
    }
    const char *seed = getenv("CHIDORI_VFS_SEED");
    if (seed && *seed && load_seed(s, seed, error) < 0) return -1;
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
        *slot = SOURCES[i].choices[0]; /* runs recorded before the setting existed */
        if (!recorded) continue;
        const char *v = json_string_value(recorded);
        *slot = NULL;
        for (size_t k = 0; v && SOURCES[i].choices[k]; k++)
            if (!strcmp(v, SOURCES[i].choices[k])) *slot = SOURCES[i].choices[k];
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
