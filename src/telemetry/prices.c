/* prices.c — see prices.h. */
#define _GNU_SOURCE
#include "telemetry/prices.h"
#include "settings/settings.h"
#include "util/buf.h"
#include "util/files.h"
#include "util/json.h"

#include <stdlib.h>
#include <string.h>

#define PRICES_MAX_BYTES ((size_t)1 << 20)
#define PRICE_MAX 1e6 /* per million tokens */
#define MULTIPLIER_MAX 100.0
/* The original's defaults for a row that names no multiplier (the OpenAI-compatible convention). */
#define CACHE_READ_DEFAULT 0.5
#define CACHE_WRITE_DEFAULT 1.0

static bool number_in(const json_t *v, double max) { return v && v->type == JSON_NUMBER && v->u.number >= 0 && v->u.number <= max; }

/* One row: {"input","output"} (ours) or {"input_per_mtok","output_per_mtok"} (the original's), with
 * optional multipliers. false when it is neither. */
static bool row_read(const json_t *o, price *p)
{
    if (!json_is_object(o)) return false;
    const json_t *in = json_object_get(o, "input_per_mtok"), *out = json_object_get(o, "output_per_mtok");
    if (!in && !out) in = json_object_get(o, "input"), out = json_object_get(o, "output");
    if (!number_in(in, PRICE_MAX) || !number_in(out, PRICE_MAX)) return false;
    p->input = in->u.number;
    p->output = out->u.number;
    const json_t *r = json_object_get(o, "cache_read_multiplier"), *w = json_object_get(o, "cache_write_multiplier");
    if ((r && !number_in(r, MULTIPLIER_MAX)) || (w && !number_in(w, MULTIPLIER_MAX))) return false;
    p->cache_read = r ? r->u.number : CACHE_READ_DEFAULT;
    p->cache_write = w ? w->u.number : CACHE_WRITE_DEFAULT;
    return true;
}

/* Adds the rows of one setting's JSON text: 0, or -1 with *error naming it (`where`). */
static int rows_add(price_table *t, const char *text, size_t len, const char *where, bool prefix, char **error)
{
    json_error jerr;
    json_limits lim = {PRICES_MAX_BYTES, 8, 0};
    json_t *o = len > PRICES_MAX_BYTES ? NULL : json_parse(text, len, &lim, &jerr);
    const char *shape = prefix ? "model prefix → {\"input_per_mtok\": N, \"output_per_mtok\": N}"
                               : "model → {\"input\": N, \"output\": N}";
    if (!o || !json_is_object(o)) {
        *error = len > PRICES_MAX_BYTES ? xasprintf("%s: larger than %zu bytes", where, PRICES_MAX_BYTES)
                 : o ? xasprintf("%s: must be a JSON object of %s", where, shape)
                     : xasprintf("%s: not valid JSON: %d:%d: %s", where, jerr.line, jerr.col, jerr.message);
        json_free(o);
        return -1;
    }
    t->items = xrealloc(t->items, (t->len + o->u.object.len + 1) * sizeof *t->items);
    for (size_t i = 0; i < o->u.object.len; i++) {
        const json_member *m = &o->u.object.items[i];
        price p = {0};
        if (!row_read(m->value, &p)) {
            *error = xasprintf("%s: the price of `%.100s` must be {\"%s\": N, \"%s\": N}, dollars per million tokens "
                               "(0 to 1000000), with optional cache_read_multiplier and cache_write_multiplier (0 to 100)",
                               where, m->key, prefix ? "input_per_mtok" : "input", prefix ? "output_per_mtok" : "output");
            json_free(o);
            return -1;
        }
        p.model = xstrdup(m->key);
        p.prefix = prefix;
        t->items[t->len++] = p;
    }
    json_free(o);
    return 0;
}

/* Prefixes longest first (ties by name, so the order is the same on every run). */
static int lookup_order(const void *a, const void *b)
{
    const price *x = a, *y = b;
    size_t lx = strlen(x->model), ly = strlen(y->model);
    return lx < ly ? 1 : lx > ly ? -1 : strcmp(x->model, y->model);
}

int prices_load(const settings *set, price_table *t, char **error)
{
    memset(t, 0, sizeof *t);
    const char *path = settings_nonempty(set, "CHIDORI_PRICES");
    const char *inline_text = settings_nonempty(set, "CHIDORI_PRICING");
    if (!path && !inline_text) return 0;
    t->given = true;
    if (path) {
        size_t len;
        char *why = NULL;
        char *text = read_regular_file_capped(path, PRICES_MAX_BYTES, &len, &why);
        if (!text) {
            *error = xasprintf("CHIDORI_PRICES: %s", why);
            free(why);
            return -1;
        }
        char *where = xasprintf("CHIDORI_PRICES %s", path);
        int rc = rows_add(t, text, len, where, false, error);
        free(where);
        free(text);
        if (rc < 0) return -1;
    }
    if (inline_text && rows_add(t, inline_text, strlen(inline_text), "CHIDORI_PRICING", true, error) < 0) return -1;
    /* exact entries were added first and keep their order; the prefixes sort longest first */
    size_t exact = 0;
    while (exact < t->len && !t->items[exact].prefix) exact++;
    qsort(t->items + exact, t->len - exact, sizeof *t->items, lookup_order);
    return 0;
}

void prices_clear(price_table *t)
{
    for (size_t i = 0; i < t->len; i++) free(t->items[i].model);
    free(t->items);
    memset(t, 0, sizeof *t);
}

const price *price_of(const price_table *t, const char *model)
{
    for (size_t i = 0; model && i < t->len; i++) {
        const price *p = &t->items[i];
        if (p->prefix ? !strncmp(model, p->model, strlen(p->model)) : !strcmp(model, p->model)) return p;
    }
    return NULL;
}

double price_cost(const price *p, uint64_t input, uint64_t output, uint64_t cache_creation, uint64_t cache_read)
{
    return ((double)input * p->input + (double)output * p->output + (double)cache_creation * p->input * p->cache_write +
            (double)cache_read * p->input * p->cache_read) / 1e6;
}

json_t *prices_json(const price_table *t)
{
    json_t *a = json_array();
    for (size_t i = 0; i < t->len; i++) {
        const price *p = &t->items[i];
        json_t *o = json_object();
        json_object_set(o, "model", json_string(p->model));
        json_object_set(o, "match", json_string(p->prefix ? "prefix" : "exact"));
        json_object_set(o, "input_per_mtok", json_number(p->input));
        json_object_set(o, "output_per_mtok", json_number(p->output));
        json_object_set(o, "cache_read_multiplier", json_number(p->cache_read));
        json_object_set(o, "cache_write_multiplier", json_number(p->cache_write));
        json_array_push(a, o);
    }
    return a;
}
