/* fuzz_regexp.c — libFuzzer target for QuickJS's regular expressions (libregexp, with our
 * patches), compiled and executed under the run's limits: the metered allocator with a memory
 * ceiling, the interrupt handler with a CPU budget (so catastrophic backtracking ends), and the
 * stack limit — all of them src/engine/limits.c's, armed as engine_run arms them.
 *
 * Owns: only this harness. Trusts limits.c and QuickJS's public API.
 *
 * Input: [flags][mode][pattern length: 2 bytes, little-endian][pattern][subject]
 *   flags   libregexp's flag bits (g i m s u y d); the `named groups` bit is the compiler's own
 *   mode    bit 0: the subject is UTF-16 (pairs of bytes, lone surrogates and all) instead of
 *           Latin-1; bits 1 and 2 both set: also run the pattern through the engine's RegExp
 *           (exec, replace with every kind of `$` pattern, split, matchAll, toString) — one input in
 *           four, as that path costs several times the direct one; bits 3-7: the start index
 *           (modulo the subject's length)
 * The pattern bytes become a JS string first and are handed to lre_compile as the engine hands
 * them (JS_ToCStringLen), so every pattern is one a program could write.
 *
 * Checks: no crash or sanitizer report; lre_exec returns match, no match, out of memory or
 * timeout (and timeout only when the budget tripped); every capture lies inside the subject.
 * One runtime and context serve every input (compiling and executing a pattern changes nothing
 * of theirs that the next input could see); the limits are re-armed for each input.
 */
#include "quickjs.h"
#include "libregexp.h"
#include "engine/limits.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define OP_BUDGET 500000ull          /* ticks: 50 interrupt polls, ~500,000 backtracking steps */
#define MEM_CAP ((uint64_t)64 << 20)
#define MAX_ALLOC ((uint64_t)16 << 20)

static run_limits limits;
static JSRuntime *rt;
static JSContext *ctx;
static JSValue exercise; /* the harness's own function calling RegExp's methods */

static const char exercise_src[] =
    "(function (re, s) {\n"
    "  const ops = [\n"
    "    () => re.exec(s), () => s.replace(re, \"[$&|$1|$<a>|$`|$'|$$]\"), () => s.split(re, 16),\n"
    "    () => { for (const m of s.matchAll(re)) if (m.index > 64) break; }, () => String(re),\n"
    "  ];\n"
    "  for (const op of ops) { re.lastIndex = 0; try { op(); } catch (e) { if (e instanceof InternalError) throw e; } }\n"
    "})";

static void setup(void)
{
    engine_limits none = {0};
    run_limits_init(&limits, &none);
    rt = JS_NewRuntime2(&metered_malloc_functions, &limits);
    if (!rt) abort();
    JS_SetInterruptHandler(rt, run_limits_interrupt, &limits);
    JS_SetCanBlock(rt, 0);
    ctx = JS_NewContextRaw(rt);
    if (!ctx) abort();
    JS_AddIntrinsicBaseObjects(ctx);
    JS_AddIntrinsicEval(ctx);
    JS_AddIntrinsicRegExp(ctx);
    exercise = JS_Eval(ctx, exercise_src, sizeof exercise_src - 1, "<fuzz_regexp>", JS_EVAL_TYPE_GLOBAL);
    if (JS_IsException(exercise)) abort();
    JS_SetMaxStackSize(rt, ENGINE_DEFAULT_STACK_BYTES);
}

static void arm(void)
{
    engine_limits cfg = {.op_budget = OP_BUDGET, .mem_cap_bytes = MEM_CAP, .max_alloc_bytes = MAX_ALLOC,
                         .stack_bytes = ENGINE_DEFAULT_STACK_BYTES};
    const JSMallocState *heap = limits.heap;
    run_limits_init(&limits, &cfg);
    limits.heap = heap;
    JS_UpdateStackTop(rt);
    run_limits_arm_memory(&limits, rt);
}

static void clear_exception(void)
{
    if (JS_HasException(ctx)) JS_FreeValue(ctx, JS_GetException(ctx));
}

