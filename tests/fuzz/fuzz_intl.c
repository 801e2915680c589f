/* fuzz_intl.c — libFuzzer target for the C half of Intl (src/engine/intl_native.c): every function
 * the JS layer calls, handed the fuzzer's strings where the JS layer hands validated ones, so the
 * C side's own bounds (locale tags, skeletons, patterns, zone names, text) are what is tested.
 *
 * Owns: only this harness. Trusts intl_native.c's API and QuickJS's.
 *
 * Input: [selector][arg 0]\n[arg 1]\n[arg 2]\n[arg 3] — the selector picks the function (modulo
 * their number) and whether a number argument is a double or a decimal string; the strings go in
 * as JS strings (any bytes, invalid UTF-8 included).
 *
 * Checks: no crash or sanitizer report; every call returns a value or throws (an exception is
 * cleared and the next input runs). ICU is loaded once, by dlopen, as in chidori.
 */
#include "quickjs.h"
#include "engine/intl_native.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static JSRuntime *rt;
static JSContext *ctx;
static JSValue intl;

static const char *const fns[] = {"canonicalize", "maximize", "caseMap", "numberFormat", "bestPattern", "hourCycle",
                                  "stylePattern", "dateFormat", "dateRange", "timeZone", "compare", "plural",
                                  "pluralCategories", "relativeTime", "listFormat", "collatorIgnoresPunctuation"};
#define NFNS (sizeof fns / sizeof fns[0])

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!rt) {
        rt = JS_NewRuntime();
        ctx = JS_NewContext(rt);
        intl = intl_native_object(ctx);
    }
    if (size < 1 || size > 4096) return 0;
    uint8_t sel = data[0];
    JSValue s[4];
    const char *p = (const char *)data + 1, *end = (const char *)data + size;
    for (int i = 0; i < 4; i++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *stop = nl ? nl : end;
        s[i] = JS_NewStringLen(ctx, p, (size_t)(stop - p));
        p = nl ? nl + 1 : end;
    }
    JSValue num = (sel & 0x80) ? JS_DupValue(ctx, s[3]) : JS_NewFloat64(ctx, (double)(int8_t)data[size - 1] * 1e5 + 0.25);
    JSValue items = JS_NewArray(ctx);
    JS_SetPropertyUint32(ctx, items, 0, JS_DupValue(ctx, s[2]));
    JS_SetPropertyUint32(ctx, items, 1, JS_DupValue(ctx, s[3]));
    JSValue small = JS_NewInt32(ctx, (sel >> 4) & 3), flag = JS_NewBool(ctx, sel & 0x40);
    const char *name = fns[(sel & 0x3f) % NFNS];
    JSValue args[7];
    int n = 0;
    if (!strcmp(name, "caseMap")) { args[0] = s[0]; args[1] = s[1]; args[2] = flag; n = 3; }
    else if (!strcmp(name, "numberFormat")) { args[0] = s[0]; args[1] = s[1]; args[2] = num; args[3] = flag; n = 4; }
    else if (!strcmp(name, "bestPattern")) { args[0] = s[0]; args[1] = s[1]; n = 2; }
    else if (!strcmp(name, "stylePattern")) { args[0] = s[0]; args[1] = small; args[2] = JS_NewInt32(ctx, (sel & 3) - 1); n = 3; }
    else if (!strcmp(name, "dateFormat")) { args[0] = s[0]; args[1] = s[1]; args[2] = s[2]; args[3] = num; args[4] = flag; n = 5; }
    else if (!strcmp(name, "dateRange")) { args[0] = s[0]; args[1] = s[1]; args[2] = s[2]; args[3] = num; args[4] = JS_NewFloat64(ctx, 8.64e12); args[5] = flag; n = 6; }
    else if (!strcmp(name, "compare")) { args[0] = s[0]; args[1] = small; args[2] = flag; args[3] = s[1]; args[4] = flag; args[5] = s[2]; args[6] = s[3]; n = 7; }
    else if (!strcmp(name, "plural")) { args[0] = s[0]; args[1] = flag; args[2] = s[1]; args[3] = num; n = 4; }
    else if (!strcmp(name, "pluralCategories")) { args[0] = s[0]; args[1] = flag; n = 2; }
    else if (!strcmp(name, "relativeTime")) { args[0] = s[0]; args[1] = small; args[2] = flag; args[3] = num; args[4] = JS_NewInt32(ctx, sel & 7); args[5] = flag; n = 6; }
    else if (!strcmp(name, "listFormat")) { args[0] = s[0]; args[1] = small; args[2] = JS_NewInt32(ctx, sel & 3); args[3] = items; args[4] = flag; n = 5; }
    else { args[0] = s[0]; n = 1; }
    JSValue fn = JS_GetPropertyStr(ctx, intl, name);
    JSValue r = JS_Call(ctx, fn, JS_UNDEFINED, n, (JSValueConst *)args);
    if (JS_IsException(r)) JS_FreeValue(ctx, JS_GetException(ctx));
    JS_FreeValue(ctx, r);
    JS_FreeValue(ctx, fn);
    for (int i = 0; i < 4; i++) JS_FreeValue(ctx, s[i]);
    JS_FreeValue(ctx, num);
    JS_FreeValue(ctx, items);
    return 0;
}
