/* effects/module_barrel.c — the barrel recognizer (module_barrel.h). A hand-written scanner of a
 * small subset of ES module syntax: it accepts only text it is sure means re-exports and nothing
 * else, so a file it refuses is simply loaded whole. Owns nothing past the returned table. */
#define _GNU_SOURCE /* memmem */
#include "host/effects/module_barrel.h"
#include "util/buf.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *s;
    size_t len, i;
} scan;

/* The bytes that may start blank space or a comment (1), and those that are blank by themselves
 * (2): most calls find a token's first byte at once. */
static const unsigned char blank_class[256] = {
    [' '] = 2, ['\t'] = 2, ['\n'] = 2, ['\r'] = 2, ['\v'] = 2, ['\f'] = 2, ['/'] = 1, [0xe2] = 1,
};

/* Blank space, line terminators and comments; false on an unterminated block comment. */
static bool skip_blank(scan *c)
{
    while (c->i < c->len) {
        unsigned char ch = (unsigned char)c->s[c->i];
        if (!blank_class[ch]) {
            return true;
        } else if (blank_class[ch] == 2) {
            c->i++;
        } else if (ch == 0xe2 && c->i + 2 < c->len && (unsigned char)c->s[c->i + 1] == 0x80 &&
                   ((unsigned char)c->s[c->i + 2] == 0xa8 || (unsigned char)c->s[c->i + 2] == 0xa9)) {
            c->i += 3; /* U+2028, U+2029: line terminators (the ASI check below counts only LF and CR) */
        } else if (ch == '/' && c->i + 1 < c->len && c->s[c->i + 1] == '/') {
            /* to the line's end: LF, CR, or U+2028/U+2029 (then what follows is read as code) */
            while (c->i < c->len && c->s[c->i] != '\n' && c->s[c->i] != '\r' &&
                   !((unsigned char)c->s[c->i] == 0xe2 && c->i + 2 < c->len && (unsigned char)c->s[c->i + 1] == 0x80 &&
                     ((unsigned char)c->s[c->i + 2] == 0xa8 || (unsigned char)c->s[c->i + 2] == 0xa9)))
                c->i++;
        } else if (ch == '/' && c->i + 1 < c->len && c->s[c->i + 1] == '*') {
            const char *end = memmem(c->s + c->i + 2, c->len - c->i - 2, "*/", 2);
            if (!end) return false;
            c->i = (size_t)(end - c->s) + 2;
        } else {
            return true;
        }
    }
    return true;
}

static bool ident_start(unsigned char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' || ch == '$';
}

static bool ident_part(unsigned char ch) { return ident_start(ch) || (ch >= '0' && ch <= '9'); }

/* A slice of the source. */
typedef struct {
    const char *p;
    size_t n;
} slice;

/* An ASCII identifier name (any word, keywords too: export names may be any IdentifierName). */
static bool ident(scan *c, slice *out)
{
    if (!skip_blank(c) || c->i >= c->len || !ident_start((unsigned char)c->s[c->i])) return false;
    size_t b = c->i;
    while (c->i < c->len && ident_part((unsigned char)c->s[c->i])) c->i++;
    /* a name running on into a non-ASCII letter or an escape is not one this scanner reads */
    if (c->i < c->len && ((unsigned char)c->s[c->i] >= 0x80 || c->s[c->i] == '\\')) return false;
    if (c->i - b > BARREL_MAX_NAME) return false;
    *out = (slice){c->s + b, c->i - b};
    return true;
}

/* The keyword w (as, export, from) next, as a whole word. */
static bool word(scan *c, const char *w, size_t n)
{
    if (!skip_blank(c) || c->len - c->i < n || memcmp(c->s + c->i, w, n) != 0) return false;
    if (c->i + n < c->len && (ident_part((unsigned char)c->s[c->i + n]) || (unsigned char)c->s[c->i + n] >= 0x80 ||
                              c->s[c->i + n] == '\\'))
        return false;
    c->i += n;
    return true;
}
#define WORD(c, w) word(c, w, sizeof w - 1)

static bool punct(scan *c, char p)
{
    if (!skip_blank(c) || c->i >= c->len || c->s[c->i] != p) return false;
    c->i++;
    return true;
}

/* A quoted specifier with no escape and no line break. */
static bool specifier(scan *c, slice *out)
{
    if (!skip_blank(c) || c->i >= c->len || (c->s[c->i] != '"' && c->s[c->i] != '\'')) return false;
    char q = c->s[c->i++];
    size_t b = c->i;
    while (c->i < c->len && c->s[c->i] != q) {
        char ch = c->s[c->i];
        if (ch == '\\' || ch == '\n' || ch == '\r' || ch == '\0') return false;
        /* U+2028/U+2029 end a line in a string literal too */
        if ((unsigned char)ch == 0xe2 && c->i + 2 < c->len && (unsigned char)c->s[c->i + 1] == 0x80 &&
            ((unsigned char)c->s[c->i + 2] == 0xa8 || (unsigned char)c->s[c->i + 2] == 0xa9))
            return false;
        c->i++;
    }
    if (c->i >= c->len || c->i == b || c->i - b > BARREL_MAX_SPECIFIER) return false;
    *out = (slice){c->s + b, c->i - b};
    c->i++;
    return true;
}

