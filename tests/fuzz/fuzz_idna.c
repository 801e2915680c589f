/* fuzz_idna.c — libFuzzer target for UTS #46 over ICU (src/engine/idna_native.c): the fuzzer's
 * bytes as a domain, through toASCII (strict and not) and toUnicode.
 *
 * Owns: only this harness. Trusts idna_native.c's API and QuickJS's.
 *
 * Input: [flags][domain bytes] — any bytes, invalid UTF-8 included (QuickJS makes a string of them
 * as a guest's text would arrive). Checks: no crash or sanitizer report; every call returns a
 * string or null, or throws (an exception is cleared). ICU is loaded once, as in chidori.
 */
#include "quickjs.h"
#include "engine/idna_native.h"

#include <stdint.h>
#include <stdlib.h>

static JSRuntime *rt;
static JSContext *ctx;
static JSValue idna;

static void call(const char *name, int argc, JSValueConst *argv)
{
    JSValue f = JS_GetPropertyStr(ctx, idna, name);
    JSValue r = JS_Call(ctx, f, JS_UNDEFINED, argc, argv);
    if (JS_IsException(r)) JS_FreeValue(ctx, JS_GetException(ctx));
    else if (!JS_IsNull(r) && !JS_IsString(r)) abort(); /* the API promises a string or null */
    JS_FreeValue(ctx, r);
    JS_FreeValue(ctx, f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!rt) {
        rt = JS_NewRuntime();
        ctx = JS_NewContext(rt);
        idna = idna_native_object(ctx);
    }
    if (size < 1 || size > 8192) return 0;
    JSValue args[2];
    args[0] = JS_NewStringLen(ctx, (const char *)data + 1, size - 1);
    args[1] = JS_NewBool(ctx, data[0] & 1);
    call("toASCII", 2, args);
    call("toUnicode", 1, args);
    JS_FreeValue(ctx, args[0]);
    return 0;
}
