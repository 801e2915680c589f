/* intl_native.h — the object of ICU-backed functions the Intl JS layer (js/intl.js) is given.
 * Reachable only from the prelude's closure, never from guest code. */
#ifndef CHIDORI_INTL_NATIVE_H
#define CHIDORI_INTL_NATIVE_H

#include "quickjs.h"

JSValue intl_native_object(JSContext *ctx);

#endif
