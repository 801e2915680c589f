/* idna_native.c — UTS #46 (IDNA) for the URL parser: ICU's own implementation, with the options
 * the URL Standard's "domain to ASCII" names, behind two plain functions the shims reach as
 * natives.idna (node/internal_idna.js). The mapping table, the validity rules, CheckBidi and
 * CheckJoiners are ICU's data (ICU 72, Unicode 15), not ours.
 *
 *   toASCII(domain, beStrict)  → the ASCII form, or null when UTS #46 reports an error
 *   toUnicode(domain)          → the Unicode form, or null
 *
 * Options: Nontransitional processing both ways, CheckBidi, CheckJoiners; UseSTD3ASCIIRules off.
 * ICU has no switch for CheckHyphens or VerifyDnsLength: the URL Standard turns both off, so their
 * error bits are ignored here (the DNS length ones only when beStrict is false).
 *
 * Trusts: ICU. The domain is guest text: bounded (DOMAIN_MAX bytes, a RangeError beyond), converted
 * with lone surrogates replaced by U+FFFD (which UTS #46 disallows), never a crash. ICU loads on
 * the first call (intl_icu), as for Intl; the UTS #46 object is built once per process and is
 * immutable, so concurrent runs share it without a lock.
 */
#include "engine/idna_native.h"
#include "engine/intl_icu.h"
#include "engine/intl_native.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define DOMAIN_MAX (1 << 20) /* bytes of UTF-8: a host is far shorter than any URL limit */

static const intl_icu_api *I;
static UIDNA *uts46;
static const char *open_error;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void open_uts46(void)
{
    const char *err = NULL;
    I = intl_icu(&err);
    if (!I) {
        open_error = err ? err : "ICU did not load";
        return;
    }
    UErrorCode e = U_ZERO_ERROR;
    uts46 = I->uidna_openUTS46(UIDNA_CHECK_BIDI | UIDNA_CHECK_CONTEXTJ | UIDNA_NONTRANSITIONAL_TO_ASCII |
                                   UIDNA_NONTRANSITIONAL_TO_UNICODE, &e);
    if (U_FAILURE(e)) {
        uts46 = NULL;
        open_error = "ICU cannot open its UTS #46 data";
    }
}

static int need_uts46(JSContext *ctx)
{
    pthread_once(&once, open_uts46);
    if (uts46) return 0;
    JS_ThrowInternalError(ctx, "IDNA is not available: %s", open_error ? open_error : "ICU did not load");
    return -1;
}


/* The error bits the URL Standard's options leave out: CheckHyphens=false always,
 * VerifyDnsLength=false unless beStrict. */
#define HYPHEN_ERRORS (UIDNA_ERROR_LEADING_HYPHEN | UIDNA_ERROR_TRAILING_HYPHEN | UIDNA_ERROR_HYPHEN_3_4)
#define LENGTH_ERRORS (UIDNA_ERROR_EMPTY_LABEL | UIDNA_ERROR_LABEL_TOO_LONG | UIDNA_ERROR_DOMAIN_NAME_TOO_LONG)

static JSValue convert(JSContext *ctx, JSValueConst domain, int to_ascii, int strict)
{
    int32_t len = 0;
    UChar *src = intl_ustr_from_js(ctx, domain, DOMAIN_MAX, "IDNA", &len);
    if (!src) return JS_EXCEPTION;
    /* UTS #46 output is at most a few times its input (Punycode, "xn--" per label, mappings that
     * expand): start there and grow once to the length ICU asks for. */
    int32_t cap = len * 4 + 64;
    JSValue r = JS_NULL;
    for (int attempt = 0; attempt < 2; attempt++) {
        UChar *dst = malloc((size_t)cap * sizeof(UChar));
        if (!dst) { r = JS_ThrowOutOfMemory(ctx); break; }
        UErrorCode e = U_ZERO_ERROR;
        UIDNAInfo info = UIDNA_INFO_INITIALIZER;
        int32_t n = to_ascii ? I->uidna_nameToASCII(uts46, src, len, dst, cap, &info, &e)
                             : I->uidna_nameToUnicode(uts46, src, len, dst, cap, &info, &e);
        if (e == U_BUFFER_OVERFLOW_ERROR && attempt == 0 && n > cap) {
            free(dst);
            cap = n + 1;
            continue;
        }
        uint32_t errors = info.errors & ~(uint32_t)HYPHEN_ERRORS;
        if (!strict) errors &= ~(uint32_t)LENGTH_ERRORS;
        r = (U_FAILURE(e) || errors) ? JS_NULL : intl_ustr_to_js(ctx, dst, n, "IDNA");
        free(dst);
        break;
    }
    free(src);
    return r;
}

static JSValue f_to_ascii(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    if (need_uts46(ctx)) return JS_EXCEPTION;
    return convert(ctx, argv[0], 1, JS_ToBool(ctx, argv[1]));
}

static JSValue f_to_unicode(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    if (need_uts46(ctx)) return JS_EXCEPTION;
    return convert(ctx, argv[0], 0, 0);
}

static const JSCFunctionListEntry idna_funcs[] = {
    JS_CFUNC_DEF("toASCII", 2, f_to_ascii),
    JS_CFUNC_DEF("toUnicode", 1, f_to_unicode),
};

JSValue idna_native_object(JSContext *ctx)
{
    JSValue o = JS_NewObjectProto(ctx, JS_NULL);
    JS_SetPropertyFunctionList(ctx, o, idna_funcs, sizeof idna_funcs / sizeof idna_funcs[0]);
    return o;
}
