/* modules.c — ES module resolution and loading for a run, through the host seam.
 *
 * QuickJS asks two questions: normalize(importer, specifier) → key, then load(key) → module.
 * Built-in modules (chidori:agent, and node:x / bare x for the prelude's shims) are answered here,
 * without the host. Every other specifier goes to the host op `__module_load` through the seam's
 * internal entry (seam.h: the one agent code cannot reach), which resolves it inside the project
 * folder (relative files and npm packages) and returns {key, source, format}; the source waits in
 * a small cache until QuickJS asks to load that key. An ES module is compiled here; a CommonJS or
 * JSON file becomes a synthetic module (cjs.c). A built-in is served only once the host says the
 * import policy (CHIDORI_TS_IMPORTS) allows it. The engine never opens a file, which is what lets
 * an isolated worker run with no filesystem at all. Within a run, the key the host answered for a
 * specifier from a folder is remembered, and a module already loaded is not asked for again.
 */
#define _GNU_SOURCE
#include "engine/cjs_scan.h"
#include "engine/engine_internal.h"
#include "engine/module_subset.h"
#include "engine/ts_strip.h"
#include "util/buf.h"
#include "util/excerpt.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AGENT_MODULE "chidori:agent"
#define DYNAMIC_CODE "<dynamic code>"
/* Sources fetched but not yet compiled. QuickJS loads each key right after normalizing it, so this
 * holds one or two at a time; the bound stops anything that would pile them up. */
#define MODULE_PENDING_MAX_BYTES ((size_t)64 << 20)
/* Answers remembered per run (importer folder + specifier -> key); past this many the memo stops
 * growing and later imports simply ask the host. */
#define MODULE_MEMO_MAX 100000

struct module_source {
    char *key;
    char *source;
    size_t len;
    char format; /* 'e' ES module, 'c' CommonJS, 'j' JSON */
    unsigned char *bytecode; /* the host's cached compile of this source (checked by the host), or NULL */
    size_t bytecode_len;
    bool cache; /* the host asks for the compiled bytecode back (in-process engines only) */
    module_source *next;
};

static void free_source(module_source *s)
{
    free(s->key);
    free(s->source);
    free(s->bytecode);
    free(s);
}

void engine_free_module_cache(engine *e)
{
    if (e->cjs_ready) {
        JS_FreeValue(e->ctx, e->cjs);
        e->cjs_ready = false;
    }
    while (e->sources) {
        module_source *s = e->sources;
        e->sources = s->next;
        free_source(s);
    }
    e->sources_bytes = 0;
    size_t pos = 0;
    const char *k;
    void *v;
    while (strmap_next(&e->loaded, &pos, &k, &v)) free(v);
    strmap_free(&e->loaded);
    memset(&e->loaded, 0, sizeof e->loaded);
    pos = 0;
    while (strmap_next(&e->resolved, &pos, &k, &v)) {
        free((char *)k);
        free(v);
    }
    strmap_free(&e->resolved);
    memset(&e->resolved, 0, sizeof e->resolved);
    engine_barrels_free(e);
}

/* The memo's key for a specifier imported from `importer`: the host resolves from the importer's
 * folder (module_resolve.c), so every file of one folder importing the same specifier gets the same
 * answer. The folder's length goes first, so no folder/specifier split is ambiguous. NULL for
 * importers that are no file (the entry's load, code from eval): those always ask the host. */
static char *memo_key(const char *importer, const char *specifier)
{
    if (!importer || !importer[0] || importer[0] == '<') return NULL;
    const char *slash = strrchr(importer, '/');
    size_t dl = slash ? (size_t)(slash - importer) : 0, sl = strlen(specifier);
    char num[24]; /* "<dl>:", written by hand (no printf): this runs for every import */
    size_t nl = sizeof num;
    num[--nl] = ':';
    size_t d = dl;
    do num[--nl] = (char)('0' + d % 10);
    while ((d /= 10) != 0);
    size_t numlen = sizeof num - nl;
    char *k = xmalloc(numlen + dl + sl + 1);
    memcpy(k, num + nl, numlen);
    memcpy(k + numlen, importer, dl);
    memcpy(k + numlen + dl, specifier, sl + 1);
    return k;
}

