/* tool_decl.h — reads the declaration of a legacy tool file (`<agent dir>/tools/NAME.ts`) without
 * running it: `export const tool = {name, description, parameters}` and an exported `run`.
 *
 * The declaration is read as data: an object literal of strings (any quotes, `+` joins), numbers,
 * true/false/null, arrays and objects with identifier or string keys, comments and trailing commas
 * allowed. Anything else (a computed value, a spread, a template with ${}) makes the file broken,
 * with the reason. Trusts nothing in the text: its length is capped (TOOL_DECL_MAX_BYTES) and so is
 * the nesting of the literal.
 */
#ifndef CHIDORI_TOOL_DECL_H
#define CHIDORI_TOOL_DECL_H

#include "util/json.h"

#include <stddef.h>

#define TOOL_DECL_MAX_BYTES ((size_t)256 << 10) /* a tool file larger than this is not read */
#define TOOL_DECL_MAX_DEPTH 32
#define TOOL_NAME_MAX 64

/* 0: the text declares no tool (the file is skipped). 1: *decl is {name, description, parameters}.
 * -1: it declares one that cannot be used; *why says why. */
int tool_decl_parse(const char *text, size_t len, json_t **decl, char **why);

#endif
