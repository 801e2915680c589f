/* excerpt.h — the source line of an error with a caret under its column, as compilers print it:
 *
 *     7 |   const x = ;
 *       |             ^
 */
#ifndef CHIDORI_EXCERPT_H
#define CHIDORI_EXCERPT_H

#include <stddef.h>

/* line and col are 1-based; returns NULL when the line does not exist. Long lines are cut
 * around the column. Caller frees. */
char *source_excerpt(const char *src, size_t len, int line, int col);

#endif
