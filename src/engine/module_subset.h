/* module_subset.h — a package's re-export-only module served as the part an importer uses
 * (module_subset.c says how and when). Called by modules.c only. */
#ifndef CHIDORI_MODULE_SUBSET_H
#define CHIDORI_MODULE_SUBSET_H

#include "engine/engine_internal.h"
#include "util/buf.h"

#include <stdbool.h>
#include <stddef.h>

void engine_barrels_init(engine *e);
void engine_barrels_free(engine *e);
/* Keeps the host's re-export table of the module `key` (once per key): text (taken over) is len
 * bytes of lines "<export name> <imported name> <specifier>\n". -1 when it is malformed. */
int engine_barrel_keep(engine *e, const char *key, char *text, size_t len);
bool engine_is_barrel(engine *e, const char *key);
/* The barrel a part's key belongs to, or NULL when key is no part. */
const char *engine_barrel_of(engine *e, const char *subset_key);
/* `importer` imports the barrel `key` from inside its package, or while a part's files load: true,
 * and the barrel is marked as
 * in an import cycle (its parts then re-export from the whole barrel, so its files run in the
 * order the whole gives them, Node's); such an import gets the whole barrel. */
bool engine_barrel_inside(engine *e, const char *importer, const char *key);
/* The specifiers of the package files a part re-exports (pointers into the table; *specs is
 * malloc'd), which the loader loads before it makes the part. */
size_t engine_barrel_part_files(engine *e, const char *part_key, const char ***specs);
/* Counts a probe of the part's barrel in (+1) or out (-1): while one runs, every import of the
 * barrel counts as a cycle through it (engine_barrel_inside). */
void engine_barrel_probing(engine *e, const char *part_key, int delta);
/* `import "<spec>";` and a line break, quoted as the parts' sources are. */
void engine_barrel_import_line(buf *b, const char *spec);
/* The name of the module that loads a part's files first (its imports resolve from the barrel's
 * folder, as the part's do); malloc'd; NULL when a file of the project has that name. */
char *engine_barrel_probe_key(engine *e, const char *part_key);
/* While QuickJS resolves a static import of `key`: the key of the part the importing module uses
 * (malloc'd), or NULL when it is served whole (or key is no barrel). */
char *engine_barrel_subset(engine *e, const char *key);
/* The source of a barrel's key (all its re-exports) or of a part's key, malloc'd; NULL when key
 * is neither. */
char *engine_barrel_source(engine *e, const char *key, size_t *len);

#endif
