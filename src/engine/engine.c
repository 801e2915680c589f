/* engine.c — one run in a fresh QuickJS runtime: set-up, module loading, the job loop, outcome.
 *
 * Owns the JSRuntime/JSContext of a run and everything allocated in them. Trusts the host it is
 * given and the embedded prelude; trusts nothing the guest does: guest values are converted to
 * JSON text before they reach C, every limit is armed before guest code runs, and once a limit
 * trips no further guest code is started (the interrupt handler stays tripped and the job loop
 * stops).
 *
 * Never links quickjs-libc: a bare context can compute and allocate, nothing else. All I/O is
 * the host's, through the seam (cfg->seam).
 */
#define _GNU_SOURCE
#include "engine/engine.h"
#include "engine/arena.h"
#include "engine/engine_internal.h"
#include "engine/intl_native.h"
#include "engine/idna_native.h"
#include "engine/limits.h"
#include "engine/plain_args.h"
#include "util/buf.h"
#include "util/excerpt.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

extern const embedded_file embedded_js[];

const embedded_file *engine_embedded(const char *name)
{
    for (const embedded_file *f = embedded_js; f->name; f++)
        if (strcmp(f->name, name) == 0) return f;
    return NULL;
}

engine *engine_of(JSContext *ctx) { return JS_GetContextOpaque(ctx); }

/* ---------- errors ---------- */

/* Whether the n bytes of s end with ":LINE:COL" (a syntax error's frame: "    at file:9:13"). */
static bool ends_with_line_col(const char *s, size_t n)
{
    for (int part = 0; part < 2; part++) {
        size_t digits = 0;
        while (n > 0 && s[n - 1] >= '0' && s[n - 1] <= '9') n--, digits++;
        if (!digits || n == 0 || s[n - 1] != ':') return false;
        n--;
    }
    return true;
}

/* Drop stack frames of the embedded prelude: they are our plumbing, not the agent's code. Our
 * bytecode carries no debug information (tools/compile_js.c), so its frames are the ones with no
 * location: "    at NAME" where every other frame ends "(file:line:col)", "(native)" or, for a
 * syntax error, "file:line:col". */
static void strip_internal_frames(buf *b)
{
    if (!b->data) return;
    char *out = b->data, *line = b->data;
    while (*line) {
        char *nl = strchr(line, '\n');
        size_t n = nl ? (size_t)(nl - line) + 1 : strlen(line);
        size_t text = nl ? n - 1 : n;
        bool frame = text >= 7 && memcmp(line, "    at ", 7) == 0;
        bool internal = memmem(line, n, "(<chidori ", 10) != NULL ||
                        (frame && line[text - 1] != ')' && !ends_with_line_col(line, text));
        if (!internal) {
            memmove(out, line, n);
            out += n;
        }
        line += n;
    }
    *out = '\0';
    b->len = (size_t)(out - b->data);
}

/* Describe an exception value: "Name: message" plus the JS stack when it has one. Only called
 * while no limit has tripped, since it may run guest code (a thrown object's toString). */
static char *describe_exception(JSContext *ctx, JSValueConst exc)
{
    buf b = {0};
    const char *s = JS_ToCString(ctx, exc);
    if (s) {
        buf_puts(&b, s);
        JS_FreeCString(ctx, s);
    } else {
        JSValue ignored = JS_GetException(ctx);
        JS_FreeValue(ctx, ignored);
        buf_puts(&b, "(an exception that cannot be converted to a string)");
    }
    if (JS_IsError(ctx, exc)) {
        JSValue stack = JS_GetPropertyStr(ctx, exc, "stack");
        if (JS_IsString(stack)) {
            const char *st = JS_ToCString(ctx, stack);
            if (st && *st) {
                buf_putc(&b, '\n');
                buf_puts(&b, st);
                while (b.len && b.data[b.len - 1] == '\n') b.data[--b.len] = '\0';
            }
            JS_FreeCString(ctx, st);
        } else if (JS_IsException(stack)) {
            JSValue ignored = JS_GetException(ctx);
            JS_FreeValue(ctx, ignored);
        }
        JS_FreeValue(ctx, stack);
    }
    strip_internal_frames(&b);
    while (b.len && b.data[b.len - 1] == '\n') b.data[--b.len] = '\0';
    return buf_steal(&b);
}

/* The stack of an engine-raised error (interrupt, out of memory), read without running guest
 * code: these objects are created by the engine and their `stack` is a plain data property. */
static char *engine_error_stack(JSContext *ctx, JSValueConst exc)
{
    if (!JS_IsError(ctx, exc)) return NULL;
    JSValue stack = JS_GetPropertyStr(ctx, exc, "stack");
    char *out = NULL;
    if (JS_IsString(stack)) {
        const char *st = JS_ToCString(ctx, stack);
        if (st && *st) {
            buf b = {0};
            buf_puts(&b, st);
            strip_internal_frames(&b);
            while (b.len && b.data[b.len - 1] == '\n') b.data[--b.len] = '\0';
            out = b.len ? buf_steal(&b) : (buf_free(&b), NULL);
        }
        JS_FreeCString(ctx, st);
    }
    JS_FreeValue(ctx, stack);
    if (JS_HasException(ctx)) JS_FreeValue(ctx, JS_GetException(ctx));
    return out;
}

/* Record the pending exception as the run's failure (first failure wins). */
static void fail_with_exception(engine *e)
{
    JSValue exc = JS_GetException(e->ctx);
    if (!e->failure && !e->paused) {
        if (e->limits.tripped) {
            char *msg = run_limits_message(&e->limits);
            char *stack = engine_error_stack(e->ctx, exc);
            e->failure = stack ? xasprintf("%s\n%s", msg, stack) : xstrdup(msg);
            free(msg);
            free(stack);
        } else {
            e->failure = describe_exception(e->ctx, exc);
        }
    }
    JS_FreeValue(e->ctx, exc);
}

static void fail_with_message(engine *e, char *msg)
{
    if (!e->failure) e->failure = msg;
    else free(msg);
}

/* When exc is a SyntaxError raised while compiling `name`, add the offending source line and a
 * caret to its stack, so the user sees file:line:col and the line itself. */
