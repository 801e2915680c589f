/* intl_native.c — the C half of Intl: ICU formatters behind a few plain functions the JS layer
 * (js/intl.js) calls with options it has already validated and resolved.
 *
 * Owns: a small process-wide cache of ICU objects (number, date, collator, plural, relative-time,
 * list formatters), keyed by the exact strings that built them, so the hot paths (Temporal asking
 * one zone's wall clock again and again) build nothing after the first call. One mutex guards the
 * cache and every use of its objects (ICU formatters are not safe to share between threads).
 *
 * Trusts: ICU; nothing of the guest. Every string from JS is bounded here again (locale tags,
 * skeletons, patterns, zone names) and a bad one is a RangeError, never a crash. Never reads the
 * environment: every ICU call names its locale and its time zone.
 */
#include "engine/intl_native.h"
#include "engine/intl_icu.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define LOCALE_MAX 256
#define OPTION_MAX 512
#define TEXT_MAX (1 << 24)
#define CACHE_SLOTS 96

/* ---------- the cache ---------- */

typedef struct cached {
    char *key;
    void *obj;
    void (*destroy)(void *);
    unsigned long used;
} cached;

static cached cache[CACHE_SLOTS];
static unsigned long cache_clock;
static pthread_mutex_t icu_lock = PTHREAD_MUTEX_INITIALIZER;

static int cache_last = -1; /* the slot of the last hit: the same formatter is often asked again */

static void *cache_get(const char *key)
{
    if (cache_last >= 0 && cache[cache_last].key && !strcmp(cache[cache_last].key, key)) {
        cache[cache_last].used = ++cache_clock;
        return cache[cache_last].obj;
    }
    for (int i = 0; i < CACHE_SLOTS; i++)
        if (cache[i].key && !strcmp(cache[i].key, key)) {
            cache[i].used = ++cache_clock;
            cache_last = i;
            return cache[i].obj;
        }
    return NULL;
}

static void cache_put(const char *key, void *obj, void (*destroy)(void *))
{
    int victim = 0;
    for (int i = 0; i < CACHE_SLOTS; i++) {
        if (!cache[i].key) { victim = i; break; }
        if (cache[i].used < cache[victim].used) victim = i;
    }
    if (victim == cache_last) cache_last = -1;
    if (cache[victim].key) {
        cache[victim].destroy(cache[victim].obj);
        free(cache[victim].key);
    }
    cache[victim].key = strdup(key);
    if (!cache[victim].key) { destroy(obj); cache[victim].obj = NULL; return; }
    cache[victim].obj = obj;
    cache[victim].destroy = destroy;
    cache[victim].used = ++cache_clock;
}

static const intl_icu_api *I;

static void d_unumf(void *p) { I->unumf_close(p); }
static void d_udat(void *p) { I->udat_close(p); }
static void d_udatpg(void *p) { I->udatpg_close(p); }
static void d_ucol(void *p) { I->ucol_close(p); }
static void d_uplrules(void *p) { I->uplrules_close(p); }
static void d_ureldatefmt(void *p) { I->ureldatefmt_close(p); }
static void d_ulistfmt(void *p) { I->ulistfmt_close(p); }
static void d_udtitvfmt(void *p) { I->udtitvfmt_close(p); }

/* ---------- strings ---------- */

static int need_icu(JSContext *ctx)
{
    const char *err = NULL;
    if (I) return 0;
    I = intl_icu(&err);
    if (!I) {
        JS_ThrowInternalError(ctx, "Intl is not available: %s", err ? err : "ICU did not load");
        return -1;
    }
    return 0;
}

/* A bounded ASCII-ish option string (locale tag, skeleton, pattern, zone): copied into buf. */
static int get_str(JSContext *ctx, JSValueConst v, char *buf, size_t cap, const char *what)
{
    size_t len;
    const char *s = JS_ToCStringLen(ctx, &len, v);
    if (!s) return -1;
    if (len >= cap || memchr(s, 0, len)) {
        JS_FreeCString(ctx, s);
        JS_ThrowRangeError(ctx, "Intl: %s is too long or malformed (at most %zu characters)", what, cap - 1);
        return -1;
    }
    memcpy(buf, s, len + 1);
    JS_FreeCString(ctx, s);
    return 0;
}

/* A BCP 47 tag from the JS layer → ICU's locale id ("de-DE-u-nu-arab" → "de_DE@numbers=arab"). */
static int get_locale(JSContext *ctx, JSValueConst v, char *buf, size_t cap, const char *what)
{
    char tag[LOCALE_MAX];
    if (get_str(ctx, v, tag, sizeof tag, what)) return -1;
    UErrorCode e = U_ZERO_ERROR;
    int32_t parsed = 0;
    I->uloc_forLanguageTag(tag, buf, (int32_t)cap, &parsed, &e);
    if (U_FAILURE(e) || e == U_STRING_NOT_TERMINATED_WARNING || parsed <= 0) {
        JS_ThrowRangeError(ctx, "Intl: %s is not a locale ICU knows", what);
        return -1;
    }
    return 0;
}

/* JS string → UTF-16 (malloc'd, NUL-terminated) for ICU: at most max_bytes of UTF-8, *len in
 * UTF-16 units; NULL with a RangeError naming `who` (or out of memory) pending. Shared with
 * idna_native.c. */
