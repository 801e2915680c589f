/* module_subset.c — serving a package's re-export-only module ("barrel") as the part an importer
 * uses. The host sends such a module as its table of re-exports instead of its source, and only
 * for a package that declares `"sideEffects": false` (host/effects/module_barrel.h). A static
 * import that takes named bindings from it gets a module of just those re-exports (keyed
 * "<barrel key>?names=a,b"), so `import { chunk } from "lodash-es"` loads chunk.js and what it
 * imports, not the 640 modules of the whole barrel. The names come from the importing module's
 * own import entries (JS_GetResolvingImportNames, ng patch 0025); anything else — a namespace
 * import, `export * from`, a dynamic import(), a name the barrel does not export — gets the whole
 * barrel, built from the same table under the barrel's own key, so what such code sees (and the
 * errors it gets) is what the file itself would give. A re-export from anything but a file of
 * the package's own folders ("./…" without "..") is kept in every part: the declaration covers
 * only the package's own files. Before a part is made its files are loaded (not run) through a
 * probe module; if any file imports the barrel meanwhile, or a file of the package imports it at
 * all (an import cycle through it), parts re-export from the whole barrel, so the files run in
 * Node's order (modules.c, load_part_files).
 *
 * Trusts the host's table (checked for shape only); builds source text that the engine compiles
 * like any module. Owns e->barrels (key → table) and e->subsets (part key → barrel key).
 */
#include "engine/engine_internal.h"
#include "engine/module_subset.h"
#include "util/buf.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An importer taking more names than this from one barrel gets the whole of it. */
#define SUBSET_MAX_NAMES 64

typedef struct {
    const char *exp, *imp, *spec; /* into text */
    bool keep; /* in every part: not a file of the package's own folders */
} reexport;

typedef struct {
    char *text; /* the host's lines, cut into NUL-terminated fields */
    size_t n;
    reexport *r;
    size_t pkg_len; /* the key's first pkg_len bytes are its package's folder, "…/node_modules/p/" */
    bool cyclic;    /* a file of the package imports the barrel: parts re-export from the whole */
    int probing;    /* a part's files are loading (load_part_files): any import of it is a cycle */
} barrel_table;

/* The length of key's package folder: through the segment after the last "node_modules/" (two for
 * a scope), with its slash; the key's own folder when it is in no node_modules. */
static size_t package_folder(const char *key)
{
    const char *nm = NULL;
    for (const char *p = key; (p = strstr(p, "node_modules/")) != NULL; p++)
        if (p == key || p[-1] == '/') nm = p;
    const char *slash = strrchr(key, '/');
    if (!nm) return slash ? (size_t)(slash - key) + 1 : 0;
    const char *seg = nm + strlen("node_modules/"), *end = strchr(seg, '/');
    if (end && seg[0] == '@') end = strchr(end + 1, '/');
    return end ? (size_t)(end - key) + 1 : (slash ? (size_t)(slash - key) + 1 : 0);
}

static bool is_name(const char *s)
{
    if (!*s) return false;
    for (const char *p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_' || *p == '$' ||
              (p > s && *p >= '0' && *p <= '9')))
            return false;
    return true;
}

static bool own_file(const char *spec)
{
    return strncmp(spec, "./", 2) == 0 && !strstr(spec, "..");
}

static void table_free(barrel_table *t)
{
    free(t->text);
    free(t->r);
    free(t);
}

int engine_barrel_keep(engine *e, const char *key, char *text, size_t len)
{
    if (strmap_get(&e->barrels, key)) {
        free(text);
        return 0;
    }
    barrel_table *t = xcalloc(1, sizeof *t);
    t->text = text;
    size_t rows = 0;
    for (size_t i = 0; i < len; i++) rows += text[i] == '\n';
    if (rows == 0 || strlen(text) != len || text[len - 1] != '\n') goto bad;
    t->r = xcalloc(rows, sizeof *t->r);
    for (char *line = text; t->n < rows;) {
        char *nl = strchr(line, '\n'), *sp1 = strchr(line, ' ');
        char *sp2 = sp1 && sp1 < nl ? strchr(sp1 + 1, ' ') : NULL;
        if (!sp2 || sp2 > nl) goto bad;
        *sp1 = *sp2 = *nl = '\0';
        reexport *r = &t->r[t->n++];
        *r = (reexport){.exp = line, .imp = sp1 + 1, .spec = sp2 + 1};
        if (!is_name(r->exp) || !(is_name(r->imp) || strcmp(r->imp, "*") == 0) || !*r->spec) goto bad;
        r->keep = !own_file(r->spec);
        line = nl + 1;
    }
    t->pkg_len = package_folder(key);
    strmap_put(&e->barrels, xstrdup(key), t);
    return 0;
bad:
    table_free(t);
    return -1;
}