void engine_annotate_syntax_error(JSContext *ctx, JSValueConst exc, const char *name, const char *src, size_t len)
{
    if (!JS_IsError(ctx, exc)) return;
    JSValue nm = JS_GetPropertyStr(ctx, exc, "name");
    const char *n = JS_ToCString(ctx, nm);
    bool syntax = n && strcmp(n, "SyntaxError") == 0;
    JS_FreeCString(ctx, n);
    JS_FreeValue(ctx, nm);
    if (!syntax) return;
    JSValue stack = JS_GetPropertyStr(ctx, exc, "stack");
    const char *st = JS_ToCString(ctx, stack);
    JS_FreeValue(ctx, stack);
    if (!st) {
        if (JS_HasException(ctx)) JS_FreeValue(ctx, JS_GetException(ctx));
        return;
    }
    /* the first frame reads "    at NAME:LINE:COL" */
    char *pat = xasprintf("at %s:", name);
    const char *at = strstr(st, pat);
    int line = 0, col = 0;
    if (at) sscanf(at + strlen(pat), "%d:%d", &line, &col);
    free(pat);
    char *excerpt = line ? source_excerpt(src, len, line, col) : NULL;
    if (excerpt) {
        char *annotated = xasprintf("%s%s\n%s\n", st, (*st && st[strlen(st) - 1] == '\n') ? "" : "\n", excerpt);
        JS_DefinePropertyValueStr(ctx, exc, "stack", JS_NewString(ctx, annotated), JS_PROP_WRITABLE | JS_PROP_CONFIGURABLE);
        free(annotated);
        free(excerpt);
    }
    JS_FreeCString(ctx, st);
}

/* ---------- natives handed to the prelude ---------- */

static JSValue host_reply(JSContext *ctx, engine *e, const char *op, json_t *args);

/* host(op, argsJson) → parsed result, or throws Error(host message). */
static JSValue native_host(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    engine *e = engine_of(ctx);
    if (argc < 2 || !JS_IsString(argv[0]) || !JS_IsString(argv[1]))
        return JS_ThrowTypeError(ctx, "host: expected (op, argsJson)");
    const char *op = JS_ToCString(ctx, argv[0]);
    if (!op) return JS_EXCEPTION;
    if (strncmp(op, "__", 2) == 0) {
        JS_FreeCString(ctx, op);
        return JS_ThrowTypeError(ctx, "host: internal operations cannot be called from JavaScript");
    }
    size_t len;
    const char *text = JS_ToCStringLen(ctx, &len, argv[1]);
    if (!text) {
        JS_FreeCString(ctx, op);
        return JS_EXCEPTION;
    }
    json_error jerr;
    json_t *args = json_parse(text, len, NULL, &jerr);
    JS_FreeCString(ctx, text);
    if (!args) {
        JSValue r = JS_ThrowTypeError(ctx, "%s: arguments are not valid JSON (%s)", op, jerr.message);
        JS_FreeCString(ctx, op);
        return r;
    }
    JSValue reply = host_reply(ctx, e, op, args);
    JS_FreeCString(ctx, op);
    return reply;
}

/* The seam's call of op with args (freed here) and its reply as a JS value, or a throw. */
static JSValue host_reply(JSContext *ctx, engine *e, const char *op, json_t *args)
{
    json_t *result = NULL;
    char *error = NULL;
    /* the tree budget's meter: what this run counted goes out before the call, what its nested
     * runs spent comes back after it and counts as this run's own (seam.h) */
    if (e->seam.meter) e->seam.meter(e->seam.ctx, run_limits_ticks(&e->limits), e->limits.heap ? e->limits.heap->malloc_size : 0);
    int rc = e->seam.call(e->seam.ctx, op, args, &result, &error);
    if (e->seam.meter)
        run_limits_charge_tree(&e->limits, e->seam.meter(e->seam.ctx, run_limits_ticks(&e->limits),
                                                         e->limits.heap ? e->limits.heap->malloc_size : 0));
    json_free(args);
    if (rc == HOST_SUSPEND || rc == HOST_ABORT) {
        /* The run ends here: halt it (the interrupt handler and the job loop refuse to run any
         * more guest code) and unwind with an uncatchable error. */
        e->limits.halted = true;
        if (rc == HOST_SUSPEND) {
            e->paused = true;
            free(error);
        } else {
            fail_with_message(e, error ? error : xstrdup("the host ended the run"));
        }
        JSValue err = JS_NewError(ctx);
        if (!JS_IsException(err)) {
            JS_DefinePropertyValueStr(ctx, err, "message", JS_NewString(ctx, rc == HOST_SUSPEND ? "run paused" : "run aborted"),
                                      JS_PROP_WRITABLE | JS_PROP_CONFIGURABLE);
            JS_SetUncatchableError(ctx, err, 1);
        }
        return JS_Throw(ctx, err);
    }
    if (rc != HOST_OK) {
        JSValue err = JS_NewError(ctx);
        if (!JS_IsException(err)) JS_DefinePropertyValueStr(ctx, err, "message", JS_NewString(ctx, error),
                                                             JS_PROP_WRITABLE | JS_PROP_CONFIGURABLE);
        free(error);
        return JS_Throw(ctx, err);
    }
    if (result && result->type <= JSON_TRUE) { /* null, false, true: what JSON.parse gives, no text */
        JSValue v = result->type == JSON_NULL ? JS_NULL : JS_NewBool(ctx, result->type == JSON_TRUE);
        json_free(result);
        return v;
    }
    size_t rlen;
    char *rtext = json_dump(result, JSON_COMPACT, &rlen);
    json_free(result);
    JSValue v = JS_ParseJSON(ctx, rtext, rlen, "<host reply>");
    free(rtext);
    return v;
}

/* hostEffect's first half: (op, args) → as host(op, JSON.stringify(args)) for args plain_args can read without
 * running guest code; undefined (nothing called) for any other args: the caller then takes host. */
