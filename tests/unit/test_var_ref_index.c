/* test_var_ref_index.c — QuickJS patch 0016: a frame's index of its closure variables (made once a
 * frame has many; chidori turns it on only while the prelude is set up) must give every closure
 * the variable the language says, whatever the index's threshold. The same script runs with the
 * index off, made at the first captured variable, and at the 16th: the outputs must all be the
 * expected one. Each case is a way a reference leaves a live frame's list: a `let` of a loop
 * closed per iteration (close_lexical_var), a closure freed while its frame still runs
 * (free_var_ref), the frame returning or throwing (the index is freed and unlinked), an index
 * inside another frame's (nested indexed frames). Run it under AddressSanitizer too: a slot left
 * holding a freed reference is a use after free there. */
#include "unit.h"
#include "quickjs.h"

#include <stdlib.h>
#include <string.h>

#ifndef CHIDORI_ENGINE_NG /* the patch is QuickJS's (patches/quickjs/0016) */

static const char SCRIPT[] =
    "(function (a, b) {\n"
    "  const out = [];\n"
    "  let shared = 0;\n"
    "  const inc = () => ++shared, get = () => shared;\n"
    "  inc(); inc();\n"
    "  out.push(get());\n"                                 /* 2: one reference, two closures */
    "  const fs = [];\n"
    "  for (let i = 0; i < 4; i++) fs.push(() => i);\n"     /* a fresh i per iteration */
    "  out.push(fs.map((f) => f()).join(''));\n"            /* 0123 */
    "  let lonely = 5;\n"                                  /* captured only by closures that */
    "  for (let r = 0; r < 50; r++) {\n"                   /* are dropped at once: its reference */
    "    let t = (() => lonely + r)();\n"                  /* is freed while this frame runs, */
    "    let junk = [{ t }, { r }, [t, r]];\n"              /* and the memory reused */
    "  }\n"
    "  const late = () => shared + lonely;\n"              /* captured again after the frees */
    "  shared = 40; lonely = 35;\n"
    "  out.push(late() + get());\n"                         /* 115 */
    "  const setA = (v) => { a = v; }, getA = () => a;\n"  /* an argument, captured */
    "  setA(7);\n"
    "  out.push(getA() + ':' + arguments[0]);\n"            /* 7:7 (mapped arguments) */
    "  function inner(x) {\n"                               /* its own index, above ours */
    "    let k = x;\n"
    "    const fk = () => k, gk = () => ++k;\n"
    "    gk();\n"
    "    if (x > 2) throw new Error('e' + fk());\n"
    "    return fk() + shared;\n"
    "  }\n"
    "  out.push(inner(1));\n"                               /* 42 */
    "  try { inner(5); } catch (e) { out.push(e.message); }\n" /* e6 */
    "  const after = () => b;\n"
    "  out.push(after() + inc());\n"                        /* b41 */
    "  return out.join(',');\n"
    "})('A', 'b')";

static char *run_with(int min)
{
    JSRuntime *rt = JS_NewRuntime();
    JSContext *ctx = JS_NewContext(rt);
    JS_SetVarRefIndexMin(rt, min);
    JSValue v = JS_Eval(ctx, SCRIPT, strlen(SCRIPT), "<index>", JS_EVAL_TYPE_GLOBAL);
    const char *s = JS_IsException(v) ? NULL : JS_ToCString(ctx, v);
    char *copy = s ? strdup(s) : NULL;
    if (s) JS_FreeCString(ctx, s);
    JS_FreeValue(ctx, v);
    JS_FreeContext(ctx);
    JS_FreeRuntime(rt);
    return copy;
}

TEST(var_ref_index_gives_each_closure_its_variable)
{
    static const char want[] = "2,0123,115,7:7,42,e6,b41";
    const int mins[] = {0, 1, 2, 16};
    for (size_t i = 0; i < sizeof mins / sizeof mins[0]; i++) {
        char *got = run_with(mins[i]);
        CHECK_STR(got, want);
        free(got);
    }
}
#endif