UChar *intl_ustr_from_js(JSContext *ctx, JSValueConst v, size_t max_bytes, const char *who, int32_t *len)
{
    if (need_icu(ctx) < 0) return NULL; /* idna_native.c may be the first to call */
    size_t n;
    const char *s = JS_ToCStringLen(ctx, &n, v);
    if (!s) return NULL;
    if (n > max_bytes) {
        JS_FreeCString(ctx, s);
        JS_ThrowRangeError(ctx, "%s: a string of more than %zu bytes", who, max_bytes);
        return NULL;
    }
    UChar *u = malloc((n + 1) * sizeof(UChar));
    if (!u) { JS_FreeCString(ctx, s); JS_ThrowOutOfMemory(ctx); return NULL; }
    UErrorCode e = U_ZERO_ERROR;
    int32_t ul = 0;
    I->u_strFromUTF8WithSub(u, (int32_t)n + 1, &ul, s, (int32_t)n, 0xFFFD, NULL, &e);
    JS_FreeCString(ctx, s);
    if (U_FAILURE(e)) { free(u); JS_ThrowRangeError(ctx, "%s: cannot convert a string (%s)", who, I->u_errorName(e)); return NULL; }
    u[ul] = 0;
    *len = ul;
    return u;
}

static UChar *get_ustr(JSContext *ctx, JSValueConst v, int32_t *len)
{
    return intl_ustr_from_js(ctx, v, TEXT_MAX, "Intl", len);
}

/* ICU's UTF-16 → a JS string; a RangeError naming `who` if ICU cannot convert it. */
JSValue intl_ustr_to_js(JSContext *ctx, const UChar *u, int32_t len, const char *who)
{
    if (need_icu(ctx) < 0) return JS_EXCEPTION;
    if (len < 0) len = 0;
    size_t cap = (size_t)len * 3 + 1;
    char *s = malloc(cap);
    if (!s) return JS_ThrowOutOfMemory(ctx);
    UErrorCode e = U_ZERO_ERROR;
    int32_t n = 0;
    I->u_strToUTF8WithSub(s, (int32_t)cap, &n, u, len, 0xFFFD, NULL, &e);
    if (U_FAILURE(e)) { free(s); return JS_ThrowRangeError(ctx, "%s: cannot convert ICU output (%s)", who, I->u_errorName(e)); }
    JSValue v = JS_NewStringLen(ctx, s, (size_t)n);
    free(s);
    return v;
}

static JSValue new_ustr(JSContext *ctx, const UChar *u, int32_t len)
{
    return intl_ustr_to_js(ctx, u, len, "Intl");
}

static JSValue icu_error(JSContext *ctx, const char *what, UErrorCode e)
{
    return JS_ThrowRangeError(ctx, "Intl: %s failed (ICU %s)", what, I->u_errorName(e));
}

/* ---------- spans: [text, [category, field, start, limit, ...]] ---------- */

typedef struct spans {
    int32_t *v;
    size_t n, cap;
} spans;

static int spans_add(spans *s, int32_t cat, int32_t field, int32_t a, int32_t b)
{
    if (s->n + 4 > s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 32;
        int32_t *v = realloc(s->v, cap * sizeof *v);
        if (!v) return -1;
        s->v = v;
        s->cap = cap;
    }
    s->v[s->n++] = cat; s->v[s->n++] = field; s->v[s->n++] = a; s->v[s->n++] = b;
    return 0;
}

static JSValue pair_with_spans(JSContext *ctx, JSValue text, spans *s)
{
    if (JS_IsException(text)) { free(s->v); return text; }
    JSValue arr = JS_NewArray(ctx), sp = JS_NewArray(ctx);
    for (size_t i = 0; i < s->n; i++) JS_SetPropertyUint32(ctx, sp, (uint32_t)i, JS_NewInt32(ctx, s->v[i]));
    free(s->v);
    JS_SetPropertyUint32(ctx, arr, 0, text);
    JS_SetPropertyUint32(ctx, arr, 1, sp);
    return arr;
}

/* The text of a UFormattedValue, with its spans when want_parts. */
static JSValue formatted_value(JSContext *ctx, const UFormattedValue *fv, int want_parts)
{
    UErrorCode e = U_ZERO_ERROR;
    int32_t len = 0;
    const UChar *u = I->ufmtval_getString(fv, &len, &e);
    if (U_FAILURE(e)) return icu_error(ctx, "formatting", e);
    JSValue text = new_ustr(ctx, u, len);
    if (!want_parts) return text;
    spans s = {0};
    UConstrainedFieldPosition *pos = I->ucfpos_open(&e);
    while (U_SUCCESS(e) && I->ufmtval_nextPosition(fv, pos, &e)) {
        int32_t a = 0, b = 0;
        I->ucfpos_getIndexes(pos, &a, &b, &e);
        int32_t cat = I->ucfpos_getCategory(pos, &e), field = I->ucfpos_getField(pos, &e);
        if (U_SUCCESS(e) && spans_add(&s, cat, field, a, b)) { e = U_MEMORY_ALLOCATION_ERROR; break; }
    }
    if (pos) I->ucfpos_close(pos);
    if (U_FAILURE(e)) { JS_FreeValue(ctx, text); free(s.v); return icu_error(ctx, "formatToParts", e); }
    return pair_with_spans(ctx, text, &s);
}

/* ---------- locales ---------- */

/* canonicalize(tag) → the ICU-canonical BCP 47 form, or null when ICU cannot parse all of it. */
static JSValue f_canonicalize(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    char tag[LOCALE_MAX], id[LOCALE_MAX * 2], out[LOCALE_MAX * 2];
    if (need_icu(ctx) || get_str(ctx, argv[0], tag, sizeof tag, "a locale tag")) return JS_EXCEPTION;
    UErrorCode e = U_ZERO_ERROR;
    int32_t parsed = 0;
    I->uloc_forLanguageTag(tag, id, sizeof id, &parsed, &e);
    if (U_FAILURE(e) || e == U_STRING_NOT_TERMINATED_WARNING || parsed != (int32_t)strlen(tag)) return JS_NULL;
    e = U_ZERO_ERROR;
    int32_t n = I->uloc_toLanguageTag(id, out, sizeof out, 1, &e);
    if (U_FAILURE(e) || e == U_STRING_NOT_TERMINATED_WARNING) return JS_NULL;
    return JS_NewStringLen(ctx, out, (size_t)n);
}