static JSValue host_value(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    engine *e = engine_of(ctx);
    if (argc < 2 || !JS_IsString(argv[0])) return JS_ThrowTypeError(ctx, "hostEffect: expected (op, args)");
    json_t *args = NULL;
    int plain = e->atom_to_json != JS_ATOM_NULL ? plain_args_atom(ctx, argv[1], e->atom_to_json, &args)
                                                : plain_args(ctx, argv[1], &args);
    if (plain < 0) return JS_EXCEPTION;
    if (plain == 0) return JS_UNDEFINED;
    const char *op = JS_ToCString(ctx, argv[0]);
    if (!op) {
        json_free(args);
        return JS_EXCEPTION;
    }
    if (strncmp(op, "__", 2) == 0) {
        JS_FreeCString(ctx, op);
        json_free(args);
        return JS_ThrowTypeError(ctx, "host: internal operations cannot be called from JavaScript");
    }
    JSValue reply = host_reply(ctx, e, op, args);
    JS_FreeCString(ctx, op);
    return reply;
}

/* hostEffect(op, args) → what the prelude's effect() made of the reply in JavaScript, in one call:
 * PromiseResolve(reply), that is Promise.resolve(reply) with its own `constructor` and `then`
 * pinned to the originals (primordials.js's own(): same flags, same order), made without the
 * executor and resolving functions Promise.resolve makes and drops (JS_NewResolvedPromise, our
 * QuickJS patch 0017, quickjs-ng patch 0018) and without two Object.defineProperty calls
 * and their descriptors. data[0] and data[1] are Promise and Promise.prototype.then, read when the
 * prelude was installed (before any guest code). Promise.resolve of a value that is not a promise
 * is exactly that: a host reply is never a promise, and Promise.prototype cannot be replaced.
 * undefined for args the JSON path must take (nothing called). */
static JSValue native_host_effect(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv, int magic,
                                  JSValue *data)
{
    JSValue reply = host_value(ctx, this_val, argc, argv);
    if (JS_IsException(reply) || JS_IsUndefined(reply)) return reply;
#ifdef CHIDORI_ENGINE_NG
    /* the promise with its own constructor and then (quickjs-ng patch 0033: no generic define) */
    JSValue p = JS_NewResolvedPromisePinned(ctx, reply, data[0], data[1]);
    JS_FreeValue(ctx, reply);
    return p;
#else
    engine *e = engine_of(ctx);
    JSValue p = JS_NewResolvedPromise(ctx, reply); /* patches/quickjs/0017 */
    JS_FreeValue(ctx, reply);
    if (JS_IsException(p)) return p;
    if (
        JS_DefinePropertyValue(ctx, p, e->atom_constructor, JS_DupValue(ctx, data[0]), JS_PROP_WRITABLE | JS_PROP_CONFIGURABLE) < 0 ||
        JS_DefinePropertyValue(ctx, p, e->atom_then, JS_DupValue(ctx, data[1]), JS_PROP_WRITABLE | JS_PROP_CONFIGURABLE) < 0) {
        JS_FreeValue(ctx, p);
        return JS_EXCEPTION;
    }
    return p;
#endif
}

static JSValue native_now(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    return JS_NewInt64(ctx, engine_of(ctx)->clock_ms);
}

/* allocFits(n): whether one allocation of n bytes is within the run's single-allocation cap
 * (CHIDORI_JS_MAX_ALLOC_MB; true when off). node:buffer asks before it allocates, so a Buffer
 * over the cap is a RangeError the agent may catch, as Node's "Array buffer allocation failed",
 * rather than the end of the run; the cap itself is unchanged (nothing over it is allocated). */
static JSValue native_alloc_fits(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    double n;
    if (argc < 1 || JS_ToFloat64(ctx, &n, argv[0])) return JS_EXCEPTION;
    uint64_t cap = engine_of(ctx)->limits.cfg.max_alloc_bytes;
    return JS_NewBool(ctx, cap == 0 || n <= (double)cap);
}

/* advanceTo(ms): the virtual clock only moves forward. */
static JSValue native_advance_to(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    engine *e = engine_of(ctx);
    double ms;
    if (argc < 1 || JS_ToFloat64(ctx, &ms, argv[0])) return JS_EXCEPTION;
    if (ms > (double)e->clock_ms && ms < 8.64e15) e->clock_ms = (int64_t)ms;
    return JS_UNDEFINED;
}

/* loadBuiltin(file) → the value of the embedded script node/<file>.js (a factory function); a name
 * ending in ".js" is a script of js/ itself ("context.js"). */
/* util.inspect's view of a promise (utilgrp): [state, result] with state 0 pending, 1 fulfilled,
 * 2 rejected (JSPromiseStateEnum), or undefined for anything that is not a promise. Reads the
 * engine's slots only: no property lookup, no guest code. */
static JSValue native_promise_state(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    if (argc < 1 || !JS_IsObject(argv[0])) return JS_UNDEFINED;
    int st = (int)JS_PromiseState(ctx, (JSValue)argv[0]);
    if (st < 0) return JS_UNDEFINED;
    JSValue pair = JS_NewArray(ctx);
    if (JS_IsException(pair)) return pair;
    JSValue result = st == JS_PROMISE_PENDING ? JS_UNDEFINED : JS_PromiseResult(ctx, (JSValue)argv[0]);
    if (JS_DefinePropertyValueUint32(ctx, pair, 0, JS_NewInt32(ctx, st), JS_PROP_C_W_E) < 0 ||
        JS_DefinePropertyValueUint32(ctx, pair, 1, result, JS_PROP_C_W_E) < 0) {
        JS_FreeValue(ctx, pair);
        return JS_EXCEPTION;
    }
    return pair;
}

/* util.inspect's view of a Map/Set iterator (utilgrp): [remaining, kind, isSet] without moving it
 * (quickjs patch 0015), kind 0 keys, 1 values, 2 entries; undefined for anything else. */
