/* input_items.h — the `-i/--input` items of `chidori run`, merged into one JSON object. */
#ifndef CHIDORI_CLI_INPUT_H
#define CHIDORI_CLI_INPUT_H

#include "util/json.h"

#define INPUT_FILE_MAX_BYTES ((size_t)16 << 20)

/* Merge one item into *input (an object). Items: a JSON object `{...}`; `@file.json` (a JSON
 * object read from a file); `key=value` (a string); `key=@path` (the file's text as a string).
 * Later keys replace earlier ones. Returns 0, or -1 with *error set. */
int input_merge_item(json_t *input, const char *item, char **error);

#endif
