/* effects/module_load.c — `__module_load` {specifier, importer, kind?, builtin?} → {key, source,
 * format}: the module loader, an internal op (ops.h) that only the engine's own loaders reach
 * (host_internal_call): ES imports, CommonJS require() and the built-in check.
 *
 * The engine never opens files: every import and require() of an agent resolves here. Keys are
 * paths relative to the project folder (the entry file's folder), so guest code never learns host
 * paths and the same run has the same module names on every machine. effects/module_resolve.c
 * finds the file (relative files, npm packages in node_modules); this file applies the import
 * policy (CHIDORI_TS_IMPORTS), reads the file with a size cap and says its format: `esm`, `cjs`
 * (CommonJS) or `json`.
 *
 * Trusts nothing in the arguments (a compromised worker may forge them): the specifier and
 * importer are length-checked and NUL-free, and every open stays beneath the folder.
 */
#define _GNU_SOURCE
#include "host/bytecode_cache.h"
#include "host/bytecode_graph.h"
#include "host/effects/module_barrel.h"
#include "host/effects/module_record.h"
#include "host/effects/module_resolve.h"
#include "host/host_internal.h"
#include "host/ops.h"
#include "settings/settings.h"
#include "util/buf.h"
#include "util/fnv.h"
#include "util/strmap.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MODULE_MAX_BYTES ((size_t)16 << 20)
/* Files remembered as sent to the top-level engine; past this many, later ones are sent whole. */
#define MODULE_SENT_MAX 100000

typedef struct {
    uint64_t source_len, source_hash;
    char key[]; /* the map's key */
} bc_offer;

/* A module of the next graph image: its bytecode is the old image's (not owned) or a new compile. */
typedef struct {
    uint64_t source_len, source_hash;
    const unsigned char *bytecode;
    size_t bytecode_len;
    unsigned char *owned;
    char key[]; /* the map's key */
} graph_rec;

typedef enum { IMPORTS_NODE, IMPORTS_PROJECT, IMPORTS_RELATIVE, IMPORTS_NONE } imports_policy;

typedef struct {
    imports_policy policy;
    module_cache cache; /* package.json files of this run */
    /* per call_agent depth: the one load without an importer (that run's entry) was asked */
    bool entry_loaded[HOST_MAX_NESTING + 2];
    /* the bytecode cache of package files (bytecode_cache.h): one graph image per agent
     * (bytecode_graph.h), opened and read at the first package ES module, written at the end */
    char *state_dir;
    bc_cache *bc;
    bool bc_tried;
    char *graph_entry;        /* the top-level run's entry key, which names its graph image */
    unsigned char *graph_raw; /* the image's bytes; graph points into its checked payload */
    bc_graph graph;
    bool graph_stale;       /* the image lacks or mismatches a file served: written again at the end */
    strmap bc_ids;          /* key -> bc_offer of the files served to an in-process engine for compiling */
    strmap graph_served;    /* key -> graph_rec of the package modules served this run, cached or compiled */
    graph_rec **recs;       /* the same in load order: the next image */
    size_t n_recs, cap_recs;
    module_record served; /* what the top-level run was served, for its manifest (host_modules_served) */
    strmap sent; /* key -> format of the files whose source went to the top-level engine for an import */
} loader_state;

const effect_module module_loader_module;

static const char *const policy_names[] = {"node", "project", "relative", "none"};