static JSValue native_iterator_preview(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    int kind = 0, is_set = 0;
    if (argc < 1 || !JS_IsObject(argv[0])) return JS_UNDEFINED;
    JSValue items = JS_MapIteratorPreview(ctx, argv[0], &kind, &is_set);
    if (JS_IsException(items) || JS_IsUndefined(items)) return items;
    JSValue triple = JS_NewArray(ctx);
    if (JS_IsException(triple)) {
        JS_FreeValue(ctx, items);
        return triple;
    }
    if (JS_DefinePropertyValueUint32(ctx, triple, 0, items, JS_PROP_C_W_E) < 0 ||
        JS_DefinePropertyValueUint32(ctx, triple, 1, JS_NewInt32(ctx, kind), JS_PROP_C_W_E) < 0 ||
        JS_DefinePropertyValueUint32(ctx, triple, 2, JS_NewBool(ctx, is_set), JS_PROP_C_W_E) < 0) {
        JS_FreeValue(ctx, triple);
        return JS_EXCEPTION;
    }
    return triple;
}

/* util.inspect's view of a proxy (quickjs patch 0018), as Node's getProxyDetails: undefined for
 * anything that is not a proxy; else [target, handler] when the second argument is true, the
 * target alone when it is not (null for a revoked proxy). Reads the proxy's slots: no trap runs.
 * Only util.js holds it (loadBuiltin(0)); a guest never gets a handler from it, only util.inspect's
 * text with showProxy, as in Node. */
static JSValue native_proxy_details(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    JSValue target, handler;
    if (argc < 1 || !JS_IsObject(argv[0])) return JS_UNDEFINED;
    if (!JS_GetProxyDetails(ctx, argv[0], &target, &handler)) return JS_UNDEFINED;
    if (argc < 2 || !JS_ToBool(ctx, argv[1])) {
        JS_FreeValue(ctx, handler);
        return target;
    }
    JSValue pair = JS_NewArray(ctx);
    if (JS_IsException(pair)) {
        JS_FreeValue(ctx, target);
        JS_FreeValue(ctx, handler);
        return pair;
    }
    if (JS_DefinePropertyValueUint32(ctx, pair, 0, target, JS_PROP_C_W_E) < 0) {
        JS_FreeValue(ctx, handler);
        JS_FreeValue(ctx, pair);
        return JS_EXCEPTION;
    }
    if (JS_DefinePropertyValueUint32(ctx, pair, 1, handler, JS_PROP_C_W_E) < 0) {
        JS_FreeValue(ctx, pair);
        return JS_EXCEPTION;
    }
    return pair;
}

static JSValue native_load_builtin(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    if (argc > 0 && JS_IsNumber(argv[0])) { /* loadBuiltin(0): util's engine views, made on its first need */
        JSValue o = JS_NewObjectProto(ctx, JS_NULL);
        JS_SetPropertyStr(ctx, o, "promiseState", JS_NewCFunction(ctx, native_promise_state, "promiseState", 1));
        JS_SetPropertyStr(ctx, o, "iteratorPreview", JS_NewCFunction(ctx, native_iterator_preview, "iteratorPreview", 1));
        JS_SetPropertyStr(ctx, o, "proxyDetails", JS_NewCFunction(ctx, native_proxy_details, "proxyDetails", 2));
        return o;
    }
    const char *file = argc > 0 ? JS_ToCString(ctx, argv[0]) : NULL;
    if (!file) return JS_EXCEPTION;
    char name[128];
    size_t flen = strlen(file);
    if (flen > 3 && !strcmp(file + flen - 3, ".js")) snprintf(name, sizeof name, "%s", file);
    else snprintf(name, sizeof name, "node/%s.js", file);
    JS_FreeCString(ctx, file);
    const embedded_file *f = engine_embedded(name);
    if (!f) return JS_ThrowReferenceError(ctx, "internal error: built-in %s missing from the binary", name);
    JSValue code = JS_ReadObject(ctx, f->data, f->len, JS_READ_OBJ_BYTECODE);
    if (JS_IsException(code)) return code;
    return JS_EvalFunction(ctx, code);
}

static JSValue native_intl_object(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    return intl_native_object(ctx);
}

/* queueMicrotask's job: calls the callback directly, so an exception it throws escapes the job
 * and fails the run, as an exception in a timer callback does (and as Node ends the process). */
static JSValue microtask_job(JSContext *ctx, int argc, JSValueConst *argv)
{
    return JS_Call(ctx, argv[0], JS_UNDEFINED, 0, NULL);
}

static JSValue native_enqueue_microtask(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    if (argc < 1 || !JS_IsFunction(ctx, argv[0])) return JS_ThrowTypeError(ctx, "queueMicrotask: callback must be a function");
    if (JS_EnqueueJob(ctx, microtask_job, 1, argv) < 0) return JS_EXCEPTION;
    return JS_UNDEFINED;
}

static int64_t virtual_clock(void *opaque)
{
    const engine *e = opaque;
    return e->cfg->frozen_clock ? e->cfg->clock_start_ms : e->clock_ms;
}

/* ---------- set-up ---------- */

static int add_intrinsics(JSContext *ctx)
{
    JS_AddIntrinsicBaseObjects(ctx);
    JS_AddIntrinsicDate(ctx);
    JS_AddIntrinsicEval(ctx);
    JS_AddIntrinsicStringNormalize(ctx);
    JS_AddIntrinsicRegExp(ctx);
    JS_AddIntrinsicJSON(ctx);
    JS_AddIntrinsicProxy(ctx);
    JS_AddIntrinsicMapSet(ctx);
    JS_AddIntrinsicTypedArrays(ctx);
    JS_AddIntrinsicPromise(ctx);
    /* WeakRef and FinalizationRegistry as patched (patches/quickjs/0010-*): targets are held
     * strongly for the whole run and cleanup callbacks never run, so the collector's timing is
     * never observable and a replay sees what the run saw (docs/conformance.md). */
    JS_AddIntrinsicWeakRef(ctx);
    return JS_HasException(ctx) ? -1 : 0;
}

