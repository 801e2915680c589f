/* test_compile_oom.c — the engine's compiler when an allocation fails at any point of a compile
 * (ng patch 0031). A guest can bring one about: it fills its memory to just under its cap and then
 * calls `eval` or `new Function`, and how much it filled picks the allocation that is refused.
 * Each focus script is compiled once to count its allocations, and then again once for every
 * allocation of that count, refusing that one (and, in a second pass, every one after it, as a cap
 * does); a direct eval inside `with` is swept the same way at run time. No such compile may read
 * or write outside its memory or trip an assertion; none may make a function while a failure's
 * exception is pending; the exception must be an object (the out-of-memory error, or with every
 * later allocation refused too the one the context made ahead, not a catchable `null`); and the
 * context must compile the script after.
 * Built for AddressSanitizer only (ng_refusing.h says why). */
#include "unit.h"
#include "ng_refusing.h"
#include "quickjs.h"

#include <stdbool.h>
#include <string.h>

#if defined(CHIDORI_ENGINE_NG) && defined(__SANITIZE_ADDRESS__)

/* Compile source (a script, or a module when module) with the allocation refuse_at refused: 1 when
 * it compiled, 0 when it failed as it should (an exception that is an object), -1 otherwise. */
static int compile(JSContext *ctx, const char *source, bool module, long at, bool after)
{
    refuse_from(at, after);
    JSValue f = JS_Eval(ctx, source, strlen(source), "<focus>",
                        (module ? JS_EVAL_TYPE_MODULE : JS_EVAL_TYPE_GLOBAL) | JS_EVAL_FLAG_COMPILE_ONLY);
    refuse_at = 0;
    if (!JS_IsException(f)) {
        JS_FreeValue(ctx, f);
        /* made, but with a failure thrown on the way and not passed up: the function lacks what
           could not be made (a closure variable read as index 0xffff, found by a review) */
        if (JS_HasException(ctx)) {
            JS_FreeValue(ctx, JS_GetException(ctx));
            fprintf(stderr, "compile with allocation %ld%s refused: made, with an exception pending\n", at,
                    after ? " and later" : "");
            return -2;
        }
        return 1;
    }
    JSValue e = JS_GetException(ctx);
    int rc = JS_IsObject(e) ? 0 : -1;
    JS_FreeValue(ctx, e);
    return rc;
}

static const char *const SCRIPTS[] = {
    /* scopes, closures, captured loop bindings, eval and with (the resolver's own cases) */
    "function outer(a, b = a + 1, ...rest) {\n"
    "  let x = a; const y = b; var z = rest.length;\n"
    "  for (let i = 0; i < 3; i++) { const f = () => i + x; z += f(); }\n"
    "  { let shadow = y; function inner() { return shadow + eval('x + 1'); } z += inner(); }\n"
    "  try { throw new Error('e'); } catch ({ message }) { z += message.length; } finally { z++; }\n"
    "  label: for (const k in { p: 1, q: 2 }) { if (k === 'q') break label; z += k.length; }\n"
    "  switch (z) { case 1: { let s = 1; z += s; break; } default: z--; }\n"
    "  return z;\n"
    "}\n"
    "var o = { m() { return super.toString(); }, get g() { return 1; }, ['c' + 1]: 2, ...{ d: 3 } };\n"
    "with ({ w: 1 }) { var fromWith = w + outer(1, 2, 3); }\n"
    "outer(1);",
    /* classes, private names, statics, generators, async, destructuring, templates, regexps */
    "class A { #p = 1; static s = 2; static { A.t = 3; } #m() { return this.#p; } get v() { return this.#m(); }\n"
    "  static make() { return new this(); } }\n"
    "class B extends A { constructor() { super(); this.q = super.v; } *gen() { yield* [1, 2]; yield this.q; } }\n"
    "async function* ag(list) { for await (const x of list) yield x; }\n"
    "const { a = 1, b: [c, , d = 2] = [], ...others } = { b: [1, 2, 3], e: 4 };\n"
    "const tag = (s, ...v) => s.raw.join('|') + v.join(',');\n"
    "const t = tag`one ${a} two ${c}` + `${d}`;\n"
    "const re = /(?<year>\\d{4})-(?<m>\\d\\d)/gu; const m = '2026-12'.match(re);\n"
    "let n = 0; for (const x of new B().gen()) n += x; n ?\?= 1; n ||= 2; n &&= 3;\n"
    "const opt = others?.e?.toString?.() ?? 'none';\n"
    "async function f() { await null; return [...ag([1, 2])]; }\n"
    "new B().v + n + opt.length + t.length;",
    /* control flow: loops of every kind with labels, try/finally in generators, switch, using */
    "function* g(n) { outer: for (let i = 0; i < n; i++) { inner: for (const j of [1, 2]) {\n"
    "  if (j === 2) continue outer; try { yield i * j; } finally { if (i > 5) break outer; } } } }\n"
    "let total = 0; for (const v of g(10)) total += v;\n"
    "do { total--; } while (total > 100);\n"
    "while (true) { if (total++ > 3) break; }\n"
    "for (var k in { a: 1 }) for (var q = 0; q < 2; q++) total += q;\n"
    "switch (typeof total) { case 'number': total += 1; case 'string': break; default: total = 0; }\n"
    "{ using res = { [Symbol.dispose]() { total++; } }; }\n"
    "const arrow = async (...a) => { const [x = 1, ...r] = a; return x + r.length + (await x); };\n"
    "const obj = { get x() { return this._x; }, set x(v) { this._x = v; }, async *m() { yield 1; } };\n"
    "obj.x = [...'abc'].map((c, i) => c.charCodeAt(0) + i).reduce((p, c) => p + c, 0);\n"
    "const lb = /(?<=\\$)\\d+(?!px)/y.exec('$42') ?? [];\n"
    "label: { if (obj?.x) break label; total = -1; }\n"
    "delete obj._x; void 0; typeof undeclared === 'undefined' && (total += 1);\n"
    "total + lb.length + obj.x;",
    /* direct eval, with, and the variables they reach; a directive; destructured parameters (the
     * reviewer's reproducers: closure variables not made, atoms freed twice, an empty buffer) */
    "var zz = 1;\n"
    "function f(a = eval('1')) { eval('var q = 2'); return () => zz + q + a; }\n"
    "function g() { eval(''); return function () { return zz + (() => zz)(); }; }\n"
    "function h(b) { with (b) { return () => zz + w; } }\n"
    "function d(o) { 'a directive-like string'; if (o) return 1; return 2; }\n"
    "function p([a, b = 2], { c, d: [e] = [3] }) { return a + b + c + e; }\n"
    "f()() + g()() + h({ w: 1 })() + d(0) + p([1], { c: 1 });",
};

