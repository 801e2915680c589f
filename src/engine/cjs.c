/* cjs.c — the C half of CommonJS and JSON modules: the natives js/cjs.js runs on, and the
 * synthetic ES modules an `import` of a CommonJS or JSON file becomes.
 *
 * require() is synchronous, and so is every internal host call: natives.load asks the host op
 * `__module_load` (kind "require") and returns the file's key, format and source at once, in
 * process or through an isolated worker's frame alike; the engine never opens a file. compile()
 * wraps a CommonJS source in its module function on the source's first line, so stack traces and
 * syntax errors keep the file's own lines. Trusts nothing in the sources: they run as any agent
 * code does, and the export names come from cjs_scan (bounded).
 */
#define _GNU_SOURCE
#include "engine/cjs_scan.h"
#include "engine/engine_internal.h"
#include "util/buf.h"

#include <stdlib.h>
#include <string.h>

int engine_module_request(engine *e, const char *specifier, const char *importer, const char *kind, unsigned flags,
                          json_t **res, char **error)
{
    json_t *args = json_object();
    json_object_set(args, "specifier", json_string(specifier));
    json_object_set(args, "importer", importer ? json_string(importer) : json_null());
    json_object_set(args, "kind", json_string(kind));
    if (flags & MODULE_REQ_BUILTIN) json_object_set(args, "builtin", json_bool(true));
    if (flags & MODULE_REQ_FULL) json_object_set(args, "full", json_bool(true));
    *res = NULL;
    *error = NULL;
    int rc = e->seam.internal ? e->seam.internal(e->seam.ctx, "__module_load", args, res, error)
                              : (*error = xstrdup("module load: this run has no module loader"), HOST_ERROR);
    json_free(args);
    if (rc != 0) {
        json_free(*res);
        *res = NULL;
        if (!*error) *error = xstrdup("module load failed");
        return -1;
    }
    return 0;
}

/* An Error with the host's message; `code` as Node sets it for a module that is not there
 * (MODULE_NOT_FOUND, which packages test around optional dependencies), or ours for a refusal. */
static JSValue throw_error(JSContext *ctx, const char *msg)
{
    JSValue err = JS_NewError(ctx);
    if (!JS_IsException(err)) {
        JS_DefinePropertyValueStr(ctx, err, "message", JS_NewString(ctx, msg), JS_PROP_WRITABLE | JS_PROP_CONFIGURABLE);
        const char *code = strncmp(msg, "cannot find ", 12) == 0 ? "MODULE_NOT_FOUND" : "ERR_CHIDORI_MODULE_REFUSED";
        JS_DefinePropertyValueStr(ctx, err, "code", JS_NewString(ctx, code),
                                  JS_PROP_WRITABLE | JS_PROP_CONFIGURABLE | JS_PROP_ENUMERABLE);
    }
    return JS_Throw(ctx, err);
}

/* Asks the host about (specifier, importer) from argv, as a require() would (builtin: only whether
 * the import policy lets a Node built-in in). 0 with *res, or -1 with a JS exception thrown. */
static int request_from_args(JSContext *ctx, int argc, JSValueConst *argv, bool builtin, json_t **res)
{
    const char *spec = argc > 1 ? JS_ToCString(ctx, argv[0]) : NULL;
    const char *imp = spec ? JS_ToCString(ctx, argv[1]) : NULL;
    if (!imp) {
        JS_FreeCString(ctx, spec);
        if (argc < 2) JS_ThrowTypeError(ctx, "load: expected (specifier, importer)");
        return -1;
    }
    char *error;
    int rc = engine_module_request(engine_of(ctx), spec, imp, "require", builtin ? MODULE_REQ_BUILTIN : 0, res, &error);
    JS_FreeCString(ctx, spec);
    JS_FreeCString(ctx, imp);
    if (rc < 0) {
        throw_error(ctx, error);
        free(error);
        return -1;
    }
    return 0;
}