/* maximize(tag) → the tag with its likely script and region ("zh-TW" → "zh-Hant-TW"), or null. */
static JSValue f_maximize(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    char id[LOCALE_MAX], max[LOCALE_MAX], out[LOCALE_MAX];
    if (need_icu(ctx) || get_locale(ctx, argv[0], id, sizeof id, "a locale")) return JS_EXCEPTION;
    UErrorCode e = U_ZERO_ERROR;
    I->uloc_addLikelySubtags(id, max, sizeof max, &e);
    if (U_FAILURE(e) || e == U_STRING_NOT_TERMINATED_WARNING) return JS_NULL;
    int32_t n = I->uloc_toLanguageTag(max, out, sizeof out, 0, &e);
    if (U_FAILURE(e) || e == U_STRING_NOT_TERMINATED_WARNING) return JS_NULL;
    return JS_NewStringLen(ctx, out, (size_t)n);
}

/* caseMap(text, locale, upper) → the locale's lower or upper case of text (Turkish dotted i ...). */
static JSValue f_case_map(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    char locale[LOCALE_MAX];
    if (need_icu(ctx) || get_locale(ctx, argv[1], locale, sizeof locale, "a locale")) return JS_EXCEPTION;
    int upper = JS_ToBool(ctx, argv[2]);
    int32_t len;
    UChar *src = get_ustr(ctx, argv[0], &len);
    if (!src) return JS_EXCEPTION;
    int32_t cap = len * 3 + 16; /* a case mapping grows a string at most threefold */
    UChar *dst = malloc((size_t)cap * sizeof(UChar));
    if (!dst) { free(src); return JS_ThrowOutOfMemory(ctx); }
    UErrorCode e = U_ZERO_ERROR;
    int32_t n = upper ? I->u_strToUpper(dst, cap, src, len, locale, &e) : I->u_strToLower(dst, cap, src, len, locale, &e);
    JSValue r = U_FAILURE(e) ? icu_error(ctx, "case mapping", e) : new_ustr(ctx, dst, n);
    free(src);
    free(dst);
    return r;
}

static JSValue f_available_locales(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    if (need_icu(ctx)) return JS_EXCEPTION;
    int collation = JS_ToBool(ctx, argv[0]);
    JSValue arr = JS_NewArray(ctx);
    int32_t n = collation ? I->ucol_countAvailable() : I->uloc_countAvailable();
    uint32_t k = 0;
    for (int32_t i = 0; i < n; i++) {
        char out[LOCALE_MAX];
        UErrorCode e = U_ZERO_ERROR;
        const char *id = collation ? I->ucol_getAvailable(i) : I->uloc_getAvailable(i);
        int32_t len = I->uloc_toLanguageTag(id, out, sizeof out, 0, &e);
        if (U_SUCCESS(e) && e != U_STRING_NOT_TERMINATED_WARNING)
            JS_SetPropertyUint32(ctx, arr, k++, JS_NewStringLen(ctx, out, (size_t)len));
    }
    return arr;
}

/* ---------- numbers ---------- */

static UNumberFormatter *number_formatter(JSContext *ctx, const char *locale, const char *skeleton)
{
    char key[LOCALE_MAX + OPTION_MAX + 8];
    snprintf(key, sizeof key, "N|%s|%s", locale, skeleton);
    UNumberFormatter *f = cache_get(key);
    if (f) return f;
    UChar usk[OPTION_MAX];
    int32_t n = 0;
    for (; skeleton[n]; n++) usk[n] = (unsigned char)skeleton[n];
    UErrorCode e = U_ZERO_ERROR;
    f = I->unumf_openForSkeletonAndLocale(usk, n, locale, &e);
    if (U_FAILURE(e)) {
        if (f) I->unumf_close(f);
        icu_error(ctx, "NumberFormat (skeleton)", e);
        return NULL;
    }
    cache_put(key, f, d_unumf);
    return f;
}

/* numberFormat(locale, skeleton, x, parts) with x a number or a decimal string. */
static JSValue f_number_format(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    char locale[LOCALE_MAX], skeleton[OPTION_MAX], dec[1100];
    if (need_icu(ctx) || get_locale(ctx, argv[0], locale, sizeof locale, "a locale") ||
        get_str(ctx, argv[1], skeleton, sizeof skeleton, "a number skeleton"))
        return JS_EXCEPTION;
    int is_dec = JS_IsString(argv[2]);
    double d = 0;
    if (is_dec) {
        if (get_str(ctx, argv[2], dec, sizeof dec, "a decimal number")) return JS_EXCEPTION;
    } else if (JS_ToFloat64(ctx, &d, argv[2])) return JS_EXCEPTION;
    int want_parts = JS_ToBool(ctx, argv[3]);
    pthread_mutex_lock(&icu_lock);
    JSValue r = JS_EXCEPTION;
    UNumberFormatter *f = number_formatter(ctx, locale, skeleton);
    if (f) {
        UErrorCode e = U_ZERO_ERROR;
        UFormattedNumber *res = I->unumf_openResult(&e);
        if (is_dec) I->unumf_formatDecimal(f, dec, (int32_t)strlen(dec), res, &e);
        else I->unumf_formatDouble(f, d, res, &e);
        if (U_FAILURE(e)) r = icu_error(ctx, "NumberFormat", e);
        else {
            const UFormattedValue *fv = I->unumf_resultAsValue(res, &e);
            r = U_FAILURE(e) ? icu_error(ctx, "NumberFormat", e) : formatted_value(ctx, fv, want_parts);
        }
        if (res) I->unumf_closeResult(res);
    }
    pthread_mutex_unlock(&icu_lock);
    return r;
}

/* ---------- dates ---------- */

