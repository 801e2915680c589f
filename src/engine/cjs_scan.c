/* cjs_scan.c — static scan of a CommonJS source for its export names (cjs_scan.h), and the blanking
 * of import attributes the parser does not know.
 *
 * Trusts nothing in the bytes: every read is bounds-checked against len, strings and comments are
 * skipped (an unterminated one ends the scan), and the output is capped. It is a heuristic, like
 * Node's: what it misses is still reachable as the default export.
 */
#include "engine/cjs_scan.h"
#include "util/buf.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static bool id_start(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$'; }
static bool id_char(unsigned char c) { return id_start(c) || (c >= '0' && c <= '9'); }

typedef struct {
    const char *s;
    size_t len, i;
} cur;

unsigned long cjs_scan_compares;

/* The set of names found: open addressing over twice CJS_SCAN_MAX_NAMES slots, each 0 (empty) or
 * index + 1. A name is compared only with the names of its own probe run, not with every name
 * found so far (which made a large file with many names quadratic). */
#define SEEN_SLOTS (2 * CJS_SCAN_MAX_NAMES)

static size_t name_hash(const char *p, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)p[i]) * 16777619u;
    return h & (SEEN_SLOTS - 1);
}

static void add_name(cjs_names *out, const char *p, size_t n)
{
    if (n == 0 || n > CJS_SCAN_MAX_NAME || out->len >= CJS_SCAN_MAX_NAMES) return;
    if (n == 7 && memcmp(p, "default", 7) == 0) return;
    for (size_t i = 0; i < n; i++)
        if (!id_char((unsigned char)p[i])) return;
    if (!id_start((unsigned char)p[0])) return;
    if (!out->seen) out->seen = xcalloc(SEEN_SLOTS, sizeof *out->seen);
    size_t h = name_hash(p, n);
    for (; out->seen[h]; h = (h + 1) & (SEEN_SLOTS - 1)) {
        const char *o = out->names[out->seen[h] - 1];
        cjs_scan_compares++;
        if (strlen(o) == n && memcmp(o, p, n) == 0) return;
    }
    out->names = xrealloc(out->names, (out->len + 1) * sizeof(char *));
    out->names[out->len++] = xstrndup(p, n);
    out->seen[h] = (unsigned)out->len;
}

/* Skips blanks and comments. */
static void skip_ws(cur *c)
{
    while (c->i < c->len) {
        char ch = c->s[c->i];
        if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') c->i++;
        else if (ch == '/' && c->i + 1 < c->len && c->s[c->i + 1] == '/') {
            while (c->i < c->len && c->s[c->i] != '\n') c->i++;
        } else if (ch == '/' && c->i + 1 < c->len && c->s[c->i + 1] == '*') {
            const char *end = NULL;
            for (size_t j = c->i + 2; j + 1 < c->len; j++)
                if (c->s[j] == '*' && c->s[j + 1] == '/') {
                    end = c->s + j;
                    break;
                }
            c->i = end ? (size_t)(end - c->s) + 2 : c->len;
        } else break;
    }
}

/* At a quote: past the string's end (len when unterminated). */
static void skip_string(cur *c)
{
    char q = c->s[c->i++];
    while (c->i < c->len) {
        char ch = c->s[c->i];
        if (ch == '\\') c->i += 2;
        else if (ch == q) {
            c->i++;
            return;
        } else if (ch == '\n' && q != '`') return;
        else c->i++;
    }
    if (c->i > c->len) c->i = c->len;
}

static bool at_word(const cur *c, const char *w)
{
    size_t n = strlen(w);
    if (c->i + n > c->len || memcmp(c->s + c->i, w, n) != 0) return false;
    if (c->i > 0 && (id_char((unsigned char)c->s[c->i - 1]) || c->s[c->i - 1] == '.')) return false;
    return c->i + n == c->len || !id_char((unsigned char)c->s[c->i + n]);
}

static bool eat(cur *c, char ch)
{
    skip_ws(c);
    if (c->i < c->len && c->s[c->i] == ch) {
        c->i++;
        return true;
    }
    return false;
}

/* An identifier here: its start and length (0 when none). */
static size_t ident(cur *c, const char **start)
{
    skip_ws(c);
    size_t b = c->i;
    if (b >= c->len || !id_start((unsigned char)c->s[b])) return 0;
    while (c->i < c->len && id_char((unsigned char)c->s[c->i])) c->i++;
    *start = c->s + b;
    return c->i - b;
}

