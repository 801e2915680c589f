/* test_plain_args.c — plain_args (src/engine/plain_args.c) names QuickJS's class ids of a plain
 * object and an array as constants; an engine that numbers them otherwise fails here. It reads a
 * plain value and gives up (calling nothing) on one whose serialization could run guest code. */
#include "unit.h"
#include "engine/plain_args.h"

#include <stdlib.h>
#include <string.h>

static int eval_plain(JSContext *ctx, const char *src, char **text)
{
    JSValue v = JS_Eval(ctx, src, strlen(src), "<t>", JS_EVAL_TYPE_GLOBAL);
    json_t *out = NULL;
    int rc = plain_args(ctx, v, &out);
    *text = out ? json_dump(out, JSON_COMPACT, NULL) : NULL;
    json_free(out);
    JS_FreeValue(ctx, v);
    return rc;
}

TEST(plain_args_class_ids)
{
    JSRuntime *rt = JS_NewRuntime();
    JSContext *ctx = JS_NewContext(rt);
    JSValue o = JS_NewObject(ctx), a = JS_NewArray(ctx);
    CHECK(JS_GetClassID(o) == 1); /* plain_args.c: object_class */
    CHECK(JS_GetClassID(a) == 2); /* plain_args.c: array_class */
    JS_FreeValue(ctx, o);
    JS_FreeValue(ctx, a);
    char *text = NULL;
    CHECK(eval_plain(ctx, "({b: [1, undefined, 'é'], 1: -0, n: NaN, s: Symbol('x')})", &text) == 1);
    CHECK_STR(text, "{\"1\":0,\"b\":[1,null,\"é\"],\"n\":null}");
    free(text);
    /* a getter is never called: the walk gives up first */
    CHECK(eval_plain(ctx, "globalThis.calls = 0; ({a: 1, get g() { calls++; return 2; }})", &text) == 0);
    CHECK(text == NULL);
    JSValue calls = JS_Eval(ctx, "calls", 5, "<t>", JS_EVAL_TYPE_GLOBAL);
    CHECK(JS_VALUE_GET_TAG(calls) == JS_TAG_INT && JS_VALUE_GET_INT(calls) == 0);
    CHECK(eval_plain(ctx, "Object.prototype.toJSON = undefined; ({a: {}})", &text) == 0);
    CHECK(eval_plain(ctx, "delete Object.prototype.toJSON; ({a: new Proxy({}, {})})", &text) == 0);
    CHECK(eval_plain(ctx, "({a: [1, , 3]})", &text) == 0);
    CHECK(eval_plain(ctx, "({a: 1n})", &text) == 0);
    CHECK(eval_plain(ctx, "[1]", &text) == 0); /* the args themselves are an object */
    JS_FreeContext(ctx);
    JS_FreeRuntime(rt);
}