/* load(specifier, importer) → {key, format, source}, or throws the host's error. */
static JSValue native_load(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    json_t *res;
    if (request_from_args(ctx, argc, argv, false, &res) < 0) return JS_EXCEPTION;
    const json_t *key = json_object_get(res, "key"), *fmt = json_object_get(res, "format"),
                 *src = json_object_get(res, "source");
    if (!json_is_string(key) || !json_is_string(fmt) || !json_is_string(src)) {
        json_free(res);
        return JS_ThrowInternalError(ctx, "module load: malformed host reply");
    }
    /* no prototype, and defined (not set): a setter a package put on Object.prototype must not
     * see or replace the key cjs.js reads back */
    JSValue o = JS_NewObjectProto(ctx, JS_NULL);
    JS_DefinePropertyValueStr(ctx, o, "key", JS_NewStringLen(ctx, key->u.string.bytes, key->u.string.len), JS_PROP_C_W_E);
    JS_DefinePropertyValueStr(ctx, o, "format", JS_NewStringLen(ctx, fmt->u.string.bytes, fmt->u.string.len), JS_PROP_C_W_E);
    JS_DefinePropertyValueStr(ctx, o, "source", JS_NewStringLen(ctx, src->u.string.bytes, src->u.string.len), JS_PROP_C_W_E);
    json_free(res);
    return o;
}

/* allowBuiltin(specifier, importer): throws when the import policy refuses Node built-ins. */
static JSValue native_allow_builtin(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    json_t *res;
    if (request_from_args(ctx, argc, argv, true, &res) < 0) return JS_EXCEPTION;
    json_free(res);
    return JS_UNDEFINED;
}

/* compile(source, key) → the module function (exports, require, module, __filename, __dirname,
 * process). */
static JSValue native_compile(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    size_t len;
    const char *src = argc > 1 ? JS_ToCStringLen(ctx, &len, argv[0]) : NULL;
    const char *key = src ? JS_ToCString(ctx, argv[1]) : NULL;
    if (!key) {
        JS_FreeCString(ctx, src);
        return JS_EXCEPTION;
    }
    buf b = {0};
    buf_puts(&b, "(function (exports, require, module, __filename, __dirname, process) {");
    size_t body = b.len;
    buf_append(&b, src, len);
    if (len >= 2 && src[0] == '#' && src[1] == '!') b.data[body] = b.data[body + 1] = '/'; /* a shebang line */
    buf_puts(&b, "\n})");
    JSValue fn = JS_Eval(ctx, b.data, b.len, key, JS_EVAL_TYPE_GLOBAL);
    if (JS_IsException(fn)) {
        JSValue exc = JS_GetException(ctx);
        engine_annotate_syntax_error(ctx, exc, key, src, len);
        JS_Throw(ctx, exc);
    }
    buf_free(&b);
    JS_FreeCString(ctx, src);
    JS_FreeCString(ctx, key);
    return fn;
}

JSValue engine_cjs(engine *e)
{
    if (e->cjs_ready) return e->cjs;
    JSContext *ctx = e->ctx;
    const embedded_file *f = engine_embedded("cjs.js");
    if (!f) return JS_ThrowInternalError(ctx, "internal error: cjs.js missing from the binary");
    JSValue code = JS_ReadObject(ctx, f->data, f->len, JS_READ_OBJ_BYTECODE);
    JSValue fn = JS_IsException(code) ? code : JS_EvalFunction(ctx, code);
    if (JS_IsException(fn)) return fn;
    JSValue natives = JS_NewObjectProto(ctx, JS_NULL);
    JS_SetPropertyStr(ctx, natives, "load", JS_NewCFunction(ctx, native_load, "load", 2));
    JS_SetPropertyStr(ctx, natives, "allowBuiltin", JS_NewCFunction(ctx, native_allow_builtin, "allowBuiltin", 2));
    JS_SetPropertyStr(ctx, natives, "compile", JS_NewCFunction(ctx, native_compile, "compile", 2));
    JS_SetPropertyStr(ctx, natives, "builtinName", JS_GetPropertyStr(ctx, e->internals, "builtinName"));
    JS_SetPropertyStr(ctx, natives, "requireBuiltin", JS_GetPropertyStr(ctx, e->internals, "requireBuiltin"));
    JS_SetPropertyStr(ctx, natives, "agentExports", JS_GetPropertyStr(ctx, e->internals, "agentExports"));
    JSValue reg = JS_Call(ctx, fn, JS_UNDEFINED, 1, (JSValueConst *)&natives);
    JS_FreeValue(ctx, natives);
    JS_FreeValue(ctx, fn);
    if (JS_IsException(reg)) return reg;
    e->cjs = reg;
    e->cjs_ready = true;
    return reg;
}