/* A quoted name here: its contents (no escapes) and length, or 0. */
static size_t quoted(cur *c, const char **start)
{
    skip_ws(c);
    if (c->i >= c->len || (c->s[c->i] != '"' && c->s[c->i] != '\'')) return 0;
    char q = c->s[c->i];
    size_t b = c->i + 1, j = b;
    while (j < c->len && c->s[j] != q && c->s[j] != '\\' && c->s[j] != '\n') j++;
    if (j >= c->len || c->s[j] != q) return 0;
    c->i = j + 1;
    *start = c->s + b;
    return j - b;
}

/* `= ` but not `==`/`=>`. */
static bool assign(cur *c)
{
    skip_ws(c);
    if (c->i < c->len && c->s[c->i] == '=' && (c->i + 1 >= c->len || (c->s[c->i + 1] != '=' && c->s[c->i + 1] != '>'))) {
        c->i++;
        return true;
    }
    return false;
}

/* After `exports`: `.x =` or `["x"] =`. */
static void exports_member(cur *c, cjs_names *out)
{
    const char *p;
    size_t n;
    if (eat(c, '.')) {
        if ((n = ident(c, &p)) && assign(c)) add_name(out, p, n);
    } else if (eat(c, '[')) {
        if ((n = quoted(c, &p)) && eat(c, ']') && assign(c)) add_name(out, p, n);
    }
}

/* After `module.exports = {`: the keys at the top level of the literal. */
static void object_keys(cur *c, cjs_names *out)
{
    for (;;) {
        skip_ws(c);
        if (c->i >= c->len || c->s[c->i] == '}') return;
        const char *p;
        size_t n = ident(c, &p);
        if (!n) n = quoted(c, &p);
        if (!n) {
            if (c->i + 3 <= c->len && memcmp(c->s + c->i, "...", 3) == 0) c->i += 3;
            else return; /* computed keys, getters: stop here */
            n = 0;
        }
        skip_ws(c);
        if (n) {
            if (c->i < c->len && (c->s[c->i] == ',' || c->s[c->i] == '}' || c->s[c->i] == ':' || c->s[c->i] == '('))
                add_name(out, p, n);
        }
        /* skip the value (or method body) to the next comma at this level */
        int depth = 0;
        while (c->i < c->len) {
            char ch = c->s[c->i];
            if (ch == '"' || ch == '\'' || ch == '`') {
                skip_string(c);
                continue;
            }
            if (ch == '/' && c->i + 1 < c->len && (c->s[c->i + 1] == '/' || c->s[c->i + 1] == '*')) {
                skip_ws(c);
                continue;
            }
            if (ch == '(' || ch == '[' || ch == '{') depth++;
            else if (ch == ')' || ch == ']' || ch == '}') {
                if (depth == 0) return;
                depth--;
            } else if (ch == ',' && depth == 0) {
                c->i++;
                break;
            }
            c->i++;
        }
        if (depth > 0) return;
    }
}

void cjs_scan(const char *src, size_t len, cjs_names *out)
{
    out->names = NULL;
    out->len = 0;
    out->seen = NULL;
    if (!src || len > CJS_SCAN_MAX_BYTES) return;
    cur c = {.s = src, .len = len, .i = 0};
    while (c.i < c.len) {
        char ch = c.s[c.i];
        if (ch == '"' || ch == '\'' || ch == '`') {
            skip_string(&c);
            continue;
        }
        if (ch == '/' && c.i + 1 < c.len && (c.s[c.i + 1] == '/' || c.s[c.i + 1] == '*')) {
            skip_ws(&c);
            continue;
        }
        if (at_word(&c, "module")) {
            c.i += 6;
            size_t save = c.i;
            const char *p;
            size_t n;
            if (eat(&c, '.') && (n = ident(&c, &p)) == 7 && memcmp(p, "exports", 7) == 0) {
                size_t after = c.i;
                if (assign(&c)) {
                    if (eat(&c, '{')) object_keys(&c, out);
                } else {
                    c.i = after;
                    exports_member(&c, out);
                }
            } else c.i = save;
            continue;
        }
        if (at_word(&c, "exports")) {
            c.i += 7;
            exports_member(&c, out);
            continue;
        }
        if (at_word(&c, "Object")) {
            c.i += 6;
            const char *p;
            size_t n;
            if (eat(&c, '.') && (n = ident(&c, &p)) == 14 && memcmp(p, "defineProperty", 14) == 0 && eat(&c, '(')) {
                size_t save = c.i;
                if ((n = ident(&c, &p)) == 6 && memcmp(p, "module", 6) == 0) {
                    if (!(eat(&c, '.') && (n = ident(&c, &p)) == 7 && memcmp(p, "exports", 7) == 0)) {
                        c.i = save;
                        continue;
                    }
                } else if (n != 7 || memcmp(p, "exports", 7) != 0) {
                    c.i = save;
                    continue;
                }
                if (eat(&c, ',') && (n = quoted(&c, &p)) && eat(&c, ',')) add_name(out, p, n);
            }
            continue;
        }
        if (id_char((unsigned char)ch)) {
            while (c.i < c.len && id_char((unsigned char)c.s[c.i])) c.i++;
            continue;
        }
        c.i++;
    }
    free(out->seen);
    out->seen = NULL;
}

