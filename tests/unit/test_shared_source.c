/* test_shared_source.c — ng patch 0027: the functions of one parse share one copy of its text
 * (Function.prototype.toString), bytecode writes each shared text once, and
 * JS_WriteObjectExternalSource / JS_ReadObjectWithSource leave the caller's text out and take it
 * back. Checked here: every function reads back its own text, from source, from self-contained
 * bytecode and from bytecode with the text left out; such bytecode is refused without its text or
 * with a text of another length; a self-contained one holds the text once; the functions' texts
 * outlive the compile's runtime and the reader's own references (run it under AddressSanitizer too: a text freed
 * while a function points into it is a use after free there). */
#define _GNU_SOURCE /* memmem */
#include "unit.h"
#include "quickjs.h"

#include <stdlib.h>
#include <string.h>

#ifdef CHIDORI_ENGINE_NG

static const char MODULE[] =
    "#!/usr/bin/env node\n"
    "export class K { constructor(a) { this.a = a; } m() { return 'é ✓'; } get g() { return 1; } }\n"
    "export function f(x, y = 2) { return function inner() { return x + y; }; }\n"
    "export const arrow = (z) => z * 2; // trailing comment\n"
    "export async function* ag() { yield 1; }\n"
    "globalThis.texts = () => [K, K.prototype.m, Object.getOwnPropertyDescriptor(K.prototype, 'g').get,\n"
    "  f, f(1), arrow, ag].map(String).join('|');\n";

static const char WANT[] =
    "class K { constructor(a) { this.a = a; } m() { return 'é ✓'; } get g() { return 1; } }|"
    "m() { return 'é ✓'; }|get g() { return 1; }|"
    "function f(x, y = 2) { return function inner() { return x + y; }; }|"
    "function inner() { return x + y; }|(z) => z * 2|async function* ag() { yield 1; }";

/* The module's functions' texts once it ran, or NULL (an exception). */
static char *texts_of(JSContext *ctx, JSValue module)
{
    JSValue r = JS_EvalFunction(ctx, module); /* takes module */
    if (JS_IsException(r)) return NULL;
    JS_FreeValue(ctx, r);
    while (JS_IsJobPending(JS_GetRuntime(ctx))) {
        JSContext *c;
        if (JS_ExecutePendingJob(JS_GetRuntime(ctx), &c) < 0) return NULL;
    }
    JSValue global = JS_GetGlobalObject(ctx);
    JSValue fn = JS_GetPropertyStr(ctx, global, "texts");
    JS_FreeValue(ctx, global);
    JSValue s = JS_Call(ctx, fn, JS_UNDEFINED, 0, NULL);
    JS_FreeValue(ctx, fn);
    const char *c = JS_ToCString(ctx, s);
    JS_FreeValue(ctx, s);
    char *out = c ? strdup(c) : NULL;
    JS_FreeCString(ctx, c);
    return out;
}

/* bytecode written by ctx's runtime, moved to malloc'd memory (the runtime is freed before use) */
static uint8_t *copy_out(JSContext *ctx, uint8_t *bc, size_t n)
{
    if (!bc) return NULL;
    uint8_t *c = malloc(n);
    memcpy(c, bc, n);
    js_free(ctx, bc);
    return c;
}

static JSValue compile(JSContext *ctx)
{
    return JS_Eval(ctx, MODULE, sizeof MODULE - 1, "m.js", JS_EVAL_TYPE_MODULE | JS_EVAL_FLAG_COMPILE_ONLY);
}

/* A fresh runtime for each read, so nothing of the compile's is still alive. */
static char *read_and_run(const uint8_t *bc, size_t n, const char *source, size_t source_len, char **error)
{
    JSRuntime *rt = JS_NewRuntime();
    JSContext *ctx = JS_NewContext(rt);
    JSValue m = source ? JS_ReadObjectWithSource(ctx, bc, n, JS_READ_OBJ_BYTECODE, source, source_len)
                       : JS_ReadObject(ctx, bc, n, JS_READ_OBJ_BYTECODE);
    char *out = NULL;
    *error = NULL;
    if (JS_IsException(m)) {
        JSValue e = JS_GetException(ctx);
        const char *c = JS_ToCString(ctx, e);
        *error = strdup(c ? c : "?");
        JS_FreeCString(ctx, c);
        JS_FreeValue(ctx, e);
    } else {
        out = texts_of(ctx, m);
    }
    JS_FreeContext(ctx);
    JS_FreeRuntime(rt);
    return out;
}