/* A key this run's host already answered for (importer, specifier) and the runtime already has:
 * QuickJS links the module it holds and will not load it again, so asking the host (resolving and
 * reading the file again, or a worker round trip) would only hand back what is known. Node keeps
 * its resolutions per run the same way. Only modules the host served are in the memo, so it never
 * names a file the host did not allow. NULL when the host must be asked. */
static const char *memo_get(engine *e, const char *importer, const char *specifier)
{
    char *mk = memo_key(importer, specifier);
    if (!mk) return NULL;
    const char *key = strmap_get(&e->resolved, mk);
    free(mk);
    return key && (strmap_get(&e->loaded, key) || engine_is_barrel(e, key)) ? key : NULL;
}

static void memo_put(engine *e, const char *importer, const char *specifier, const char *key)
{
    if (strmap_len(&e->resolved) >= MODULE_MEMO_MAX) return;
    char *mk = memo_key(importer, specifier);
    if (!mk) return;
    if (strmap_get(&e->resolved, mk)) { /* the host answers the same while the key is loaded */
        free(mk);
        return;
    }
    strmap_put(&e->resolved, mk, xstrdup(key));
}

/* e->loaded's values: the module the runtime has under a key (NULL until it is compiled). */
typedef struct loaded_module {
    JSModuleDef *def;
    char key[];
} loaded_module;

static void mark_loaded(engine *e, const char *key, JSModuleDef *def)
{
    loaded_module *lm = strmap_get(&e->loaded, key);
    if (lm) {
        if (def) lm->def = def;
        return;
    }
    size_t n = strlen(key) + 1;
    lm = xmalloc(sizeof *lm + n);
    lm->def = def;
    memcpy(lm->key, key, n);
    strmap_put(&e->loaded, lm->key, lm);
}

static module_source *take_source(engine *e, const char *key)
{
    for (module_source **p = &e->sources; *p; p = &(*p)->next) {
        if (strcmp((*p)->key, key) == 0) {
            module_source *s = *p;
            *p = s->next;
            e->sources_bytes -= s->len;
            return s;
        }
    }
    return NULL;
}

/* A ReferenceError with the host's whole message (QuickJS's formatted throws cut at 256 bytes,
 * which dropped the reason after a long specifier). */
static void throw_host_error(JSContext *ctx, const char *msg)
{
    JS_ThrowReferenceError(ctx, "module load failed");
    JSValue exc = JS_GetException(ctx);
    JS_DefinePropertyValueStr(ctx, exc, "message", JS_NewString(ctx, msg), JS_PROP_WRITABLE | JS_PROP_CONFIGURABLE);
    JS_Throw(ctx, exc);
}

/* The bytes of a string of the host's reply (ours to free), taken instead of copied: a source or
 * bytecode can be megabytes. The string is left empty. */
static char *take_bytes(json_t *str, size_t *len)
{
    char *b = str->u.string.bytes;
    *len = str->u.string.len;
    str->u.string.bytes = xstrdup("");
    str->u.string.len = 0;
    return b;
}