void cjs_names_free(cjs_names *n)
{
    for (size_t i = 0; i < n->len; i++) free(n->names[i]);
    free(n->names);
    free(n->seen);
    n->seen = NULL;
    n->names = NULL;
    n->len = 0;
}

/* ---- import attributes ---- */

static bool is_blank(char ch) { return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r'; }

/* Whether a flat attribute list ("type: 'json'", "") asks for JSON or names no type: what chidori
 * loads (a module's kind comes from its file). Any other type ("text", "css") is kept. */
static bool json_or_no_type(const char *s, size_t n)
{
    for (size_t i = 0; i + 4 <= n; i++) {
        if (memcmp(s + i, "type", 4) != 0 || (i > 0 && (isalnum((unsigned char)s[i - 1]) || s[i - 1] == '_'))) continue;
        size_t v = i + 4;
        if (v < n && (s[v] == '"' || s[v] == '\'')) v++; /* a quoted key */
        while (v < n && is_blank(s[v])) v++;
        if (v >= n || s[v] != ':') continue;
        v++;
        while (v < n && is_blank(s[v])) v++;
        if (v >= n || (s[v] != '"' && s[v] != '\'')) return false;
        return n - v >= 6 && memcmp(s + v + 1, "json", 4) == 0 && s[v + 5] == s[v];
    }
    return true;
}

bool strip_import_attributes(char *src, size_t len)
{
    bool blanked = false;
    if (!src) return false;
    for (size_t i = 0; i < len; i++) {
        char q = src[i];
        if (q != '"' && q != '\'') continue;
        /* the string must follow `from` or `import` */
        size_t b = i;
        while (b > 0 && is_blank(src[b - 1])) b--;
        bool after_kw = (b >= 4 && memcmp(src + b - 4, "from", 4) == 0) || (b >= 6 && memcmp(src + b - 6, "import", 6) == 0);
        size_t j = i + 1;
        while (j < len && src[j] != q && src[j] != '\n' && src[j] != '\\') j++;
        if (j >= len || src[j] != q) {
            i = j;
            continue;
        }
        if (!after_kw) {
            i = j;
            continue;
        }
        size_t k = j + 1;
        while (k < len && (src[k] == ' ' || src[k] == '\t')) k++;
        size_t kw = 0;
        if (k + 4 <= len && memcmp(src + k, "with", 4) == 0) kw = 4;
        else if (k + 6 <= len && memcmp(src + k, "assert", 6) == 0) kw = 6;
        if (!kw || (k + kw < len && !is_blank(src[k + kw]) && src[k + kw] != '{')) {
            i = j;
            continue;
        }
        size_t m = k + kw;
        while (m < len && is_blank(src[m])) m++;
        if (m >= len || src[m] != '{') {
            i = j;
            continue;
        }
        /* a flat { key: "value", … } only */
        size_t e = m + 1;
        while (e < len && src[e] != '}' && src[e] != '{' && src[e] != ';' && src[e] != '(' && e - m < 256) e++;
        if (e >= len || src[e] != '}') {
            i = j;
            continue;
        }
        if (!json_or_no_type(src + m + 1, e - m - 1)) { /* left for the engine to refuse */
            i = e;
            continue;
        }
        for (size_t x = k; x <= e; x++)
            if (src[x] != '\n') src[x] = ' ';
        blanked = true;
        i = e;
    }
    return blanked;
}
