/* temporal.c — `Temporal`, loaded on first touch. The global starts as an accessor (non-enumerable,
 * configurable, like the standard data property); its getter compiles nothing: it reads the
 * bytecode of the pinned polyfill (temporal.js, built from deps/temporal.lock by the Makefile),
 * runs it once, and replaces itself with the data property {writable, configurable, not
 * enumerable}. A run that never reads `Temporal` never loads it: no bytecode read, no objects.
 * Assigning `Temporal` before any read replaces the accessor without loading anything.
 *
 * The polyfill runs as guest-realm code (src/engine/temporal/head.js says what it may touch). Its
 * only clock is Date.now(), the run's virtual clock (the engine's clock hook), so Temporal.Now
 * reads the same time as Date and replays identically; the polyfill is handed Date.now as captured
 * here, before any guest code ran, so a guest that replaces Date.now does not move Temporal.Now. Time zones other than UTC and fixed
 * offsets resolve through the realm's Intl.DateTimeFormat when it has one.
 *
 * Trusts: the embedded bytecode (built with this engine); nothing from the guest. The getter and
 * setter always act on the realm's global object, whatever receiver they are called with. */
#include "engine/engine_internal.h"

static int define_data(JSContext *ctx, JSValue value)
{
    JSValue global = JS_GetGlobalObject(ctx);
    int r = JS_DefinePropertyValueStr(ctx, global, "Temporal", value, JS_PROP_WRITABLE | JS_PROP_CONFIGURABLE);
    JS_FreeValue(ctx, global);
    return r;
}

/* data[0]: Date.now as it was before any guest code ran (the virtual clock's native); data[1]: Date;
 * data[2]: the loaded Temporal, kept for a global the guest froze before the first read (the data
 * property cannot replace the accessor then, and every read must still give the same object). */
static JSValue temporal_get(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv, int magic,
                            JSValue *data)
{
    if (JS_IsObject(data[2])) return JS_DupValue(ctx, data[2]);
    const embedded_file *f = engine_embedded("temporal.js");
    if (!f) return JS_ThrowReferenceError(ctx, "internal error: Temporal is missing from the binary");
    JSValue code = JS_ReadObject(ctx, f->data, f->len, JS_READ_OBJ_BYTECODE);
    JSValue factory = JS_IsException(code) ? code : JS_EvalFunction(ctx, code);
    if (JS_IsException(factory)) return factory;
    JSValue global = JS_GetGlobalObject(ctx);
    JSValue intl = JS_GetPropertyStr(ctx, global, "Intl");
    JS_FreeValue(ctx, global);
    if (JS_IsException(intl)) {
        JS_FreeValue(ctx, factory);
        return intl;
    }
    JSValueConst args[3] = {intl, data[0], data[1]};
    JSValue temporal = JS_Call(ctx, factory, JS_UNDEFINED, 3, args);
    JS_FreeValue(ctx, intl);
    JS_FreeValue(ctx, factory);
    if (JS_IsException(temporal)) return temporal; /* the accessor stays: the next read tries again */
    if (!JS_IsObject(temporal)) {
        JS_FreeValue(ctx, temporal);
        return JS_ThrowTypeError(ctx, "internal error: the Temporal polyfill installed nothing");
    }
    data[2] = JS_DupValue(ctx, temporal);
    if (define_data(ctx, JS_DupValue(ctx, temporal)) < 0) {
        /* a frozen or sealed global: the accessor stays and serves the kept object */
        JS_FreeValue(ctx, JS_GetException(ctx));
    }
    return temporal;
}

static JSValue temporal_set(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    if (define_data(ctx, JS_DupValue(ctx, argc > 0 ? argv[0] : JS_UNDEFINED)) < 0) return JS_EXCEPTION;
    return JS_UNDEFINED;
}

/* Date.prototype.toTemporalInstant, which the polyfill adds, is lazy too: the first read loads
 * Temporal (data[0]: the Temporal getter), whose install replaces this accessor with the standard
 * method; the read then gives that method. data[1]: Date.prototype as it was at start. */