/* Runs the prelude and keeps the internals object it returns. */
static int install_prelude(engine *e)
{
    JSContext *ctx = e->ctx;
    const embedded_file *f = engine_embedded("prelude.js");
    if (!f) {
        fail_with_message(e, xstrdup("internal error: prelude missing from the binary"));
        return -1;
    }
    /* Bytecode compiled at build time by this very engine (tools/compile_js.c). */
    JSValue code = JS_ReadObject(ctx, f->data, f->len, JS_READ_OBJ_BYTECODE);
    JSValue fn = JS_IsException(code) ? code : JS_EvalFunction(ctx, code);
    if (JS_IsException(fn)) {
        fail_with_exception(e);
        return -1;
    }
    JSValue natives = JS_NewObjectProto(ctx, JS_NULL);
    JS_SetPropertyStr(ctx, natives, "host", JS_NewCFunction(ctx, native_host, "host", 2));
    {
        /* hostEffect's pins: the originals, read before any guest code runs */
        JSValue global = JS_GetGlobalObject(ctx);
        JSValue pins[2];
        pins[0] = JS_GetPropertyStr(ctx, global, "Promise");
        JSValue proto = JS_GetPropertyStr(ctx, pins[0], "prototype");
        pins[1] = JS_GetPropertyStr(ctx, proto, "then");
        JS_FreeValue(ctx, proto);
        JS_FreeValue(ctx, global);
        JS_SetPropertyStr(ctx, natives, "hostEffect",
                          JS_NewCFunctionData(ctx, native_host_effect, 2, 0, 2, (JSValueConst *)pins)); /* speed */
        JS_FreeValue(ctx, pins[0]);
        JS_FreeValue(ctx, pins[1]);
        e->atom_constructor = JS_NewAtom(ctx, "constructor");
        e->atom_then = JS_NewAtom(ctx, "then");
        e->atom_to_json = JS_NewAtom(ctx, "toJSON");
    }
    JS_SetPropertyStr(ctx, natives, "now", JS_NewCFunction(ctx, native_now, "now", 0));
    JS_SetPropertyStr(ctx, natives, "allocFits", JS_NewCFunction(ctx, native_alloc_fits, "allocFits", 1));
    JS_SetPropertyStr(ctx, natives, "advanceTo", JS_NewCFunction(ctx, native_advance_to, "advanceTo", 1));
    JS_SetPropertyStr(ctx, natives, "enqueueMicrotask", JS_NewCFunction(ctx, native_enqueue_microtask, "queueMicrotask", 1));
    JS_SetPropertyStr(ctx, natives, "loadBuiltin", JS_NewCFunction(ctx, native_load_builtin, "loadBuiltin", 1));
    engine_add_member_natives(ctx, natives); /* member_trap.c */
    JS_SetPropertyStr(ctx, natives, "defineLazyGlobals", engine_lazy_globals_native(ctx)); /* lazy_globals.c */
    JS_SetPropertyStr(ctx, natives, "defineLocaleMethods", engine_locale_methods_native(ctx)); /* locale_methods.c */
    /* natives.intl() makes the object of Intl natives when the Intl layer first loads (ICU loads on
     * its first use): a run that never formats does not make its ~30 functions */
    JS_SetPropertyStr(ctx, natives, "intl", JS_NewCFunction(ctx, native_intl_object, "intl", 0));
    JS_SetPropertyStr(ctx, natives, "idna", idna_native_object(ctx)); /* UTS #46 over ICU, for URL hosts */
    JSValue internals = JS_Call(ctx, fn, JS_UNDEFINED, 1, (JSValueConst *)&natives);
    JS_FreeValue(ctx, natives);
    JS_FreeValue(ctx, fn);
    if (JS_IsException(internals)) {
        fail_with_exception(e);
        return -1;
    }
    e->internals = internals;
    return 0;
}

/* ---------- the job loop ---------- */

static int call_internal_bool(engine *e, const char *name, int *out)
{
    JSValue fn = JS_GetPropertyStr(e->ctx, e->internals, name);
    JSValue r = JS_Call(e->ctx, fn, JS_UNDEFINED, 0, NULL);
    JS_FreeValue(e->ctx, fn);
    if (JS_IsException(r)) {
        fail_with_exception(e);
        return -1;
    }
    *out = JS_ToBool(e->ctx, r);
    JS_FreeValue(e->ctx, r);
    return 0;
}

#define TIMER_TURN_TICKS 100

static int check_rejections(engine *e, JSValueConst until);

/* Runs jobs and virtual timers until `until` settles (or, with JS_UNDEFINED, until nothing is
 * left). Returns 0, or -1 with e->failure set. */
static int drive(engine *e, JSValueConst until)
{
    for (;;) {
        if (e->limits.halted) return -1;
        if (run_limits_check(&e->limits)) {
            fail_with_message(e, run_limits_message(&e->limits));
            return -1;
        }
        JSContext *job_ctx;
        int r = JS_ExecutePendingJob(e->rt, &job_ctx);
        if (e->limits.halted) return -1;
        if (r < 0) {
            fail_with_exception(e);
            return -1;
        }
        if (e->limits.tripped == LIMIT_BUDGET || e->limits.tripped == LIMIT_DEADLINE) {
            /* An interrupt inside a job: stop here, whatever the job did with it. */
            fail_with_message(e, run_limits_message(&e->limits));
            return -1;
        }
        if (e->failure) return -1;
        if (r > 0) continue;
        /* process.nextTick: the tick queue runs whenever the promise job queue is empty (Node
         * drains it between its microtask checkpoints), and before rejections are judged. */
        int ticked;
        if (call_internal_bool(e, "runTicks", &ticked) < 0) return -1;
        if (ticked) continue;
        if (e->rejected_len > 0) {
            int checked = check_rejections(e, until);
            if (checked < 0) return -1;
            if (checked > 0) continue;
        }
        if (!JS_IsUndefined(until) && JS_PromiseState(e->ctx, (JSValue)until) != JS_PROMISE_PENDING) return 0;
        int fired;
        if (call_internal_bool(e, "fireNextTimer", &fired) < 0) return -1;
        if (fired) {
            /* A timer turn costs the loop far more than the few ticks its JS counts (finding the
             * timer, the callback's frame, its garbage): measured about 30 ticks' worth of
             * counted work and 1.4 us (10 us under ASan). Charging it keeps a timer storm's CPU
             * time per tick near a plain loop's, well inside the supervisor's backstop. */
            run_limits_charge(&e->limits, TIMER_TURN_TICKS);
            continue;
        }
        if (JS_IsUndefined(until)) return 0;
        fail_with_message(e, xstrdup("the agent never finished: its promise is still pending and nothing is left "
                                     "to run (no pending jobs, timers or effects)"));
        return -1;
    }
}

