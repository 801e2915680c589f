/* prices.c — see prices.h. */
#define _GNU_SOURCE
#include "cli/prices.h"
#include "settings/settings.h"
#include "util/buf.h"
#include "util/files.h"
#include "util/json.h"

#include <stdlib.h>
#include <string.h>

#define PRICES_MAX_BYTES ((size_t)1 << 20)
#define PRICE_MAX 1e6 /* per million tokens */

static bool price_ok(const json_t *v) { return v && v->type == JSON_NUMBER && v->u.number >= 0 && v->u.number <= PRICE_MAX; }

/* The file CHIDORI_PRICES names, checked: 0, or -1 with *error (a setting that cannot be used). */
int prices_load(const settings *set, price_table *t, char **error)
{
    memset(t, 0, sizeof *t);
    const char *path = settings_nonempty(set, "CHIDORI_PRICES");
    if (!path) return 0;
    t->given = true;
    size_t len;
    char *why = NULL;
    char *text = read_regular_file_capped(path, PRICES_MAX_BYTES, &len, &why);
    if (!text) {
        *error = xasprintf("CHIDORI_PRICES: %s", why);
        free(why);
        return -1;
    }
    json_error jerr;
    json_limits lim = {PRICES_MAX_BYTES, 8, 0};
    json_t *o = json_parse(text, len, &lim, &jerr);
    free(text);
    if (!o || !json_is_object(o)) {
        *error = o ? xasprintf("CHIDORI_PRICES %s: must be a JSON object of model → {\"input\": N, \"output\": N}", path)
                   : xasprintf("CHIDORI_PRICES %s: not valid JSON: %d:%d: %s", path, jerr.line, jerr.col, jerr.message);
        json_free(o);
        return -1;
    }
    t->items = xcalloc(o->u.object.len ? o->u.object.len : 1, sizeof *t->items);
    for (size_t i = 0; i < o->u.object.len; i++) {
        const json_member *m = &o->u.object.items[i];
        const json_t *in = json_object_get(m->value, "input"), *out = json_object_get(m->value, "output");
        if (!json_is_object(m->value) || !price_ok(in) || !price_ok(out)) {
            *error = xasprintf("CHIDORI_PRICES %s: the price of `%.100s` must be {\"input\": N, \"output\": N}, "
                               "dollars per million tokens (0 to 1000000)", path, m->key);
            json_free(o);
            return -1;
        }
        t->items[t->len++] = (price){xstrdup(m->key), in->u.number, out->u.number};
    }
    json_free(o);
    return 0;
}

void prices_clear(price_table *t)
{
    for (size_t i = 0; i < t->len; i++) free(t->items[i].model);
    free(t->items);
}

const price *price_of(const price_table *t, const char *model)
{
    for (size_t i = 0; model && i < t->len; i++)
        if (!strcmp(t->items[i].model, model)) return &t->items[i];
    return NULL;
}
