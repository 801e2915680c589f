/* qjs_compat_ng.h — the QuickJS 2025-04-26 API our engine code is written against, mapped onto
 * quickjs-ng's, the engine (the Makefile force-includes this header into every file of an ng
 * build; a `make ENGINE=quickjs` build never sees it).
 *
 * Owns: nothing but these spellings. Trusts: quickjs-ng's quickjs.h (build/ng-src, patched by
 * patches/quickjs-ng/). Where ng's calls drop the context argument or the flag, the macro drops
 * it too; what has no ng equivalent is a no-op with the reason beside it. */
#ifndef CHIDORI_QJS_COMPAT_NG_H
#define CHIDORI_QJS_COMPAT_NG_H
#ifdef CHIDORI_ENGINE_NG

/* our files define it before their first include; this header now comes first */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdbool.h>
#include "quickjs.h"

#define JS_BOOL bool
#define JS_IsError(ctx, v) JS_IsError(v)
#define JS_IsUncatchableError(ctx, v) JS_IsUncatchableError(v)
/* our code only ever sets the flag */
#define JS_SetUncatchableError(ctx, v, flag) \
    ((flag) ? JS_SetUncatchableError(ctx, v) : JS_ClearUncatchableError(ctx, v))
/* String.prototype.normalize is part of ng's base objects */
#define JS_AddIntrinsicStringNormalize(ctx) ((void)(ctx))
/* ng strips source and debug information when bytecode is written, not when it is compiled */
__attribute__((unused)) static int chidori_ng_strip_flags;
#define JS_STRIP_SOURCE JS_WRITE_OBJ_STRIP_SOURCE
#define JS_STRIP_DEBUG JS_WRITE_OBJ_STRIP_DEBUG
#define JS_SetStripInfo(rt, f) ((void)(rt), chidori_ng_strip_flags = (f))
#define JS_WriteObject(ctx, psize, obj, flags) JS_WriteObject(ctx, psize, obj, (flags) | chidori_ng_strip_flags)
#endif
#endif
