/* esnext.c — the built-ins chidori adds in its own JavaScript (the files of src/engine/js/esnext:
 * iterator helpers, Set methods, Array.fromAsync, DisposableStack...), installed in every context
 * before the prelude and any guest code, at almost no cost to a run that never uses them.
 *
 * At set-up only esnext/00-captures.js runs (it captures the intrinsics the built-ins will use and
 * creates Symbol.dispose/asyncDispose); every built-in is then a C stub with the spec's name,
 * length and property attributes (methods through QuickJS function lists, which create each stub
 * on first access), constructors and prototypes are made here. The first call of any stub loads
 * the other files of esnext/ (bytecode, in name order), which register their implementations by
 * name ("Set.prototype.union", "get Iterator.prototype.constructor", "DisposableStack.construct");
 * a stub calls its implementation with the same `this` and arguments (a constructor stub passes
 * newTarget as `this`).
 *
 * The state (captures, the implementations, the lib object the files share) hangs off the engine
 * (e->esnext); none of it is reachable from guest code.
 *
 * On quickjs-ng (CHIDORI_ENGINE_NG), which has all of these natively, only Array.fromAsync is
 * ours: ng's own is a JavaScript function that calls guest-replaceable methods (mapFn.call,
 * method.call) and closes the iterator after a normal end. The rest stay ng's.
 *
 * Trusts: the embedded bytecode (built from our own sources by tools/compile_js.c).
 */
#include "engine/engine_internal.h"

#include <math.h>
#include <string.h>

extern const embedded_file embedded_js[];

enum {
    I_ITERATOR, I_ITER_FROM, I_ITER_CONCAT, I_MAP, I_FILTER, I_TAKE, I_DROP, I_FLATMAP, I_REDUCE, I_TOARRAY, I_FOREACH,
    I_SOME, I_EVERY, I_FIND, I_GET_CTOR, I_SET_CTOR, I_GET_TAG, I_SET_TAG, I_ITER_DISPOSE, I_ASYNC_ITER_DISPOSE,
    I_UNION, I_INTERSECTION, I_DIFFERENCE, I_SYMDIFF, I_SUBSET, I_SUPERSET, I_DISJOINT,
    I_FROM_ASYNC, I_PROMISE_TRY, I_ESCAPE, I_SUM_PRECISE, I_F16ROUND,
    I_MAP_GOI, I_MAP_GOIC, I_WEAKMAP_GOI, I_WEAKMAP_GOIC, I_GET_F16, I_SET_F16,
    I_FROM_BASE64, I_FROM_HEX, I_TO_BASE64, I_TO_HEX, I_SET_FROM_BASE64, I_SET_FROM_HEX,
    I_TRANSFER, I_TRANSFER_FIXED, I_GET_DETACHED,
    I_SUPPRESSED, I_DS, I_DS_ADOPT, I_DS_DEFER, I_DS_DISPOSE, I_DS_DISPOSED, I_DS_MOVE, I_DS_USE,
    I_ADS, I_ADS_ADOPT, I_ADS_DEFER, I_ADS_DISPOSE, I_ADS_DISPOSED, I_ADS_MOVE, I_ADS_USE,
    I_COUNT
};

