/* test_module_barrel.c — the barrel recognizer (host/effects/module_barrel.c): what it reads, what
 * it refuses (anything that is not only re-exports), and garbage and oversized input. */
#include "unit.h"
#include "host/effects/module_barrel.h"
#include "util/buf.h"

#include <stdlib.h>

/* The table of src, or "-" when it is no barrel. */
static char *table_of(const char *src)
{
    buf b = {0};
    size_t n = 0, lines = 0;
    if (barrel_scan(src, strlen(src), &b, &n) == 0) {
        for (size_t i = 0; i < b.len; i++) lines += b.data[i] == '\n';
        if (lines == n) return buf_steal(&b); /* the count must be the lines' */
    }
    buf_free(&b);
    return xstrdup("-");
}

#define TABLE_IS(src, want)                                                                        \
    do {                                                                                           \
        char *got_ = table_of(src);                                                                \
        int same_ = !strcmp(got_, want);                                                           \
        if (!same_) {                                                                              \
            char m_[700];                                                                          \
            snprintf(m_, sizeof m_, "scan of %.200s: got \"%.200s\", want \"%.200s\"", src, got_, want); \
            free(got_);                                                                            \
            unit_fail(__FILE__, __LINE__, m_);                                                     \
            return;                                                                                \
        }                                                                                          \
        free(got_);                                                                                \
    } while (0)

TEST(barrel_reads_re_exports)
{
    TABLE_IS("export { default as chunk } from './chunk.js';\nexport { a, b as c, } from \"./x.js\"\n",
             "chunk default ./chunk.js\na a ./x.js\nc b ./x.js\n");
    TABLE_IS("/** @license x */\n// note\nexport * as ns from './ns.js'; export {if as when} from 'k';;",
             "ns * ./ns.js\nwhen if k\n");
    TABLE_IS("export{as as as}from'./as.js'", "as as ./as.js\n");
}

TEST(barrel_refuses_anything_else)
{
    TABLE_IS("", "-");
    TABLE_IS("// only a comment", "-");
    TABLE_IS("export {} from './side.js';", "-");                       /* loaded for its effects */
    TABLE_IS("export {} from './side.js'; export { x } from './x.js'", "-");
    TABLE_IS("export { a } from './a.js'; // c\xe2\x80\xa8globalThis.x = 1;", "-"); /* U+2028 ends the comment */
    TABLE_IS("export { a } from './a.js'; // c\xe2\x80\xa9" "export { b } from './b.js'", "a a ./a.js\nb b ./b.js\n");
    TABLE_IS("export * from './all.js';", "-");                         /* names unknown */
    TABLE_IS("export { a } from './a.js';\nconsole.log(1);", "-");      /* code */
    TABLE_IS("import './side.js';\nexport { a } from './a.js';", "-");  /* an import */
    TABLE_IS("export { a };", "-");                                     /* a local export */
    TABLE_IS("export const a = 1;", "-");
    TABLE_IS("export default 1;", "-");
    TABLE_IS("export { a } from './a.js' export { b } from './b.js'", "-"); /* one line, no `;` */
    TABLE_IS("export { a } from './a.js'\nexport { a } from './b.js'", "-"); /* a duplicate name */
    TABLE_IS("export { a as b, c as b } from './a.js'", "-");
    TABLE_IS("export { \"a-b\" as c } from './a.js'", "-");             /* string names */
    TABLE_IS("export { a } from './a\\u0041.js'", "-");                 /* an escape */
    TABLE_IS("export { a } from './a.json' with { type: 'json' }", "-"); /* an attribute clause */
    TABLE_IS("export { a\\u0062 } from './a.js'", "-");
    TABLE_IS("export { é } from './a.js'", "-");
    TABLE_IS("export { a } from './a.js' /* unterminated", "-");
    TABLE_IS("export { a } from './a\xe2\x80\xa8.js'", "-");            /* U+2028 in the string */
    TABLE_IS("export { a, , b } from './a.js'", "-");
    TABLE_IS("export { a } from ''", "-");
    TABLE_IS("export { a } from './a.js", "-");
    TABLE_IS("exports { a } from './a.js'", "-");
    TABLE_IS("#!/usr/bin/env node\nexport { a } from './a.js'", "-");
}

TEST(barrel_survives_garbage_and_caps)
{
    unsigned seed = 4242;
    size_t cap = 1 << 16;
    char *g = malloc(cap);
    for (int round = 0; round < 300; round++) {
        size_t n = (size_t)(rand_r(&seed) % cap);
        for (size_t i = 0; i < n; i++) {
            static const char alphabet[] = "export{}*asfrom'\"./\\\n ;,/*xyz_$0";
            g[i] = (round & 1) ? (char)rand_r(&seed) : alphabet[rand_r(&seed) % (sizeof alphabet - 1)];
        }
        buf b = {0};
        size_t k = 0;
        if (barrel_scan(g, n, &b, &k) == 0) CHECK(k > 0 && k <= BARREL_MAX_ENTRIES && b.len > 0);
        else CHECK(b.len == 0);
        buf_free(&b);
    }
    free(g);
    /* more entries than the cap, and more bytes than the cap: no barrel */
    buf src = {0};
    for (int i = 0; i < BARREL_MAX_ENTRIES + 1; i++) buf_printf(&src, "export { n%d } from './m.js';\n", i);
    buf b = {0};
    size_t k = 0;
    CHECK(barrel_scan(src.data, src.len, &b, &k) < 0 && b.len == 0);
    buf_free(&src);
    for (int i = 0; i < 100; i++) buf_printf(&src, "export { n%d } from './m.js';\n", i);
    CHECK(barrel_scan(src.data, src.len, &b, &k) == 0 && k == 100);
    buf_free(&b);
    CHECK(barrel_scan(src.data, BARREL_MAX_BYTES + 1, &b, &k) < 0); /* only len is looked at */
    buf_free(&src);
    /* a table more than twice its text (a long specifier repeated for many names) is refused */
    buf_printf(&src, "export { ");
    for (int i = 0; i < 200; i++) buf_printf(&src, "a%d, ", i);
    buf_printf(&src, "} from './");
    for (int i = 0; i < 100; i++) buf_printf(&src, "dir/");
    buf_printf(&src, "x.js';\n");
    CHECK(barrel_scan(src.data, src.len, &b, &k) < 0 && b.len == 0);
    buf_free(&src);
    buf_free(&b);
}
