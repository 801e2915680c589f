/* fuzz_template.c — libFuzzer target for chidori.template (src/host/template.c).
 *
 * Input: "<template>\0<vars JSON>" (without a NUL: the whole input is the template and fixed vars
 * are used). Renders with a small output cap; the include callback serves the fuzz input's
 * template part for any name (so self-inclusion and recursion are exercised), fails for names
 * starting with "missing", and serves a second fixed template for "other". Checks that a result
 * is exactly one of output or error, and that errors are "name:line:col: ..." or "name: ...".
 *
 * Build: clang -g -O1 -fsanitize=fuzzer,address,undefined -Isrc src/util/json.c src/util/buf.c \
 *        src/host/template.c tests/fuzz/fuzz_template.c -lm -o build/fuzz_template
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "host/template_lang.h"
#include "util/buf.h"
#include "util/json.h"

static const char *fixed_vars =
    "{\"name\":\"Ada\",\"n\":3,\"f\":2.5,\"t\":true,\"no\":false,\"nil\":null,\"s\":\"\","
    "\"list\":[1,\"two\",3.5,[4,5],{\"k\":\"v\"}],\"empty\":[],\"eo\":{},"
    "\"obj\":{\"x\":1,\"y\":[2,3],\"z\":{\"deep\":[{\"a\":1}]}},\"pairs\":[[1,2],[\"a\",\"b\"]],"
    "\"big\":[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29]}";

typedef struct fuzz_inc {
    const char *src;
    size_t len;
} fuzz_inc;

static int include_cb(void *ctx, const char *name, char **source, size_t *len, char **error)
{
    fuzz_inc *fi = ctx;
    if (!strncmp(name, "missing", 7)) {
        *error = xstrdup("no such template");
        return -1;
    }
    if (!strcmp(name, "other")) {
        *source = xstrdup("[{{ loop.index | default('-') }}:{{ name }}{% for x in list %}{{ x }}{% endfor %}]");
        *len = strlen(*source);
        return 0;
    }
    *source = xstrndup(fi->src, fi->len);
    *len = fi->len;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    const char *nul = memchr(text, '\0', size);
    size_t tlen = nul ? (size_t)(nul - text) : size;
    json_t *vars = NULL;
    if (nul) {
        json_error je;
        json_limits lim = {.max_bytes = 1 << 16, .max_depth = 64};
        /* vars that fail to parse render with NULL vars; non-object vars must be refused cleanly */
        vars = json_parse(nul + 1, size - tlen - 1, &lim, &je);
    } else {
        json_error je;
        vars = json_parse(fixed_vars, strlen(fixed_vars), NULL, &je);
        if (!vars) abort();
    }
    fuzz_inc fi = {text, tlen};
    template_options opt = {
        .max_output = 4096,
        .max_include_depth = 4,
        .include = include_cb,
        .include_ctx = &fi,
        .name = "fuzz",
    };
    char *err = NULL;
    size_t out_len = 12345;
    char *out = template_render(text, tlen, vars, &opt, &out_len, &err);
    if (out) {
        if (err) abort();
        if (out_len > opt.max_output) abort();
        if (out[out_len] != '\0') abort();
        free(out);
    } else {
        if (!err) abort();
        if (strncmp(err, "fuzz", 4) && !strchr(err, ':')) abort();
        free(err);
    }
    json_free(vars);
    return 0;
}
