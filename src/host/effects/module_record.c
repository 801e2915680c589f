/* effects/module_record.c — the files and imports the module loader served one run (see
 * module_record.h). Owns the lists and their caps; trusts the loader for the keys it hands in.
 */
#define _GNU_SOURCE
#include "host/effects/module_record.h"
#include "util/buf.h"
#include "util/fnv.h"

#include <stdlib.h>
#include <string.h>

typedef struct record_import {
    char *specifier, *resolved;
} record_import;

typedef struct record_file {
    char hash[FNV1A64_TEXT_LEN];
    record_import *imports;
    size_t n_imports, cap_imports;
    char key[]; /* the map's key */
} record_file;

void module_record_init(module_record *r)
{
    memset(r, 0, sizeof *r);
    strmap_init(&r->files);
    r->past_cap_hash = FNV1A64_INIT;
}

void module_record_free(module_record *r)
{
    for (size_t i = 0; i < r->n; i++) {
        record_file *f = r->order[i];
        for (size_t j = 0; j < f->n_imports; j++) free(f->imports[j].specifier), free(f->imports[j].resolved);
        free(f->imports);
        free(f);
    }
    free(r->order);
    strmap_free(&r->files);
    free(r->entry);
    memset(r, 0, sizeof *r);
}

void module_record_file(module_record *r, const char *key, const void *bytes, size_t len, bool entry)
{
    module_record_file_hashed(r, key, fnv1a64_update(FNV1A64_INIT, bytes, len), entry);
}

void module_record_file_hashed(module_record *r, const char *key, uint64_t h, bool entry)
{
    if (entry && !r->entry) r->entry = xstrdup(key);
    if (strmap_get(&r->files, key)) return;
    char hash[FNV1A64_TEXT_LEN];
    fnv1a64_text(h, hash);
    if (r->n >= MODULE_RECORD_MAX_FILES) { /* counted and folded into one hash, in load order */
        r->files_past_cap++;
        r->past_cap_hash = fnv1a64_update(r->past_cap_hash, key, strlen(key) + 1);
        r->past_cap_hash = fnv1a64_update(r->past_cap_hash, hash, strlen(hash) + 1);
        return;
    }
    record_file *f = xcalloc(1, sizeof *f + strlen(key) + 1);
    strcpy(f->key, key);
    memcpy(f->hash, hash, sizeof hash);
    if (r->n == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 16;
        r->order = xrealloc(r->order, r->cap * sizeof *r->order);
    }
    r->order[r->n++] = f;
    strmap_put(&r->files, f->key, f);
}

void module_record_import(module_record *r, const char *importer, const char *specifier, const char *resolved)
{
    record_file *f = importer ? strmap_get(&r->files, importer) : NULL;
    if (!f) return;
    for (size_t i = 0; i < f->n_imports; i++) /* asked again (an import and a require of it) */
        if (!strcmp(f->imports[i].specifier, specifier)) return;
    if (r->imports >= MODULE_RECORD_MAX_IMPORTS) {
        r->imports_past_cap++;
        return;
    }
    if (f->n_imports == f->cap_imports) {
        f->cap_imports = f->cap_imports ? f->cap_imports * 2 : 4;
        f->imports = xrealloc(f->imports, f->cap_imports * sizeof *f->imports);
    }
    f->imports[f->n_imports++] = (record_import){xstrdup(specifier), resolved ? xstrdup(resolved) : NULL};
    r->imports++;
}

/* The lists are written as text at once (json_raw), each string escaped as json_dump escapes it:
 * a run of a large package tree lists thousands of files and imports, and a tree of values per
 * entry cost more than the rest of the manifest together. The bytes are those json_dump writes for
 * the same lists built as values (tests/unit pins them). */
#define PUT(b, literal) buf_append((b), literal, sizeof literal - 1)

/* s as a JSON string: a key or specifier of plain ASCII (the usual case) copied between quotes,
 * anything else through json_dump's own escaping */
static void put_string(buf *b, const char *s)
{
    size_t n = strlen(s);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c >= 0x80 || c == '"' || c == '\\') {
            json_dump_string_into(b, s, n);
            return;
        }
    }
    buf_reserve(b, n + 2);
    b->data[b->len] = '"';
    memcpy(b->data + b->len + 1, s, n);
    b->data[b->len + 1 + n] = '"';
    b->len += n + 2;
    b->data[b->len] = '\0';
}

static void graph_node(buf *b, const record_file *f)
{
    PUT(b, "{\"path\":");
    put_string(b, f->key);
    PUT(b, ",\"imports\":[");
    for (size_t i = 0; i < f->n_imports; i++) {
        if (i) buf_putc(b, ',');
        PUT(b, "{\"specifier\":");
        put_string(b, f->imports[i].specifier);
        PUT(b, ",\"resolved_path\":");
        if (f->imports[i].resolved) put_string(b, f->imports[i].resolved);
        else PUT(b, "null");
        buf_putc(b, '}');
    }
    PUT(b, "]}");
}

static json_t *raw_of(buf *b)
{
    size_t n = b->len;
    return json_raw(buf_steal(b), n);
}

json_t *module_record_json(const module_record *r)
{
    json_t *o = json_object();
    json_object_set(o, "entry", r->entry ? json_string(r->entry) : json_null());
    const record_file *entry = r->entry ? strmap_get(&r->files, r->entry) : NULL;
    buf modules = {0}, graph = {0};
    buf_putc(&modules, '[');
    buf_putc(&graph, '[');
    if (entry) graph_node(&graph, entry);
    bool first = true;
    for (size_t i = 0; i < r->n; i++) {
        const record_file *f = r->order[i];
        if (f == entry) continue;
        if (!first) buf_putc(&modules, ',');
        PUT(&modules, "{\"path\":");
        put_string(&modules, f->key);
        PUT(&modules, ",\"hash\":");
        put_string(&modules, f->hash);
        buf_putc(&modules, '}');
        if (entry || !first) buf_putc(&graph, ',');
        graph_node(&graph, f);
        first = false;
    }
    buf_putc(&modules, ']');
    buf_putc(&graph, ']');
    json_object_set(o, "modules", raw_of(&modules));
    json_object_set(o, "module_graph", raw_of(&graph));
    if (r->files_past_cap || r->imports_past_cap) {
        json_t *past = json_object();
        char hash[FNV1A64_TEXT_LEN];
        fnv1a64_text(r->past_cap_hash, hash);
        json_object_set(past, "modules", json_number((double)r->files_past_cap));
        json_object_set(past, "hash", json_string(hash));
        json_object_set(past, "imports", json_number((double)r->imports_past_cap));
        json_object_set(o, "modules_past_cap", past);
    }
    return o;
}
