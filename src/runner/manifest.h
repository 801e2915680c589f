/* manifest.h — a run's snapshot manifest: what the run was recorded against (the agent's source,
 * the captured surface, the runtime's ABI), for clients (GET /sessions/{id}/snapshot, the
 * checkpoint) and for the check a resume makes before it replays the recorded calls.
 *
 * The key names follow the original chidori's manifest (docs/http-api.md lists each and what it
 * holds here); the values describe this runtime. A resume compares the manifest recorded when the
 * run (or its last accepted resume) started with one built now from the files on disk (the entry
 * and the modules the run was served, manifest_set_served, hashed again): a changed
 * ABI or surface always refuses; a changed source refuses unless the caller allows it
 * (allow_source_change, `chidori resume --allow-source-change`). The refusal happens before
 * anything of the run is touched. Trusts a recorded manifest no further than its shape (it is
 * parsed JSON from a file or the database; a missing key reads as "changed").
 */
#ifndef CHIDORI_MANIFEST_H
#define CHIDORI_MANIFEST_H

#include <stdbool.h>
#include <stdint.h>
#include "runner/runner.h"
#include "runner/surface.h"
#include "util/json.h"

struct settings;

#define MANIFEST_SOURCE_MAX_BYTES ((uint64_t)64 << 20) /* an entry file larger than this is not hashed */
/* A stored manifest larger than this is not read (with the loader's caps, effects/module_record.h,
 * a manifest of the most files and imports it lists stays under a few MiB) */
#define MANIFEST_MAX_BYTES ((size_t)16 << 20)
/* A recorded manifest listing more modules than this is not re-hashed: it reads as changed (the
 * loader lists at most MODULE_RECORD_MAX_FILES) */
#define MANIFEST_MODULES_MAX 4096

typedef struct manifest_inputs {
    const char *run_id;
    const char *project_root;           /* the agent's folder (a real path) */
    const char *entry;                  /* the agent's key inside it */
    const surface_settings *surface;    /* NULL: the defaults */
    const struct settings *settings;    /* CHIDORI_MODEL, CHIDORI_PRICING; NULL: neither */
    uint64_t seed;
    int64_t created_at_ms;
    /* The resume check: the recorded manifest. Its `modules` are hashed again as the files are now
     * (a file gone reads "missing") and its `module_graph` kept, so manifest_compare sees an edited
     * or removed module. NULL (a new run): no modules yet, manifest_set_served fills them. */
    const json_t *recheck;
} manifest_inputs;

/* The manifest of a run as the files are now. NULL with *error when the entry file cannot be read. */
json_t *manifest_build(const manifest_inputs *in, char **error);

/* Put what the run was served (host_modules_served: {entry, modules, module_graph,
 * modules_past_cap?}, the two lists as arrays or as text already serialized, json_raw) into m: its `modules` (the entry left out), `module_graph` (the entry first)
 * and, when the loader's caps were reached, `modules_past_cap`. The values are moved out of served
 * (left null there), not copied. Nothing when served is NULL or names no entry (the run ended
 * before its entry loaded), or another entry than m's. */
void manifest_set_served(json_t *m, json_t *served);

/* The copy a client sees: m with call_log_len and pending filled from the run's present state
 * (pending: the call a paused run waits on, {seq, function, args, ...}, or NULL). */
json_t *manifest_view(const json_t *m, uint64_t call_log_len, const json_t *pending, bool awaiting_approval);

/* What many runs share (a server's sessions of one agent): m without run_id, created_at,
 * call_log_len, pending and the policy's deterministic_seed. manifest_from_shared puts them back
 * (pending null, call_log_len 0: manifest_view fills them). Both compare as m does (manifest_compare
 * of two shared parts is that of the full manifests, but for the seed, which a resume keeps). */
json_t *manifest_shared_part(const json_t *m);
json_t *manifest_from_shared(const json_t *shared, const char *run_id, uint64_t seed, int64_t created_at_ms);

typedef enum manifest_verdict {
    MANIFEST_SAME,           /* resume as recorded */
    MANIFEST_SOURCE_CHANGED, /* the agent's source differs; allowed only on request */
    MANIFEST_INCOMPATIBLE,   /* the ABI or the captured surface differs: never */
} manifest_verdict;

/* Compare the recorded manifest with the present one. Not SAME: *why says what changed (for a
 * 409, or the CLI), with what to do. allow turns SOURCE_CHANGED into SAME (*why is still set,
 * for a warning). */
manifest_verdict manifest_compare(const json_t *recorded, const json_t *now, bool allow, char **why);

/* Did a resumed run fail because its replay diverged from the log at a seq no later than frontier
 * (the call the paused run waited on), with no recorded call past the log? Such a run performed
 * nothing live, so it can be put back as it was. Read from what the seam set (runner_outcome's
 * diverged_at and live_calls), never from the error's text, which the agent can write. */
bool manifest_refused_before(const runner_outcome *out, uint64_t frontier);

/* The entry's hash as manifest_build records it (`entry.hash`): 0, or -1 with *error when the file
 * cannot be read. */
int manifest_entry_hash(const char *project_root, const char *entry, char out[25], char **error);

/* FNV-1a 64 of bytes, as "fnv1a64:%016x" (buf of 25 bytes at least). */
void manifest_fnv1a64(const void *bytes, size_t n, char out[25]);

#endif
