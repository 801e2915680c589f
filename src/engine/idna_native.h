/* idna_native.h — UTS #46 domain conversion over ICU (idna_native.c), handed to the shims as
 * natives.idna. Reachable only from the prelude's closure, never from guest code. */
#ifndef CHIDORI_IDNA_NATIVE_H
#define CHIDORI_IDNA_NATIVE_H

#include "quickjs.h"

JSValue idna_native_object(JSContext *ctx);

#endif
