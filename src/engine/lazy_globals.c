/* lazy_globals.c — the accessors of the prelude's lazy globals (URL, Buffer, fetch, Intl …), made
 * in C. The prelude hands natives.defineLazyGlobals a list of global names and one function of its
 * own, `handler`; for each name this defines on the realm's global object a configurable,
 * non-enumerable accessor whose getter calls handler(i) and whose setter calls
 * handler(i, true, value), i being the name's index in the list. What a read loads, the value kept
 * for a frozen global and the data property that replaces the accessor stay the prelude's
 * (prelude.js, lazyGlobal).
 *
 * Why in C: made in JavaScript, each global cost four closures with their captured variables and
 * a descriptor object, about 22,000 instructions; here two function objects of one shared kind
 * (docs/primordials.md, Startup).
 *
 * Trusts: the prelude (the list and the handler come only from it, before guest code runs). The
 * getter and setter ignore their receiver; the index they pass is fixed when they are made, so a
 * guest holding one can only ask for the global it was made for. */
#include "engine/engine_internal.h"

/* data[0]: the prelude's handler; magic: the index of the global */
static JSValue lazy_get(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv, int magic, JSValue *data)
{
    JSValueConst args[1] = {JS_NewInt32(ctx, magic)};
    return JS_Call(ctx, data[0], JS_UNDEFINED, 1, args);
}

static JSValue lazy_set(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv, int magic, JSValue *data)
{
    JSValueConst args[3] = {JS_NewInt32(ctx, magic), JS_TRUE, argc > 0 ? argv[0] : JS_UNDEFINED};
    JSValue r = JS_Call(ctx, data[0], JS_UNDEFINED, 3, args);
    if (JS_IsException(r)) return r;
    JS_FreeValue(ctx, r);
    return JS_UNDEFINED;
}

/* defineLazyGlobals(names, handler): undefined, or throws (the prelude then fails to start) */
static JSValue native_define_lazy_globals(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    if (argc < 2 || !JS_IsFunction(ctx, argv[1])) return JS_ThrowTypeError(ctx, "internal error: defineLazyGlobals(names, handler)");
    int64_t n = 0;
    JSValue len = JS_GetPropertyStr(ctx, argv[0], "length");
    int bad = JS_ToInt64(ctx, &n, len);
    JS_FreeValue(ctx, len);
    if (bad < 0) return JS_EXCEPTION;
    if (n > 1024) return JS_ThrowRangeError(ctx, "internal error: too many lazy globals");
    JSValue global = JS_GetGlobalObject(ctx);
    for (int64_t i = 0; i < n; i++) {
        JSValue name = JS_GetPropertyUint32(ctx, argv[0], (uint32_t)i);
        JSAtom atom = JS_IsString(name) ? JS_ValueToAtom(ctx, name) : JS_ATOM_NULL;
        JS_FreeValue(ctx, name);
        if (atom == JS_ATOM_NULL) {
            JS_FreeValue(ctx, global);
            return JS_IsException(name) ? JS_EXCEPTION : JS_ThrowTypeError(ctx, "internal error: a lazy global's name is not a string");
        }
        JSValue getter = JS_NewCFunctionData(ctx, lazy_get, 0, (int)i, 1, &argv[1]);
        JSValue setter = JS_NewCFunctionData(ctx, lazy_set, 1, (int)i, 1, &argv[1]);
        int r = JS_DefinePropertyGetSet(ctx, global, atom, getter, setter, JS_PROP_CONFIGURABLE | JS_PROP_THROW);
        JS_FreeAtom(ctx, atom);
        if (r < 0) {
            JS_FreeValue(ctx, global);
            return JS_EXCEPTION;
        }
    }
    JS_FreeValue(ctx, global);
    return JS_UNDEFINED;
}

JSValue engine_lazy_globals_native(JSContext *ctx)
{
    return JS_NewCFunction(ctx, native_define_lazy_globals, "defineLazyGlobals", 2);
}
