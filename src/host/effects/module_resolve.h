/* effects/module_resolve.h — where a specifier leads inside the project folder: relative files with
 * extension probing, and npm packages from node_modules (bare and scoped names, self-reference,
 * `exports` maps with conditions and `*` patterns, `module`/`main`/`index`).
 *
 * Trusts nothing in the specifier, the importer or any package.json: every file is opened with
 * open_beneath, so nothing outside the project folder (no `..` above it, no symlink leading out)
 * is ever opened. Used by effects/module_load.c only.
 */
#ifndef CHIDORI_MODULE_RESOLVE_H
#define CHIDORI_MODULE_RESOLVE_H

#include "host/host_internal.h"
#include "util/strmap.h"

#include <stdbool.h>

#define MODULE_MAX_PATH 1024
#define PACKAGE_JSON_MAX_BYTES ((size_t)1 << 20)

/* package.json files read during one run, by folder (parsed once: a package of hundreds of files
 * has one large package.json). At most MODULE_CACHE_MAX folders; emptied when full. A folder's
 * entry points at the file's record, one per file (device and inode), so folders reached through
 * symlink aliases share it; a record keeps only the fields resolution reads (name, type, main,
 * module, exports), and at most MODULE_CACHE_MAX_BYTES of them: past that, a file is parsed for
 * the one request and freed after it. */
#define MODULE_CACHE_MAX 4096
#define MODULE_CACHE_MAX_BYTES ((size_t)8 << 20)
/* A package.json is parsed with at most this many values and this depth (a real one has
 * hundreds; the parse tree costs ~50 bytes a value). */
#define PACKAGE_JSON_MAX_VALUES 50000
#define PACKAGE_JSON_MAX_DEPTH 64
typedef struct {
    strmap dirs;       /* folder → package_entry */
    strmap files;      /* "dev:ino" → package_file (owned) */
    size_t kept_bytes; /* what the files' records hold (their JSON text's size) */
    struct package_file *scratch; /* parsed past the budget: freed at the next request */
} module_cache;
void module_cache_init(module_cache *mc);
void module_cache_free(module_cache *mc);

typedef struct {
    char *key;         /* project-relative path of the file found */
    int fd;            /* open, a regular file */
    bool esm_hint;     /* reached through the `module` field: ES module whatever its extension */
} module_found;

/* Resolves `spec` imported by the module `importer` (a key; NULL for the command line's entry),
 * for an `import` (require=false) or a `require()` (require=true), with bare names allowed or not.
 * 0 with *out filled, or -1 with *error (malloc'd, a sentence saying what to do). */
int module_resolve(host *h, module_cache *mc, const char *spec, const char *importer, bool require, bool allow_bare, module_found *out,
                   char **error);

/* The `type` field of the package.json nearest to `key` (walking up to the project folder):
 * "module", "commonjs", or NULL when none says. Caller frees. */
char *module_package_type(host *h, module_cache *mc, const char *key);

/* Whether that package.json says `"sideEffects": false` (a list of files, or anything else, is
 * "no"): its modules may be left out when nothing of theirs is used (module_barrel.h). */
bool module_package_side_effect_free(host *h, module_cache *mc, const char *key);

/* Lexically joins dir + rel and normalizes; NULL when it climbs above the project folder. */
char *module_join(const char *dir, const char *rel);

/* module_load.c: the in-process engine hands back the bytecode of a package file it was offered to
 * cache ({key, bytecode: base64}); reached only from host.c's in-process seam. Always 0. */
int module_cache_put_local(host *h, const json_t *args, json_t **result, char **error);

#endif