static UDateTimePatternGenerator *pattern_generator(JSContext *ctx, const char *locale)
{
    char key[LOCALE_MAX + 8];
    snprintf(key, sizeof key, "G|%s", locale);
    UDateTimePatternGenerator *g = cache_get(key);
    if (g) return g;
    UErrorCode e = U_ZERO_ERROR;
    g = I->udatpg_open(locale, &e);
    if (U_FAILURE(e)) {
        if (g) I->udatpg_close(g);
        icu_error(ctx, "DateTimeFormat (pattern generator)", e);
        return NULL;
    }
    cache_put(key, g, d_udatpg);
    return g;
}

static int ascii_to_u(const char *s, UChar *u, int32_t cap)
{
    int32_t n = 0;
    for (; s[n] && n < cap - 1; n++) u[n] = (unsigned char)s[n];
    u[n] = 0;
    return n;
}

/* bestPattern(locale, skeleton) → the locale's pattern for the skeleton, field lengths kept. */
static JSValue f_best_pattern(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    char locale[LOCALE_MAX], skeleton[OPTION_MAX];
    if (need_icu(ctx) || get_locale(ctx, argv[0], locale, sizeof locale, "a locale") ||
        get_str(ctx, argv[1], skeleton, sizeof skeleton, "a date skeleton"))
        return JS_EXCEPTION;
    pthread_mutex_lock(&icu_lock);
    JSValue r = JS_EXCEPTION;
    UDateTimePatternGenerator *g = pattern_generator(ctx, locale);
    if (g) {
        UChar usk[OPTION_MAX], pat[OPTION_MAX * 2];
        int32_t n = ascii_to_u(skeleton, usk, OPTION_MAX);
        UErrorCode e = U_ZERO_ERROR;
        int32_t len = I->udatpg_getBestPatternWithOptions(g, usk, n, UDATPG_MATCH_HOUR_FIELD_LENGTH | UDATPG_MATCH_MINUTE_FIELD_LENGTH | UDATPG_MATCH_SECOND_FIELD_LENGTH, pat, OPTION_MAX * 2, &e);
        r = U_FAILURE(e) ? icu_error(ctx, "DateTimeFormat (best pattern)", e) : new_ustr(ctx, pat, len);
    }
    pthread_mutex_unlock(&icu_lock);
    return r;
}

/* hourCycle(locale) → "h11" | "h12" | "h23" | "h24", the locale's preference. */
static JSValue f_hour_cycle(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    char locale[LOCALE_MAX];
    if (need_icu(ctx) || get_locale(ctx, argv[0], locale, sizeof locale, "a locale")) return JS_EXCEPTION;
    pthread_mutex_lock(&icu_lock);
    JSValue r = JS_EXCEPTION;
    UDateTimePatternGenerator *g = pattern_generator(ctx, locale);
    if (g) {
        UErrorCode e = U_ZERO_ERROR;
        UDateFormatHourCycle hc = I->udatpg_getDefaultHourCycle(g, &e);
        static const char *names[] = {"h11", "h12", "h23", "h24"};
        r = U_FAILURE(e) || hc < 0 || hc > 3 ? JS_NewString(ctx, "h23") : JS_NewString(ctx, names[hc]);
    }
    pthread_mutex_unlock(&icu_lock);
    return r;
}

/* stylePattern(locale, dateStyle, timeStyle) with styles 0 full .. 3 short, -1 none. */
static JSValue f_style_pattern(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    char locale[LOCALE_MAX];
    int32_t ds, ts;
    if (need_icu(ctx) || get_locale(ctx, argv[0], locale, sizeof locale, "a locale") ||
        JS_ToInt32(ctx, &ds, argv[1]) || JS_ToInt32(ctx, &ts, argv[2]))
        return JS_EXCEPTION;
    if (ds < -1 || ds > 3 || ts < -1 || ts > 3 || (ds < 0 && ts < 0)) return JS_ThrowRangeError(ctx, "Intl: bad date/time style");
    pthread_mutex_lock(&icu_lock);
    UErrorCode e = U_ZERO_ERROR;
    static const UChar utc[] = {'U', 'T', 'C', 0};
    UDateFormat *f = I->udat_open(ts < 0 ? UDAT_NONE : (UDateFormatStyle)ts, ds < 0 ? UDAT_NONE : (UDateFormatStyle)ds,
                                  locale, utc, 3, NULL, 0, &e);
    JSValue r;
    if (U_FAILURE(e)) r = icu_error(ctx, "DateTimeFormat (style)", e);
    else {
        UChar pat[OPTION_MAX * 2];
        int32_t len = I->udat_toPattern(f, 0, pat, OPTION_MAX * 2, &e);
        r = U_FAILURE(e) ? icu_error(ctx, "DateTimeFormat (style)", e) : new_ustr(ctx, pat, len);
    }
    if (f) I->udat_close(f);
    pthread_mutex_unlock(&icu_lock);
    return r;
}