static void run_direct(int flags, bool wide, unsigned start, const char *pattern, size_t plen,
                       const uint8_t *subject, size_t slen)
{
    char error[64];
    int bc_len;
    uint8_t *bc = lre_compile(&bc_len, error, sizeof error, pattern, plen, flags, ctx);
    if (!bc) {
        if (memchr(error, '\0', sizeof error) == NULL) abort();
        return;
    }
    int clen = (int)(wide ? slen / 2 : slen);
    size_t bytes = (size_t)clen << wide;
    uint8_t *cbuf = malloc(bytes ? bytes : 1); /* exact size: ASan sees any read past the end */
    if (!cbuf) abort();
    memcpy(cbuf, subject, bytes);
    int ncap = lre_get_capture_count(bc);
#ifdef CHIDORI_ENGINE_NG
    /* quickjs-ng keeps its loop counters after the captures: as many slots as the engine gives */
    int slots = lre_get_alloc_count(bc);
#else
    int slots = ncap * 2;
#endif
    uint8_t **capture = slots > 0 ? calloc((size_t)slots, sizeof *capture) : NULL;
    int cindex = clen ? (int)(start % (unsigned)(clen + 1)) : 0;
    int rc = lre_exec(capture, bc, cbuf, cindex, clen, wide, ctx);
    if (rc == LRE_RET_TIMEOUT && limits.tripped != LIMIT_BUDGET) abort();
    if (rc != 0 && rc != 1 && rc != LRE_RET_MEMORY_ERROR && rc != LRE_RET_TIMEOUT) abort();
    if (rc == 1) {
        for (int i = 0; i < ncap; i++) {
            uint8_t *a = capture[2 * i], *b = capture[2 * i + 1];
            if (a && (a < cbuf || a > cbuf + bytes)) abort();
            if (b && (b < cbuf || b > cbuf + bytes)) abort();
            if (a && b && a > b) abort();
        }
        if (!capture || !capture[0] || !capture[1]) abort(); /* a match has a whole-match capture */
    }
    free(capture);
    free(cbuf);
    js_free_rt(rt, bc);
}

static void run_engine(int flags, const char *pattern, size_t plen, const uint8_t *subject, size_t slen)
{
    static const char letters[] = "gimsuyd";
    static const int bits[] = {LRE_FLAG_GLOBAL, LRE_FLAG_IGNORECASE, LRE_FLAG_MULTILINE, LRE_FLAG_DOTALL,
                               LRE_FLAG_UNICODE, LRE_FLAG_STICKY, LRE_FLAG_INDICES};
    char fl[8];
    int n = 0;
    for (int i = 0; i < 7; i++)
        if (flags & bits[i]) fl[n++] = letters[i];
    fl[n] = '\0';
    JSValue global = JS_GetGlobalObject(ctx);
    JSValue ctor = JS_GetPropertyStr(ctx, global, "RegExp");
    JSValue args[2] = {JS_NewStringLen(ctx, pattern, plen), JS_NewString(ctx, fl)};
    JSValue re = JS_CallConstructor(ctx, ctor, 2, (JSValueConst *)args);
    JS_FreeValue(ctx, args[0]);
    JS_FreeValue(ctx, args[1]);
    JS_FreeValue(ctx, ctor);
    JS_FreeValue(ctx, global);
    if (JS_IsException(re)) {
        clear_exception();
        return;
    }
    JSValue s = JS_NewStringLen(ctx, (const char *)subject, slen);
    JSValue call_args[2] = {re, s};
    JSValue r = JS_Call(ctx, exercise, JS_UNDEFINED, 2, (JSValueConst *)call_args);
    if (JS_IsException(r)) clear_exception();
    JS_FreeValue(ctx, r);
    JS_FreeValue(ctx, s);
    JS_FreeValue(ctx, re);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!rt) setup();
    if (size < 4) return 0;
    int flags = data[0] & (LRE_FLAG_GLOBAL | LRE_FLAG_IGNORECASE | LRE_FLAG_MULTILINE | LRE_FLAG_DOTALL |
                           LRE_FLAG_UNICODE | LRE_FLAG_STICKY | LRE_FLAG_INDICES);
    int mode = data[1];
    size_t rest = size - 4, plen = ((size_t)data[2] | (size_t)data[3] << 8) % (rest + 1);
    const uint8_t *pat = data + 4, *subject = pat + plen;
    size_t slen = rest - plen;

    arm();
    /* The pattern as a program could write it: bytes → JS string → what the engine compiles. */
    JSValue ps = JS_NewStringLen(ctx, (const char *)pat, plen);
    size_t clen;
    const char *pattern = JS_IsException(ps) ? NULL : JS_ToCStringLen(ctx, &clen, ps);
    JS_FreeValue(ctx, ps);
    if (pattern) {
        run_direct(flags, mode & 1, (unsigned)mode >> 3, pattern, clen, subject, slen);
        JS_FreeCString(ctx, pattern);
    } else {
        clear_exception();
    }
    if ((mode & 6) == 6) {
        arm();
        run_engine(flags, (const char *)pat, plen, subject, slen);
    }
    return 0; /* cycles are collected by QuickJS's own threshold, which arm() sets as a run does */
}