/* Ask the host for a module. 0 with *key_out (malloc'd), or -1 with a JS exception thrown. */
static int fetch_module(engine *e, const char *importer, const char *specifier, char **key_out)
{
    json_t *res = NULL;
    char *error = NULL;
    unsigned flags = 0;
again:
    if (engine_module_request(e, specifier, importer, "import", flags, &res, &error) < 0) {
        throw_host_error(e->ctx, error);
        free(error);
        return -1;
    }
    const json_t *key = json_object_get(res, "key");
    const json_t *elided = json_object_get(res, "elided");
    if (json_is_string(key) && elided && elided->type == JSON_TRUE) {
        /* a file the host already sent (reached again by another path): its key is enough when
         * the runtime has it; otherwise (its first load failed) ask for the whole reply */
        if (strmap_get(&e->loaded, key->u.string.bytes) || engine_is_barrel(e, key->u.string.bytes)) {
            *key_out = xstrdup(key->u.string.bytes);
            json_free(res);
            return 0;
        }
        json_free(res);
        if (flags & MODULE_REQ_FULL) {
            JS_ThrowInternalError(e->ctx, "module load: malformed host reply");
            return -1;
        }
        flags |= MODULE_REQ_FULL;
        goto again;
    }
    json_t *src = json_object_get(res, "source");
    const char *fmt = json_string_value(json_object_get(res, "format"));
    if (!json_is_string(key) || !json_is_string(src)) {
        json_free(res);
        JS_ThrowInternalError(e->ctx, "module load: malformed host reply");
        return -1;
    }
    if (engine_barrel_of(e, key->u.string.bytes)) { /* never: a part's key has "?names=" after a file's */
        JS_ThrowReferenceError(e->ctx, "module `%s`: a file of this name stands where chidori serves part of a package module",
                               key->u.string.bytes);
        json_free(res);
        return -1;
    }
    json_t *reexports = json_object_get(res, "reexports");
    if (reexports) { /* a re-export-only package module: its table, no source (module_subset.c) */
        size_t len = 0;
        char *table = json_is_string(reexports) ? take_bytes(reexports, &len) : NULL;
        if (!table || engine_barrel_keep(e, key->u.string.bytes, table, len) < 0) {
            json_free(res);
            JS_ThrowInternalError(e->ctx, "module load: malformed host reply");
            return -1;
        }
        *key_out = xstrdup(key->u.string.bytes);
        json_free(res);
        return 0;
    }
    /* Sources still waiting are orphans: QuickJS loads a key right after normalizing it, unless it
     * has a module of that name already (one whose imports failed before stays, unresolved: ng
     * patch 0026), and then nothing ever takes the source. */
    while (e->sources) {
        module_source *old = e->sources;
        e->sources = old->next;
        free_source(old);
    }
    e->sources_bytes = 0;
    if (strmap_get(&e->loaded, key->u.string.bytes)) { /* QuickJS has it and will not ask for it again */
        *key_out = xstrdup(key->u.string.bytes);
        json_free(res);
        return 0;
    }
    if (e->sources_bytes + src->u.string.len > MODULE_PENDING_MAX_BYTES) {
        JS_ThrowRangeError(e->ctx, "module `%s`: more than %zu MiB of module sources are waiting to be compiled",
                           key->u.string.bytes, MODULE_PENDING_MAX_BYTES >> 20);
        json_free(res);
        return -1;
    }
    module_source *s = xcalloc(1, sizeof *s);
    s->key = xstrdup(key->u.string.bytes);
    s->source = take_bytes(src, &s->len);
    s->format = fmt && !strcmp(fmt, "cjs") ? 'c' : fmt && !strcmp(fmt, "json") ? 'j' : 'e';
    json_t *bc = json_object_get(res, "bytecode");
    if (s->format == 'e' && json_is_string(bc) && bc->u.string.len > 0 && bc->u.string.len <= MODULE_PENDING_MAX_BYTES) {
        /* raw bytes (only an in-process host offers bytecode; the reply is never serialized) */
        s->bytecode = (unsigned char *)take_bytes(bc, &s->bytecode_len);
    }
    s->cache = s->format == 'e' && !s->bytecode && json_object_get(res, "cache") && json_object_get(res, "cache")->type == JSON_TRUE;
    e->sources_bytes += s->len;
    s->next = e->sources;
    e->sources = s;
    *key_out = xstrdup(s->key);
    json_free(res);
    return 0;
}

/* Calls internals[fn](arg); the result (caller frees) or JS_EXCEPTION. */
static JSValue call_internal(engine *e, const char *fn_name, const char *arg)
{
    JSValue fn = JS_GetPropertyStr(e->ctx, e->internals, fn_name);
    JSValue a = JS_NewString(e->ctx, arg);
    JSValue r = JS_Call(e->ctx, fn, JS_UNDEFINED, 1, (JSValueConst *)&a);
    JS_FreeValue(e->ctx, a);
    JS_FreeValue(e->ctx, fn);
    return r;
}

/* "node:fs" or "fs" → the key "node:fs" when it names a built-in; NULL otherwise (or on error,
 * with the exception pending). */
