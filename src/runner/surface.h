/* surface.h — the captured surface's settings for a run: which implementation each CHIDORI_TS_*
 * source uses, and the VFS's cap and seed (docs/vfs.md).
 *
 * A run takes them from the settings once, at its start, and records them in run.json; a
 * replay or resume takes them from run.json instead (the environment's values are still checked,
 * so a bad one is an error in every mode), and refuses to start when the VFS seed it is given is
 * not the one the run started from.
 */
#ifndef CHIDORI_SURFACE_H
#define CHIDORI_SURFACE_H

#include <stdint.h>
#include "engine/engine.h"
#include "util/json.h"

#define VFS_SEED_MAX_BYTES ((size_t)16 << 20)

typedef struct surface_settings {
    const char *date;            /* CHIDORI_TS_DATE: "virtual" (default) or "frozen" */
    const char *random;          /* CHIDORI_TS_RANDOM: "seeded" (default) or "fixed" */
    const char *timers;          /* CHIDORI_TS_TIMERS: "virtual" */
    const char *crypto;          /* CHIDORI_TS_CRYPTO: "captured" */
    const char *fs;              /* CHIDORI_TS_FS: "vfs" (default) or "none" */
    uint64_t vfs_max_bytes;      /* CHIDORI_VFS_MAX_BYTES */
    json_t *vfs_seed;            /* CHIDORI_VFS_SEED's document, or NULL */
    char *vfs_seed_path;         /* as given */
    char vfs_seed_sha256[65];    /* of the file's bytes; "" without a seed */
} surface_settings;

/* Every CHIDORI_TS_* source and CHIDORI_VFS_MAX_BYTES from set (checked when it was built; a word
 * points into the settings table), and CHIDORI_VFS_SEED's file, read now with a size cap and
 * parsed. 0 or -1 with *error. */
struct settings;
int surface_from_settings(surface_settings *s, const struct settings *set, char **error);
/* Apply the seed to a scratch VFS under s's cap, so any fault in it is reported before the run. */
int surface_check_seed(const surface_settings *s, char **error);

/* What run.json records: {"date": ..., "random": ..., "timers": ..., "crypto": ..., "fs": ...} and {"max_bytes": N, "seed_sha256": "..."}. */
json_t *surface_record(const surface_settings *s);
json_t *surface_vfs_record(const surface_settings *s);

/* For replay / resume: adopt the recorded values (run.json's `surface` and `vfs`, either may be
 * NULL for a run recorded before they existed), check the seed from the environment is the
 * recorded one, and check it as surface_check_seed does. 0, or -1 with *error. */
int surface_adopt_recorded(surface_settings *s, const char *run_id, const json_t *surface, const json_t *vfs, char **error);

/* Set the engine's side of the choices (frozen clock, fixed Math.random seed). */
void surface_apply_to_engine(const surface_settings *s, engine_config *cfg);

void surface_settings_clear(surface_settings *s);

#endif