typedef struct {
    buf *table;
    size_t n, cap;
    slice *exports, *imports; /* every entry's names (the exports for the duplicate check) */
} sink;

/* The entries [k->n, k->n + m) whose names are already in place, with their specifier. */
static void add(sink *k, size_t m, slice spec)
{
    for (size_t j = k->n; j < k->n + m; j++) {
        buf_append(k->table, k->exports[j].p, k->exports[j].n);
        buf_putc(k->table, ' ');
        buf_append(k->table, k->imports[j].p, k->imports[j].n);
        buf_putc(k->table, ' ');
        buf_append(k->table, spec.p, spec.n);
        buf_putc(k->table, '\n');
    }
    k->n += m;
}

/* One statement after `export`: `* as ns from "x"` or `{ a, b as c, } from "x"` (a plain
 * `export *` names no list, and is refused). */
static bool statement(scan *c, sink *k)
{
    slice spec;
    if (punct(c, '*')) {
        if (k->n >= k->cap) return false;
        k->imports[k->n] = (slice){"*", 1};
        if (!WORD(c, "as") || !ident(c, &k->exports[k->n]) || !WORD(c, "from") || !specifier(c, &spec)) return false;
        add(k, 1, spec);
        return true;
    }
    /* `export {} from "x"` loads x for its effects alone: such a file is loaded whole */
    if (!punct(c, '{') || punct(c, '}')) return false;
    size_t m = 0;
    while (!punct(c, '}')) {
        if (k->n + m >= k->cap) return false;
        slice *imp = &k->imports[k->n + m], *exp = &k->exports[k->n + m];
        if (!ident(c, imp)) return false;
        *exp = *imp;
        if (WORD(c, "as") && !ident(c, exp)) return false;
        m++;
        if (!punct(c, ',')) {
            if (!punct(c, '}')) return false;
            break;
        }
    }
    if (!WORD(c, "from") || !specifier(c, &spec)) return false;
    add(k, m, spec);
    return true;
}

static int cmp_slice(const void *a, const void *b)
{
    const slice *x = a, *y = b;
    int r = memcmp(x->p, y->p, x->n < y->n ? x->n : y->n);
    return r ? r : (x->n > y->n) - (x->n < y->n);
}

int barrel_scan(const char *src, size_t len, buf *table, size_t *n)
{
    if (len > BARREL_MAX_BYTES) return -1;
    scan c = {.s = src, .len = len};
    size_t mark = table->len;
    /* an entry takes at least two bytes (`a,`) */
    size_t cap = len / 2 + 1 < BARREL_MAX_ENTRIES ? len / 2 + 1 : BARREL_MAX_ENTRIES;
    sink k = {.table = table, .cap = cap, .exports = xmalloc(2 * cap * sizeof(slice))};
    k.imports = k.exports + cap;
    bool ok = true;
    for (;;) {
        if (!skip_blank(&c)) {
            ok = false;
            break;
        }
        if (c.i >= c.len) break;
        if (punct(&c, ';')) continue;
        if (!WORD(&c, "export") || !statement(&c, &k)) {
            ok = false;
            break;
        }
        /* the statement ends at `;`, at the end, or at a line break (ASI): another statement on the
         * same line is a syntax error, and an import attribute clause (`with {…}`) is not read */
        size_t end = c.i;
        if (!skip_blank(&c)) {
            ok = false;
            break;
        }
        if (c.i < c.len && c.s[c.i] != ';' && !memchr(c.s + end, '\n', c.i - end) && !memchr(c.s + end, '\r', c.i - end)) {
            ok = false;
            break;
        }
    }
    if (ok && k.n > 0) { /* a name exported twice is a syntax error, which the whole file reports */
        qsort(k.exports, k.n, sizeof *k.exports, cmp_slice);
        for (size_t i = 1; i < k.n && ok; i++)
            if (cmp_slice(&k.exports[i - 1], &k.exports[i]) == 0) ok = false;
    }
    free(k.exports);
    /* a table far larger than its file (long specifiers repeated for every name) is not kept */
    if (ok && table->len - mark > 2 * len + 4096) ok = false;
    if (!ok || k.n == 0) {
        table->len = mark;
        if (table->data) table->data[mark] = '\0';
        return -1;
    }
    *n = k.n;
    return 0;
}