static char *builtin_key(engine *e, const char *specifier)
{
    if (specifier[0] == '.' || specifier[0] == '/') return NULL;
    JSValue r = call_internal(e, "builtinName", specifier);
    char *key = NULL;
    if (JS_IsString(r)) {
        const char *name = JS_ToCString(e->ctx, r);
        if (name) key = xasprintf("node:%s", name);
        JS_FreeCString(e->ctx, name);
    }
    JS_FreeValue(e->ctx, r);
    return key;
}

static char *normalize(JSContext *ctx, const char *importer, const char *specifier, void *opaque)
{
    engine *e = opaque;
    if (strcmp(specifier, AGENT_MODULE) == 0) return js_strdup(ctx, specifier);
    char *builtin = builtin_key(e, specifier);
    if (builtin) {
        /* the import policy may refuse built-ins (never for the shims' own imports: an importer that
         * is exactly the key of a built-in) */
        char *imp_builtin = importer && strncmp(importer, "node:", 5) == 0 ? builtin_key(e, importer) : NULL;
        bool from_shim = imp_builtin && strcmp(imp_builtin, importer) == 0;
        free(imp_builtin);
        if (JS_HasException(ctx)) {
            free(builtin);
            return NULL;
        }
        json_t *res = NULL;
        char *error = NULL;
        if (!from_shim && engine_module_request(e, specifier, importer && importer[0] ? importer : DYNAMIC_CODE, "import",
                                                MODULE_REQ_BUILTIN, &res, &error) < 0) {
            throw_host_error(ctx, error);
            free(error);
            free(builtin);
            return NULL;
        }
        json_free(res);
        char *r = js_strdup(ctx, builtin);
        free(builtin);
        return r;
    }
    if (JS_HasException(ctx)) return NULL;
    if (strncmp(specifier, "node:", 5) == 0) {
        JS_ThrowReferenceError(ctx, "unknown built-in module `%s`", specifier);
        return NULL;
    }
    if (strncmp(specifier, "chidori:", 8) == 0) {
        JS_ThrowReferenceError(ctx, "unknown built-in module `%s`", specifier);
        return NULL;
    }
    /* Code from eval or new Function names `<input>` (or nothing): it imports from the project's
     * root under the same policy as any module. Never NULL, which the host keeps for the entry. */
    const char *base = importer && importer[0] ? importer : DYNAMIC_CODE;
    const char *barrel = engine_barrel_of(e, base); /* a part's imports are its barrel's */
    if (barrel) base = barrel;
    const char *known = memo_get(e, base, specifier);
    char *key;
    if (known) {
        key = xstrdup(known);
    } else {
        if (fetch_module(e, base, specifier, &key) < 0) return NULL;
        memo_put(e, base, specifier, key);
    }
    /* A barrel's part (module_subset.c): never for its own part's or probe's imports (they want
     * its files, or the whole of it), never for a file inside its package (a cycle through it) */
    char *part = NULL;
    if (engine_is_barrel(e, key)) {
        if (barrel ? strcmp(barrel, key) != 0 : !engine_barrel_inside(e, base, key)) part = engine_barrel_subset(e, key);
    }
    char *r = js_strdup(ctx, part ? part : key);
    free(part);
    free(key);
    return r;
}

/* chidori:agent — its exports are the prelude's `agentExports`. */
static int agent_module_init(JSContext *ctx, JSModuleDef *m)
{
    engine *e = engine_of(ctx);
    JSValue exports = JS_GetPropertyStr(ctx, e->internals, "agentExports");
    static const char *const names[] = {"chidori", "run", "defineTool"};
    int rc = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (JS_SetModuleExport(ctx, m, names[i], JS_GetPropertyStr(ctx, exports, names[i])) < 0) rc = -1;
    JS_FreeValue(ctx, exports);
    return rc;
}

static JSModuleDef *new_agent_module(JSContext *ctx)
{
    JSModuleDef *m = JS_NewCModule(ctx, AGENT_MODULE, agent_module_init);
    if (!m) return NULL;
    JS_AddModuleExport(ctx, m, "chidori");
    JS_AddModuleExport(ctx, m, "run");
    JS_AddModuleExport(ctx, m, "defineTool");
    return m;
}