/* dateFormat(locale, zone, pattern, epochMs, parts) → text, or [text, spans] of UDateFormatField. */
static JSValue f_date_format(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    char locale[LOCALE_MAX], zone[LOCALE_MAX], key[LOCALE_MAX * 2 + OPTION_MAX * 3 + 8];
    double ms;
    if (need_icu(ctx) || get_locale(ctx, argv[0], locale, sizeof locale, "a locale") ||
        get_str(ctx, argv[1], zone, sizeof zone, "a time zone") || JS_ToFloat64(ctx, &ms, argv[3]))
        return JS_EXCEPTION;
    int32_t plen = 0;
    UChar *pat = get_ustr(ctx, argv[2], &plen);
    if (!pat) return JS_EXCEPTION;
    if (plen >= OPTION_MAX) { free(pat); return JS_ThrowRangeError(ctx, "Intl: date pattern too long"); }
    if (!isfinite(ms) || fabs(ms) > 8.64e15) { free(pat); return JS_ThrowRangeError(ctx, "Invalid time value"); }
    int want_parts = JS_ToBool(ctx, argv[4]);
    /* the key holds the pattern as UTF-8 */
    size_t klen = (size_t)snprintf(key, sizeof key, "D|%s|%s|", locale, zone);
    {
        UErrorCode e = U_ZERO_ERROR;
        int32_t n = 0;
        I->u_strToUTF8WithSub(key + klen, (int32_t)(sizeof key - klen), &n, pat, plen, 0xFFFD, NULL, &e);
        if (U_FAILURE(e)) { free(pat); return icu_error(ctx, "DateTimeFormat", e); }
    }
    pthread_mutex_lock(&icu_lock);
    JSValue r = JS_EXCEPTION;
    UDateFormat *f = cache_get(key);
    if (!f) {
        UChar uz[LOCALE_MAX];
        int32_t zn = ascii_to_u(zone, uz, LOCALE_MAX);
        UErrorCode e = U_ZERO_ERROR;
        f = I->udat_open(UDAT_PATTERN, UDAT_PATTERN, locale, uz, zn, pat, plen, &e);
        if (U_FAILURE(e)) {
            if (f) I->udat_close(f);
            f = NULL;
            icu_error(ctx, "DateTimeFormat", e);
        } else cache_put(key, f, d_udat);
    }
    if (f) {
        UErrorCode e = U_ZERO_ERROR;
        UChar buf[512];
        UFieldPositionIterator *it = want_parts ? I->ufieldpositer_open(&e) : NULL;
        int32_t len = I->udat_formatForFields(f, ms, buf, 512, it, &e);
        if (U_FAILURE(e)) r = icu_error(ctx, "DateTimeFormat", e);
        else {
            if (len > 511) len = 511;
            JSValue text = new_ustr(ctx, buf, len);
            if (!want_parts) r = text;
            else {
                spans s = {0};
                int32_t a, b, field;
                while ((field = I->ufieldpositer_next(it, &a, &b)) >= 0)
                    if (spans_add(&s, UFIELD_CATEGORY_DATE, field, a, b)) break;
                r = pair_with_spans(ctx, text, &s);
            }
        }
        if (it) I->ufieldpositer_close(it);
    }
    pthread_mutex_unlock(&icu_lock);
    free(pat);
    return r;
}

/* dateRange(locale, zone, skeleton, a, b, parts) */
static JSValue f_date_range(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    char locale[LOCALE_MAX], zone[LOCALE_MAX], skeleton[OPTION_MAX], key[LOCALE_MAX * 2 + OPTION_MAX + 8];
    double a, b;
    if (need_icu(ctx) || get_locale(ctx, argv[0], locale, sizeof locale, "a locale") ||
        get_str(ctx, argv[1], zone, sizeof zone, "a time zone") ||
        get_str(ctx, argv[2], skeleton, sizeof skeleton, "a date skeleton") || JS_ToFloat64(ctx, &a, argv[3]) ||
        JS_ToFloat64(ctx, &b, argv[4]))
        return JS_EXCEPTION;
    if (!isfinite(a) || !isfinite(b) || fabs(a) > 8.64e15 || fabs(b) > 8.64e15) return JS_ThrowRangeError(ctx, "Invalid time value");
    int want_parts = JS_ToBool(ctx, argv[5]);
    snprintf(key, sizeof key, "R|%s|%s|%s", locale, zone, skeleton);
    pthread_mutex_lock(&icu_lock);
    JSValue r = JS_EXCEPTION;
    UDateIntervalFormat *f = cache_get(key);
    if (!f) {
        UChar uz[LOCALE_MAX], usk[OPTION_MAX];
        int32_t zn = ascii_to_u(zone, uz, LOCALE_MAX), sn = ascii_to_u(skeleton, usk, OPTION_MAX);
        UErrorCode e = U_ZERO_ERROR;
        f = I->udtitvfmt_open(locale, usk, sn, uz, zn, &e);
        if (U_FAILURE(e)) {
            if (f) I->udtitvfmt_close(f);
            f = NULL;
            icu_error(ctx, "DateTimeFormat (range)", e);
        } else cache_put(key, f, d_udtitvfmt);
    }
    if (f) {
        UErrorCode e = U_ZERO_ERROR;
        UFormattedDateInterval *res = I->udtitvfmt_openResult(&e);
        I->udtitvfmt_formatToResult(f, a, b, res, &e);
        if (U_FAILURE(e)) r = icu_error(ctx, "formatRange", e);
        else {
            const UFormattedValue *fv = I->udtitvfmt_resultAsValue(res, &e);
            r = U_FAILURE(e) ? icu_error(ctx, "formatRange", e) : formatted_value(ctx, fv, want_parts);
        }
        if (res) I->udtitvfmt_closeResult(res);
    }
    pthread_mutex_unlock(&icu_lock);
    return r;
}

/* timeZone(id) → ICU's canonical id for an IANA name (case as ICU spells it), or null. */
static JSValue f_time_zone(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    char zone[LOCALE_MAX];
    if (need_icu(ctx) || get_str(ctx, argv[0], zone, 128, "a time zone")) return JS_EXCEPTION;
    UChar uz[LOCALE_MAX], out[LOCALE_MAX];
    int32_t zn = ascii_to_u(zone, uz, LOCALE_MAX);
    UErrorCode e = U_ZERO_ERROR;
    UBool system = 0;
    int32_t n = I->ucal_getCanonicalTimeZoneID(uz, zn, out, LOCALE_MAX, &system, &e);
    if (U_FAILURE(e) || !system || n <= 0 || n >= LOCALE_MAX) return JS_NULL;
    return new_ustr(ctx, out, n);
}

