/* workspace_manifest.h — `<root>/.generation/manifest.json`, the workspace's record of the files
 * chidori.workspace wrote and deleted (docs/effects.md, "The generation manifest"), in the
 * original chidori's format: {version: 1, manifestVersion, activeAttempt, files: {path: {status,
 * sha256, bytes, language, attempt, updatedAt}}, deleted: {path: {attempt, reason}}}.
 *
 * Owned by effects/workspace.c, which calls these with a descriptor of the workspace root. Files
 * are reached beneath that descriptor without following symlinks. Trusts nothing in the manifest
 * file (it is in the agent's workspace): it is size-capped, parsed with limits, and every field it
 * reads is type-checked; a manifest that is not one is an error saying how to fix it.
 */
#ifndef CHIDORI_WORKSPACE_MANIFEST_H
#define CHIDORI_WORKSPACE_MANIFEST_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include "util/json.h"

#define WSM_DIR ".generation"
#define WSM_MAX_BYTES ((size_t)16 << 20)

/* Does the workspace-relative path name the .generation folder or something in it? */
bool wsm_names_generation(const char *rel);

/* The manifest's key of a checked relative path: empty and "." parts dropped (malloc'd). */
char *wsm_key(const char *rel);

/* The language of a path: `given` when it is a non-empty string, else from the extension. */
const char *wsm_language(const char *path, const char *given);

/* Load the manifest; with create, making .generation/tmp and an empty manifest file when there is
 * none (writes and deletes); without, an absent manifest reads as an empty one and nothing is
 * written (list and manifest stay read-only, as the `untrusted` profile promises). A new one's
 * activeAttempt is attempt (CHIDORI_WORKSPACE_ATTEMPT; below 0: none, and 0). NULL with *error on
 * failure. */
json_t *wsm_load(int root, bool create, int64_t attempt, char **error);

/* Write it back atomically (a file in .generation/tmp renamed over manifest.json). 0 or -1. */
int wsm_save(int root, const json_t *manifest, char **error);

/* A descriptor of .generation/tmp (for writes that are renamed into place), or -1 with *error. */
int wsm_tmp_dir(int root, char **error);

/* Record a written file; returns the agent's result {path, status, sha256, bytes, language,
 * attempt, updatedAt}. attempt (below 0: none, written null) is the entry's, and with one the
 * manifest's activeAttempt becomes it (the original's rule). */
json_t *wsm_note_write(json_t *manifest, const char *key, const char *sha256, size_t bytes, const char *language,
                       int64_t attempt);

/* Record a deleted file (reason: a string or NULL; attempt as above, activeAttempt untouched). */
void wsm_note_delete(json_t *manifest, const char *key, const json_t *reason, int64_t attempt);

/* The listing: the union of the manifest's files and the disk files (from the workspace walk, an
 * array of {path, bytes}), each as {path, status, sha256, bytes, language, attempt, updatedAt},
 * sorted by path. complete_only drops what is not `complete`. */
json_t *wsm_listing(const json_t *manifest, const json_t *disk, bool complete_only);

#endif
