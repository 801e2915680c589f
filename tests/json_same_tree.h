/* json_same_tree.h — for tests and fuzz targets only: two parsed JSON trees are the same to the
 * byte (type, line:col marks, number bits, string bytes, member order and keys). Stricter than
 * json_equal, which compares values; the call log's fast reader must give exactly the general
 * parser's tree (tests/unit/test_calllog.c, tests/fuzz/fuzz_calllog.c). */
#ifndef CHIDORI_TESTS_JSON_SAME_TREE_H
#define CHIDORI_TESTS_JSON_SAME_TREE_H

#include <stdbool.h>
#include <string.h>

#include "util/json.h"

static inline bool json_same_tree(const json_t *a, const json_t *b)
{
    if (!a || !b) return a == b;
    if (a->type != b->type || a->line != b->line || a->col != b->col) return false;
    switch (a->type) {
    case JSON_NUMBER: return memcmp(&a->u.number, &b->u.number, sizeof(double)) == 0;
    case JSON_STRING:
        return a->u.string.len == b->u.string.len && !memcmp(a->u.string.bytes, b->u.string.bytes, a->u.string.len);
    case JSON_ARRAY:
        if (a->u.array.len != b->u.array.len) return false;
        for (size_t i = 0; i < a->u.array.len; i++)
            if (!json_same_tree(a->u.array.items[i], b->u.array.items[i])) return false;
        return true;
    case JSON_OBJECT:
        if (a->u.object.len != b->u.object.len) return false;
        for (size_t i = 0; i < a->u.object.len; i++) {
            const json_member *x = &a->u.object.items[i], *y = &b->u.object.items[i];
            if (x->key_len != y->key_len || memcmp(x->key, y->key, x->key_len) || !json_same_tree(x->value, y->value))
                return false;
        }
        return true;
    default: return true;
    }
}

#endif