/* Settles a promise that drive() finished: 0 with *value, or -1 with the failure recorded. */
static int settled_value(engine *e, JSValueConst promise, JSValue *value)
{
    JSPromiseStateEnum st = JS_PromiseState(e->ctx, (JSValue)promise);
    JSValue r = JS_PromiseResult(e->ctx, (JSValue)promise);
    if (st == JS_PROMISE_FULFILLED) {
        *value = r;
        return 0;
    }
    if (!e->failure && !e->paused) {
        if (e->limits.tripped) {
            fail_with_message(e, run_limits_message(&e->limits));
        } else {
            e->failure = describe_exception(e->ctx, r);
        }
    }
    JS_FreeValue(e->ctx, r);
    return -1;
}

/* Promise rejections nobody handles fail the run, as in Node: QuickJS reports each rejection
 * without a handler (and a handler attached later); the list holds the ones still unhandled, and
 * drive() looks at it only once the job queue is empty, so a handler attached later in the same
 * turn takes the promise off the list first. The list's memory is the runtime's (metered). */
static void track_rejection(JSContext *ctx, JSValueConst promise, JSValueConst reason, JS_BOOL is_handled, void *opaque)
{
    (void)reason;
    engine *e = opaque;
    if (is_handled) {
        /* Taken off by leaving a hole (compacted by check_rejections). The scan runs from both
         * ends, since handlers usually come in the order the promises were made or the reverse,
         * and it is charged to the run's budget, so no order of handlers makes it free work. */
        size_t lo = 0, hi = e->rejected_len, scanned = 0;
        while (lo < hi) {
            size_t i = (scanned++ & 1) ? --hi : lo++;
            if (!JS_IsObject(e->rejected[i]) || JS_VALUE_GET_PTR(e->rejected[i]) != JS_VALUE_GET_PTR(promise)) continue;
            JS_FreeValue(ctx, e->rejected[i]);
            e->rejected[i] = JS_UNDEFINED;
            break;
        }
        run_limits_charge(&e->limits, scanned / 8);
        return;
    }
    if (e->rejected_len == e->rejected_cap) {
        size_t cap = e->rejected_cap ? e->rejected_cap * 2 : 16;
        JSValue *grown = js_realloc_rt(e->rt, e->rejected, cap * sizeof *grown);
        if (!grown) return; /* out of memory: the limit reports it */
        e->rejected = grown;
        e->rejected_cap = cap;
    }
    e->rejected[e->rejected_len++] = JS_DupValue(ctx, promise);
}

static void rejections_clear(engine *e)
{
    for (size_t i = 0; i < e->rejected_len; i++) JS_FreeValue(e->ctx, e->rejected[i]);
    js_free_rt(e->rt, e->rejected);
    e->rejected = NULL;
    e->rejected_len = e->rejected_cap = 0;
}

/* The job queue is empty: each promise still unhandled goes to the prelude, which hands it to the
 * guest's process.on('unhandledRejection') listeners if there are any (1) or reports none (0);
 * with none, the run fails with the rejection's reason. `until` (the promise drive() waits for)
 * is the engine's own to settle and never counts. 1 when listeners ran (jobs may be queued), 0
 * when nothing was left, -1 with e->failure. */
static int check_rejections(engine *e, JSValueConst until)
{
    int ran = 0;
    size_t next = 0;
    while (next < e->rejected_len) {
        JSValue p = e->rejected[next];
        e->rejected[next++] = JS_UNDEFINED;
        if (!JS_IsObject(p)) continue; /* handled since */
        if (JS_IsObject(until) && JS_VALUE_GET_PTR(p) == JS_VALUE_GET_PTR(until)) {
            JS_FreeValue(e->ctx, p);
            continue;
        }
        JSValue args[2] = {JS_PromiseResult(e->ctx, p), p};
        JSValue fn = JS_GetPropertyStr(e->ctx, e->internals, "unhandledRejection");
        JSValue r = JS_Call(e->ctx, fn, JS_UNDEFINED, 2, (JSValueConst *)args);
        JS_FreeValue(e->ctx, fn);
        if (JS_IsException(r)) {
            JS_FreeValue(e->ctx, args[0]);
            JS_FreeValue(e->ctx, p);
            fail_with_exception(e);
            return -1;
        }
        int taken = JS_ToBool(e->ctx, r);
        JS_FreeValue(e->ctx, r);
        if (!taken) {
            if (!e->failure) {
                char *what = describe_exception(e->ctx, args[0]);
                e->failure = xasprintf("unhandled promise rejection: %s", what);
                free(what);
            }
            JS_FreeValue(e->ctx, args[0]);
            JS_FreeValue(e->ctx, p);
            return -1;
        }
        JS_FreeValue(e->ctx, args[0]);
        JS_FreeValue(e->ctx, p);
        ran = 1;
    }
    e->rejected_len = 0; /* every entry was a hole or was taken above */
    return ran;
}

/* The prelude's start() resolves with a string (the output) on every path but one: the input did
 * not match the run's inputSchema, and it resolves with a frozen {inputInvalid: message}. A thrown
 * look-alike error never takes this path. A guest that replaces Promise.prototype.then could make
 * start() resolve with such an object; that only fails its own run, and the runner honours the
 * flag only for a run that recorded nothing and hit no limit, so it never hides either. */
static int input_rejected(engine *e, JSValue out)
{
    JSValue msg = JS_GetPropertyStr(e->ctx, out, "inputInvalid");
    JS_FreeValue(e->ctx, out);
    const char *text = JS_IsString(msg) ? JS_ToCString(e->ctx, msg) : NULL;
    JS_FreeValue(e->ctx, msg);
    if (!text) {
        if (JS_HasException(e->ctx)) fail_with_exception(e);
        else fail_with_message(e, xstrdup("the run's entrypoint settled with something that is not an output"));
        return -1;
    }
    if (!e->failure) {
        e->failure = xstrdup(text);
        e->input_invalid = true;
    }
    JS_FreeCString(e->ctx, text);
    return -1;
}

/* ---------- the two modes ---------- */