static const char *const MODULES[] = {
    "import * as self from '<focus>';\n"
    "export const a = 1; export let b = a + 1; export function f() { return b; }\n"
    "export default class { static x = f(); }\n"
    "const top = await Promise.resolve(a); export { top as renamed };\n",
};

static void every_point(const char *source, bool module)
{
    JSRuntime *rt = JS_NewRuntime2(&injecting, NULL);
    JSContext *ctx = JS_NewContext(rt);
    CHECK(ctx != NULL);
    /* what a compile of it allocates (counting, refusing nothing) */
    CHECK(compile(ctx, source, module, 1L << 60, false) == 1);
    long total = seen;
    CHECK(total > 50);
    trace = getenv("CHIDORI_TEST_TRACE") != NULL; /* which point a sanitizer report came at */
    for (int after = 0; after < 2; after++) {
        for (long at = 1; at <= total; at++) {
            if (trace) fprintf(stderr, "refusing allocation %ld of %ld%s\n", at, total, after ? " and later" : "");
            int rc = compile(ctx, source, module, at, after);
            /* with every later allocation refused too, the error made ahead is thrown */
            if (rc == -1)
                fprintf(stderr, "compile with allocation %ld%s refused: not an object thrown\n", at, after ? " and later" : "");
            CHECK(rc >= 0);
        }
    }
    CHECK(compile(ctx, source, module, 0, false) == 1); /* the context is whole */
    JS_FreeContext(ctx);
    JS_FreeRuntime(rt);
}

/* A direct eval compiles at run time, inside the scopes of the function that calls it: the call
 * is made once for every allocation it makes, refusing that one (and every later one). It either
 * returns what it should or throws, with nothing pending, and the context runs it again after. */
static void eval_at_every_point(void)
{
    static const char setup[] =
        "var zz = 1;\n"
        "function g(o) { var v = 2; with (o) { return eval('(() => { let s = zz + v + w; '\n"
        "  + 'for (const k of [1, 2]) s += k; return s; })()'); } }\n";
    JSRuntime *rt = JS_NewRuntime2(&injecting, NULL);
    JSContext *ctx = JS_NewContext(rt);
    CHECK(ctx != NULL);
    JSValue r = JS_Eval(ctx, setup, strlen(setup), "<setup>", JS_EVAL_TYPE_GLOBAL);
    CHECK(!JS_IsException(r));
    JS_FreeValue(ctx, r);
    static const char call[] = "g({ w: 3 })";
    refuse_from(1L << 60, false); /* counting */
    r = JS_Eval(ctx, call, strlen(call), "<call>", JS_EVAL_TYPE_GLOBAL);
    refuse_at = 0;
    int32_t v = 0;
    CHECK(JS_ToInt32(ctx, &v, r) == 0 && v == 9);
    JS_FreeValue(ctx, r);
    long total = seen;
    CHECK(total > 50);
    for (int after = 0; after < 2; after++) {
        for (long at = 1; at <= total; at++) {
            if (trace) fprintf(stderr, "eval: refusing allocation %ld of %ld%s\n", at, total, after ? " and later" : "");
            refuse_from(at, after);
            r = JS_Eval(ctx, call, strlen(call), "<call>", JS_EVAL_TYPE_GLOBAL);
            refuse_at = 0;
            if (JS_IsException(r)) {
                JS_FreeValue(ctx, JS_GetException(ctx));
            } else {
                v = 0;
                bool right = JS_ToInt32(ctx, &v, r) == 0 && v == 9 && !JS_HasException(ctx);
                if (!right) fprintf(stderr, "eval with allocation %ld%s refused: returned %d\n", at, after ? " and later" : "", v);
                CHECK(right);
                JS_FreeValue(ctx, r);
            }
        }
    }
    r = JS_Eval(ctx, call, strlen(call), "<call>", JS_EVAL_TYPE_GLOBAL);
    CHECK(JS_ToInt32(ctx, &v, r) == 0 && v == 9);
    JS_FreeValue(ctx, r);
    JS_FreeContext(ctx);
    JS_FreeRuntime(rt);
}

TEST(ng_compile_survives_a_refused_allocation_anywhere)
{
    eval_at_every_point();
    for (size_t i = 0; i < sizeof SCRIPTS / sizeof *SCRIPTS; i++) every_point(SCRIPTS[i], false);
    for (size_t i = 0; i < sizeof MODULES / sizeof *MODULES; i++) every_point(MODULES[i], true);
}

#endif