TEST(shared_source_functions_read_back_their_own_text)
{
    JSRuntime *rt = JS_NewRuntime();
    JSContext *ctx = JS_NewContext(rt);
    JSValue m = compile(ctx);
    CHECK(!JS_IsException(m));
    size_t whole_n = 0, ext_n = 0, other_n = 0;
    uint8_t *whole = JS_WriteObject(ctx, &whole_n, m, JS_WRITE_OBJ_BYTECODE);
    whole = copy_out(ctx, whole, whole_n);
    uint8_t *ext = JS_WriteObjectExternalSource(ctx, &ext_n, m, JS_WRITE_OBJ_BYTECODE, MODULE, sizeof MODULE - 1);
    ext = copy_out(ctx, ext, ext_n);
    /* another text of the same length is not the module's: its text stays in (the byte changed is
     * inside a function; one past the last function's end would not matter: that part of the
     * input is not kept) */
    char *other = strdup(MODULE);
    other[strstr(MODULE, "return 1") - MODULE] = 'x';
    uint8_t *with_other = JS_WriteObjectExternalSource(ctx, &other_n, m, JS_WRITE_OBJ_BYTECODE, other, sizeof MODULE - 1);
    with_other = copy_out(ctx, with_other, other_n);
    /* the text kept runs from the first function to the end of the last one: a change after it
     * does not matter */
    char *tail = strdup(MODULE);
    tail[sizeof MODULE - 3] = 'x';
    size_t tail_n = 0;
    uint8_t *with_tail = JS_WriteObjectExternalSource(ctx, &tail_n, m, JS_WRITE_OBJ_BYTECODE, tail, sizeof MODULE - 1);
    CHECK(with_tail && tail_n == ext_n);
    js_free(ctx, with_tail);
    free(tail);
    CHECK(whole && ext && with_other);
    CHECK(other_n == whole_n);
    /* the text once in the self-contained bytecode (not once per function: K's text holds m's and
     * g's), and not at all in the other */
    CHECK(memmem(whole, whole_n, "get g()", 7) != NULL);
    const uint8_t *at = memmem(whole, whole_n, "get g()", 7);
    CHECK(memmem(at + 1, whole_n - (size_t)(at + 1 - whole), "get g()", 7) == NULL);
    CHECK(memmem(ext, ext_n, "get g()", 7) == NULL);
    size_t span = (size_t)(strstr(MODULE, "{ yield 1; }") + 12 - strstr(MODULE, "class K"));
    CHECK(ext_n + span - 16 <= whole_n);
    /* from source */
    char *got = texts_of(ctx, m);
    CHECK(got != NULL);
    if (got) CHECK_STR(got, WANT);
    free(got);
    JS_FreeContext(ctx);
    JS_FreeRuntime(rt);

    char *error = NULL;
    got = read_and_run(whole, whole_n, NULL, 0, &error);
    CHECK(got != NULL);
    if (got) CHECK_STR(got, WANT);
    free(got);
    free(error);
    got = read_and_run(ext, ext_n, MODULE, sizeof MODULE - 1, &error);
    CHECK(got != NULL);
    if (got) CHECK_STR(got, WANT);
    free(got);
    free(error);
    /* the self-contained bytecode ignores a text it is given */
    got = read_and_run(whole, whole_n, "x", 1, &error);
    CHECK(got != NULL);
    if (got) CHECK_STR(got, WANT);
    free(got);
    free(error);
    /* without its text, or with one of another length: refused, nothing read */
    got = read_and_run(ext, ext_n, NULL, 0, &error);
    CHECK(got == NULL && error && strstr(error, "bytecode needs its source text"));
    free(got);
    free(error);
    got = read_and_run(ext, ext_n, MODULE, sizeof MODULE - 2, &error);
    CHECK(got == NULL && error && strstr(error, "bytecode needs its source text"));
    free(got);
    free(error);
    free(other);
    free(whole);
    free(ext);
    free(with_other);
}

/* A long stretch of the input outside every function (data evaluated once) is not kept by the
 * function that outlives the parse: memory after 20 such evaluations of 100 KB stays far below
 * what keeping each whole input would take. */
TEST(shared_source_keeps_only_the_functions_span)
{
    JSRuntime *rt = JS_NewRuntime();
    JSContext *ctx = JS_NewContext(rt);
    size_t n = 100 << 10;
    char *src = malloc(n + 64);
    size_t at = 0;
    at += (size_t)sprintf(src, "void [");
    while (at < n) at += (size_t)sprintf(src + at, "1234567,");
    at += (size_t)sprintf(src + at, "0]; (() => 42)");
    JSValue keep = JS_NewArray(ctx);
    JS_RunGC(rt);
    JSMemoryUsage before, after;
    JS_ComputeMemoryUsage(rt, &before);
    for (int i = 0; i < 20; i++) {
        JSValue f = JS_Eval(ctx, src, at, "data.js", JS_EVAL_TYPE_GLOBAL);
        CHECK(JS_IsFunction(ctx, f));
        JSValue text = JS_ToString(ctx, f);
        const char *c = JS_ToCString(ctx, text);
        CHECK(c && strcmp(c, "() => 42") == 0);
        JS_FreeCString(ctx, c);
        JS_FreeValue(ctx, text);
        JS_SetPropertyUint32(ctx, keep, (uint32_t)i, f);
    }
    JS_RunGC(rt);
    JS_ComputeMemoryUsage(rt, &after);
    CHECK(after.malloc_size - before.malloc_size < (int64_t)(200 << 10));
    JS_FreeValue(ctx, keep);
    free(src);
    JS_FreeContext(ctx);
    JS_FreeRuntime(rt);
}

#endif