static int run_agent(engine *e)
{
    JSModuleDef *m = NULL;
    JSValue module;
    if (engine_load_entry(e, e->cfg->entry, &module, &m) < 0) {
        fail_with_exception(e);
        return -1;
    }
    JSValue eval = JS_EvalFunction(e->ctx, module);
    if (JS_IsException(eval)) {
        fail_with_exception(e);
        return -1;
    }
    int rc = drive(e, eval);
    if (rc == 0) {
        JSValue ignored;
        rc = settled_value(e, eval, &ignored);
        if (rc == 0) JS_FreeValue(e->ctx, ignored);
    }
    JS_FreeValue(e->ctx, eval);
    if (rc < 0) return -1;

    JSValue ns = JS_GetModuleNamespace(e->ctx, m);
    if (JS_IsException(ns)) {
        fail_with_exception(e);
        return -1;
    }
    JSValue start = JS_GetPropertyStr(e->ctx, e->internals, "start");
    JSValue args[2] = {ns, JS_NewString(e->ctx, e->cfg->input_json ? e->cfg->input_json : "{}")};
    JSValue done = JS_Call(e->ctx, start, JS_UNDEFINED, 2, args);
    JS_FreeValue(e->ctx, start);
    JS_FreeValue(e->ctx, args[0]);
    JS_FreeValue(e->ctx, args[1]);
    if (JS_IsException(done)) {
        fail_with_exception(e);
        return -1;
    }
    rc = drive(e, done);
    JSValue out = JS_UNDEFINED;
    if (rc == 0) rc = settled_value(e, done, &out);
    JS_FreeValue(e->ctx, done);
    if (rc < 0) return -1;
    if (JS_IsObject(out)) return input_rejected(e, out);
    size_t len;
    const char *text = JS_ToCStringLen(e->ctx, &len, out);
    JS_FreeValue(e->ctx, out);
    if (!text) {
        fail_with_exception(e);
        return -1;
    }
    if (len > ENGINE_OUTPUT_MAX_BYTES) {
        JS_FreeCString(e->ctx, text);
        fail_with_message(e, xasprintf("the agent's output is too large: %zu bytes of JSON (the limit is %zu MiB)", len,
                                       ENGINE_OUTPUT_MAX_BYTES >> 20));
        return -1;
    }
    e->output = xstrdup(text);
    JS_FreeCString(e->ctx, text);
    return 0;
}

static int run_script(engine *e)
{
    const engine_config *cfg = e->cfg;
    const char *name = cfg->script_name ? cfg->script_name : "<eval>";
    JSValue r = JS_Eval(e->ctx, cfg->script, cfg->script_len, name, JS_EVAL_TYPE_GLOBAL);
    if (JS_IsException(r)) {
        JSValue exc = JS_GetException(e->ctx);
        engine_annotate_syntax_error(e->ctx, exc, name, cfg->script, cfg->script_len);
        JS_Throw(e->ctx, exc);
        fail_with_exception(e);
        return -1;
    }
    JS_FreeValue(e->ctx, r);
    /* A script's top level is a callback from the loop in Node (as a CommonJS main file): its
     * nextTicks run before its promise jobs. (A module's top level is itself a promise job.) */
    int ticked;
    if (call_internal_bool(e, "runTicks", &ticked) < 0) return -1;
    return drive(e, JS_UNDEFINED);
}

/* Everything of a run that does not depend on it: the runtime (metered through e->limits), the
 * context with its intrinsics, the prelude. No garbage collection meanwhile (nothing there is
 * garbage); run_limits_arm_memory sets the threshold guest code runs under. 0, or -1 with
 * e->failure. */
static int build(engine *e)
{
#if !defined(__SANITIZE_ADDRESS__)
    /* Set-up's allocations come from one block (arena.h) until run_limits_init clears
     * limits.arena before guest code; under AddressSanitizer they stay malloc's, so it sees each. */
    e->arena = arena_acquire();
    e->limits.arena = e->arena;
#endif
    e->rt = JS_NewRuntime2(&metered_malloc_functions, &e->limits);
    if (!e->rt) {
        e->failure = xstrdup("could not create a JavaScript runtime");
        return -1;
    }
    JS_SetGCThreshold(e->rt, (size_t)-1);
    JS_SetCanBlock(e->rt, 0); /* Atomics.wait may never block the run */
    run_limits_install_sab(e->rt);
#ifndef CHIDORI_ENGINE_NG
    /* The prelude's top level makes some 150 closures over a few hundred variables: QuickJS finds
     * each captured variable by walking the frame's list of them, unless the frame has an index
     * (patch 0016). Only set-up uses it: engine_run turns it off before guest code. */
    JS_SetVarRefIndexMin(e->rt, 16);
#endif
    JS_SetInterruptHandler(e->rt, run_limits_interrupt, &e->limits);
    JS_SetDateNowFunc(e->rt, virtual_clock, e);
    JS_SetHostPromiseRejectionTracker(e->rt, track_rejection, e);
    engine_install_module_loader(e);
    e->ctx = JS_NewContextRaw(e->rt);
    if (!e->ctx) {
        e->failure = xstrdup("could not create a JavaScript context");
        return -1;
    }
    JS_SetContextOpaque(e->ctx, e);
    /* (on quickjs-ng, which has natively what js/esnext/ adds to QuickJS, only Array.fromAsync:
     * esnext.c) */
    if (add_intrinsics(e->ctx) < 0 || engine_install_esnext(e) < 0) {
        fail_with_exception(e);
        return -1;
    }
    if (install_prelude(e) < 0) return -1;
    if (engine_install_temporal(e->ctx) < 0) { /* loaded on first touch (temporal.c) */
        fail_with_exception(e);
        return -1;
    }
#ifdef CHIDORI_ENGINE_NG
    /* shapes kept for the next object of the same make: of these prototypes only, so that a
     * guest's dropped prototype is never held (ng patch 0028) */
    JS_KeepShapesOfLiving(e->rt);
#endif
    return 0;
}

/* engine_prepare's engine, taken by the next engine_run (only ever set in a fork server, which is
 * single-threaded, and so in each worker it forks). */
static engine *prepared;
static const engine_config prepare_config = {.mode = ENGINE_SCRIPT};

