/* esnext.c — installs the built-ins we write in JavaScript (the files of src/engine/js/esnext: iterator
 * helpers, Set methods, Array.fromAsync, DisposableStack...) into a fresh context, before the
 * prelude and any guest code.
 *
 * Each embedded file named esnext/... is compiled bytecode whose value is a function; they are
 * called in name order with a shared, null-prototype `lib` object (00-lib.js fills it with the
 * spec's abstract operations) and `natives`, the C helpers JavaScript cannot express (an
 * [[ErrorData]] check, detaching an ArrayBuffer and asking whether one is). Neither object is ever reachable from guest code.
 *
 * Trusts: the embedded bytecode (built from our own sources by tools/compile_js.c).
 */
#include "engine/engine_internal.h"

#include <string.h>

extern const embedded_file embedded_js[];

/* Error.isError's test: an object with [[ErrorData]] (not a proxy of one; no property is read). */
static JSValue native_is_error(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    (void)this_val;
    return JS_NewBool(ctx, argc > 0 && JS_IsError(ctx, argv[0]));
}

/* IsDetachedBuffer, for an object the caller has checked is an ArrayBuffer. */
static JSValue native_is_detached(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    (void)this_val;
    if (argc < 1) return JS_FALSE;
    size_t n;
    if (JS_GetArrayBuffer(ctx, &n, argv[0]) || !JS_HasException(ctx)) return JS_FALSE;
    JS_FreeValue(ctx, JS_GetException(ctx)); /* the engine's "detached" error: the answer */
    return JS_TRUE;
}

/* DetachArrayBuffer (ArrayBuffer.prototype.transfer; a no-op on anything else). */
static JSValue native_detach(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    (void)this_val;
    if (argc > 0) JS_DetachArrayBuffer(ctx, argv[0]);
    return JS_UNDEFINED;
}

int engine_install_esnext(JSContext *ctx)
{
    JSValue lib = JS_NewObjectProto(ctx, JS_NULL);
    JSValue natives = JS_NewObjectProto(ctx, JS_NULL);
    JS_SetPropertyStr(ctx, natives, "isError", JS_NewCFunction(ctx, native_is_error, "isError", 1));
    JS_SetPropertyStr(ctx, natives, "isDetached", JS_NewCFunction(ctx, native_is_detached, "isDetached", 1));
    JS_SetPropertyStr(ctx, natives, "detach", JS_NewCFunction(ctx, native_detach, "detach", 1));
    int rc = 0;
    for (const embedded_file *f = embedded_js; f->name && rc == 0; f++) {
        if (strncmp(f->name, "esnext/", 7) != 0) continue;
        JSValue code = JS_ReadObject(ctx, f->data, f->len, JS_READ_OBJ_BYTECODE);
        JSValue fn = JS_IsException(code) ? code : JS_EvalFunction(ctx, code);
        if (JS_IsException(fn)) {
            rc = -1;
            break;
        }
        JSValue args[2] = {lib, natives};
        JSValue r = JS_Call(ctx, fn, JS_UNDEFINED, 2, (JSValueConst *)args);
        JS_FreeValue(ctx, fn);
        if (JS_IsException(r)) rc = -1;
        JS_FreeValue(ctx, r);
    }
    JS_FreeValue(ctx, natives);
    JS_FreeValue(ctx, lib);
    return rc;
}