static JSValue call_registry(engine *e, const char *method, int argc, JSValue *argv)
{
    JSValue reg = engine_cjs(e);
    if (JS_IsException(reg)) return reg;
    JSValue fn = JS_GetPropertyStr(e->ctx, reg, method);
    JSValue r = JS_Call(e->ctx, fn, reg, argc, (JSValueConst *)argv);
    JS_FreeValue(e->ctx, fn);
    return r;
}

static int cjs_module_init(JSContext *ctx, JSModuleDef *m)
{
    engine *e = engine_of(ctx);
    JSAtom name_atom = JS_GetModuleName(ctx, m);
    JSValue key = JS_AtomToString(ctx, name_atom);
    JS_FreeAtom(ctx, name_atom);
    if (JS_IsException(key)) return -1;
    JSValue names = call_registry(e, "names", 1, &key);
    JSValue exports = JS_IsException(names) ? JS_EXCEPTION : call_registry(e, "evaluate", 1, &key);
    JS_FreeValue(ctx, key);
    if (JS_IsException(exports)) {
        JS_FreeValue(ctx, names);
        return -1;
    }
    int rc = 0;
    int64_t n = 0;
    JSValue lenv = JS_GetPropertyStr(ctx, names, "length");
    JS_ToInt64(ctx, &n, lenv);
    JS_FreeValue(ctx, lenv);
    for (int64_t i = 0; i < n && rc == 0; i++) {
        JSValue nm = JS_GetPropertyUint32(ctx, names, (uint32_t)i);
        const char *s = JS_ToCString(ctx, nm);
        JS_FreeValue(ctx, nm);
        if (!s) {
            rc = -1;
            break;
        }
        JSValue v = JS_IsObject(exports) || JS_IsFunction(ctx, exports) ? JS_GetPropertyStr(ctx, exports, s) : JS_UNDEFINED;
        if (JS_IsException(v)) rc = -1;
        else rc = JS_SetModuleExport(ctx, m, s, v);
        JS_FreeCString(ctx, s);
    }
    JS_FreeValue(ctx, names);
    if (rc == 0) rc = JS_SetModuleExport(ctx, m, "default", exports);
    else JS_FreeValue(ctx, exports);
    return rc < 0 ? -1 : 0;
}

JSModuleDef *engine_cjs_module(engine *e, const char *key, const char *source, size_t len, bool json)
{
    JSContext *ctx = e->ctx;
    cjs_names scan = {0};
    if (!json) cjs_scan(source, len, &scan);
    JSValue names = JS_NewArray(ctx);
    for (size_t i = 0; i < scan.len; i++) JS_SetPropertyUint32(ctx, names, (uint32_t)i, JS_NewString(ctx, scan.names[i]));
    JSValue args[4] = {JS_NewString(ctx, key), JS_NewString(ctx, json ? "json" : "cjs"), JS_NewStringLen(ctx, source, len),
                       names};
    JSValue r = call_registry(e, "register", 4, args);
    for (int i = 0; i < 4; i++) JS_FreeValue(ctx, args[i]);
    JSModuleDef *m = NULL;
    if (!JS_IsException(r) && (m = JS_NewCModule(ctx, key, cjs_module_init))) {
        int rc = JS_AddModuleExport(ctx, m, "default");
        for (size_t i = 0; i < scan.len && rc == 0; i++) rc = JS_AddModuleExport(ctx, m, scan.names[i]);
        if (rc < 0) m = NULL;
    }
    JS_FreeValue(ctx, r);
    cjs_names_free(&scan);
    return m;
}