/* node:x — a synthetic module whose exports are the own properties of the shim's exports object,
 * plus `default` (the object itself) unless the shim names its own. */
static JSValue builtin_exports(JSContext *ctx, const char *key)
{
    return call_internal(engine_of(ctx), "requireBuiltin", key);
}

/* Declares (m not yet linked: declare=true) or sets the exports of module m from `exports`.
 * 0, or -1 with an exception pending. */
static int bind_exports(JSContext *ctx, JSModuleDef *m, JSValueConst exports, bool declare)
{
    JSPropertyEnum *props;
    uint32_t n;
    if (JS_GetOwnPropertyNames(ctx, &props, &n, exports, JS_GPN_STRING_MASK | JS_GPN_ENUM_ONLY) < 0) return -1;
    int rc = 0;
    bool has_default = false;
    for (uint32_t i = 0; i < n; i++) {
        const char *name = JS_AtomToCString(ctx, props[i].atom);
        if (!name) rc = -1;
        else {
            if (strcmp(name, "default") == 0) has_default = true;
            if (declare) rc |= JS_AddModuleExport(ctx, m, name);
            else rc |= JS_SetModuleExport(ctx, m, name, JS_GetProperty(ctx, exports, props[i].atom));
            JS_FreeCString(ctx, name);
        }
        JS_FreeAtom(ctx, props[i].atom);
    }
    js_free(ctx, props);
    if (!has_default) {
        if (declare) rc |= JS_AddModuleExport(ctx, m, "default");
        else rc |= JS_SetModuleExport(ctx, m, "default", JS_DupValue(ctx, exports));
    }
    return rc < 0 ? -1 : 0;
}

static int builtin_module_init(JSContext *ctx, JSModuleDef *m)
{
    JSAtom name_atom = JS_GetModuleName(ctx, m);
    const char *key = JS_AtomToCString(ctx, name_atom);
    JS_FreeAtom(ctx, name_atom);
    if (!key) return -1;
    JSValue exports = builtin_exports(ctx, key);
    JS_FreeCString(ctx, key);
    if (JS_IsException(exports)) return -1;
    int rc = bind_exports(ctx, m, exports, false);
    JS_FreeValue(ctx, exports);
    return rc;
}

static JSModuleDef *new_builtin_module(JSContext *ctx, const char *key)
{
    JSValue exports = builtin_exports(ctx, key);
    if (JS_IsException(exports)) return NULL;
    JSModuleDef *m = NULL;
    if (!JS_IsObject(exports)) JS_ThrowTypeError(ctx, "internal error: built-in `%s` has no exports object", key);
    else if ((m = JS_NewCModule(ctx, key, builtin_module_init)) && bind_exports(ctx, m, exports, true) < 0) m = NULL;
    JS_FreeValue(ctx, exports);
    return m;
}

static bool is_typescript(const char *key)
{
    size_t n = strlen(key);
    return (n > 3 && strcmp(key + n - 3, ".ts") == 0) || (n > 4 && strcmp(key + n - 4, ".mts") == 0);
}

/* TypeScript is erased here, in C, keeping every token's line and column, so the engine's stack
 * traces point into the .ts file. An erasure error is a SyntaxError at file:line:col with the
 * source line, like any other. Returns 0, or -1 with the exception thrown. */
static int erase_types(engine *e, module_source *s)
{
    ts_error err;
    size_t out_len;
    char *js = ts_strip(s->source, s->len, &out_len, &err);
    if (!js) {
        char *excerpt = source_excerpt(s->source, s->len, err.line, err.col);
        char *msg = xasprintf("%s", err.message);
        char *stack = xasprintf("    at %s:%d:%d\n%s%s", s->key, err.line, err.col, excerpt ? excerpt : "",
                                excerpt ? "\n" : "");
        JS_ThrowSyntaxError(e->ctx, "%s", msg);
        JSValue exc = JS_GetException(e->ctx);
        JS_DefinePropertyValueStr(e->ctx, exc, "stack", JS_NewString(e->ctx, stack),
                                  JS_PROP_WRITABLE | JS_PROP_CONFIGURABLE);
        JS_Throw(e->ctx, exc);
        free(msg);
        free(stack);
        free(excerpt);
        return -1;
    }
    free(s->source);
    s->source = js;
    s->len = out_len;
    return 0;
}

