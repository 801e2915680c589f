/* effects/module_barrel.h — recognizes a "barrel": an ES module whose whole text is re-exports
 * (`export { a, b as c, default as d } from "./x.js";`, `export * as ns from "./y.js";`, with
 * comments and blank space between). A package that declares `"sideEffects": false` lets the
 * loader serve such a module as the part an importer uses (module_load.c; docs/captured-surface.md, "Packages that declare no side effects").
 *
 * Trusts nothing in the source: a strict recognizer of that one form, with caps. Anything else
 * (code, `export *` without a name, `export {} from`, string names, escapes in a specifier, a
 * duplicate export name, more than BARREL_MAX_ENTRIES entries, more than BARREL_MAX_BYTES of text, a
 * table more than twice the text) is "not a barrel", and the file is loaded as it is.
 */
#ifndef CHIDORI_MODULE_BARREL_H
#define CHIDORI_MODULE_BARREL_H

#include "util/buf.h"

#include <stddef.h>

#define BARREL_MAX_BYTES ((size_t)1 << 20)
#define BARREL_MAX_ENTRIES 4096
#define BARREL_MAX_NAME 128
#define BARREL_MAX_SPECIFIER 1024

/* 0 when src is a barrel with at least one entry, its re-exports appended to *table one per line,
 * "<export name> <imported name> <specifier>\n" (the imported name is "*" for `export * as`; a
 * name has no blank and a specifier no line break), *n of them; -1 when it is not one (then
 * *table is as it was). */
int barrel_scan(const char *src, size_t len, buf *table, size_t *n);

#endif