/* The name each implementation registers under (js/esnext/01-lib.js `register`). */
static const char *const impl_names[I_COUNT] = {
    [I_ITERATOR] = "Iterator.construct", [I_ITER_FROM] = "Iterator.from", [I_ITER_CONCAT] = "Iterator.concat",
    [I_MAP] = "Iterator.prototype.map", [I_FILTER] = "Iterator.prototype.filter", [I_TAKE] = "Iterator.prototype.take",
    [I_DROP] = "Iterator.prototype.drop", [I_FLATMAP] = "Iterator.prototype.flatMap",
    [I_REDUCE] = "Iterator.prototype.reduce", [I_TOARRAY] = "Iterator.prototype.toArray",
    [I_FOREACH] = "Iterator.prototype.forEach", [I_SOME] = "Iterator.prototype.some",
    [I_EVERY] = "Iterator.prototype.every", [I_FIND] = "Iterator.prototype.find",
    [I_GET_CTOR] = "get Iterator.prototype.constructor", [I_SET_CTOR] = "set Iterator.prototype.constructor",
    [I_GET_TAG] = "get Iterator.prototype.@@toStringTag", [I_SET_TAG] = "set Iterator.prototype.@@toStringTag",
    [I_ITER_DISPOSE] = "Iterator.prototype.@@dispose", [I_ASYNC_ITER_DISPOSE] = "AsyncIteratorPrototype.@@asyncDispose",
    [I_UNION] = "Set.prototype.union", [I_INTERSECTION] = "Set.prototype.intersection",
    [I_DIFFERENCE] = "Set.prototype.difference", [I_SYMDIFF] = "Set.prototype.symmetricDifference",
    [I_SUBSET] = "Set.prototype.isSubsetOf", [I_SUPERSET] = "Set.prototype.isSupersetOf",
    [I_DISJOINT] = "Set.prototype.isDisjointFrom", [I_FROM_ASYNC] = "Array.fromAsync", [I_PROMISE_TRY] = "Promise.try",
    [I_ESCAPE] = "RegExp.escape", [I_SUM_PRECISE] = "Math.sumPrecise", [I_F16ROUND] = "Math.f16round",
    [I_MAP_GOI] = "Map.prototype.getOrInsert", [I_MAP_GOIC] = "Map.prototype.getOrInsertComputed",
    [I_WEAKMAP_GOI] = "WeakMap.prototype.getOrInsert", [I_WEAKMAP_GOIC] = "WeakMap.prototype.getOrInsertComputed",
    [I_GET_F16] = "DataView.prototype.getFloat16", [I_SET_F16] = "DataView.prototype.setFloat16",
    [I_FROM_BASE64] = "Uint8Array.fromBase64", [I_FROM_HEX] = "Uint8Array.fromHex",
    [I_TO_BASE64] = "Uint8Array.prototype.toBase64", [I_TO_HEX] = "Uint8Array.prototype.toHex",
    [I_SET_FROM_BASE64] = "Uint8Array.prototype.setFromBase64", [I_SET_FROM_HEX] = "Uint8Array.prototype.setFromHex",
    [I_TRANSFER] = "ArrayBuffer.prototype.transfer", [I_TRANSFER_FIXED] = "ArrayBuffer.prototype.transferToFixedLength",
    [I_GET_DETACHED] = "get ArrayBuffer.prototype.detached", [I_SUPPRESSED] = "SuppressedError.construct",
    [I_DS] = "DisposableStack.construct", [I_DS_ADOPT] = "DisposableStack.prototype.adopt",
    [I_DS_DEFER] = "DisposableStack.prototype.defer", [I_DS_DISPOSE] = "DisposableStack.prototype.dispose",
    [I_DS_DISPOSED] = "get DisposableStack.prototype.disposed", [I_DS_MOVE] = "DisposableStack.prototype.move",
    [I_DS_USE] = "DisposableStack.prototype.use", [I_ADS] = "AsyncDisposableStack.construct",
    [I_ADS_ADOPT] = "AsyncDisposableStack.prototype.adopt", [I_ADS_DEFER] = "AsyncDisposableStack.prototype.defer",
    [I_ADS_DISPOSE] = "AsyncDisposableStack.prototype.disposeAsync",
    [I_ADS_DISPOSED] = "get AsyncDisposableStack.prototype.disposed", [I_ADS_MOVE] = "AsyncDisposableStack.prototype.move",
    [I_ADS_USE] = "AsyncDisposableStack.prototype.use",
};

/* ---------- natives handed to the JavaScript ---------- */

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

#ifndef CHIDORI_ENGINE_NG /* (what ng has natively) */
/* ---------- built-ins written in C ---------- */

/* Error.isError: an object with [[ErrorData]] (a Proxy of an error is not one; nothing is read). */
static JSValue error_is_error(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    (void)this_val;
    return JS_NewBool(ctx, argc > 0 && JS_IsError(ctx, argv[0]));
}