/* The host's cached bytecode for s, read as a module; JS_UNDEFINED when it does not read as the
 * module of this key (then the source is compiled instead). An exception is the module's own: the
 * bytecode was checked by the host (its tag and the source's hash), so a read that throws failed
 * to resolve an import (a missing file, which compiling the source would fail on the same way, the
 * module staying loaded but unresolved: ng patch 0026) or ran out of memory or time. The file's
 * text is given with it: the functions' source text (Function.prototype.toString) is not in the
 * bytecode when it was compiled from the file as it is (give_bytecode). */
static JSValue read_cached_module(engine *e, module_source *s)
{
#ifdef CHIDORI_ENGINE_NG
    JSValue v = JS_ReadObjectWithSource(e->ctx, s->bytecode, s->bytecode_len, JS_READ_OBJ_BYTECODE, s->source, s->len);
#else
    JSValue v = JS_ReadObject(e->ctx, s->bytecode, s->bytecode_len, JS_READ_OBJ_BYTECODE);
#endif
    if (JS_IsException(v)) return v;
    if (JS_VALUE_GET_TAG(v) != JS_TAG_MODULE) {
        JS_FreeValue(e->ctx, v);
        return JS_UNDEFINED;
    }
    JSAtom name = JS_GetModuleName(e->ctx, JS_VALUE_GET_PTR(v));
    const char *n = JS_AtomToCString(e->ctx, name);
    JS_FreeAtom(e->ctx, name);
    bool same = n && strcmp(n, s->key) == 0;
    JS_FreeCString(e->ctx, n);
    if (!same) { /* cannot happen with the host's ids; never link a module under another name */
        JS_FreeValue(e->ctx, v);
        return JS_UNDEFINED;
    }
    return v;
}

/* Hands the host what was compiled, when it asked (an in-process engine, a package file).
 * as_file: the text compiled was the file's bytes (no types erased, no attribute blanked); then
 * the functions' source text is left out of the bytecode (ng patch 0027), for the file's text
 * comes with the bytecode whenever it is read (the host matches it by length and hash): zod's
 * largest file gives 81 KB of bytecode instead of 304 KB. */
static void give_bytecode(engine *e, module_source *s, JSValueConst module, bool as_file)
{
    if (!s->cache || !e->seam.internal) return;
    size_t len = 0;
#ifdef CHIDORI_ENGINE_NG
    uint8_t *bc = as_file ? JS_WriteObjectExternalSource(e->ctx, &len, module, JS_WRITE_OBJ_BYTECODE, s->source, s->len)
                          : JS_WriteObject(e->ctx, &len, module, JS_WRITE_OBJ_BYTECODE);
#else
    (void)as_file;
    uint8_t *bc = JS_WriteObject(e->ctx, &len, module, JS_WRITE_OBJ_BYTECODE);
#endif
    if (!bc) {
        JS_FreeValue(e->ctx, JS_GetException(e->ctx));
        return;
    }
#ifdef CHIDORI_ENGINE_NG
    /* ng's "no checksum" (all ones in bytes 1-4, the layout tools/compile_js.c checks at build
     * time): the host's image carries a keyed tag over these bytes, checked before any is read,
     * so the reader's own sum over every module at every warm start is a second pass for nothing */
    if (len > 5) memset(bc + 1, 0xff, 4);
#endif
    json_t *args = json_object();
    json_object_set(args, "key", json_string(s->key));
    json_object_set(args, "bytecode", json_stringn((const char *)bc, len)); /* raw: the seam is in-process */
    js_free(e->ctx, bc);
    json_t *res = NULL;
    char *error = NULL;
    (void)e->seam.internal(e->seam.ctx, "__module_cache_put", args, &res, &error);
    json_free(args);
    json_free(res);
    free(error);
}