bool engine_is_barrel(engine *e, const char *key) { return strmap_get(&e->barrels, key) != NULL; }

const char *engine_barrel_of(engine *e, const char *subset_key) { return strmap_get(&e->subsets, subset_key); }

bool engine_barrel_inside(engine *e, const char *importer, const char *key)
{
    barrel_table *t = strmap_get(&e->barrels, key);
    if (!t || !importer || (t->probing == 0 && strncmp(importer, key, t->pkg_len) != 0)) return false;
    t->cyclic = true;
    return true;
}

void engine_barrel_probing(engine *e, const char *part_key, int delta)
{
    const char *barrel_key = strmap_get(&e->subsets, part_key);
    barrel_table *t = barrel_key ? strmap_get(&e->barrels, barrel_key) : NULL;
    if (t) t->probing += delta;
}

/* want[j] for each entry of t that the part `part_key` of `barrel_key` names (after "?names="). */
static void part_wants(const barrel_table *t, const char *barrel_key, const char *part_key, bool *want)
{
    const char *p = part_key + strlen(barrel_key) + strlen("?names=");
    while (*p) {
        const char *end = strchr(p, ',');
        size_t l = end ? (size_t)(end - p) : strlen(p);
        for (size_t j = 0; j < t->n; j++)
            if (strlen(t->r[j].exp) == l && memcmp(t->r[j].exp, p, l) == 0) want[j] = true;
        p += l + (end ? 1 : 0);
    }
}

size_t engine_barrel_part_files(engine *e, const char *part_key, const char ***specs)
{
    *specs = NULL;
    const char *barrel_key = strmap_get(&e->subsets, part_key);
    barrel_table *t = barrel_key ? strmap_get(&e->barrels, barrel_key) : NULL;
    if (!t) return 0;
    bool *want = xcalloc(t->n ? t->n : 1, sizeof *want);
    part_wants(t, barrel_key, part_key, want);
    const char **out = xcalloc(t->n ? t->n : 1, sizeof *out);
    size_t n = 0;
    for (size_t j = 0; j < t->n; j++)
        if (want[j] && !t->r[j].keep) out[n++] = t->r[j].spec;
    free(want);
    *specs = out;
    return n;
}

/* A JS string literal of s. */
static void put_quoted(buf *b, const char *s)
{
    buf_append(b, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\' || *p < 0x20) {
            char esc[8];
            snprintf(esc, sizeof esc, "\\u%04x", *p);
            buf_append(b, esc, 6);
        } else {
            buf_append(b, (const char *)p, 1);
        }
    }
    buf_append(b, "\"", 1);
}

void engine_barrel_import_line(buf *b, const char *spec)
{
    buf_puts(b, "import ");
    put_quoted(b, spec);
    buf_puts(b, ";\n");
}

char *engine_barrel_probe_key(engine *e, const char *part_key)
{
    char *probe = xasprintf("%s&probe", part_key);
    if ((strmap_get(&e->loaded, probe) || strmap_get(&e->barrels, probe)) && !strmap_get(&e->subsets, probe)) {
        free(probe); /* a file really named so */
        return NULL;
    }
    const char *barrel = strmap_get(&e->subsets, part_key);
    if (barrel && !strmap_get(&e->subsets, probe)) strmap_put(&e->subsets, xstrdup(probe), xstrdup(barrel));
    return probe;
}