static JSValue f_time_zones(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    if (need_icu(ctx)) return JS_EXCEPTION;
    UErrorCode e = U_ZERO_ERROR;
    UEnumeration *en = I->ucal_openTimeZoneIDEnumeration(UCAL_ZONE_TYPE_ANY, NULL, NULL, &e);
    if (U_FAILURE(e)) return icu_error(ctx, "time zone list", e);
    JSValue arr = JS_NewArray(ctx);
    uint32_t k = 0;
    const char *id;
    int32_t len;
    while ((id = I->uenum_next(en, &len, &e)) && U_SUCCESS(e)) JS_SetPropertyUint32(ctx, arr, k++, JS_NewStringLen(ctx, id, (size_t)len));
    I->uenum_close(en);
    return arr;
}

/* calendars() → the calendars ICU has, as BCP 47 types ("gregory", "hebrew", "ethioaa" ...). */
static JSValue f_calendars(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    if (need_icu(ctx)) return JS_EXCEPTION;
    UErrorCode e = U_ZERO_ERROR;
    UEnumeration *en = I->ucal_getKeywordValuesForLocale("calendar", "und", 0, &e);
    if (U_FAILURE(e)) return icu_error(ctx, "calendar list", e);
    JSValue arr = JS_NewArray(ctx);
    uint32_t k = 0;
    const char *id;
    int32_t len;
    while ((id = I->uenum_next(en, &len, &e)) && U_SUCCESS(e)) {
        const char *bcp = I->uloc_toUnicodeLocaleType("ca", id);
        JS_SetPropertyUint32(ctx, arr, k++, JS_NewString(ctx, bcp ? bcp : id));
    }
    I->uenum_close(en);
    return arr;
}

/* ---------- collation ---------- */

/* compare(locale, strength 0..3 (primary, secondary, tertiary; 3 = primary + case level),
 * numeric, caseFirst ("upper"|"lower"|"false"), ignorePunctuation, a, b) → -1 | 0 | 1 */
static JSValue f_compare(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    char locale[LOCALE_MAX], case_first[16], key[LOCALE_MAX + 64];
    int32_t strength;
    if (need_icu(ctx) || get_locale(ctx, argv[0], locale, sizeof locale, "a locale") || JS_ToInt32(ctx, &strength, argv[1]) ||
        get_str(ctx, argv[3], case_first, sizeof case_first, "caseFirst"))
        return JS_EXCEPTION;
    int numeric = JS_ToBool(ctx, argv[2]), ignore_punct = JS_ToBool(ctx, argv[4]);
    int32_t la, lb;
    UChar *a = get_ustr(ctx, argv[5], &la);
    if (!a) return JS_EXCEPTION;
    UChar *b = get_ustr(ctx, argv[6], &lb);
    if (!b) { free(a); return JS_EXCEPTION; }
    snprintf(key, sizeof key, "C|%s|%d|%d|%s|%d", locale, strength, numeric, case_first, ignore_punct);
    pthread_mutex_lock(&icu_lock);
    JSValue r = JS_EXCEPTION;
    UCollator *c = cache_get(key);
    if (!c) {
        UErrorCode e = U_ZERO_ERROR;
        c = I->ucol_open(locale, &e);
        if (U_SUCCESS(e)) {
            I->ucol_setAttribute(c, UCOL_NORMALIZATION_MODE, UCOL_ON, &e);
            switch (strength) {
            case 0: I->ucol_setAttribute(c, UCOL_STRENGTH, UCOL_PRIMARY, &e); break;
            case 1: I->ucol_setAttribute(c, UCOL_STRENGTH, UCOL_SECONDARY, &e); break;
            case 3:
                I->ucol_setAttribute(c, UCOL_STRENGTH, UCOL_PRIMARY, &e);
                I->ucol_setAttribute(c, UCOL_CASE_LEVEL, UCOL_ON, &e);
                break;
            default: I->ucol_setAttribute(c, UCOL_STRENGTH, UCOL_TERTIARY, &e); break;
            }
            if (numeric) I->ucol_setAttribute(c, UCOL_NUMERIC_COLLATION, UCOL_ON, &e);
            if (!strcmp(case_first, "upper")) I->ucol_setAttribute(c, UCOL_CASE_FIRST, UCOL_UPPER_FIRST, &e);
            else if (!strcmp(case_first, "lower")) I->ucol_setAttribute(c, UCOL_CASE_FIRST, UCOL_LOWER_FIRST, &e);
            I->ucol_setAttribute(c, UCOL_ALTERNATE_HANDLING, ignore_punct ? UCOL_SHIFTED : UCOL_NON_IGNORABLE, &e);
        }
        if (U_FAILURE(e)) {
            if (c) I->ucol_close(c);
            c = NULL;
            icu_error(ctx, "Collator", e);
        } else cache_put(key, c, d_ucol);
    }
    if (c) r = JS_NewInt32(ctx, (int32_t)I->ucol_strcoll(c, a, la, b, lb));
    pthread_mutex_unlock(&icu_lock);
    free(a);
    free(b);
    return r;
}

/* collatorIgnoresPunctuation(locale) → the locale's default (true for Thai, for one). */
static JSValue f_collator_ignores_punctuation(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    char locale[LOCALE_MAX];
    if (need_icu(ctx) || get_locale(ctx, argv[0], locale, sizeof locale, "a locale")) return JS_EXCEPTION;
    pthread_mutex_lock(&icu_lock);
    UErrorCode e = U_ZERO_ERROR;
    UCollator *c = I->ucol_open(locale, &e);
    int shifted = U_SUCCESS(e) && I->ucol_getAttribute(c, UCOL_ALTERNATE_HANDLING, &e) == UCOL_SHIFTED && U_SUCCESS(e);
    if (c) I->ucol_close(c);
    pthread_mutex_unlock(&icu_lock);
    return JS_NewBool(ctx, shifted);
}

/* ---------- plurals ---------- */

