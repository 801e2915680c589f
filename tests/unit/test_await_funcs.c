/* test_await_funcs.c — ng patch 0030: an await reuses the function that resumed its async call
 * from the previous await while that one is alive, instead of making a new pair each time. Checked
 * here: fewer objects per await (counted in AddressSanitizer builds, where every block of ng goes
 * through the runtime's malloc functions), and nothing held longer than without the patch. */
#include "unit.h"
#include "quickjs.h"
#include "ng_counting.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(CHIDORI_ENGINE_NG)

/* the counting allocator: ng_counting.h */

/* Evaluate a script and run every job it queued. */
static bool run(JSContext *ctx, const char *script)
{
    JSValue r = JS_Eval(ctx, script, strlen(script), "<await>", JS_EVAL_TYPE_GLOBAL);
    bool ok = !JS_IsException(r);
    JS_FreeValue(ctx, r);
    JSContext *job_ctx;
    int n;
    while ((n = JS_ExecutePendingJob(JS_GetRuntime(ctx), &job_ctx)) > 0) {
    }
    return ok && n == 0;
}

static int64_t objects_now(JSRuntime *rt)
{
    JSMemoryUsage u;
    JS_ComputeMemoryUsage(rt, &u);
    return u.obj_count;
}

#if defined(__SANITIZE_ADDRESS__)
/* Allocations per await (times ten) of one async call awaiting a plain value 2,000 times. Measured:
 * 17 per await with a pair made at each await, 15 with the resuming function reused. */
TEST(ng_await_makes_no_resume_functions_per_await)
{
    JSRuntime *rt = JS_NewRuntime2(&counting, NULL);
    JSContext *ctx = JS_NewContext(rt);
    CHECK(run(ctx, "async function loop(n) { let s = 0; for (let i = 0; i < n; i++) s += await i; return s; }\n"
                   "loop(10);"));
    allocations = 0;
    CHECK(run(ctx, "loop(2000).then((s) => { if (s !== 1999000) throw new Error('sum ' + s); });"));
    long per_await_x10 = allocations * 10 / 2000;
    CHECK(per_await_x10 >= 0 && per_await_x10 < 165);
    JS_FreeContext(ctx);
    JS_FreeRuntime(rt);
}
#endif

/* Calls that awaited and ended leave no object behind, and calls dropped while they await a promise
 * nobody can settle go as soon as that promise does: both without the collector, as without the
 * patch (a hostile review found a version that kept the pair in the call's state, a cycle, which
 * held such calls until a collection and so ran out of memory under a cap where ng had not). */
TEST(ng_await_pair_goes_with_its_call)
{
    JSRuntime *rt = JS_NewRuntime2(&counting, NULL);
    JS_SetGCThreshold(rt, (size_t)-1); /* no collection but the ones asked for below */
    JSContext *ctx = JS_NewContext(rt);
    CHECK(run(ctx, "async function twice(i) { await i; await null; return i; }\n"
                   "globalThis.never = async function () { await new Promise(() => {}); };"));
    JS_RunGC(rt);
    int64_t before = objects_now(rt);
    CHECK(run(ctx, "for (let i = 0; i < 1000; i++) twice(i);"));
    CHECK(objects_now(rt) - before < 50);
    CHECK(run(ctx, "for (let i = 0; i < 1000; i++) never();"));
    CHECK(objects_now(rt) - before < 50);
    JS_RunGC(rt);
    CHECK(objects_now(rt) - before < 50);
    JS_FreeContext(ctx);
    JS_FreeRuntime(rt);
}

#endif
