/* surface.c — see surface.h. Trusts the environment only as far as checking it; the seed file is
 * read with a cap and parsed with limits like any other input. */
#define _GNU_SOURCE
#include "runner/surface.h"
#include "host/vfs.h"
#include "util/buf.h"
#include "util/files.h"
#include "util/sha256.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char *const FS_CHOICES[] = {"vfs", "none", NULL};

/* What to say when someone asks for a source's "host" mode. */
static const struct {
    const char *var, *what, *instead;
} HOST_HINTS[] = {
    {"CHIDORI_TS_FS", "a host filesystem mode", "chidori.workspace is the audited way to real files"},
};

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
        for (size_t i = 0; i < sizeof HOST_HINTS / sizeof HOST_HINTS[0]; i++)
            if (!strcmp(var, HOST_HINTS[i].var)) {
                *error = xasprintf("%s=host: %s does not exist; %s", var, HOST_HINTS[i].what, HOST_HINTS[i].instead);
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

int surface_from_env(surface_settings *s, char **error)
{
    memset(s, 0, sizeof *s);
    s->vfs_max_bytes = VFS_DEFAULT_MAX_BYTES;
    if (surface_choice("CHIDORI_TS_FS", FS_CHOICES, "vfs", &s->fs, error) < 0) return -1;
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
    json_object_set(o, "fs", json_string(s->fs));
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
    const json_t *fs = json_object_get(surface, "fs");
    if (fs) {
        const char *v = json_string_value(fs);
        s->fs = NULL;
        for (size_t i = 0; v && FS_CHOICES[i]; i++)
            if (!strcmp(v, FS_CHOICES[i])) s->fs = FS_CHOICES[i];
        if (!s->fs) return *error = xasprintf("run %s records an unknown CHIDORI_TS_FS value", run_id), -1;
    } else {
        s->fs = "vfs"; /* runs recorded before the setting existed */
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
