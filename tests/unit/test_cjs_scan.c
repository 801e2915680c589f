/* test_cjs_scan.c — the static scan of CommonJS export names (engine/cjs_scan.c), the blanking of
 * import attributes, and both against garbage and oversized input. */
#include "unit.h"
#include "engine/cjs_scan.h"
#include "util/buf.h"

#include <stdlib.h>

static char *joined(const char *src)
{
    cjs_names n;
    cjs_scan(src, strlen(src), &n);
    buf b = {0};
    for (size_t i = 0; i < n.len; i++) buf_printf(&b, "%s%s", i ? "," : "", n.names[i]);
    cjs_names_free(&n);
    return b.data ? buf_steal(&b) : xstrdup("");
}

#define SCAN_IS(src, want)            \
    do {                              \
        char *got_ = joined(src);     \
        int same_ = !strcmp(got_, want); \
        if (!same_) {                 \
            char m_[512];             \
            snprintf(m_, sizeof m_, "scan of %.120s: got \"%.150s\", want \"%s\"", src, got_, want); \
            free(got_);               \
            unit_fail(__FILE__, __LINE__, m_); \
            return;                   \
        }                             \
        free(got_);                   \
    } while (0)

TEST(cjs_scan_finds_assignments)
{
    SCAN_IS("exports.a = 1; module.exports.b = 2; exports['c'] = 3; exports[\"d\"]=4;", "a,b,c,d");
    SCAN_IS("exports.a == 1; exports.b => 2; exports.c.d = 1; x.exports.e = 1;", "");
    SCAN_IS("exports.a = 1; exports.a = 2; exports.default = 3;", "a");
    SCAN_IS("Object.defineProperty(exports, \"x\", { value: 1 }); Object.defineProperty(module.exports, 'y', {})", "x,y");
    SCAN_IS("Object.defineProperty(other, \"x\", {})", "");
}

TEST(cjs_scan_reads_object_literals)
{
    SCAN_IS("module.exports = { a, b: 1, \"c\": f(1, 2), d() { return {x: 1}; }, ...rest, e: [1, {f: 2}] };",
            "a,b,c,d,e");
    SCAN_IS("module.exports = { [computed]: 1, later: 2 }", "");
    SCAN_IS("module.exports = require('./x');", "");
}

TEST(cjs_scan_skips_strings_and_comments)
{
    SCAN_IS("// exports.a = 1\n/* exports.b = 2 */ 'exports.c = 3'; `exports.d = 4`; exports.e = 5", "e");
    SCAN_IS("var s = \"unterminated\nexports.a = 1", "a");
}

TEST(cjs_scan_survives_garbage)
{
    unsigned seed = 12345;
    char *g = malloc(65536);
    for (int round = 0; round < 200; round++) {
        size_t n = (size_t)(rand_r(&seed) % 65536);
        for (size_t i = 0; i < n; i++) {
            static const char alphabet[] = "exports.modul={}[]()'\"`/*\\\n ,:=>Objectdfinrpy$_0";
            g[i] = (round & 1) ? (char)rand_r(&seed) : alphabet[rand_r(&seed) % (sizeof alphabet - 1)];
        }
        cjs_names out;
        cjs_scan(g, n, &out);
        CHECK(out.len <= CJS_SCAN_MAX_NAMES);
        for (size_t i = 0; i < out.len; i++) CHECK(strlen(out.names[i]) <= CJS_SCAN_MAX_NAME);
        cjs_names_free(&out);
        strip_import_attributes(g, n);
    }
    free(g);
    /* Over the size limit: nothing is scanned (len only; the bytes are never read). */
    cjs_names out;
    cjs_scan("exports.a = 1", CJS_SCAN_MAX_BYTES + 1, &out);
    CHECK(out.len == 0);
    /* The cap on names. */
    buf b = {0};
    for (int i = 0; i < CJS_SCAN_MAX_NAMES + 50; i++) buf_printf(&b, "exports.n%d = 1;\n", i);
    cjs_scan(b.data, b.len, &out);
    CHECK(out.len == CJS_SCAN_MAX_NAMES);
    cjs_names_free(&out);
    buf_free(&b);
}

TEST(import_attributes_are_blanked_in_place)
{
    char a[] = "import d from \"./x.json\" with { type: \"json\" };\nimport e from './y.json' assert {type:'json'}";
    size_t n = strlen(a);
    strip_import_attributes(a, n);
    CHECK(strlen(a) == n);
    CHECK_STR(a, "import d from \"./x.json\" " "                     " ";\nimport e from './y.json' " "                    ");
    char b[] = "const s = \"x\" with; foo(\"a\") with {x}; import \"m\" with\n{ type: \"json\" }";
    strip_import_attributes(b, strlen(b));
    CHECK_STR(b, "const s = \"x\" with; foo(\"a\") with {x}; import \"m\"     \n                ");
    /* another type is kept, for the engine to refuse (a quoted key too); no type is blanked */
    char c[] = "import t from \"./a.txt\" with { type: \"text\" };\nimport u from './b' with { \"type\": 'css' };\n"
               "import v from './c' with {};";
    strip_import_attributes(c, strlen(c));
    CHECK_STR(c, "import t from \"./a.txt\" with { type: \"text\" };\nimport u from './b' with { \"type\": 'css' };\n"
                 "import v from './c'        ;");
}

/* A 16 MiB file with 2046 names, then one name again and again: each repeat is compared with the
 * few names of its hash probe, not with all 2046 found so far (that was ~2.7 billion comparisons,
 * 10 s of C no deadline can interrupt). Counted, not timed. */
TEST(cjs_scan_is_linear_in_repeated_names)
{
    buf b = {0};
    for (int i = 0; i < CJS_SCAN_MAX_NAMES - 2; i++) buf_printf(&b, "exports.n%d=1;", i);
    size_t repeats = 0;
    while (b.len + 16 < CJS_SCAN_MAX_BYTES) {
        buf_puts(&b, "exports.again=1;");
        repeats++;
    }
    cjs_scan_compares = 0;
    cjs_names out;
    cjs_scan(b.data, b.len, &out);
    CHECK(out.len == CJS_SCAN_MAX_NAMES - 1);
    CHECK(out.len > 0 && strcmp(out.names[out.len - 1], "again") == 0);
    char m[160];
    snprintf(m, sizeof m, "%lu comparisons for %zu repeated names", cjs_scan_compares, repeats);
    if (cjs_scan_compares > 64 * (unsigned long)(repeats + CJS_SCAN_MAX_NAMES)) unit_fail(__FILE__, __LINE__, m);
    cjs_names_free(&out);
    buf_free(&b);
}
