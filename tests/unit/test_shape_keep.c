/* test_shape_keep.c — ng patch 0028: the runtime keeps the last small shapes whose last object
 * went, so that a loop making and dropping objects of one make does not build (clone, hash) and
 * free their shape on every turn; and once JS_KeepShapesOfLiving has been called, it keeps only
 * shapes whose prototype was alive then, so a prototype the guest drops is not held by the ring.
 * The allocation count is checked in AddressSanitizer builds only (there every block of ng goes
 * through the runtime's malloc functions; in a release build small blocks come from ng's arenas,
 * where there is nothing to count); the memory bound in every build. */
#include "unit.h"
#include "quickjs.h"
#include "ng_counting.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(CHIDORI_ENGINE_NG)

/* the counting allocator: ng_counting.h */

static bool eval_ok(JSContext *ctx, const char *script)
{
    JSValue r = JS_Eval(ctx, script, strlen(script), "<shapes>", JS_EVAL_TYPE_GLOBAL);
    bool ok = !JS_IsException(r);
    JS_FreeValue(ctx, r);
    return ok;
}

#if defined(__SANITIZE_ADDRESS__)
/* Allocations per turn (times ten) of a loop that calls make(i) and drops what it made. */
static long per_turn_x10(const char *make)
{
    JSRuntime *rt = JS_NewRuntime2(&counting, NULL);
    JSContext *ctx = JS_NewContext(rt);
    JS_KeepShapesOfLiving(rt);
    long n = -1;
    if (eval_ok(ctx, make) && eval_ok(ctx, "for (let i = 0; i < 10; i++) make(i);")) {
        allocations = 0;
        if (eval_ok(ctx, "for (let i = 0; i < 2000; i++) make(i);")) n = allocations * 10 / 2000;
    }
    JS_FreeContext(ctx);
    JS_FreeRuntime(rt);
    return n;
}

/* A closure, a promise with its resolving functions, an async call: each made and dropped per
 * turn. ng gives each such function its `length` and `name` on a shape it clones from the shared
 * empty one and frees with it; with the shapes kept, each make's shape is found again. Measured:
 * 5, 18 and 15 allocations per turn without the ring, 4, 15 and 13 with it. */
TEST(ng_shape_keep_a_loop_of_closures_and_promises_builds_no_shape_per_turn)
{
    long closure = per_turn_x10("function make(i) { const f = () => i; return f; }");
    long promise = per_turn_x10("function make(i) { new Promise((r) => r(i)); }");
    long async_call = per_turn_x10("async function f() { return 1; } function make(i) { f(); }");
    CHECK(closure >= 0 && closure <= 45);
    CHECK(promise >= 0 && promise <= 160);
    CHECK(async_call >= 0 && async_call <= 140);
}
#endif

/* Objects whose prototype is an object of the guest's, each prototype holding about 1.6 MB and
 * dropped with its object: the memory in use after the loop is what it was before it (the ring
 * keeps no shape of such a prototype), not 64 prototypes' worth (99 MB). The same for a shape
 * whose key is a symbol a WeakMap holds values under, or a long name (318 and 67 MB kept). */
/* What a script leaves in use once it has run and the collector has: bytes more than before. */
static int64_t held_after(JSRuntime *rt, JSContext *ctx, const char *script)
{
    JSMemoryUsage before, after;
    JS_RunGC(rt);
    JS_ComputeMemoryUsage(rt, &before);
    if (!eval_ok(ctx, script)) return INT64_MAX;
    JS_RunGC(rt);
    JS_ComputeMemoryUsage(rt, &after);
    return after.memory_used_size - before.memory_used_size;
}

TEST(ng_shape_keep_never_holds_a_dropped_prototype)
{
    JSRuntime *rt = JS_NewRuntime2(&counting, NULL);
    JSContext *ctx = JS_NewContext(rt);
    JS_KeepShapesOfLiving(rt);
    CHECK(held_after(rt, ctx, "for (let i = 0; i < 100; i++) {\n"
                              "  const o = Object.create({ big: new Array(100000).fill(i) });\n"
                              "  o.x = i; o.y = i;\n"
                              "}") < (4 << 20));
    /* nor what a kept shape's keys would hold (a hostile review's cases): a symbol key that is
     * also a WeakMap's key, and a 1 MB property name */
    CHECK(held_after(rt, ctx, "const wm = new WeakMap();\n"
                              "for (let i = 0; i < 100; i++) {\n"
                              "  const k = Symbol('k'); const o = {}; o[k] = i;\n"
                              "  wm.set(k, new Array(100000).fill(i));\n"
                              "}\n"
                              "for (let i = 0; i < 100; i++) { const o = {}; o['x'.repeat(1 << 20) + i] = i; }") <
          (4 << 20));
    /* and objects of an intrinsic's make (whose shapes are kept) still run after all that */
    CHECK(eval_ok(ctx, "for (let i = 0; i < 100; i++) { const o = {}; o.p = i; o.q = i; }"));
    JS_FreeContext(ctx);
    JS_FreeRuntime(rt); /* the ring is emptied first: nothing is left (AddressSanitizer's leak check) */
}

#endif