static bool has_suffix(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

static bool in_node_modules(const char *key)
{
    return strncmp(key, "node_modules/", 13) == 0 || strstr(key, "/node_modules/") != NULL;
}

/* Does the source read as an ES module? A line that starts (after blanks) with `import` or
 * `export` followed by what only a module statement has there. The same test the original
 * applies to files whose package.json does not say (Node's own detection parses instead). */
static bool looks_like_esm(const char *src, size_t len)
{
    size_t i = 0;
    while (i < len) {
        while (i < len && (src[i] == ' ' || src[i] == '\t')) i++;
        const char *p = src + i;
        size_t rest = len - i;
        if (rest > 7 && strncmp(p, "import", 6) == 0 && strchr(" {*\"'", p[6])) return true;
        if (rest > 7 && strncmp(p, "export", 6) == 0 && strchr(" {*", p[6])) return true;
        const char *nl = memchr(p, '\n', rest);
        if (!nl) break;
        i = (size_t)(nl - src) + 1;
    }
    return false;
}

/* esm, cjs or json: by extension, then the package's `type`, then what the source looks like. */
static const char *module_format(host *h, module_cache *mc, const module_found *f, const char *src, size_t len)
{
    const char *k = f->key;
    if (has_suffix(k, ".json")) return "json";
    if (has_suffix(k, ".cjs") || has_suffix(k, ".cts")) return "cjs";
    if (has_suffix(k, ".mjs") || has_suffix(k, ".mts") || has_suffix(k, ".ts") || has_suffix(k, ".tsx")) return "esm";
    char *type = module_package_type(h, mc, k);
    const char *fmt;
    if (type) fmt = strcmp(type, "module") == 0 ? "esm" : "cjs";
    else if (!in_node_modules(k)) fmt = "esm"; /* the agent's own .js files are ES modules */
    else if (f->esm_hint) fmt = "esm";
    else fmt = looks_like_esm(src, len) ? "esm" : "cjs";
    free(type);
    return fmt;
}

/* A JSON string that takes the bytes (NUL-terminated, len of them) instead of copying them: a
 * module's source and bytecode are the largest things a load hands over. */
static json_t *string_taking(char *bytes, size_t len)
{
    json_t *v = json_stringn("", 0);
    free(v->u.string.bytes);
    v->u.string.bytes = bytes;
    v->u.string.len = len;
    return v;
}

static int read_source(int fd, const char *key, buf *src, char **error)
{
    struct stat st;
    if (fstat(fd, &st) != 0 || (size_t)st.st_size > MODULE_MAX_BYTES) {
        *error = xasprintf("module `%s` is larger than the %zu MiB limit", key, MODULE_MAX_BYTES >> 20);
        return -1;
    }
    /* read straight into the buffer: one allocation and no copy for the usual file, which does not
     * grow while it is read (one that does is read on in 64 KiB steps, up to the limit) */
    buf_reserve(src, (size_t)st.st_size + 1); /* + 1: the read that sees the end has room */
    for (;;) {
        if (src->cap - src->len - 1 == 0) buf_reserve(src, 65536);
        size_t room = src->cap - src->len - 1;
        ssize_t n = read(fd, src->data + src->len, room);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            *error = xasprintf("cannot read module `%s`: %s", key, strerror(errno));
            return -1;
        }
        if (n == 0) break;
        if (src->len + (size_t)n > MODULE_MAX_BYTES) {
            *error = xasprintf("module `%s` is larger than the %zu MiB limit", key, MODULE_MAX_BYTES >> 20);
            return -1;
        }
        src->len += (size_t)n;
        src->data[src->len] = '\0';
    }
    return 0;
}

static void graph_keep(loader_state *st, const char *key, uint64_t source_len, uint64_t source_hash,
                       const unsigned char *bytecode, size_t bytecode_len, unsigned char *owned)
{
    if (strmap_get(&st->graph_served, key) || st->n_recs >= BC_GRAPH_MAX_MODULES) {
        free(owned);
        return;
    }
    graph_rec *r = xmalloc(sizeof *r + strlen(key) + 1);
    r->source_len = source_len;
    r->source_hash = source_hash;
    r->bytecode = owned ? owned : bytecode;
    r->bytecode_len = bytecode_len;
    r->owned = owned;
    strcpy(r->key, key);
    if (st->n_recs == st->cap_recs) {
        st->cap_recs = st->cap_recs ? 2 * st->cap_recs : 64;
        st->recs = xrealloc(st->recs, st->cap_recs * sizeof *st->recs);
    }
    st->recs[st->n_recs++] = r;
    strmap_put(&st->graph_served, r->key, r);
}