static void free_atoms(engine *e)
{
    if (e->atom_constructor) JS_FreeAtom(e->ctx, e->atom_constructor);
    if (e->atom_then) JS_FreeAtom(e->ctx, e->atom_then);
    if (e->atom_to_json) JS_FreeAtom(e->ctx, e->atom_to_json);
    e->atom_constructor = e->atom_then = e->atom_to_json = 0;
}

int engine_prepare(void)
{
    engine *e = xcalloc(1, sizeof *e);
    e->cfg = &prepare_config;
    e->internals = JS_UNDEFINED;
    run_limits_init(&e->limits, &prepare_config.limits);
    if (build(e) < 0) {
        free(e->failure);
        if (e->ctx) {
            rejections_clear(e);
            JS_FreeValue(e->ctx, e->internals);
            JS_FreeValue(e->ctx, e->esnext);
            free_atoms(e);
            JS_FreeContext(e->ctx);
        }
        if (e->rt) JS_FreeRuntime(e->rt);
        arena_release(e->arena);
        free(e);
        return -1;
    }
    prepared = e;
    return 0;
}

bool engine_prepared_copy_ahead(void)
{
    if (!prepared) return false;
    arena_copy_ahead(prepared->arena);
    return true;
}

int engine_run(const engine_config *cfg, engine_result *res)
{
    memset(res, 0, sizeof *res);
    engine *e = NULL;
    if (prepared) { /* only ever set in a single-threaded fork server (and its workers) */
        e = prepared;
        prepared = NULL;
    }
    int rc = -1;
    if (!e) {
        /* Built here exactly as engine_prepare builds it (no limits during set-up), so that a run
         * starts from the same state either way: replay depends on it. */
        e = xcalloc(1, sizeof *e);
        e->cfg = &prepare_config;
        e->internals = JS_UNDEFINED;
        run_limits_init(&e->limits, &prepare_config.limits);
        if (build(e) < 0) {
            e->cfg = cfg;
            goto done;
        }
    }
    /* This run's limits, clock and seam from here on (the runtime's allocation counters stay
     * where set-up left them; run_limits_init also ends set-up's arena: malloc from here). */
#ifndef CHIDORI_ENGINE_NG
    JS_SetVarRefIndexMin(e->rt, 0); /* set-up only (build) */
#endif
    const JSMallocState *heap = e->limits.heap;
    run_limits_init(&e->limits, &cfg->limits);
    e->limits.heap = heap;
    e->cfg = cfg;
    e->seam = cfg->seam;
    e->clock_ms = cfg->clock_start_ms;
    /* The stack the run has is measured from here (a prepared runtime was made further up). */
    JS_UpdateStackTop(e->rt);
    JS_SetMaxStackSize(e->rt, cfg->limits.stack_bytes ? cfg->limits.stack_bytes : ENGINE_DEFAULT_STACK_BYTES);
    JS_SetRandomSeed(e->ctx, cfg->fixed_random ? ENGINE_FIXED_SEED : cfg->seed); /* after the intrinsics: Math's set-up seeds from the time */
    run_limits_arm_memory(&e->limits, e->rt);

    rc = cfg->mode == ENGINE_AGENT ? run_agent(e) : run_script(e);

done:
    res->limit = e->limits.tripped;
    res->ticks = run_limits_ticks(&e->limits);
    if (e->paused && !e->failure) {
        res->status = RUN_PAUSED;
        rc = 0;
    } else if (rc == 0) {
        res->status = RUN_COMPLETED;
        res->output_json = e->output;
        e->output = NULL;
    } else {
        res->status = RUN_FAILED;
        if (!e->failure && e->limits.tripped) e->failure = run_limits_message(&e->limits);
        res->error = e->failure ? e->failure : xstrdup("the run failed");
        res->input_invalid = e->input_invalid && !e->limits.tripped;
        e->failure = NULL;
    }
    free(e->output);
    free(e->failure);
    if (cfg->on_result) cfg->on_result(cfg->on_result_ctx, res);
#if !defined(__SANITIZE_ADDRESS__)
    if (cfg->exit_after) return rc; /* the process exits next: no teardown (engine_config) */
#endif
    engine_free_module_cache(e);
    if (e->ctx) {
        rejections_clear(e);
        JS_FreeValue(e->ctx, e->internals);
        JS_FreeValue(e->ctx, e->esnext);
        free_atoms(e);
        /* Lift the ceiling so teardown can never fail for lack of memory. */
        JS_SetMemoryLimit(e->rt, (size_t)-1);
        JS_FreeContext(e->ctx);
    }
    if (e->rt) JS_FreeRuntime(e->rt);
    arena_release(e->arena);
    free(e);
    return rc;
}

typedef struct thread_job {
    const engine_config *cfg;
    engine_result *result;
    int rc;
} thread_job;

static void *thread_main(void *p)
{
    thread_job *job = p;
    job->rc = engine_run(job->cfg, job->result);
    return NULL;
}

int engine_run_on_thread(const engine_config *cfg, engine_result *result)
{
    size_t js_stack = cfg->limits.stack_bytes ? cfg->limits.stack_bytes : ENGINE_DEFAULT_STACK_BYTES;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    /* the engine's own stack check needs headroom below its limit for C frames (and sanitizers) */
    pthread_attr_setstacksize(&attr, js_stack * 4 + ((size_t)4 << 20));
    thread_job job = {cfg, result, -1};
    pthread_t t;
    if (pthread_create(&t, &attr, thread_main, &job) != 0) {
        pthread_attr_destroy(&attr);
        memset(result, 0, sizeof *result);
        result->status = RUN_FAILED;
        result->error = xstrdup("could not start a thread for the run");
        return -1;
    }
    pthread_join(t, NULL);
    pthread_attr_destroy(&attr);
    return job.rc;
}

void engine_result_free(engine_result *r)
{
    free(r->output_json);
    free(r->error);
    memset(r, 0, sizeof *r);
}

const char *engine_name(void)
{
#ifdef CHIDORI_ENGINE_NG
    static char name[48];
    if (!name[0]) snprintf(name, sizeof name, "quickjs-ng %s", JS_GetVersion());
    return name;
#else
    return "QuickJS 2025-04-26";
#endif
}
