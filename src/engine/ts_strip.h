/*
 * ts_strip.h — chidori's TypeScript eraser: TypeScript source in, JavaScript out.
 *
 * Owns: turning the TypeScript that agents are written in into JavaScript
 * QuickJS can run, without Node and without a source map.  Type-level syntax
 * is replaced by spaces (newlines kept), so every remaining token keeps the
 * line and column it had in the .ts file and stack traces point at the source.
 * The few constructs that need code (enum, value namespace, constructor
 * parameter properties, `import A = N.B`) are rewritten on the lines they
 * occupy, so line numbers stay aligned for everything after them.
 *
 * Trusts: nothing about the input.  It never reads outside src[0..len), needs
 * no NUL terminator, bounds nesting (TS_STRIP_MAX_DEPTH bracket levels; the
 * worst case at that limit uses about 1 MiB of C stack, 2 MiB under ASan),
 * runs in time roughly linear in the input and reports malformed input as an
 * error with a 1-based line and column (column counted in code points).
 * Not thread-hostile: no global state; separate calls may run concurrently.
 *
 * Import/export rule (matches ts.transpileModule's observable behaviour):
 *   - `import type ...`, `export type ...`, inline `type` specifiers, and
 *     `export { T }` of a local interface/type alias are erased;
 *   - like transpileModule (and esbuild), an import binding that is never used
 *     as a value in the file is elided, and an import left with no bindings is
 *     removed entirely (so `import { type A } from "x"` and `import { I } from
 *     "x"` with I used only as a type load nothing).  "Used" is decided
 *     conservatively from the tokens that survive erasure: any surviving
 *     identifier with the binding's name (not after `.`) keeps it.
 *     `import "x"` (no bindings) is always kept.
 *
 * Not supported (clear error): decorators, `accessor` fields,
 * `import x = require()`, `export =`, JSX/.tsx.
 * Known simplification: an exported `let`/`var` of a value namespace is
 * copied onto the namespace object once, after its declaration (TypeScript
 * rewrites every later reference to `NS.x` so reassignments stay visible).
 */
#ifndef CHIDORI_TS_STRIP_H
#define CHIDORI_TS_STRIP_H

#include <stddef.h>

#define TS_STRIP_MAX_INPUT (16u * 1024u * 1024u)
#define TS_STRIP_MAX_DEPTH 1000

typedef struct ts_error { int line; int col; char message[256]; } ts_error;  /* 1-based line/col */

/* Erase TypeScript from src[0..len). Returns a malloc'd NUL-terminated JS string (*out_len set),
   or NULL with *err filled. Never reads outside src[0..len); src need not be NUL-terminated.
   Inputs larger than TS_STRIP_MAX_INPUT (16 MiB) are rejected with an error. */
char *ts_strip(const char *src, size_t len, size_t *out_len, ts_error *err);

#endif