/* The cache and this agent's graph image, once per host: a missing, unreadable or refused image
 * (bytecode_cache.c checks the frame and its tag, bytecode_graph.c the payload) is an empty one. */
static void graph_open(loader_state *st)
{
    if (st->bc_tried) return;
    st->bc_tried = true;
    if (!st->graph_entry || !(st->bc = bc_cache_open(st->state_dir))) return;
    char id[BC_ID_HEX + 1];
    bc_cache_graph_id(st->bc, st->graph_entry, id);
    size_t n = 0;
    const unsigned char *payload = NULL;
    st->graph_raw = bc_cache_get(st->bc, id, &payload, &n);
    if (st->graph_raw && bc_graph_parse(payload, n, &st->graph) < 0) {
        free(st->graph_raw);
        st->graph_raw = NULL;
    }
    if (!st->graph_raw) st->graph_stale = true;
}

/* A package's ES module, for an engine in this process: its bytecode from the agent's graph image
 * when the image holds this key with the same source length and FNV-1a 64 ("bytecode", raw bytes,
 * next to the source, which stays the fallback), else "cache": true, which asks it to hand back
 * what it compiles (module_cache_put_local). hash: the FNV-1a 64 the manifest lists, computed once.
 * An isolated worker gets neither: its compiles are never stored (a compromised worker could
 * otherwise plant code in later runs), and bytecode across the worker's frames costs more than the
 * parse it saves. */
static void offer_bytecode(host *h, loader_state *st, const char *key, const buf *src, uint64_t hash, json_t *o)
{
    /* a small file parses faster than its bytecode is read (bench/npm-import) */
    if (!h->engine_local || src->len < BC_CACHE_MIN_SOURCE) return;
    graph_open(st);
    if (!st->bc || strmap_get(&st->graph_served, key) || strmap_get(&st->bc_ids, key)) return;
    const bc_graph_module *m = strmap_get(&st->graph.by_key, key);
    if (m && m->source_len == src->len && m->source_hash == hash) {
        unsigned char *bc = xmalloc(m->bytecode_len + 1);
        memcpy(bc, m->bytecode, m->bytecode_len);
        bc[m->bytecode_len] = '\0'; /* it travels as a JSON string's bytes, which end with a NUL */
        /* raw bytes: this reply goes to an engine in this process and is never serialized */
        json_object_set(o, "bytecode", string_taking((char *)bc, m->bytecode_len));
        graph_keep(st, key, m->source_len, m->source_hash, m->bytecode, m->bytecode_len, NULL);
        return;
    }
    st->graph_stale = true; /* a file the image lacks, or that changed since it was written */
    bc_offer *offer = xmalloc(sizeof *offer + strlen(key) + 1);
    offer->source_len = src->len;
    offer->source_hash = hash;
    strcpy(offer->key, key);
    free(strmap_put(&st->bc_ids, offer->key, offer));
    json_object_set(o, "cache", json_bool(true));
}

int module_cache_put_local(host *h, const json_t *args, json_t **result, char **error)
{
    loader_state *st = host_module_state(h, &module_loader_module);
    const char *key = json_string_value(json_object_get(args, "key"));
    const json_t *b = json_object_get(args, "bytecode");
    *result = json_null();
    if (!st || !st->bc || !key || !json_is_string(b)) return 0;
    bc_offer *offer = strmap_remove(&st->bc_ids, key); /* one put per offer */
    if (!offer) return 0; /* not a file this host offered to cache */
    /* raw bytes, like the offer's: the put comes only from an engine in this process */
    size_t n = b->u.string.len;
    if (n > 0 && n <= BC_CACHE_MAX_PAYLOAD) {
        unsigned char *copy = xmalloc(n);
        memcpy(copy, b->u.string.bytes, n);
        graph_keep(st, offer->key, offer->source_len, offer->source_hash, NULL, n, copy);
    }
    free(offer);
    (void)error;
    return 0;
}

