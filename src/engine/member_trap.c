/* member_trap.c — the get trap of the chidori object's prototype (prelude.js, memberMisses), and
 * the stand-in for a member this runtime lacks.
 *
 * natives.memberTrap(reflectGet) makes the trap. The chidori object guest code gets holds every
 * real member as its own property, so a member's read never reaches here; a name it lacks goes to
 * its prototype, a Proxy over a frozen empty object, and so to this trap. For a string key the
 * target has as its own data property it answers that value; a string key the target lacks
 * entirely (not even inherited), other than the names a value is probed for (then, toJSON), gets
 * its stand-in, made once per name and kept; anything else (a symbol, an inherited name such as
 * toString, an accessor) goes to the Reflect.get captured before guest code ran, with the receiver
 * the trap was given (the chidori object), exactly as a JavaScript trap would.
 *
 * Why in C, and why behind the members: every `chidori.x` an agent reads went through a
 * JavaScript trap on a Proxy of the whole object (about 1,900 instructions a read), then through
 * this trap in C (about 800); now a real member is a plain property read.
 *
 * A stand-in: calling it throws an error naming
 * the member; it is marked IsHTMLDDA (the annex-B `document.all` behaviour QuickJS keeps), so
 * `typeof` says "undefined", it is falsy and `== null`: feature detection sees no member.
 *
 * Trusts: the prelude (it alone holds natives, before guest code runs). A guest holding the proxy
 * reaches the trap only through it; the stand-ins' store has no prototype and is never exposed. */
#include "engine/engine_internal.h"

static JSValue unavailable_member_call(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv, int magic,
                                       JSValue *data)
{
    const char *name = JS_ToCString(ctx, data[0]);
    if (!name) return JS_EXCEPTION;
    JSValue err = JS_ThrowTypeError(ctx, "chidori.%s is not available in this runtime", name);
    JS_FreeCString(ctx, name);
    return err;
}

static JSValue make_stand_in(JSContext *ctx, JSValueConst name)
{
    JSValue fn = JS_NewCFunctionData(ctx, unavailable_member_call, 0, 0, 1, &name);
    if (!JS_IsException(fn)) JS_SetIsHTMLDDA(ctx, fn);
    return fn;
}

/* data[0]: Reflect.get; data[1]: the stand-ins made so far (no prototype), by name */
static JSValue member_get(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv, int magic, JSValue *data)
{
    if (argc >= 3 && JS_IsString(argv[1]) && JS_IsObject(argv[0])) {
        JSAtom key = JS_ValueToAtom(ctx, argv[1]);
        if (key == JS_ATOM_NULL) return JS_EXCEPTION;
        JSPropertyDescriptor d;
        int own = JS_GetOwnProperty(ctx, &d, argv[0], key);
        if (own < 0) {
            JS_FreeAtom(ctx, key);
            return JS_EXCEPTION;
        }
        if (own) {
            JS_FreeValue(ctx, d.getter);
            JS_FreeValue(ctx, d.setter);
            if (!(d.flags & JS_PROP_GETSET)) {
                JS_FreeAtom(ctx, key);
                return d.value;
            }
            JS_FreeValue(ctx, d.value);
        } else {
            int has = JS_HasProperty(ctx, argv[0], key);
            const engine *e = JS_GetContextOpaque(ctx);
            if (has < 0) {
                JS_FreeAtom(ctx, key);
                return JS_EXCEPTION;
            }
            if (!has && key != e->atom_then && key != e->atom_to_json) {
                JSValue s = JS_GetProperty(ctx, data[1], key);
                if (JS_IsUndefined(s)) {
                    s = make_stand_in(ctx, argv[1]);
                    if (!JS_IsException(s) && JS_DefinePropertyValue(ctx, data[1], key, JS_DupValue(ctx, s), JS_PROP_C_W_E) < 0) {
                        JS_FreeValue(ctx, s);
                        s = JS_EXCEPTION;
                    }
                }
                JS_FreeAtom(ctx, key);
                return s;
            }
        }
        JS_FreeAtom(ctx, key);
    }
    return JS_Call(ctx, data[0], JS_UNDEFINED, argc < 3 ? argc : 3, argv);
}

/* natives.memberTrap(reflectGet): the proxy's get trap, with its own store of stand-ins */
static JSValue native_member_trap(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    if (argc < 1 || !JS_IsFunction(ctx, argv[0])) return JS_ThrowTypeError(ctx, "memberTrap: Reflect.get expected");
    JSValue store = JS_NewObjectProto(ctx, JS_NULL);
    if (JS_IsException(store)) return store;
    JSValueConst data[2] = {argv[0], store};
    JSValue fn = JS_NewCFunctionData(ctx, member_get, 3, 0, 2, data);
    JS_FreeValue(ctx, store);
    /* named as the JavaScript trap was (`get`), for util.inspect with showProxy and stack frames */
    if (!JS_IsException(fn) && JS_DefinePropertyValueStr(ctx, fn, "name", JS_NewString(ctx, "get"), JS_PROP_CONFIGURABLE) < 0) {
        JS_FreeValue(ctx, fn);
        return JS_EXCEPTION;
    }
    return fn;
}

void engine_add_member_natives(JSContext *ctx, JSValueConst natives)
{
    JS_SetPropertyStr(ctx, natives, "memberTrap", JS_NewCFunction(ctx, native_member_trap, "memberTrap", 1));
}