static UPluralRules *plural_rules(JSContext *ctx, const char *locale, int ordinal)
{
    char key[LOCALE_MAX + 8];
    snprintf(key, sizeof key, "P|%s|%d", locale, ordinal);
    UPluralRules *p = cache_get(key);
    if (p) return p;
    UErrorCode e = U_ZERO_ERROR;
    p = I->uplrules_openForType(locale, ordinal ? UPLURAL_TYPE_ORDINAL : UPLURAL_TYPE_CARDINAL, &e);
    if (U_FAILURE(e)) {
        if (p) I->uplrules_close(p);
        icu_error(ctx, "PluralRules", e);
        return NULL;
    }
    cache_put(key, p, d_uplrules);
    return p;
}

/* plural(locale, ordinal, skeleton, n) → the category of n as the skeleton formats it. */
static JSValue f_plural(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    char locale[LOCALE_MAX], skeleton[OPTION_MAX];
    double d;
    if (need_icu(ctx) || get_locale(ctx, argv[0], locale, sizeof locale, "a locale") ||
        get_str(ctx, argv[2], skeleton, sizeof skeleton, "a number skeleton") || JS_ToFloat64(ctx, &d, argv[3]))
        return JS_EXCEPTION;
    int ordinal = JS_ToBool(ctx, argv[1]);
    pthread_mutex_lock(&icu_lock);
    JSValue r = JS_EXCEPTION;
    UPluralRules *p = plural_rules(ctx, locale, ordinal);
    UNumberFormatter *f = p ? number_formatter(ctx, locale, skeleton) : NULL;
    if (f) {
        UErrorCode e = U_ZERO_ERROR;
        UFormattedNumber *res = I->unumf_openResult(&e);
        I->unumf_formatDouble(f, d, res, &e);
        UChar kw[32];
        int32_t n = U_SUCCESS(e) ? I->uplrules_selectFormatted(p, res, kw, 32, &e) : 0;
        r = U_FAILURE(e) ? icu_error(ctx, "PluralRules.select", e) : new_ustr(ctx, kw, n);
        if (res) I->unumf_closeResult(res);
    }
    pthread_mutex_unlock(&icu_lock);
    return r;
}

static JSValue f_plural_categories(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    char locale[LOCALE_MAX];
    if (need_icu(ctx) || get_locale(ctx, argv[0], locale, sizeof locale, "a locale")) return JS_EXCEPTION;
    int ordinal = JS_ToBool(ctx, argv[1]);
    pthread_mutex_lock(&icu_lock);
    JSValue r = JS_EXCEPTION;
    UPluralRules *p = plural_rules(ctx, locale, ordinal);
    if (p) {
        UErrorCode e = U_ZERO_ERROR;
        UEnumeration *en = I->uplrules_getKeywords(p, &e);
        if (U_FAILURE(e)) r = icu_error(ctx, "PluralRules", e);
        else {
            r = JS_NewArray(ctx);
            uint32_t k = 0;
            const char *id;
            int32_t len;
            while ((id = I->uenum_next(en, &len, &e)) && U_SUCCESS(e)) JS_SetPropertyUint32(ctx, r, k++, JS_NewStringLen(ctx, id, (size_t)len));
            I->uenum_close(en);
        }
    }
    pthread_mutex_unlock(&icu_lock);
    return r;
}

/* ---------- relative time ---------- */

/* relativeTime(locale, style 0 long / 1 short / 2 narrow, auto, value, unit 0..7, parts); units in
 * ICU's order: year quarter month week day hour minute second. */
static JSValue f_relative_time(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    char locale[LOCALE_MAX], key[LOCALE_MAX + 16];
    int32_t style, unit;
    double v;
    if (need_icu(ctx) || get_locale(ctx, argv[0], locale, sizeof locale, "a locale") || JS_ToInt32(ctx, &style, argv[1]) ||
        JS_ToFloat64(ctx, &v, argv[3]) || JS_ToInt32(ctx, &unit, argv[4]))
        return JS_EXCEPTION;
    int is_auto = JS_ToBool(ctx, argv[2]), want_parts = JS_ToBool(ctx, argv[5]);
    if (style < 0 || style > 2 || unit < 0 || unit > 7) return JS_ThrowRangeError(ctx, "Intl: bad relative time style or unit");
    static const URelativeDateTimeUnit units[] = {UDAT_REL_UNIT_YEAR, UDAT_REL_UNIT_QUARTER, UDAT_REL_UNIT_MONTH, UDAT_REL_UNIT_WEEK,
                                                  UDAT_REL_UNIT_DAY, UDAT_REL_UNIT_HOUR, UDAT_REL_UNIT_MINUTE, UDAT_REL_UNIT_SECOND};
    snprintf(key, sizeof key, "T|%s|%d", locale, style);
    pthread_mutex_lock(&icu_lock);
    JSValue r = JS_EXCEPTION;
    URelativeDateTimeFormatter *f = cache_get(key);
    if (!f) {
        UErrorCode e = U_ZERO_ERROR;
        f = I->ureldatefmt_open(locale, NULL, style == 0 ? UDAT_STYLE_LONG : style == 1 ? UDAT_STYLE_SHORT : UDAT_STYLE_NARROW,
                                UDISPCTX_CAPITALIZATION_NONE, &e);
        if (U_FAILURE(e)) {
            if (f) I->ureldatefmt_close(f);
            f = NULL;
            icu_error(ctx, "RelativeTimeFormat", e);
        } else cache_put(key, f, d_ureldatefmt);
    }
    if (f) {
        UErrorCode e = U_ZERO_ERROR;
        UFormattedRelativeDateTime *res = I->ureldatefmt_openResult(&e);
        if (is_auto) I->ureldatefmt_formatToResult(f, v, units[unit], res, &e);
        else I->ureldatefmt_formatNumericToResult(f, v, units[unit], res, &e);
        if (U_FAILURE(e)) r = icu_error(ctx, "RelativeTimeFormat", e);
        else {
            const UFormattedValue *fv = I->ureldatefmt_resultAsValue(res, &e);
            r = U_FAILURE(e) ? icu_error(ctx, "RelativeTimeFormat", e) : formatted_value(ctx, fv, want_parts);
        }
        if (res) I->ureldatefmt_closeResult(res);
    }
    pthread_mutex_unlock(&icu_lock);
    return r;
}

