/* locale_methods.c — the toLocaleString family the prelude puts on the builtins' prototypes
 * (Number, BigInt, Date, String, Array: they load the Intl layer on their first call), made in C.
 * The prelude hands natives.defineLocaleMethods a list of [prototype, name, length] and one function
 * of its own, `handler`; for each entry this defines on the prototype a writable, configurable,
 * non-enumerable method with that name and length which calls handler(i, this, a, b, c) (its first
 * three arguments, undefined where not given), i being the entry's index. What a call does stays
 * the prelude's (prelude.js, localeMethod).
 *
 * Why in C: made in JavaScript, each method cost a closure, an object literal (for its name) and a
 * descriptor, about 14,000 instructions of every start-up (docs/primordials.md, Startup). These are
 * native functions of QuickJS's data kind: not constructors, no prototype, and no frame of their
 * own in a stack (as the prelude's frames are dropped from a printed error).
 *
 * Trusts: the prelude (the list and the handler come only from it, before guest code runs). A guest
 * holding one of these methods can only call it as it could call the builtin it replaced. */
#include "engine/engine_internal.h"

/* data[0]: the prelude's handler; magic: the entry's index */
static JSValue locale_method(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv, int magic, JSValue *data)
{
    JSValueConst args[5] = {JS_NewInt32(ctx, magic), this_val, argc > 0 ? argv[0] : JS_UNDEFINED,
                            argc > 1 ? argv[1] : JS_UNDEFINED, argc > 2 ? argv[2] : JS_UNDEFINED};
    return JS_Call(ctx, data[0], JS_UNDEFINED, 5, args);
}

static int define_one(JSContext *ctx, JSValueConst entry, int index, JSValueConst handler)
{
    JSValue proto = JS_GetPropertyUint32(ctx, entry, 0);
    JSValue name = JS_GetPropertyUint32(ctx, entry, 1);
    JSValue length = JS_GetPropertyUint32(ctx, entry, 2);
    int32_t len = 0;
    int r = -1;
    if (JS_IsObject(proto) && JS_IsString(name) && JS_ToInt32(ctx, &len, length) == 0 && len >= 0 && len <= 3) {
        JSAtom atom = JS_ValueToAtom(ctx, name);
        JSValue fn = atom == JS_ATOM_NULL ? JS_EXCEPTION : JS_NewCFunctionData(ctx, locale_method, len, index, 1, &handler);
        if (!JS_IsException(fn) &&
            JS_DefinePropertyValueStr(ctx, fn, "name", JS_DupValue(ctx, name), JS_PROP_CONFIGURABLE) >= 0)
            r = JS_DefinePropertyValue(ctx, proto, atom, fn, JS_PROP_WRITABLE | JS_PROP_CONFIGURABLE | JS_PROP_THROW) < 0 ? -1 : 0;
        else
            JS_FreeValue(ctx, fn);
        if (atom != JS_ATOM_NULL) JS_FreeAtom(ctx, atom);
    } else if (!JS_HasException(ctx)) {
        JS_ThrowTypeError(ctx, "internal error: a locale method's entry is not [prototype, name, length 0-3]");
    }
    JS_FreeValue(ctx, proto);
    JS_FreeValue(ctx, name);
    JS_FreeValue(ctx, length);
    return r;
}

/* defineLocaleMethods(entries, handler): undefined, or throws (the prelude then fails to start) */
static JSValue native_define_locale_methods(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    if (argc < 2 || !JS_IsFunction(ctx, argv[1])) return JS_ThrowTypeError(ctx, "internal error: defineLocaleMethods(entries, handler)");
    int64_t n = 0;
    JSValue len = JS_GetPropertyStr(ctx, argv[0], "length");
    int bad = JS_ToInt64(ctx, &n, len);
    JS_FreeValue(ctx, len);
    if (bad < 0) return JS_EXCEPTION;
    if (n > 64) return JS_ThrowRangeError(ctx, "internal error: too many locale methods");
    for (int64_t i = 0; i < n; i++) {
        JSValue entry = JS_GetPropertyUint32(ctx, argv[0], (uint32_t)i);
        int r = JS_IsException(entry) ? -1 : define_one(ctx, entry, (int)i, argv[1]);
        JS_FreeValue(ctx, entry);
        if (r < 0) return JS_EXCEPTION;
    }
    return JS_UNDEFINED;
}

JSValue engine_locale_methods_native(JSContext *ctx)
{
    return JS_NewCFunction(ctx, native_define_locale_methods, "defineLocaleMethods", 2);
}