/* The source of the re-exports of t that `want` (NULL: all) marks. */
static char *source_of(const barrel_table *t, const bool *want, size_t *len)
{
    buf b = {0};
    for (size_t i = 0; i < t->n; i++) {
        const reexport *r = &t->r[i];
        if (want && !want[i] && !r->keep) continue;
        if (strcmp(r->imp, "*") == 0) {
            buf_printf(&b, "export * as %s from ", r->exp);
        } else {
            buf_printf(&b, "export { %s as %s } from ", r->imp, r->exp);
        }
        put_quoted(&b, r->spec);
        buf_append(&b, ";\n", 2);
    }
    *len = b.len;
    return b.data ? buf_steal(&b) : xstrdup("");
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

char *engine_barrel_subset(engine *e, const char *key)
{
    barrel_table *t = strmap_get(&e->barrels, key);
    if (!t) return NULL;
    JSAtom atoms[SUBSET_MAX_NAMES];
    uint32_t n = 0;
    if (JS_GetResolvingImportNames(e->ctx, atoms, SUBSET_MAX_NAMES, &n) != 1) return NULL;
    char *names[SUBSET_MAX_NAMES];
    size_t k = 0;
    bool ok = true;
    for (uint32_t i = 0; i < n && ok; i++) {
        const char *s = JS_AtomToCString(e->ctx, atoms[i]);
        if (!s) {
            JS_FreeValue(e->ctx, JS_GetException(e->ctx));
            ok = false;
            break;
        }
        names[k++] = xstrdup(s);
        JS_FreeCString(e->ctx, s);
    }
    char *subset = NULL;
    if (ok) {
        qsort(names, k, sizeof *names, cmp_str);
        buf id = {0};
        buf_printf(&id, "%s?names=", key);
        for (size_t i = 0; i < k && ok; i++) {
            if (i > 0 && strcmp(names[i], names[i - 1]) == 0) continue;
            size_t j = 0; /* a name the barrel does not export: the whole barrel says so */
            while (j < t->n && strcmp(t->r[j].exp, names[i]) != 0) j++;
            if (j == t->n) ok = false;
            if (id.data[id.len - 1] != '=') buf_append(&id, ",", 1);
            buf_append(&id, names[i], strlen(names[i]));
        }
        if (ok) subset = buf_steal(&id);
        else buf_free(&id);
    }
    for (size_t i = 0; i < k; i++) free(names[i]);
    /* a part's key that a file of the project already has (a file really named so) is not used */
    if (subset && (strmap_get(&e->loaded, subset) || strmap_get(&e->barrels, subset)) && !strmap_get(&e->subsets, subset)) {
        free(subset);
        subset = NULL;
    }
    if (subset && !strmap_get(&e->subsets, subset)) strmap_put(&e->subsets, xstrdup(subset), xstrdup(key));
    return subset;
}

char *engine_barrel_source(engine *e, const char *key, size_t *len)
{
    const char *barrel_key = strmap_get(&e->subsets, key);
    barrel_table *t = strmap_get(&e->barrels, barrel_key ? barrel_key : key);
    if (!t) return NULL;
    if (!barrel_key) return source_of(t, NULL, len);
    if (t->cyclic) { /* the names, re-exported from the whole barrel (module_subset.h) */
        const char *names = key + strlen(barrel_key) + strlen("?names="), *base = strrchr(barrel_key, '/');
        char *spec = xasprintf("./%s", base ? base + 1 : barrel_key);
        buf b = {0};
        if (*names) {
            buf_puts(&b, "export { ");
            for (const char *p = names; *p; p++) buf_puts(&b, *p == ',' ? ", " : (char[]){*p, 0});
            buf_puts(&b, " } from ");
        } else { /* a side-effect import: the whole barrel, as Node runs it */
            buf_puts(&b, "import ");
        }
        put_quoted(&b, spec);
        buf_puts(&b, ";\n");
        free(spec);
        *len = b.len;
        return buf_steal(&b);
    }
    bool *want = xcalloc(t->n, sizeof *want);
    part_wants(t, barrel_key, key, want);
    char *src = source_of(t, want, len);
    free(want);
    return src;
}

void engine_barrels_init(engine *e)
{
    strmap_init(&e->barrels);
    strmap_init(&e->subsets);
}

void engine_barrels_free(engine *e)
{
    size_t pos = 0;
    const char *k;
    void *v;
    while (strmap_next(&e->barrels, &pos, &k, &v)) {
        free((char *)k);
        table_free(v);
    }
    strmap_free(&e->barrels);
    memset(&e->barrels, 0, sizeof e->barrels);
    pos = 0;
    while (strmap_next(&e->subsets, &pos, &k, &v)) {
        free((char *)k);
        free(v);
    }
    strmap_free(&e->subsets);
    memset(&e->subsets, 0, sizeof e->subsets);
}