static JSValue to_instant_get(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv, int magic,
                              JSValue *data)
{
    JSValue temporal = JS_Call(ctx, data[0], JS_UNDEFINED, 0, NULL);
    if (JS_IsException(temporal)) return temporal;
    JS_FreeValue(ctx, temporal);
    JSPropertyDescriptor desc;
    JSAtom name = JS_NewAtom(ctx, "toTemporalInstant");
    int has = JS_GetOwnProperty(ctx, &desc, data[1], name);
    JS_FreeAtom(ctx, name);
    if (has < 0) return JS_EXCEPTION;
    if (has) {
        JS_FreeValue(ctx, desc.getter);
        JS_FreeValue(ctx, desc.setter);
        if (!(desc.flags & JS_PROP_GETSET)) return desc.value; /* the polyfill's method */
        JS_FreeValue(ctx, desc.value);
    }
    return JS_UNDEFINED; /* the guest replaced Temporal's install: nothing to give */
}

static JSValue to_instant_set(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv, int magic,
                              JSValue *data)
{
    if (JS_DefinePropertyValueStr(ctx, data[0], "toTemporalInstant", JS_DupValue(ctx, argc > 0 ? argv[0] : JS_UNDEFINED),
                                  JS_PROP_WRITABLE | JS_PROP_CONFIGURABLE) < 0)
        return JS_EXCEPTION;
    return JS_UNDEFINED;
}

static int install_to_instant(JSContext *ctx, JSValueConst date, JSValueConst temporal_getter)
{
    JSValue proto = JS_GetPropertyStr(ctx, date, "prototype");
    if (!JS_IsObject(proto)) {
        JS_FreeValue(ctx, proto);
        return -1;
    }
    JSValue get_data[2] = {(JSValue)temporal_getter, proto};
    JSValue getter = JS_NewCFunctionData(ctx, to_instant_get, 0, 0, 2, (JSValueConst *)get_data);
    JSValue setter = JS_NewCFunctionData(ctx, to_instant_set, 1, 0, 1, (JSValueConst *)&proto);
    JSAtom name = JS_NewAtom(ctx, "toTemporalInstant");
    int r = JS_DefinePropertyGetSet(ctx, proto, name, getter, setter, JS_PROP_CONFIGURABLE);
    JS_FreeAtom(ctx, name);
    JS_FreeValue(ctx, proto);
    return r < 0 ? -1 : 0;
}

int engine_install_temporal(JSContext *ctx)
{
    JSValue global = JS_GetGlobalObject(ctx);
    JSValue date = JS_GetPropertyStr(ctx, global, "Date");
    JSValue now = JS_GetPropertyStr(ctx, date, "now");
    if (!JS_IsFunction(ctx, date) || !JS_IsFunction(ctx, now)) {
        JS_FreeValue(ctx, now);
        JS_FreeValue(ctx, date);
        JS_FreeValue(ctx, global);
        JS_ThrowInternalError(ctx, "internal error: Date.now is missing when Temporal is installed");
        return -1;
    }
    JSValue data[3] = {now, date, JS_UNDEFINED};
    JSValue getter = JS_NewCFunctionData(ctx, temporal_get, 0, 0, 3, (JSValueConst *)data);
    JS_FreeValue(ctx, now);
    int r = JS_IsException(getter) ? -1 : install_to_instant(ctx, date, getter);
    JS_FreeValue(ctx, date);
    JSValue setter = JS_NewCFunction2(ctx, temporal_set, "set Temporal", 1, JS_CFUNC_generic, 0);
    JSAtom name = JS_NewAtom(ctx, "Temporal");
    if (r == 0) r = JS_DefinePropertyGetSet(ctx, global, name, getter, setter, JS_PROP_CONFIGURABLE);
    else {
        JS_FreeValue(ctx, getter);
        JS_FreeValue(ctx, setter);
    }
    JS_FreeAtom(ctx, name);
    JS_FreeValue(ctx, global);
    return r < 0 ? -1 : 0;
}