/* Compile a fetched source as a module named by its key (or read the host's cached bytecode). */
static JSValue compile_module(engine *e, module_source *s)
{
    if (s->bytecode) {
        JSValue v = read_cached_module(e, s);
        if (!JS_IsUndefined(v)) return v; /* the module, or its exception */
    }
    bool as_file = !is_typescript(s->key);
    if (!as_file && erase_types(e, s) < 0) return JS_EXCEPTION;
    if (strip_import_attributes(s->source, s->len)) as_file = false;
    JSValue v = JS_Eval(e->ctx, s->source, s->len, s->key, JS_EVAL_TYPE_MODULE | JS_EVAL_FLAG_COMPILE_ONLY);
    if (JS_IsException(v)) {
        JSValue exc = JS_GetException(e->ctx);
        engine_annotate_syntax_error(e->ctx, exc, s->key, s->source, s->len);
        JS_Throw(e->ctx, exc);
    } else {
        give_bytecode(e, s, v, as_file);
    }
    return v;
}

static JSModuleDef *load(JSContext *ctx, const char *key, void *opaque);

/* Before the part of a barrel an importer uses is made, the package files it re-exports are
 * loaded (with their imports), through a module that only imports them, compiled and never run
 * (so QuickJS finds or loads each as for any import): if one of them, or a file they import in
 * any package, leads back to the barrel (an import cycle through it, engine_barrel_inside), the
 * part re-exports from the whole barrel, so the files run in the order the whole barrel gives
 * them. 0, or -1 with the exception pending. */
static int load_part_files(engine *e, const char *part_key)
{
    const char **specs;
    size_t n = engine_barrel_part_files(e, part_key, &specs);
    buf src = {0};
    for (size_t i = 0; i < n; i++) engine_barrel_import_line(&src, specs[i]);
    free(specs);
    if (!src.data) return 0;
    /* while it loads, any import of the barrel is a cycle through it, from whatever package */
    engine_barrel_probing(e, part_key, 1);
    char *probe = engine_barrel_probe_key(e, part_key);
    if (!probe) { /* a file of that name is loaded: no probe (never, short of such a name) */
        engine_barrel_probing(e, part_key, -1);
        buf_free(&src);
        return 0;
    }
    JSValue v = JS_Eval(e->ctx, src.data, src.len, probe, JS_EVAL_TYPE_MODULE | JS_EVAL_FLAG_COMPILE_ONLY);
    free(probe);
    buf_free(&src);
    engine_barrel_probing(e, part_key, -1);
    if (JS_IsException(v)) return -1;
    JS_FreeValue(e->ctx, v); /* the runtime keeps the module; it is never linked or run */
    return 0;
}

static JSModuleDef *load(JSContext *ctx, const char *key, void *opaque)
{
    engine *e = opaque;
    if (strcmp(key, AGENT_MODULE) == 0) return new_agent_module(ctx);
    if (strncmp(key, "node:", 5) == 0) return new_builtin_module(ctx, key);
    /* asked again for a module it has: the runtime finds a loaded module by name and import
     * attributes, and chidori knows a module's kind from its file, so `import(x, { with: { type:
     * "json" } })` of a module first imported without them is the same module */
    loaded_module *have = strmap_get(&e->loaded, key);
    if (have && have->def) return have->def;
    module_source *s = take_source(e, key);
    if (!s) { /* a re-export-only package module, or the part of one an importer uses */
        if (engine_barrel_of(e, key) && load_part_files(e, key) < 0) return NULL;
        have = strmap_get(&e->loaded, key);
        if (have && have->def) return have->def;
        size_t len;
        char *src = engine_barrel_source(e, key, &len);
        if (src) {
            s = xcalloc(1, sizeof *s);
            s->key = xstrdup(key);
            s->source = src;
            s->len = len;
            s->format = 'e';
        }
    }
    if (!s) {
        JS_ThrowReferenceError(ctx, "module `%s` was not resolved", key);
        return NULL;
    }
    if (s->format != 'e') {
        JSModuleDef *m = engine_cjs_module(e, s->key, s->source, s->len, s->format == 'j');
        if (m) mark_loaded(e, s->key, m);
        free_source(s);
        return m;
    }
    JSValue v = compile_module(e, s);
    JSModuleDef *m = JS_IsException(v) ? NULL : JS_VALUE_GET_PTR(v);
    if (m) mark_loaded(e, s->key, m);
    free_source(s);
    if (!m) return NULL;
    JS_FreeValue(ctx, v); /* the runtime keeps the module */
    return m;
}

