/* input_items.c — parsing and merging of `-i` items (see input_items.h). Trusts nothing in the items or
 * the files they name: sizes are capped and JSON is parsed with the default limits. */
#include "cli/input_items.h"
#include "util/buf.h"
#include "util/files.h"

#include <stdlib.h>
#include <string.h>

#define INPUT_SHOWN_MAX 60 /* bytes of an -i item quoted in its error */

static int merge_object_text(json_t *input, const char *text, size_t len, const char *what, char **error)
{
    json_error jerr;
    json_t *v = json_parse(text, len, NULL, &jerr);
    if (!v) {
        *error = xasprintf("input %s is not valid JSON: %d:%d: %s", what, jerr.line, jerr.col, jerr.message);
        return -1;
    }
    if (!json_is_object(v)) {
        json_free(v);
        *error = xasprintf("input %s must be a JSON object", what);
        return -1;
    }
    for (size_t i = 0; i < v->u.object.len; i++) {
        json_member *m = &v->u.object.items[i];
        json_object_set(input, m->key, m->value); /* takes the value */
        m->value = NULL;
    }
    json_free(v);
    return 0;
}

int input_merge_item(json_t *input, const char *item, char **error)
{
    size_t len;
    if (item[0] == '{' || item[0] == '[') { /* the error names the item (its start, when long) */
        size_t n = strlen(item);
        char *what = n > INPUT_SHOWN_MAX ? xasprintf("`%.*s…`", INPUT_SHOWN_MAX, item) : xasprintf("`%s`", item);
        int rc = merge_object_text(input, item, n, what, error);
        free(what);
        return rc;
    }
    if (item[0] == '@') {
        char *text = read_file_capped(item + 1, INPUT_FILE_MAX_BYTES, &len, error);
        if (!text) return -1;
        char *what = xasprintf("file %s", item + 1);
        int rc = merge_object_text(input, text, len, what, error);
        free(what);
        free(text);
        return rc;
    }
    const char *eq = strchr(item, '=');
    if (!eq || eq == item) {
        *error = xasprintf("cannot read input `%s`: use key=value, key=@file, @file.json or a JSON object", item);
        return -1;
    }
    char *key = xstrndup(item, (size_t)(eq - item));
    const char *value = eq + 1;
    if (value[0] == '@') {
        char *text = read_file_capped(value + 1, INPUT_FILE_MAX_BYTES, &len, error);
        if (!text) {
            free(key);
            return -1;
        }
        json_object_set(input, key, json_stringn(text, len));
        free(text);
    } else {
        json_object_set(input, key, json_string(value));
    }
    free(key);
    return 0;
}