/* ---------- lists ---------- */

/* listFormat(locale, type 0 conjunction / 1 disjunction / 2 unit, width 0 long / 1 short / 2 narrow,
 * items (array of strings), parts) */
static JSValue f_list_format(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    char locale[LOCALE_MAX], key[LOCALE_MAX + 16];
    int32_t type, width;
    int64_t n64;
    if (need_icu(ctx) || get_locale(ctx, argv[0], locale, sizeof locale, "a locale") || JS_ToInt32(ctx, &type, argv[1]) ||
        JS_ToInt32(ctx, &width, argv[2]))
        return JS_EXCEPTION;
    JSValue lenv = JS_GetPropertyStr(ctx, argv[3], "length");
    if (JS_IsException(lenv)) return JS_EXCEPTION;
    int bad = JS_ToInt64(ctx, &n64, lenv);
    JS_FreeValue(ctx, lenv);
    if (bad) return JS_EXCEPTION;
    int want_parts = JS_ToBool(ctx, argv[4]);
    if (type < 0 || type > 2 || width < 0 || width > 2) return JS_ThrowRangeError(ctx, "Intl: bad list type or style");
    if (n64 < 0 || n64 > 100000) return JS_ThrowRangeError(ctx, "Intl.ListFormat: at most 100000 items");
    int32_t n = (int32_t)n64;
    UChar **items = calloc((size_t)n + 1, sizeof *items);
    int32_t *lens = calloc((size_t)n + 1, sizeof *lens);
    JSValue r = JS_EXCEPTION;
    size_t total = 0;
    if (!items || !lens) { JS_ThrowOutOfMemory(ctx); goto out; }
    for (int32_t i = 0; i < n; i++) {
        JSValue it = JS_GetPropertyUint32(ctx, argv[3], (uint32_t)i);
        if (JS_IsException(it)) goto out;
        items[i] = get_ustr(ctx, it, &lens[i]);
        JS_FreeValue(ctx, it);
        if (!items[i]) goto out;
        total += (size_t)lens[i];
        if (total > TEXT_MAX) { JS_ThrowRangeError(ctx, "Intl.ListFormat: the items are too long together"); goto out; }
    }
    snprintf(key, sizeof key, "L|%s|%d|%d", locale, type, width);
    pthread_mutex_lock(&icu_lock);
    UListFormatter *f = cache_get(key);
    if (!f) {
        UErrorCode e = U_ZERO_ERROR;
        f = I->ulistfmt_openForType(locale, (UListFormatterType)type, (UListFormatterWidth)width, &e);
        if (U_FAILURE(e)) {
            if (f) I->ulistfmt_close(f);
            f = NULL;
            icu_error(ctx, "ListFormat", e);
        } else cache_put(key, f, d_ulistfmt);
    }
    if (f) {
        UErrorCode e = U_ZERO_ERROR;
        UFormattedList *res = I->ulistfmt_openResult(&e);
        I->ulistfmt_formatStringsToResult(f, (const UChar *const *)items, lens, n, res, &e);
        if (U_FAILURE(e)) r = icu_error(ctx, "ListFormat", e);
        else {
            const UFormattedValue *fv = I->ulistfmt_resultAsValue(res, &e);
            r = U_FAILURE(e) ? icu_error(ctx, "ListFormat", e) : formatted_value(ctx, fv, want_parts);
        }
        if (res) I->ulistfmt_closeResult(res);
    }
    pthread_mutex_unlock(&icu_lock);
out:
    if (items)
        for (int32_t i = 0; i < n; i++) free(items[i]);
    free(items);
    free(lens);
    return r;
}

/* ---------- the object ---------- */

static const JSCFunctionListEntry intl_funcs[] = {
    JS_CFUNC_DEF("canonicalize", 1, f_canonicalize),
    JS_CFUNC_DEF("availableLocales", 1, f_available_locales),
    JS_CFUNC_DEF("maximize", 1, f_maximize),
    JS_CFUNC_DEF("caseMap", 3, f_case_map),
    JS_CFUNC_DEF("numberFormat", 4, f_number_format),
    JS_CFUNC_DEF("bestPattern", 2, f_best_pattern),
    JS_CFUNC_DEF("hourCycle", 1, f_hour_cycle),
    JS_CFUNC_DEF("stylePattern", 3, f_style_pattern),
    JS_CFUNC_DEF("dateFormat", 5, f_date_format),
    JS_CFUNC_DEF("dateRange", 6, f_date_range),
    JS_CFUNC_DEF("timeZone", 1, f_time_zone),
    JS_CFUNC_DEF("timeZones", 0, f_time_zones),
    JS_CFUNC_DEF("calendars", 0, f_calendars),
    JS_CFUNC_DEF("compare", 7, f_compare),
    JS_CFUNC_DEF("collatorIgnoresPunctuation", 1, f_collator_ignores_punctuation),
    JS_CFUNC_DEF("plural", 4, f_plural),
    JS_CFUNC_DEF("pluralCategories", 2, f_plural_categories),
    JS_CFUNC_DEF("relativeTime", 6, f_relative_time),
    JS_CFUNC_DEF("listFormat", 5, f_list_format),
};

JSValue intl_native_object(JSContext *ctx)
{
    JSValue o = JS_NewObjectProto(ctx, JS_NULL);
    JS_SetPropertyFunctionList(ctx, o, intl_funcs, sizeof intl_funcs / sizeof intl_funcs[0]);
    return o;
}