/* Atomics.pause(N): N must be undefined or an integral Number; a spin-wait hint, nothing to do. */
static JSValue atomics_pause(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    (void)this_val;
    if (argc == 0 || JS_IsUndefined(argv[0])) return JS_UNDEFINED;
    if (JS_IsNumber(argv[0])) {
        double d;
        JS_ToFloat64(ctx, &d, argv[0]);
        if (isfinite(d) && trunc(d) == d) return JS_UNDEFINED;
    }
    return JS_ThrowTypeError(ctx, "Atomics.pause: the argument must be undefined or an integral number");
}
#endif

/* ---------- the lazy half ---------- */

/* Loads the files of esnext/ after 00-captures.js once, filling state.impl. */
static int load_impls(JSContext *ctx, JSValueConst state)
{
    JSValue lib = JS_GetPropertyStr(ctx, state, "lib");
    JSValue natives = JS_NewObjectProto(ctx, JS_NULL);
    JS_SetPropertyStr(ctx, natives, "isDetached", JS_NewCFunction(ctx, native_is_detached, "isDetached", 1));
    JS_SetPropertyStr(ctx, natives, "detach", JS_NewCFunction(ctx, native_detach, "detach", 1));
    int rc = 0;
    for (const embedded_file *f = embedded_js; f->name && rc == 0; f++) {
        if (strncmp(f->name, "esnext/", 7) != 0 || strncmp(f->name, "esnext/00-captures", 18) == 0) continue;
#ifdef CHIDORI_ENGINE_NG
        if (strcmp(f->name, "esnext/01-lib.js") != 0 && strcmp(f->name, "esnext/fromasync.js") != 0) continue;
#endif
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

/* The implementation registered for stub `magic` (loading them all on first use), or JS_EXCEPTION. */
static JSValue impl_of(JSContext *ctx, int magic)
{
    engine *e = engine_of(ctx);
    if (!e || !JS_IsObject(e->esnext)) return JS_ThrowInternalError(ctx, "internal error: esnext built-ins missing");
    JSValue impl = JS_GetPropertyStr(ctx, e->esnext, "impl");
    JSValue fn = JS_GetPropertyStr(ctx, impl, impl_names[magic]);
    if (JS_IsUndefined(fn)) {
        if (load_impls(ctx, e->esnext) < 0) {
            JS_FreeValue(ctx, impl);
            return JS_EXCEPTION;
        }
        fn = JS_GetPropertyStr(ctx, impl, impl_names[magic]);
    }
    JS_FreeValue(ctx, impl);
    if (!JS_IsFunction(ctx, fn)) {
        JS_FreeValue(ctx, fn);
        return JS_ThrowInternalError(ctx, "internal error: no implementation for %s", impl_names[magic]);
    }
    return fn;
}

static JSValue stub_call(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv, int magic)
{
    JSValue fn = impl_of(ctx, magic);
    if (JS_IsException(fn)) return fn;
    JSValue r = JS_Call(ctx, fn, this_val, argc, argv);
    JS_FreeValue(ctx, fn);
    return r;
}

#ifndef CHIDORI_ENGINE_NG /* (what ng has natively) */
/* A constructor stub: `this_val` is newTarget (undefined for a call without new). */
static JSValue stub_ctor(JSContext *ctx, JSValueConst new_target, int argc, JSValueConst *argv, int magic)
{
    return stub_call(ctx, new_target, argc, argv, magic);
}

static JSValue stub_get(JSContext *ctx, JSValueConst this_val, int magic)
{
    return stub_call(ctx, this_val, 0, NULL, magic);
}

/* A getter/setter pair shares one magic (the getter's); each setter's name follows its getter's. */
static JSValue stub_set(JSContext *ctx, JSValueConst this_val, JSValueConst val, int magic)
{
    return stub_call(ctx, this_val, 1, &val, magic + 1);
}
#endif

#define STUB(name, len, i) JS_CFUNC_MAGIC_DEF(name, len, stub_call, i)

#ifndef CHIDORI_ENGINE_NG /* (what ng has natively) */
static const JSCFunctionListEntry iterator_funcs[] = {
    STUB("from", 1, I_ITER_FROM),
    STUB("concat", 0, I_ITER_CONCAT),
};
static const JSCFunctionListEntry iterator_proto_funcs[] = {
    STUB("map", 1, I_MAP), STUB("filter", 1, I_FILTER), STUB("take", 1, I_TAKE), STUB("drop", 1, I_DROP),
    STUB("flatMap", 1, I_FLATMAP), STUB("reduce", 1, I_REDUCE), STUB("toArray", 0, I_TOARRAY),
    STUB("forEach", 1, I_FOREACH), STUB("some", 1, I_SOME), STUB("every", 1, I_EVERY), STUB("find", 1, I_FIND),
    JS_CGETSET_MAGIC_DEF("constructor", stub_get, stub_set, I_GET_CTOR),
    JS_CGETSET_MAGIC_DEF("[Symbol.toStringTag]", stub_get, stub_set, I_GET_TAG),
};
static const JSCFunctionListEntry set_proto_funcs[] = {
    STUB("union", 1, I_UNION), STUB("intersection", 1, I_INTERSECTION), STUB("difference", 1, I_DIFFERENCE),
    STUB("symmetricDifference", 1, I_SYMDIFF), STUB("isSubsetOf", 1, I_SUBSET), STUB("isSupersetOf", 1, I_SUPERSET),
    STUB("isDisjointFrom", 1, I_DISJOINT),
};
#endif
static const JSCFunctionListEntry array_funcs[] = {STUB("fromAsync", 1, I_FROM_ASYNC)};
#ifndef CHIDORI_ENGINE_NG /* (what ng has natively) */
static const JSCFunctionListEntry promise_funcs[] = {STUB("try", 1, I_PROMISE_TRY)};
static const JSCFunctionListEntry regexp_funcs[] = {STUB("escape", 1, I_ESCAPE)};
static const JSCFunctionListEntry math_funcs[] = {STUB("sumPrecise", 1, I_SUM_PRECISE), STUB("f16round", 1, I_F16ROUND)};
static const JSCFunctionListEntry error_funcs[] = {JS_CFUNC_DEF("isError", 1, error_is_error)};
static const JSCFunctionListEntry atomics_funcs[] = {JS_CFUNC_DEF("pause", 0, atomics_pause)};
static const JSCFunctionListEntry map_proto_funcs[] = {
    STUB("getOrInsert", 2, I_MAP_GOI), STUB("getOrInsertComputed", 2, I_MAP_GOIC)};
static const JSCFunctionListEntry weakmap_proto_funcs[] = {
    STUB("getOrInsert", 2, I_WEAKMAP_GOI), STUB("getOrInsertComputed", 2, I_WEAKMAP_GOIC)};
static const JSCFunctionListEntry dataview_proto_funcs[] = {
    STUB("getFloat16", 1, I_GET_F16), STUB("setFloat16", 2, I_SET_F16)};
static const JSCFunctionListEntry uint8array_funcs[] = {
    STUB("fromBase64", 1, I_FROM_BASE64), STUB("fromHex", 1, I_FROM_HEX)};
static const JSCFunctionListEntry uint8array_proto_funcs[] = {
    STUB("toBase64", 0, I_TO_BASE64), STUB("toHex", 0, I_TO_HEX), STUB("setFromBase64", 1, I_SET_FROM_BASE64),
    STUB("setFromHex", 1, I_SET_FROM_HEX)};
static const JSCFunctionListEntry arraybuffer_proto_funcs[] = {
    STUB("transfer", 0, I_TRANSFER), STUB("transferToFixedLength", 0, I_TRANSFER_FIXED),
    JS_CGETSET_MAGIC_DEF("detached", stub_get, NULL, I_GET_DETACHED)};
static const JSCFunctionListEntry ds_proto_funcs[] = {
    STUB("adopt", 2, I_DS_ADOPT), STUB("defer", 1, I_DS_DEFER),
    JS_CGETSET_MAGIC_DEF("disposed", stub_get, NULL, I_DS_DISPOSED), STUB("move", 0, I_DS_MOVE),
    STUB("use", 1, I_DS_USE), JS_PROP_STRING_DEF("[Symbol.toStringTag]", "DisposableStack", JS_PROP_CONFIGURABLE)};
static const JSCFunctionListEntry ads_proto_funcs[] = {
    STUB("adopt", 2, I_ADS_ADOPT), STUB("defer", 1, I_ADS_DEFER),
    JS_CGETSET_MAGIC_DEF("disposed", stub_get, NULL, I_ADS_DISPOSED), STUB("move", 0, I_ADS_MOVE),
    STUB("use", 1, I_ADS_USE),
    JS_PROP_STRING_DEF("[Symbol.toStringTag]", "AsyncDisposableStack", JS_PROP_CONFIGURABLE)};
static const JSCFunctionListEntry suppressed_proto_funcs[] = {
    JS_PROP_STRING_DEF("name", "SuppressedError", JS_PROP_WRITABLE | JS_PROP_CONFIGURABLE),
    JS_PROP_STRING_DEF("message", "", JS_PROP_WRITABLE | JS_PROP_CONFIGURABLE)};
#endif

#define LIST(obj, list) JS_SetPropertyFunctionList(ctx, obj, list, (int)(sizeof list / sizeof list[0]))
#define WC (JS_PROP_WRITABLE | JS_PROP_CONFIGURABLE)

/* global.<a>.<b> (b may be NULL), read at set-up, before guest code. */
static JSValue path(JSContext *ctx, JSValueConst global, const char *a, const char *b)
{
    JSValue v = JS_GetPropertyStr(ctx, global, a);
    if (!b) return v;
    JSValue w = JS_GetPropertyStr(ctx, v, b);
    JS_FreeValue(ctx, v);
    return w;
}

/* Adds functions lists to global.<name> (and to its prototype). */
static void add_lists(JSContext *ctx, JSValueConst global, const char *name, const JSCFunctionListEntry *statics,
                      int n_statics, const JSCFunctionListEntry *protos, int n_protos)
{
    if (statics) {
        JSValue c = path(ctx, global, name, NULL);
        JS_SetPropertyFunctionList(ctx, c, statics, n_statics);
        JS_FreeValue(ctx, c);
    }
    if (protos) {
        JSValue p = path(ctx, global, name, "prototype");
        JS_SetPropertyFunctionList(ctx, p, protos, n_protos);
        JS_FreeValue(ctx, p);
    }
}
#define N(list) list, (int)(sizeof list / sizeof list[0])

#ifndef CHIDORI_ENGINE_NG /* (what ng has natively) */
/* A method keyed by a symbol (not expressible in a function list), defined writable+configurable. */
static JSValue symbol_method(JSContext *ctx, JSValueConst obj, JSValueConst sym, const char *name, int magic)
{
    JSValue f = JS_NewCFunctionMagic(ctx, stub_call, name, 0, JS_CFUNC_generic_magic, magic);
    JSAtom a = JS_ValueToAtom(ctx, sym);
    JS_DefinePropertyValue(ctx, obj, a, JS_DupValue(ctx, f), WC);
    JS_FreeAtom(ctx, a);
    return f;
}

/* A constructor stub with its prototype (prototype: non-writable; prototype.constructor: W+C). */
static JSValue constructor(JSContext *ctx, const char *name, int length, int magic, JSCFunctionEnum kind,
                           JSValueConst proto, bool link)
{
    JSValue c = JS_NewCFunctionMagic(ctx, (JSCFunctionMagic *)stub_ctor, name, length, kind, magic);
    if (link) JS_SetConstructor(ctx, c, proto);
    else JS_DefinePropertyValueStr(ctx, c, "prototype", JS_DupValue(ctx, proto), 0);
    return c;
}
#endif

/* The state the stubs and the lazy files share (lib: captures, made, impl), kept on the engine.
 * Takes captures and made. */
static int keep_state(engine *e, JSValue captures, JSValue made)
{
    JSContext *ctx = e->ctx;
    JSValue state = JS_NewObjectProto(ctx, JS_NULL);
    JSValue lib = JS_NewObjectProto(ctx, JS_NULL);
    JSValue impl = JS_NewObjectProto(ctx, JS_NULL);
    JS_SetPropertyStr(ctx, lib, "captures", captures);
    JS_SetPropertyStr(ctx, lib, "made", made);
    JS_SetPropertyStr(ctx, lib, "impl", JS_DupValue(ctx, impl));
    JS_SetPropertyStr(ctx, state, "lib", lib);
    JS_SetPropertyStr(ctx, state, "impl", impl);
    e->esnext = state;
    return JS_HasException(ctx) ? -1 : 0;
}

/* Runs the eager capture file `name` (a function expression) with one argument; its result. */
static JSValue run_capture_file(JSContext *ctx, const char *name, JSValue arg)
{
    const embedded_file *f = engine_embedded(name);
    if (!f) return JS_ThrowInternalError(ctx, "internal error: %s missing from the binary", name);
    JSValue code = JS_ReadObject(ctx, f->data, f->len, JS_READ_OBJ_BYTECODE);
    JSValue fn = JS_IsException(code) ? code : JS_EvalFunction(ctx, code);
    if (JS_IsException(fn)) return fn;
    JSValue r = JS_Call(ctx, fn, JS_UNDEFINED, 1, (JSValueConst *)&arg);
    JS_FreeValue(ctx, fn);
    return r;
}

int engine_install_esnext(engine *e)
{
    JSContext *ctx = e->ctx;
#ifdef CHIDORI_ENGINE_NG
    /* the head of the list only: what Array.fromAsync needs (00-captures.js) */
    JSValue captures = run_capture_file(ctx, "esnext/00-captures.js", JS_TRUE);
    if (JS_IsException(captures)) return -1;
#else
    JSValue captures = run_capture_file(ctx, "esnext/00-captures.js", JS_FALSE);
    if (JS_IsException(captures)) return -1;
    JSValue more = run_capture_file(ctx, "esnext/00-captures-more.js", captures); /* appends */
    if (JS_IsException(more)) {
        JS_FreeValue(ctx, captures);
        return -1;
    }
    JS_FreeValue(ctx, more);
#endif

    JSValue global = JS_GetGlobalObject(ctx);
#ifdef CHIDORI_ENGINE_NG
    /* ng's own Array.fromAsync goes first (a function list may only add properties) */
    JSValue array_ctor = path(ctx, global, "Array", NULL);
    JSAtom from_async = JS_NewAtom(ctx, "fromAsync");
    JS_DeleteProperty(ctx, array_ctor, from_async, 0);
    JS_FreeAtom(ctx, from_async);
    JS_FreeValue(ctx, array_ctor);
    add_lists(ctx, global, "Array", N(array_funcs), NULL, 0);
    JS_FreeValue(ctx, global);
    return keep_state(e, captures, JS_NewObjectProto(ctx, JS_NULL));
#else
    /* the first entries of the captures (00-captures.js) */
    JSValue iter_proto = JS_GetPropertyUint32(ctx, captures, 0);
    JSValue async_iter_proto = JS_GetPropertyUint32(ctx, captures, 1);
    JSValue sym_dispose = JS_GetPropertyUint32(ctx, captures, 2);
    JSValue sym_async_dispose = JS_GetPropertyUint32(ctx, captures, 3);
    JSValue error_proto = JS_GetPropertyUint32(ctx, captures, 4);

    /* Iterator */
    JSValue iterator = constructor(ctx, "Iterator", 0, I_ITERATOR, JS_CFUNC_constructor_magic, iter_proto, false);
    LIST(iterator, iterator_funcs);
    LIST(iter_proto, iterator_proto_funcs);
    JS_FreeValue(ctx, symbol_method(ctx, iter_proto, sym_dispose, "[Symbol.dispose]", I_ITER_DISPOSE));
    JS_FreeValue(ctx, symbol_method(ctx, async_iter_proto, sym_async_dispose, "[Symbol.asyncDispose]",
                                    I_ASYNC_ITER_DISPOSE));

    /* methods on the engine's own constructors and prototypes */
    add_lists(ctx, global, "Set", NULL, 0, N(set_proto_funcs));
    add_lists(ctx, global, "Array", N(array_funcs), NULL, 0);
    add_lists(ctx, global, "Promise", N(promise_funcs), NULL, 0);
    add_lists(ctx, global, "RegExp", N(regexp_funcs), NULL, 0);
    add_lists(ctx, global, "Math", N(math_funcs), NULL, 0);
    add_lists(ctx, global, "Error", N(error_funcs), NULL, 0);
    add_lists(ctx, global, "Atomics", N(atomics_funcs), NULL, 0);
    add_lists(ctx, global, "Map", NULL, 0, N(map_proto_funcs));
    add_lists(ctx, global, "WeakMap", NULL, 0, N(weakmap_proto_funcs));
    add_lists(ctx, global, "DataView", NULL, 0, N(dataview_proto_funcs));
    add_lists(ctx, global, "Uint8Array", N(uint8array_funcs), N(uint8array_proto_funcs));
    add_lists(ctx, global, "ArrayBuffer", NULL, 0, N(arraybuffer_proto_funcs));

    /* SuppressedError: callable without new; [[Prototype]] %Error% */
    JSValue error_ctor = path(ctx, global, "Error", NULL);
    JSValue se_proto = JS_NewObjectProto(ctx, error_proto);
    LIST(se_proto, suppressed_proto_funcs);
    JSValue suppressed = constructor(ctx, "SuppressedError", 3, I_SUPPRESSED, JS_CFUNC_constructor_or_func_magic,
                                     se_proto, true);
    JS_SetPrototype(ctx, suppressed, error_ctor);

    /* DisposableStack, AsyncDisposableStack: dispose / disposeAsync are also @@dispose / @@asyncDispose */
    JSValue dsp = JS_NewObject(ctx);
    LIST(dsp, ds_proto_funcs);
    JSValue ds_dispose = symbol_method(ctx, dsp, sym_dispose, "dispose", I_DS_DISPOSE);
    JS_DefinePropertyValueStr(ctx, dsp, "dispose", ds_dispose, WC);
    JSValue ds = constructor(ctx, "DisposableStack", 0, I_DS, JS_CFUNC_constructor_magic, dsp, true);
    JSValue adsp = JS_NewObject(ctx);
    LIST(adsp, ads_proto_funcs);
    JSValue ads_dispose = symbol_method(ctx, adsp, sym_async_dispose, "disposeAsync", I_ADS_DISPOSE);
    JS_DefinePropertyValueStr(ctx, adsp, "disposeAsync", ads_dispose, WC);
    JSValue ads = constructor(ctx, "AsyncDisposableStack", 0, I_ADS, JS_CFUNC_constructor_magic, adsp, true);

    /* what the lazy files need of it */
    JSValue made = JS_NewObjectProto(ctx, JS_NULL);
    JS_SetPropertyStr(ctx, made, "Iterator", JS_DupValue(ctx, iterator));
    JS_SetPropertyStr(ctx, made, "SuppressedError", JS_DupValue(ctx, suppressed));
    JS_SetPropertyStr(ctx, made, "DSP", JS_DupValue(ctx, dsp));
    JS_SetPropertyStr(ctx, made, "ADSP", JS_DupValue(ctx, adsp));

    JS_DefinePropertyValueStr(ctx, global, "Iterator", iterator, WC);
    JS_DefinePropertyValueStr(ctx, global, "SuppressedError", suppressed, WC);
    JS_DefinePropertyValueStr(ctx, global, "DisposableStack", ds, WC);
    JS_DefinePropertyValueStr(ctx, global, "AsyncDisposableStack", ads, WC);

    int rc = keep_state(e, captures, made);

    JS_FreeValue(ctx, dsp);
    JS_FreeValue(ctx, adsp);
    JS_FreeValue(ctx, se_proto);
    JS_FreeValue(ctx, error_proto);
    JS_FreeValue(ctx, error_ctor);
    JS_FreeValue(ctx, sym_async_dispose);
    JS_FreeValue(ctx, sym_dispose);
    JS_FreeValue(ctx, async_iter_proto);
    JS_FreeValue(ctx, iter_proto);
    JS_FreeValue(ctx, global);
    return rc < 0 || JS_HasException(ctx) ? -1 : 0;
#endif
}