/* The next graph image, when this run's differs from the one read: the modules served this run in
 * load order, then those of the old image this run did not load (an import this run skipped),
 * as long as the whole stays within the caps. One file, written once (atomically). */
static void graph_write(loader_state *st)
{
    if (!st->bc || !st->graph_entry || !st->graph_stale || st->n_recs == 0) return;
    for (int with_old = 1; with_old >= 0; with_old--) {
        size_t count = st->n_recs, bytes = 12;
        for (size_t i = 0; i < st->n_recs; i++) bytes += 24 + strlen(st->recs[i]->key) + st->recs[i]->bytecode_len;
        if (with_old)
            for (size_t i = 0; i < st->graph.n; i++) {
                const bc_graph_module *m = &st->graph.m[i];
                if (strmap_get(&st->graph_served, m->key)) continue;
                count++;
                bytes += 24 + strlen(m->key) + m->bytecode_len;
            }
        if (count > BC_GRAPH_MAX_MODULES || bytes > BC_CACHE_MAX_PAYLOAD) continue;
        buf out = {0};
        buf_reserve(&out, bytes);
        bc_graph_begin(&out, (uint32_t)count);
        for (size_t i = 0; i < st->n_recs; i++) {
            const graph_rec *r = st->recs[i];
            bc_graph_add(&out, r->key, r->source_len, r->source_hash, r->bytecode, r->bytecode_len);
        }
        if (with_old)
            for (size_t i = 0; i < st->graph.n; i++) {
                const bc_graph_module *m = &st->graph.m[i];
                if (!strmap_get(&st->graph_served, m->key))
                    bc_graph_add(&out, m->key, m->source_len, m->source_hash, m->bytecode, m->bytecode_len);
            }
        char id[BC_ID_HEX + 1];
        bc_cache_graph_id(st->bc, st->graph_entry, id);
        bc_cache_put(st->bc, id, (const unsigned char *)out.data, out.len);
        buf_free(&out);
        return;
    }
}

/* A package file that only re-exports, in a package that declares `"sideEffects": false`: its
 * re-exports as one string of lines "<export name> <imported name> <specifier>" (module_barrel.h),
 * which the engine serves as the part each importer uses. NULL for any other file. */
static json_t *barrel_reply(host *h, loader_state *st, const char *key, const buf *src)
{
    if (!in_node_modules(key) || !src->data || !module_package_side_effect_free(h, &st->cache, key)) return NULL;
    buf table = {0};
    size_t n;
    if (barrel_scan(src->data, src->len, &table, &n) < 0) {
        buf_free(&table);
        return NULL;
    }
    size_t len = table.len;
    return string_taking(buf_steal(&table), len);
}

