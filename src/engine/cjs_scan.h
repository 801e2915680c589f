/* cjs_scan.h — the names a CommonJS source exports, found by reading it, not running it (so an ES
 * module can `import { x }` from it before it runs, as Node does with its own lexer).
 *
 * A parser of untrusted bytes (any file of any package): bounded by CJS_SCAN_MAX_BYTES of input,
 * CJS_SCAN_MAX_NAMES names of at most CJS_SCAN_MAX_NAME bytes; never fails, only finds fewer.
 */
#ifndef CHIDORI_CJS_SCAN_H
#define CHIDORI_CJS_SCAN_H

#include <stddef.h>
#include <stdbool.h>

#define CJS_SCAN_MAX_BYTES ((size_t)16 << 20)
#define CJS_SCAN_MAX_NAMES 2048
#define CJS_SCAN_MAX_NAME 256

typedef struct {
    char **names; /* identifiers, each once, in the order first seen; never "default" */
    size_t len;
    unsigned *seen; /* during the scan only: a hash set of indexes into names (NULL after) */
} cjs_names;

/* Name comparisons made by the scans so far (a test hook: the work stays linear in the input). */
extern unsigned long cjs_scan_compares;

/* Finds `exports.x =`, `module.exports.x =`, `exports["x"] =`, Object.defineProperty(exports, "x",
 * and the keys of `module.exports = { a, b: …, "c": … }`. */
void cjs_scan(const char *src, size_t len, cjs_names *out);
void cjs_names_free(cjs_names *n);

/* Import attributes (`with { type: "json" }` / `assert {…}` after an import's module string) blanked
 * with spaces in place, keeping every line and column (QuickJS's parser predates them; chidori
 * knows a module's kind from its file). A clause naming another type (`type: "text"`) is kept,
 * for the engine to refuse (modules.c). Whether it blanked any. */
bool strip_import_attributes(char *src, size_t len);

#endif