#ifdef CHIDORI_ENGINE_NG
/* Import attributes: chidori knows a module's kind from its file (.json is JSON, the rest code),
 * so `type: "json"` is accepted and ignored and anything else refused. A text module in
 * particular (`type: "text"`) would hand an agent any file of its project as a string: a file's
 * text reaches an agent through the workspace effect, under the policy and in the log. (Static
 * imports' `type: "json"` clauses never get here: compile_module blanks them.) */
static int check_attributes(JSContext *ctx, void *opaque, JSValueConst attributes)
{
    (void)opaque;
    JSPropertyEnum *props = NULL;
    uint32_t n = 0;
    if (JS_GetOwnPropertyNames(ctx, &props, &n, attributes, JS_GPN_STRING_MASK | JS_GPN_ENUM_ONLY) < 0) return -1;
    int rc = 0;
    for (uint32_t i = 0; i < n && rc == 0; i++) {
        const char *key = JS_AtomToCString(ctx, props[i].atom);
        JSValue v = key ? JS_GetProperty(ctx, attributes, props[i].atom) : JS_EXCEPTION;
        size_t val_len = 0;
        const char *val = JS_IsString(v) ? JS_ToCStringLen(ctx, &val_len, v) : NULL;
        if (!key || JS_IsException(v)) {
            rc = -1;
        } else if (strcmp(key, "type") != 0) {
            JS_ThrowSyntaxError(ctx, "import attribute \"%s\" is not supported (chidori knows a module's kind from its file)",
                                key);
            rc = -1;
        } else if (!val || val_len != 4 || memcmp(val, "json", 4) != 0) {
            JS_ThrowSyntaxError(ctx, "import attribute type \"%s\" is not supported: chidori loads code and JSON modules; "
                                "read a file's text with the workspace effect", val ? val : "?");
            rc = -1;
        }
        JS_FreeCString(ctx, val);
        JS_FreeValue(ctx, v);
        JS_FreeCString(ctx, key);
    }
    JS_FreePropertyEnum(ctx, props, n);
    return rc;
}

static JSModuleDef *load_with_attributes(JSContext *ctx, const char *key, void *opaque, JSValueConst attributes)
{
    (void)attributes; /* checked by check_attributes */
    return load(ctx, key, opaque);
}
#endif

void engine_install_module_loader(engine *e)
{
    strmap_init(&e->loaded);
    strmap_init(&e->resolved);
    engine_barrels_init(e);
#ifdef CHIDORI_ENGINE_NG
    JS_SetModuleLoaderFunc2(e->rt, normalize, load_with_attributes, check_attributes, e);
#else
    JS_SetModuleLoaderFunc(e->rt, normalize, load, e);
#endif
}

int engine_load_entry(engine *e, const char *specifier, JSValue *module_value, JSModuleDef **def)
{
    char *key;
    if (fetch_module(e, NULL, specifier, &key) < 0) return -1;
    module_source *s = take_source(e, key);
    free(key);
    if (!s) {
        JS_ThrowInternalError(e->ctx, "internal error: the entry's source is missing");
        return -1;
    }
    mark_loaded(e, s->key, NULL);
    if (s->format != 'e') {
        JS_ThrowSyntaxError(e->ctx,
                            "the entry file `%s` is %s, and an agent's entry is an ES module (import { run } from "
                            "\"chidori:agent\"); import %s from it instead",
                            s->key, s->format == 'j' ? "JSON" : "CommonJS", s->format == 'j' ? "the JSON file" : "the CommonJS file");
        free_source(s);
        return -1;
    }
    JSValue v = compile_module(e, s);
    if (!JS_IsException(v)) mark_loaded(e, s->key, JS_VALUE_GET_PTR(v));
    free_source(s);
    if (JS_IsException(v)) return -1;
    *def = JS_VALUE_GET_PTR(v);
    *module_value = v;
    return 0;
}