static int host_module_load(host *h, const json_t *args, json_t **result, char **error)
{
    const json_t *spec_v = json_object_get(args, "specifier");
    const json_t *imp_v = json_object_get(args, "importer");
    const json_t *kind_v = json_object_get(args, "kind");
    const json_t *builtin_v = json_object_get(args, "builtin");
    const json_t *full_v = json_object_get(args, "full");
    if (!json_is_string(spec_v)) {
        *error = xstrdup("module load: missing `specifier`");
        return 1;
    }
    const char *spec = spec_v->u.string.bytes;
    const char *importer = json_is_string(imp_v) ? imp_v->u.string.bytes : NULL;
    if (strlen(spec) != spec_v->u.string.len || spec_v->u.string.len > MODULE_MAX_PATH || !spec[0]) {
        *error = xstrdup("module load: malformed specifier");
        return 1;
    }
    if (importer && (strlen(importer) != imp_v->u.string.len || imp_v->u.string.len > MODULE_MAX_PATH)) {
        *error = xstrdup("module load: malformed importer");
        return 1;
    }
    const char *kind = json_string_value(kind_v);
    bool require = kind && strcmp(kind, "require") == 0;
    loader_state *st = host_module_state(h, &module_loader_module);
    if (!st) {
        *error = xstrdup("module load: the loader is not set up");
        return 1;
    }
    /* No importer means "the command line's entry", which skips the import policy: only the
     * run's first load may say so, never a later request from the engine (a compromised or
     * confused worker naming no importer for code from eval). */
    int depth = h->depth < 0 ? 0 : h->depth > HOST_MAX_NESTING + 1 ? HOST_MAX_NESTING + 1 : h->depth;
    if (!importer) {
        if (st->entry_loaded[depth]) {
            *error = xasprintf("cannot %s `%s`: the request names no importing module, and only the run's entry "
                               "file is loaded without one",
                               require ? "require" : "import", spec);
            return 1;
        }
        st->entry_loaded[depth] = true;
    }
    imports_policy policy = st->policy;
    const char *from = importer ? importer : "the command line";
    const char *verb = require ? "require" : "import";

    /* The built-in check: the engine serves node:x itself, once the policy allows it. */
    if (builtin_v && builtin_v->type == JSON_TRUE) {
        if (policy != IMPORTS_NODE) {
            *error = xasprintf("cannot %s `%s` (from %s): Node built-in modules are disabled by CHIDORI_TS_IMPORTS=%s",
                               verb, spec, from, policy_names[policy]);
            return 1;
        }
        if (depth == 0 && importer) { /* named in the graph as the original names a built-in */
            const char *name = strncmp(spec, "node:", 5) == 0 ? spec + 5 : spec;
            char *path = xasprintf(MODULE_RECORD_BUILTINS "%s.js", name);
            module_record_import(&st->served, importer, spec, path);
            free(path);
        }
        json_t *o = json_object();
        json_object_set(o, "key", json_string(spec));
        *result = o;
        return 0;
    }
    if (importer && policy == IMPORTS_NONE) {
        *error = xasprintf("cannot %s `%s` (from %s): imports are disabled by CHIDORI_TS_IMPORTS=none", verb, spec,
                           from);
        return 1;
    }
    module_found f;
    if (module_resolve(h, &st->cache, spec, importer, require, policy == IMPORTS_NODE || policy == IMPORTS_PROJECT, &f, error) <
        0) {
        if (require && *error && strncmp(*error, "cannot import ", 14) == 0) { /* say what the guest did */
            char *e = xasprintf("cannot require %s", *error + 14);
            free(*error);
            *error = e;
        }
        return 1;
    }
    /* A file already sent to the top-level engine, reached again by another path (`./x.js` from one
     * folder, `../x.js` from another): the engine has it, so the key and format go back without the
     * source, and it is not read and hashed again. An engine that does not have it (its first load
     * failed) asks again with `full` (engine/modules.c). */
    const char *sent = depth == 0 && !require && !(full_v && full_v->type == JSON_TRUE) ? strmap_get(&st->sent, f.key) : NULL;
    if (sent) {
        close(f.fd);
        if (importer) module_record_import(&st->served, importer, spec, f.key);
        json_t *o = json_object();
        json_object_set(o, "key", json_string(f.key));
        json_object_set(o, "format", json_string(sent));
        json_object_set(o, "source", json_stringn("", 0));
        json_object_set(o, "elided", json_bool(true));
        free(f.key);
        *result = o;
        return 0;
    }
    buf src = {0};
    if (read_source(f.fd, f.key, &src, error) < 0) {
        close(f.fd);
        buf_free(&src);
        free(f.key);
        return 1;
    }
    close(f.fd);
    const char *format = module_format(h, &st->cache, &f, src.data ? src.data : "", src.len);
    bool cacheable = strcmp(format, "esm") == 0 && in_node_modules(f.key) && h->engine_local;
    /* one hash per file per run: the manifest's FNV-1a 64, which the graph image is keyed by too */
    uint64_t hash = depth == 0 || cacheable ? fnv1a64_update(FNV1A64_INIT, src.data ? src.data : "", src.len) : 0;
    if (depth == 0) { /* the top-level run's manifest lists it (a nested run's entry is its own) */
        module_record_file_hashed(&st->served, f.key, hash, importer == NULL);
        if (importer) module_record_import(&st->served, importer, spec, f.key);
        else if (!st->graph_entry) st->graph_entry = xstrdup(f.key);
    }
    json_t *o = json_object();
    json_object_set(o, "key", json_string(f.key));
    json_object_set(o, "format", json_string(format));
    json_t *reexports = importer && !require && strcmp(format, "esm") == 0 ? barrel_reply(h, st, f.key, &src) : NULL;
    if (reexports) { /* the table stands for the source, which the engine never compiles */
        json_object_set(o, "reexports", reexports);
        buf_free(&src);
        src = (buf){0};
    } else if (cacheable) {
        offer_bytecode(h, st, f.key, &src, hash, o);
    }
    size_t src_len = src.len;
    json_object_set(o, "source", src.data ? string_taking(buf_steal(&src), src_len) : json_stringn("", 0));
    buf_free(&src);
    if (depth == 0 && !require && strmap_len(&st->sent) < MODULE_SENT_MAX && !strmap_get(&st->sent, f.key))
        strmap_put(&st->sent, xstrdup(f.key), (void *)format); /* a static string */
    free(f.key);
    *result = o;
    return 0;
}

