/* test_arena_spare.c — ng patch 0022: each size class of ng's small-block allocator keeps one
 * empty arena, so a loop that makes and drops a few objects per turn does not map, initialize and
 * free a 4 KiB arena on every turn. Checked here through the runtime's malloc functions: an async
 * loop awaiting an async function's promise, followed by one more await (the shape of an agent
 * that records marks, then asks for input: the first version of the patch still paid an arena per
 * turn there, 2,001 for 2,000 turns), asks the backing allocator for a handful of arenas, not one
 * per turn. ng's arenas are off
 * in AddressSanitizer builds (every block goes to malloc, so ASan sees it), where there is nothing
 * to count. */
#include "unit.h"
#include "quickjs.h"

#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#if defined(CHIDORI_ENGINE_NG) && !defined(__SANITIZE_ADDRESS__)

/* what the runtime asked of its backing allocator: blocks of an arena's size (4 KiB at most,
 * more than any small block) */
static int arenas_asked;

static void *count_calloc(void *opaque, size_t count, size_t size) { return calloc(count, size); }
static void *count_malloc(void *opaque, size_t size)
{
    if (size > 2048 && size <= 4096) arenas_asked++;
    return malloc(size);
}
static void count_free(void *opaque, void *ptr) { free(ptr); }
static void *count_realloc(void *opaque, void *ptr, size_t size) { return realloc(ptr, size); }
static size_t count_usable(const void *ptr) { return malloc_usable_size((void *)ptr); }

static const JSMallocFunctions counting = {count_calloc, count_malloc, count_free, count_realloc, count_usable};

/* Arenas asked for while the script's promise jobs run (after its set-up). */
static int arenas_for(const char *script)
{
    JSRuntime *rt = JS_NewRuntime2(&counting, NULL);
    JSContext *ctx = JS_NewContext(rt);
    JSValue r = JS_Eval(ctx, script, strlen(script), "<arena>", JS_EVAL_TYPE_GLOBAL);
    int bad = JS_IsException(r);
    JS_FreeValue(ctx, r);
    arenas_asked = 0;
    while (!bad && JS_IsJobPending(rt)) {
        JSContext *c;
        bad = JS_ExecutePendingJob(rt, &c) < 0;
    }
    int asked = bad ? -1 : arenas_asked;
    JS_FreeContext(ctx);
    JS_FreeRuntime(rt);
    return asked;
}

TEST(ng_arena_spare_a_loop_of_awaits_reuses_its_arenas)
{
    static const char *const scripts[] = {
        /* an async wrapper's promise awaited in a loop, then once more after it: the first version
         * of the patch asked for 2,001 arenas here */
        "function eff(a) { return Promise.resolve(null); }\n"
        "async function mark(l) { return eff({ label: l }); }\n"
        "(async () => { for (let i = 0; i < 2000; i++) await mark('tick'); await mark('q'); })();",
        /* the same loop without the await after it, and a plain loop of awaits */
        "function eff(a) { return Promise.resolve(null); }\n"
        "async function mark(l) { return eff({ label: l }); }\n"
        "(async () => { for (let i = 0; i < 2000; i++) await mark('tick'); })();",
        "(async () => { for (let i = 0; i < 2000; i++) await Promise.resolve({ i }); await 0; })();",
    };
    for (size_t i = 0; i < sizeof scripts / sizeof *scripts; i++) {
        int asked = arenas_for(scripts[i]);
        CHECK(asked >= 0);
        CHECK(asked < 100); /* one per turn would be 2,000 */
    }
}

#endif
