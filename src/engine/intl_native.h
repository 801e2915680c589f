/* intl_native.h — the object of ICU-backed functions the Intl JS layer (js/intl.js) is given.
 * Reachable only from the prelude's closure, never from guest code. */
#ifndef CHIDORI_INTL_NATIVE_H
#define CHIDORI_INTL_NATIVE_H

#include "quickjs.h"
#include "engine/intl_icu.h"

#include <stddef.h>

JSValue intl_native_object(JSContext *ctx);

/* Guest text to ICU and back, for every ICU caller (intl_native.c, idna_native.c). A JS string to
 * UTF-16 (malloc'd, NUL-terminated), at most max_bytes of UTF-8, *len in UTF-16 units: NULL with a
 * RangeError naming `who` (or out of memory) pending. UTF-16 from ICU to a JS string: an exception
 * if ICU cannot convert it. ICU must be loaded. */
UChar *intl_ustr_from_js(JSContext *ctx, JSValueConst v, size_t max_bytes, const char *who, int32_t *len);
JSValue intl_ustr_to_js(JSContext *ctx, const UChar *u, int32_t len, const char *who);

#endif