json_t *host_modules_served(host *h)
{
    loader_state *st = host_module_state(h, &module_loader_module);
    return st ? module_record_json(&st->served) : NULL;
}

static int loader_init(host *h, const host_config *cfg, void **state, char **error)
{
    (void)h;
    (void)error;
    loader_state *st = xcalloc(1, sizeof *st);
    const char *w = settings_word(cfg ? cfg->settings : NULL, "CHIDORI_TS_IMPORTS");
    for (int i = 0; i < 4; i++)
        if (w && strcmp(w, policy_names[i]) == 0) st->policy = (imports_policy)i;
    module_cache_init(&st->cache);
    strmap_init(&st->bc_ids);
    strmap_init(&st->graph_served);
    strmap_init(&st->graph.by_key);
    module_record_init(&st->served);
    strmap_init(&st->sent);
    st->state_dir = cfg && cfg->state_dir ? xstrdup(cfg->state_dir) : xasprintf("%s/.chidori", h->project_root);
    *state = st;
    return 0;
}

static void loader_free(void *state)
{
    loader_state *st = state;
    if (!st) return;
    module_cache_free(&st->cache);
    module_record_free(&st->served);
    size_t spos = 0;
    const char *sk;
    void *sv;
    while (strmap_next(&st->sent, &spos, &sk, &sv)) free((char *)sk);
    strmap_free(&st->sent);
    size_t pos = 0;
    const char *k;
    void *v;
    while (strmap_next(&st->bc_ids, &pos, &k, &v)) free(v);
    strmap_free(&st->bc_ids);
    graph_write(st);
    for (size_t i = 0; i < st->n_recs; i++) {
        free(st->recs[i]->owned);
        free(st->recs[i]);
    }
    free(st->recs);
    strmap_free(&st->graph_served);
    bc_graph_free(&st->graph);
    free(st->graph_raw);
    free(st->graph_entry);
    bc_cache_close(st->bc);
    free(st->state_dir);
    free(st);
}

/* A nested run (call_agent) starting or ending at depth: the run there loads its own entry. */
static void loader_nest(void *state, int depth)
{
    loader_state *st = state;
    if (st && depth >= 0 && depth <= HOST_MAX_NESTING + 1) st->entry_loaded[depth] = false;
}

static const char *const loader_settings[] = {"CHIDORI_TS_IMPORTS", NULL};

/* Internal: only host_internal_call performs it (the engine's module loader, in process or through
 * a worker's module-load frame); host_call refuses it, whoever names it. */
static const op_def module_loader_ops[] = {
    {.name = "__module_load", .flags = OP_INTERNAL, .perform = host_module_load},
    {0},
};

const effect_module module_loader_module = {
    .name = "modules",
    .ops = module_loader_ops,
    .init = loader_init,
    .free = loader_free,
    .nest = loader_nest,
    .settings = loader_settings,
};
