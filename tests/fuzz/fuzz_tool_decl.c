/* fuzz_tool_decl.c — the reader of legacy tool files' declarations (host/tool_decl.c): the input is
 * a tool file's text.
 *
 * Properties (abort on violation):
 *   - the outcome is one of the three, with exactly the outputs it promises: 0 nothing, 1 a
 *     declaration {name, description, parameters} with a valid name, -1 a reason;
 *   - the same input reads the same way twice (the reader keeps no state). */
#include "host/tool_decl.h"
#include "util/buf.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = xmalloc(size + 1);
    memcpy(text, data, size);
    text[size] = 0;
    json_t *a = NULL, *b = NULL;
    char *wa = NULL, *wb = NULL;
    int ra = tool_decl_parse(text, size, &a, &wa);
    int rb = tool_decl_parse(text, size, &b, &wb);
    if (ra != rb) abort();
    if (ra == 0 && (a || wa)) abort();
    if (ra == -1 && (a || !wa)) abort();
    if (ra == 1) {
        const json_t *name = json_object_get(a, "name");
        if (wa || !json_is_string(name) || !name->u.string.len || name->u.string.len > TOOL_NAME_MAX) abort();
        if (!json_is_string(json_object_get(a, "description")) || !json_is_object(json_object_get(a, "parameters")))
            abort();
        if (!json_equal(a, b)) abort();
    }
    json_free(a);
    json_free(b);
    free(wa);
    free(wb);
    free(text);
    return 0;
}
