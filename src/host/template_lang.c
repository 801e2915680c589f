/* template_lang.c — chidori.template: parser and evaluator for our Jinja-style templates (see template_lang.h).
 *
 * Owns: everything between template bytes and rendered output. Trusts: nothing it is given — the
 * template source, the vars and every included source are hostile. The include callback is
 * trusted to confine names; this file only passes names through and bounds how often it calls.
 *
 * Rules (the documented behaviour):
 *   - Printing: strings raw; numbers with JavaScript's Number::toString (1, 2.5, 1e+21); booleans
 *     `true`/`false`; null prints NOTHING (empty); arrays and objects as compact JSON.
 *   - Undefined (a missing variable, a missing key, an index out of range, a key looked up in a
 *     number/string/bool/null) is an ERROR naming the expression and its line:col, except:
 *     `x | default(v)` (also replaces null; default(v, true) replaces any falsy value),
 *     `x is defined` / `x is undefined`, and truthiness-only positions: an if/elif condition,
 *     `not x`, the operands of `and`/`or`, and the condition of `a if c else b`. There undefined is
 *     falsy. A lookup inside an undefined value stays undefined and names the first missing part.
 *     Comparisons (==, <, in …) and filters on undefined are errors: write `x is defined and x == 1`.
 *   - Truthiness: false, null, 0, "", [] and {} are false; everything else is true.
 *   - `and`/`or` return an operand (as in Python/Jinja): {{ name or "anonymous" }}.
 *   - == / != compare JSON values structurally (1 == 1.0, true != 1); < > <= >= need two numbers
 *     or two strings (bytewise). `a in b`: element of a list, key of an object, substring.
 *   - `~` concatenates as strings; unary `-` negates a number. No other arithmetic.
 *   - Loops: arrays by element; objects by key (insertion order); `obj.items()` gives [key, value]
 *     pairs and `for k, v in …` unpacks two-element lists; `obj.keys()`, `obj.values()` too.
 *     Strings cannot be looped over. `loop.index` (1-based), `index0`, `revindex`, `revindex0`,
 *     `first`, `last`, `length`. `{% else %}` runs when the loop had no items.
 *   - Indexing: a.b, a["b"], a[i] (i a variable or number; negative counts from the end).
 *   - Literals: "strings" or 'strings' with \n \t \r \0 \\ \' \" \xHH \uXXXX escapes; numbers;
 *     true/false/none/null and True/False/None; [lists].
 *   - Includes render with the current variables (loop variables included). Distinct included
 *     names are loaded once per render. Templates do not strip a trailing newline.
 *   - upper/lower change ASCII letters only; length counts UTF-8 code points of a string;
 *     tojson is JSON.stringify (indent=2 pretty-prints; no HTML escaping); round is Python's
 *     round (ties to even on the exact binary value) or method="ceil"/"floor".
 * Columns in error positions count bytes from 1, like the JSON parser's.
 */
#define _GNU_SOURCE
#include "host/template_lang.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/json.h"

#define MAX_EVAL_DEPTH 200 /* blocks + includes, across all templates of one render */

/* ------------------------------------------------------------------------------------------ */
/* Syntax trees                                                                                */

typedef enum ekind {
    E_LIT, E_NAME, E_ATTR, E_INDEX, E_METHOD, E_FILTER, E_TEST, E_NOT, E_NEG, E_AND, E_OR,
    E_CMP, E_IN, E_NOTIN, E_CONCAT, E_COND, E_LIST,
} ekind;

enum { CMP_EQ, CMP_NE, CMP_LT, CMP_GT, CMP_LE, CMP_GE };
enum { M_ITEMS, M_KEYS, M_VALUES };
enum { T_DEFINED, T_UNDEFINED, T_NONE, T_STRING, T_NUMBER, T_BOOLEAN, T_MAPPING };

#define MAX_FILTER_ARGS 3

typedef struct expr expr;
struct expr {
    ekind kind;
    int op;           /* CMP_*, M_*, T_* (negated when `neg`); E_FILTER: its index in filters[] */
    bool neg;
    size_t start, end; /* source span, for messages */
    int height;
    json_t *lit;      /* E_LIT */
    char *name;       /* E_NAME, E_ATTR */
    size_t name_len;
    expr *a, *b, *c;  /* operands */
    expr **items;     /* E_LIST items; E_FILTER args (MAX_FILTER_ARGS slots, NULL = absent) */
    size_t nitems;
};

typedef enum nkind { N_TEXT, N_OUT, N_IF, N_FOR, N_INCLUDE } nkind;

typedef struct node node;
typedef struct body { node **items; size_t len, cap; } body;

struct node {
    nkind kind;
    size_t pos;
    size_t text_start, text_len; /* N_TEXT */
    expr *e;                      /* N_OUT value, N_INCLUDE name, N_FOR iterable */
    expr **conds;                 /* N_IF: conds[i] guards bodies[i] */
    body *bodies;
    size_t nconds;
    body body, else_body;         /* N_FOR body; else bodies of N_IF and N_FOR */
    char *t1, *t2;                /* N_FOR targets (t2 may be NULL) */
    size_t t1len, t2len;
};

typedef struct tmpl {
    const char *src;
    size_t len;
    char *owned_src;
    char *name;
    body body;
} tmpl;

static void expr_free(expr *e)
{
    if (!e) return;
    json_free(e->lit);
    free(e->name);
    expr_free(e->a);
    expr_free(e->b);
    expr_free(e->c);
    for (size_t i = 0; i < e->nitems; i++) expr_free(e->items[i]);
    free(e->items);
    free(e);
}

static void body_free(body *b);

static void node_free(node *n)
{
    if (!n) return;
    expr_free(n->e);
    for (size_t i = 0; i < n->nconds; i++) {
        expr_free(n->conds[i]);
        body_free(&n->bodies[i]);
    }
    free(n->conds);
    free(n->bodies);
    body_free(&n->body);
    body_free(&n->else_body);
    free(n->t1);
    free(n->t2);
    free(n);
}

static void body_free(body *b)
{
    for (size_t i = 0; i < b->len; i++) node_free(b->items[i]);
    free(b->items);
    b->items = NULL;
    b->len = b->cap = 0;
}

static void body_push(body *b, node *n)
{
    if (b->len == b->cap) {
        b->cap = b->cap ? b->cap * 2 : 8;
        b->items = xrealloc(b->items, b->cap * sizeof *b->items);
    }
    b->items[b->len++] = n;
}

static void tmpl_free(tmpl *t)
{
    if (!t) return;
    body_free(&t->body);
    free(t->owned_src);
    free(t->name);
    free(t);
}

/* ------------------------------------------------------------------------------------------ */
/* Positions and errors                                                                        */

static void line_col(const char *src, size_t len, size_t pos, int *line, int *col)
{
    int l = 1;
    size_t ls = 0;
    if (pos > len) pos = len;
    for (size_t i = 0; i < pos; i++)
        if (src[i] == '\n') {
            l++;
            ls = i + 1;
        }
    *line = l;
    *col = (int)(pos - ls) + 1;
}

static char *vformat_error(const char *name, const char *src, size_t len, size_t pos, const char *fmt, va_list ap)
{
    int line, col;
    line_col(src, len, pos, &line, &col);
    buf b = {0};
    buf_printf(&b, "%s:%d:%d: ", name, line, col);
    buf_vprintf(&b, fmt, ap);
    return buf_steal(&b);
}

/* Append a short, printable rendering of src[start..end) (for naming expressions in messages). */
static void put_snippet(buf *b, const char *s, size_t n)
{
    size_t max = 60;
    for (size_t i = 0; i < n && i < max; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\n') buf_puts(b, "\\n");
        else if (c < 0x20 || c == 0x7f) buf_printf(b, "\\x%02x", c);
        else buf_putc(b, (char)c);
    }
    if (n > max) buf_puts(b, "...");
}

/* ------------------------------------------------------------------------------------------ */
/* Lexer (inside a tag)                                                                        */

enum { K_EOF, K_END, K_NAME, K_NUM, K_STR, K_OP };

typedef struct tok {
    int type;
    size_t start, len;
    bool strip; /* K_END: '-' before the closing delimiter */
    double num;
} tok;

typedef struct parser {
    const char *src;
    size_t len;
    const char *name;
    size_t pos;
    bool strip_next;
    char end_ch; /* '}' inside {{ }}, '%' inside {% %} */
    size_t tag_open;
    tok t;
    int edepth;
    char *error;
} parser;

static int perr(parser *p, size_t pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int perr(parser *p, size_t pos, const char *fmt, ...)
{
    if (p->error) return -1;
    va_list ap;
    va_start(ap, fmt);
    p->error = vformat_error(p->name, p->src, p->len, pos, fmt, ap);
    va_end(ap);
    return -1;
}

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool is_ident(char c) { return is_ident_start(c) || is_digit(c); }

static const char *end_delim(parser *p) { return p->end_ch == '}' ? "}}" : "%}"; }

/* Describe the current token for "expected X, found Y" messages. */
static void describe_tok(parser *p, buf *b)
{
    switch (p->t.type) {
    case K_EOF: buf_puts(b, "end of template"); break;
    case K_END: buf_printf(b, "'%s'", end_delim(p)); break;
    default:
        buf_putc(b, '\'');
        put_snippet(b, p->src + p->t.start, p->t.len);
        buf_putc(b, '\'');
        break;
    }
}

/* perr "expected WHAT, found <the current token>". Returns -1. */
static int perr_expected(parser *p, size_t pos, const char *what)
{
    buf b = {0};
    describe_tok(p, &b);
    perr(p, pos, "expected %s, found %s", what, b.data);
    buf_free(&b);
    return -1;
}

static int lex(parser *p)
{
    const char *s = p->src;
    size_t n = p->len, i = p->pos;
    while (i < n && is_space(s[i])) i++;
    tok *t = &p->t;
    memset(t, 0, sizeof *t);
    t->start = i;
    if (i >= n) {
        t->type = K_EOF;
        p->pos = i;
        return 0;
    }
    char c = s[i];
    if (c == '-' && i + 2 < n + 0 && s[i + 1] == p->end_ch && s[i + 2] == '}') {
        t->type = K_END;
        t->strip = true;
        t->len = 3;
    } else if (c == p->end_ch && i + 1 < n && s[i + 1] == '}') {
        t->type = K_END;
        t->len = 2;
    } else if (is_ident_start(c)) {
        size_t j = i + 1;
        while (j < n && is_ident(s[j])) j++;
        t->type = K_NAME;
        t->len = j - i;
    } else if (is_digit(c)) {
        size_t j = i;
        while (j < n && is_digit(s[j])) j++;
        if (j + 1 < n && s[j] == '.' && is_digit(s[j + 1])) {
            j++;
            while (j < n && is_digit(s[j])) j++;
        }
        if (j < n && (s[j] == 'e' || s[j] == 'E')) {
            size_t k = j + 1;
            if (k < n && (s[k] == '+' || s[k] == '-')) k++;
            if (k < n && is_digit(s[k])) {
                while (k < n && is_digit(s[k])) k++;
                j = k;
            }
        }
        if (j < n && is_ident(s[j])) return perr(p, j, "unexpected character '%c' in a number", s[j]);
        t->type = K_NUM;
        t->len = j - i;
        if (t->len > 400) return perr(p, i, "number literal too long");
        char tmp[512];
        memcpy(tmp, s + i, t->len);
        tmp[t->len] = '\0';
        t->num = strtod(tmp, NULL);
        if (!isfinite(t->num)) return perr(p, i, "number literal out of range");
    } else if (c == '"' || c == '\'') {
        size_t j = i + 1;
        while (j < n && s[j] != c) j += (s[j] == '\\') ? 2 : 1;
        if (j >= n) return perr(p, i, "unterminated string literal");
        t->type = K_STR;
        t->len = j + 1 - i;
    } else {
        static const char *two[] = {"==", "!=", "<=", ">="};
        t->type = K_OP;
        t->len = 0;
        for (size_t k = 0; k < sizeof two / sizeof two[0]; k++)
            if (i + 1 < n && s[i] == two[k][0] && s[i + 1] == two[k][1]) t->len = 2;
        if (!t->len) {
            if (!strchr("()[].,|=<>~-", c) || c == '\0') {
                if ((unsigned char)c >= 0x20 && (unsigned char)c < 0x7f)
                    return perr(p, i, "unexpected character '%c'", c);
                return perr(p, i, "unexpected byte 0x%02x", (unsigned char)c);
            }
            t->len = 1;
        }
    }
    p->pos = i + t->len;
    return 0;
}

static bool tok_op(parser *p, const char *op)
{
    size_t n = strlen(op);
    return p->t.type == K_OP && p->t.len == n && memcmp(p->src + p->t.start, op, n) == 0;
}

static bool tok_kw(parser *p, const char *kw)
{
    size_t n = strlen(kw);
    return p->t.type == K_NAME && p->t.len == n && memcmp(p->src + p->t.start, kw, n) == 0;
}

static int expect_op(parser *p, const char *op)
{
    if (!tok_op(p, op)) {
        char what[32];
        snprintf(what, sizeof what, "'%s'", op);
        return perr_expected(p, p->t.start, what);
    }
    return lex(p);
}

static bool is_reserved(const char *s, size_t n)
{
    static const char *words[] = {"and", "or", "not", "in", "is", "if", "else", "true", "false",
                                  "none", "null", "True", "False", "None"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strlen(words[i]) == n && memcmp(words[i], s, n) == 0) return true;
    return false;
}

/* ------------------------------------------------------------------------------------------ */
/* Expression parser                                                                           */

static expr *mk(parser *p __attribute__((unused)), ekind kind, size_t start, expr *a, expr *b)
{
    expr *e = xcalloc(1, sizeof *e);
    e->kind = kind;
    e->start = start;
    e->end = a && a->end > start ? a->end : start;
    if (b && b->end > e->end) e->end = b->end;
    e->a = a;
    e->b = b;
    int h = 0;
    if (a && a->height > h) h = a->height;
    if (b && b->height > h) h = b->height;
    e->height = h + 1;
    return e;
}

/* Check the height after a node's children are final. */
static int check_height(parser *p, expr *e)
{
    int h = 0;
    if (e->a && e->a->height > h) h = e->a->height;
    if (e->b && e->b->height > h) h = e->b->height;
    if (e->c && e->c->height > h) h = e->c->height;
    for (size_t i = 0; i < e->nitems; i++)
        if (e->items[i] && e->items[i]->height > h) h = e->items[i]->height;
    e->height = h + 1;
    if (e->height > TEMPLATE_MAX_EXPR_SIZE)
        return perr(p, e->start, "expression too complex (more than %d levels)", TEMPLATE_MAX_EXPR_SIZE);
    return 0;
}

static expr *parse_expr(parser *p);
static expr *parse_or(parser *p);

static int enter(parser *p)
{
    if (++p->edepth > TEMPLATE_MAX_EXPR_NESTING)
        return perr(p, p->t.start, "expression nested too deeply (more than %d levels)", TEMPLATE_MAX_EXPR_NESTING);
    return 0;
}

static void put_utf8(buf *b, uint32_t cp)
{
    char o[4];
    if (cp < 0x80) {
        buf_putc(b, (char)cp);
    } else if (cp < 0x800) {
        o[0] = (char)(0xC0 | (cp >> 6));
        o[1] = (char)(0x80 | (cp & 0x3F));
        buf_append(b, o, 2);
    } else if (cp < 0x10000) {
        o[0] = (char)(0xE0 | (cp >> 12));
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (char)(0x80 | (cp & 0x3F));
        buf_append(b, o, 3);
    } else {
        o[0] = (char)(0xF0 | (cp >> 18));
        o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[3] = (char)(0x80 | (cp & 0x3F));
        buf_append(b, o, 4);
    }
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static json_t *decode_string(parser *p, size_t start, size_t len)
{
    const char *s = p->src + start + 1;
    size_t n = len - 2;
    buf b = {0};
    buf_reserve(&b, n);
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '\\') {
            buf_putc(&b, s[i]);
            continue;
        }
        size_t at = start + 1 + i;
        char c = ++i < n ? s[i] : '\0';
        switch (c) {
        case 'n': buf_putc(&b, '\n'); break;
        case 't': buf_putc(&b, '\t'); break;
        case 'r': buf_putc(&b, '\r'); break;
        case '0': buf_putc(&b, '\0'); break;
        case '\\': buf_putc(&b, '\\'); break;
        case '\'': buf_putc(&b, '\''); break;
        case '"': buf_putc(&b, '"'); break;
        case 'x':
        case 'u': {
            int digits = c == 'x' ? 2 : 4;
            uint32_t cp = 0;
            for (int k = 0; k < digits; k++) {
                int h = i + 1 < n ? hexval(s[i + 1]) : -1;
                if (h < 0) {
                    buf_free(&b);
                    perr(p, at, "bad \\%c escape: expected %d hex digits", c, digits);
                    return NULL;
                }
                cp = cp * 16 + (uint32_t)h;
                i++;
            }
            put_utf8(&b, cp);
            break;
        }
        default:
            buf_free(&b);
            if ((unsigned char)c >= 0x20 && (unsigned char)c < 0x7f) perr(p, at, "unknown escape '\\%c' in string", c);
            else perr(p, at, "unknown escape in string");
            return NULL;
        }
    }
    json_t *v = json_stringn(b.data ? b.data : "", b.len);
    buf_free(&b);
    return v;
}

static expr *parse_primary(parser *p)
{
    tok t = p->t;
    const char *s = p->src + t.start;
    expr *e = NULL;
    if (t.type == K_NUM) {
        e = mk(p, E_LIT, t.start, NULL, NULL);
        e->lit = json_number(t.num);
    } else if (t.type == K_STR) {
        json_t *v = decode_string(p, t.start, t.len);
        if (!v) return NULL;
        e = mk(p, E_LIT, t.start, NULL, NULL);
        e->lit = v;
    } else if (t.type == K_NAME) {
        if (tok_kw(p, "true") || tok_kw(p, "True")) {
            e = mk(p, E_LIT, t.start, NULL, NULL);
            e->lit = json_bool(true);
        } else if (tok_kw(p, "false") || tok_kw(p, "False")) {
            e = mk(p, E_LIT, t.start, NULL, NULL);
            e->lit = json_bool(false);
        } else if (tok_kw(p, "none") || tok_kw(p, "None") || tok_kw(p, "null")) {
            e = mk(p, E_LIT, t.start, NULL, NULL);
            e->lit = json_null();
        } else if (is_reserved(s, t.len)) {
            perr(p, t.start, "unexpected '%.*s'", (int)t.len, s);
            return NULL;
        } else {
            e = mk(p, E_NAME, t.start, NULL, NULL);
            e->name = xstrndup(s, t.len);
            e->name_len = t.len;
        }
    } else if (tok_op(p, "(")) {
        if (enter(p) < 0 || lex(p) < 0) return NULL;
        e = parse_expr(p);
        if (!e) return NULL;
        p->edepth--;
        if (!tok_op(p, ")")) {
            expr_free(e);
            expect_op(p, ")");
            return NULL;
        }
        e->start = t.start;
        e->end = p->t.start + 1;
        if (lex(p) < 0) {
            expr_free(e);
            return NULL;
        }
        return e;
    } else if (tok_op(p, "[")) {
        if (enter(p) < 0 || lex(p) < 0) return NULL;
        e = mk(p, E_LIST, t.start, NULL, NULL);
        size_t cap = 0;
        while (!tok_op(p, "]")) {
            expr *item = parse_expr(p);
            if (!item) goto fail;
            if (e->nitems == cap) {
                cap = cap ? cap * 2 : 4;
                e->items = xrealloc(e->items, cap * sizeof *e->items);
            }
            e->items[e->nitems++] = item;
            if (tok_op(p, ",")) {
                if (lex(p) < 0) goto fail;
            } else if (!tok_op(p, "]")) {
                expect_op(p, "]");
                goto fail;
            }
        }
        p->edepth--;
        e->end = p->t.start + 1;
        if (check_height(p, e) < 0 || lex(p) < 0) goto fail;
        /* A list of literals is a literal: build it once, not on every evaluation. */
        bool all_lit = true;
        for (size_t i = 0; i < e->nitems; i++) all_lit = all_lit && e->items[i]->kind == E_LIT;
        if (all_lit) {
            json_t *arr = json_array();
            for (size_t i = 0; i < e->nitems; i++) {
                json_array_push(arr, e->items[i]->lit);
                e->items[i]->lit = NULL;
                expr_free(e->items[i]);
            }
            free(e->items);
            e->items = NULL;
            e->nitems = 0;
            e->kind = E_LIT;
            e->lit = arr;
        }
        return e;
    } else {
        perr_expected(p, t.start, "an expression");
        return NULL;
    }
    e->end = t.start + t.len;
    if (lex(p) < 0) goto fail;
    return e;
fail:
    expr_free(e);
    return NULL;
}

static expr *parse_postfix(parser *p)
{
    expr *e = parse_primary(p);
    while (e) {
        if (tok_op(p, ".")) {
            if (lex(p) < 0) goto fail;
            if (p->t.type != K_NAME) {
                perr_expected(p, p->t.start, "a name after '.'");
                goto fail;
            }
            tok nt = p->t;
            const char *s = p->src + nt.start;
            if (lex(p) < 0) goto fail;
            if (tok_op(p, "(")) {
                int m;
                if (nt.len == 5 && !memcmp(s, "items", 5)) m = M_ITEMS;
                else if (nt.len == 4 && !memcmp(s, "keys", 4)) m = M_KEYS;
                else if (nt.len == 6 && !memcmp(s, "values", 6)) m = M_VALUES;
                else {
                    perr(p, nt.start, "unknown method '%.*s' (only items(), keys() and values())", (int)nt.len, s);
                    goto fail;
                }
                if (lex(p) < 0) goto fail;
                if (!tok_op(p, ")")) {
                    expect_op(p, ")");
                    goto fail;
                }
                expr *m_e = mk(p, E_METHOD, e->start, e, NULL);
                m_e->op = m;
                m_e->end = p->t.start + 1;
                e = m_e;
                if (lex(p) < 0) goto fail;
            } else {
                expr *a = mk(p, E_ATTR, e->start, e, NULL);
                a->name = xstrndup(s, nt.len);
                a->name_len = nt.len;
                a->end = nt.start + nt.len;
                e = a;
            }
        } else if (tok_op(p, "[")) {
            if (enter(p) < 0 || lex(p) < 0) goto fail;
            expr *idx = parse_expr(p);
            if (!idx) goto fail;
            p->edepth--;
            expr *x = mk(p, E_INDEX, e->start, e, idx);
            e = x;
            if (!tok_op(p, "]")) {
                expect_op(p, "]");
                goto fail;
            }
            e->end = p->t.start + 1;
            if (lex(p) < 0) goto fail;
        } else {
            break;
        }
        if (check_height(p, e) < 0) goto fail;
    }
    return e;
fail:
    expr_free(e);
    return NULL;
}

/* The filters: a name, its arguments, and the function that applies it (defined with the
 * evaluator, below). apply gets the defined input and the evaluated arguments; raw, for `default`
 * only, gets the input even when it is undefined and evaluates its own arguments. */
struct ctx;
struct val;
typedef int filter_fn(struct ctx *c, const expr *e, const json_t *in, const struct val *args, struct val *out);
typedef int raw_filter_fn(struct ctx *c, const expr *e, struct val *in, struct val *out);
static filter_fn filter_upper, filter_lower, filter_trim, filter_join, filter_length, filter_tojson, filter_replace,
    filter_round;
static raw_filter_fn filter_default;

typedef struct filter_def {
    const char *name;
    int min_args, max_args;
    const char *params[MAX_FILTER_ARGS];
    const char *alias[MAX_FILTER_ARGS];
    filter_fn *apply;
    raw_filter_fn *raw;
} filter_def;

static const filter_def filters[] = {
    {"upper", 0, 0, {0}, {0}, filter_upper, NULL},
    {"lower", 0, 0, {0}, {0}, filter_lower, NULL},
    {"trim", 0, 0, {0}, {0}, filter_trim, NULL},
    {"default", 0, 2, {"default_value", "boolean"}, {"value", 0}, NULL, filter_default},
    {"d", 0, 2, {"default_value", "boolean"}, {"value", 0}, NULL, filter_default},
    {"join", 0, 1, {"d"}, {"sep"}, filter_join, NULL},
    {"length", 0, 0, {0}, {0}, filter_length, NULL},
    {"count", 0, 0, {0}, {0}, filter_length, NULL},
    {"tojson", 0, 1, {"indent"}, {0}, filter_tojson, NULL},
    {"replace", 2, 3, {"old", "new", "count"}, {0}, filter_replace, NULL},
    {"round", 0, 2, {"precision", "method"}, {"ndigits", 0}, filter_round, NULL},
};

static expr *parse_filtered(parser *p)
{
    expr *e = parse_postfix(p);
    while (e && tok_op(p, "|")) {
        if (lex(p) < 0) goto fail;
        if (p->t.type != K_NAME) {
            perr_expected(p, p->t.start, "a filter name after '|'");
            goto fail;
        }
        tok nt = p->t;
        const char *s = p->src + nt.start;
        const filter_def *fd = NULL;
        for (size_t i = 0; i < sizeof filters / sizeof filters[0]; i++)
            if (strlen(filters[i].name) == nt.len && !memcmp(filters[i].name, s, nt.len)) fd = &filters[i];
        if (!fd) {
            perr(p, nt.start, "unknown filter '%.*s'", (int)(nt.len > 60 ? 60 : nt.len), s);
            goto fail;
        }
        expr *f = mk(p, E_FILTER, e->start, e, NULL);
        f->op = (int)(fd - filters);
        f->items = xcalloc(MAX_FILTER_ARGS, sizeof *f->items);
        f->nitems = MAX_FILTER_ARGS;
        f->end = nt.start + nt.len;
        e = f;
        if (lex(p) < 0) goto fail;
        int npos = 0, given = 0;
        bool seen_kw = false;
        if (tok_op(p, "(")) {
            if (enter(p) < 0 || lex(p) < 0) goto fail;
            while (!tok_op(p, ")")) {
                size_t at = p->t.start;
                int slot = -1;
                if (p->t.type == K_NAME) {
                    /* keyword argument? name '=' (but not '==') */
                    size_t save_pos = p->pos;
                    tok save = p->t;
                    if (lex(p) < 0) goto fail;
                    if (tok_op(p, "=")) {
                        const char *kn = p->src + save.start;
                        for (int k = 0; k < fd->max_args; k++)
                            if ((fd->params[k] && strlen(fd->params[k]) == save.len && !memcmp(fd->params[k], kn, save.len)) ||
                                (fd->alias[k] && strlen(fd->alias[k]) == save.len && !memcmp(fd->alias[k], kn, save.len)))
                                slot = k;
                        if (slot < 0) {
                            perr(p, save.start, "filter '%s' has no argument '%.*s'", fd->name,
                                 (int)(save.len > 60 ? 60 : save.len), kn);
                            goto fail;
                        }
                        seen_kw = true;
                        if (lex(p) < 0) goto fail;
                    } else {
                        p->pos = save_pos;
                        p->t = save;
                    }
                }
                if (slot < 0) {
                    if (seen_kw) {
                        perr(p, at, "positional argument after a keyword argument");
                        goto fail;
                    }
                    if (npos >= fd->max_args) {
                        perr(p, at, "filter '%s' takes at most %d argument%s", fd->name, fd->max_args,
                             fd->max_args == 1 ? "" : "s");
                        goto fail;
                    }
                    slot = npos++;
                }
                if (f->items[slot]) {
                    perr(p, at, "argument '%s' given twice", fd->params[slot]);
                    goto fail;
                }
                expr *arg = parse_expr(p);
                if (!arg) goto fail;
                f->items[slot] = arg;
                given++;
                if (tok_op(p, ",")) {
                    if (lex(p) < 0) goto fail;
                } else if (!tok_op(p, ")")) {
                    expect_op(p, ")");
                    goto fail;
                }
            }
            p->edepth--;
            f->end = p->t.start + 1;
            if (lex(p) < 0) goto fail;
        }
        for (int k = 0; k < fd->min_args; k++)
            if (!f->items[k]) {
                perr(p, nt.start, "filter '%s' needs argument '%s'", fd->name, fd->params[k]);
                goto fail;
            }
        if (check_height(p, e) < 0) goto fail;
    }
    return e;
fail:
    expr_free(e);
    return NULL;
}

/* A prefix operator's operand: skip the operator and parse the operand with self, one level
 * deeper. NULL on failure. */
static expr *prefix_operand(parser *p, expr *(*self)(parser *))
{
    if (enter(p) < 0 || lex(p) < 0) return NULL;
    expr *a = self(p);
    if (!a) return NULL;
    p->edepth--;
    return a;
}

/* e, or NULL (e freed) when it is too deep. */
static expr *height_checked(parser *p, expr *e)
{
    if (check_height(p, e) == 0) return e;
    expr_free(e);
    return NULL;
}

static expr *parse_unary(parser *p)
{
    if (tok_op(p, "-")) {
        size_t start = p->t.start;
        expr *a = prefix_operand(p, parse_unary);
        if (!a) return NULL;
        if (a->kind == E_LIT && a->lit->type == JSON_NUMBER) {
            a->lit->u.number = -a->lit->u.number;
            a->start = start;
            return a;
        }
        return height_checked(p, mk(p, E_NEG, start, a, NULL));
    }
    return parse_filtered(p);
}

/* After a binary operator's token: skip it, parse the right operand with next, and join the two
 * into kind. NULL on failure, with left still the caller's to free. */
static expr *join_next(parser *p, expr *left, expr *(*next)(parser *), ekind kind)
{
    if (lex(p) < 0) return NULL;
    expr *right = next(p);
    if (!right) return NULL;
    return mk(p, kind, left->start, left, right);
}

/* next (word next)*, left-associative: the levels `~`, `and` and `or`. */
static expr *parse_binary(parser *p, expr *(*next)(parser *), const char *word, bool keyword, ekind kind)
{
    expr *e = next(p);
    while (e && (keyword ? tok_kw(p, word) : tok_op(p, word))) {
        expr *joined = join_next(p, e, next, kind);
        if (!joined) goto fail;
        e = joined;
        if (check_height(p, e) < 0) goto fail;
    }
    return e;
fail:
    expr_free(e);
    return NULL;
}

static expr *parse_concat(parser *p)
{
    return parse_binary(p, parse_unary, "~", false, E_CONCAT);
}

static expr *parse_cmp(parser *p)
{
    expr *e = parse_concat(p);
    while (e) {
        static const struct { const char *op; int id; } ops[] = {
            {"==", CMP_EQ}, {"!=", CMP_NE}, {"<", CMP_LT}, {">", CMP_GT}, {"<=", CMP_LE}, {">=", CMP_GE}};
        int cmp = -1;
        for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
            if (tok_op(p, ops[i].op)) cmp = ops[i].id;
        expr *joined = NULL;
        if (cmp >= 0) {
            if (!(joined = join_next(p, e, parse_concat, E_CMP))) goto fail;
            e = joined;
            e->op = cmp;
        } else if (tok_kw(p, "in")) {
            if (!(joined = join_next(p, e, parse_concat, E_IN))) goto fail;
            e = joined;
        } else if (tok_kw(p, "not")) {
            /* `a not in b` */
            if (lex(p) < 0) goto fail;
            if (!tok_kw(p, "in")) {
                perr_expected(p, p->t.start, "'in' after 'not'");
                goto fail;
            }
            if (!(joined = join_next(p, e, parse_concat, E_NOTIN))) goto fail;
            e = joined;
        } else if (tok_kw(p, "is")) {
            if (lex(p) < 0) goto fail;
            bool neg = false;
            if (tok_kw(p, "not")) {
                neg = true;
                if (lex(p) < 0) goto fail;
            }
            static const struct { const char *name; int id; } tests[] = {
                {"defined", T_DEFINED}, {"undefined", T_UNDEFINED}, {"none", T_NONE},
                {"string", T_STRING},   {"number", T_NUMBER},       {"boolean", T_BOOLEAN},
                {"mapping", T_MAPPING},
            };
            int id = -1;
            for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++)
                if (tok_kw(p, tests[i].name)) id = tests[i].id;
            if (id < 0) {
                if (p->t.type == K_NAME)
                    perr(p, p->t.start, "unknown test '%.*s'", (int)(p->t.len > 60 ? 60 : p->t.len), p->src + p->t.start);
                else
                    perr(p, p->t.start, "expected a test name after 'is'");
                goto fail;
            }
            e = mk(p, E_TEST, e->start, e, NULL);
            e->op = id;
            e->neg = neg;
            e->end = p->t.start + p->t.len;
            if (lex(p) < 0) goto fail;
        } else {
            break;
        }
        if (check_height(p, e) < 0) goto fail;
    }
    return e;
fail:
    expr_free(e);
    return NULL;
}

static expr *parse_not(parser *p)
{
    if (tok_kw(p, "not")) {
        size_t start = p->t.start;
        expr *a = prefix_operand(p, parse_not);
        if (!a) return NULL;
        return height_checked(p, mk(p, E_NOT, start, a, NULL));
    }
    return parse_cmp(p);
}

static expr *parse_and(parser *p)
{
    return parse_binary(p, parse_not, "and", true, E_AND);
}

static expr *parse_or(parser *p)
{
    return parse_binary(p, parse_and, "or", true, E_OR);
}

/* a if cond else b */
static expr *parse_expr(parser *p)
{
    if (enter(p) < 0) return NULL;
    expr *e = parse_or(p);
    if (e && tok_kw(p, "if")) {
        if (lex(p) < 0) goto fail;
        expr *cond = parse_or(p);
        if (!cond) goto fail;
        e = mk(p, E_COND, e->start, e, NULL);
        e->c = cond;
        if (!tok_kw(p, "else")) {
            perr_expected(p, p->t.start, "'else' in a conditional expression");
            goto fail;
        }
        if (lex(p) < 0) goto fail;
        e->b = parse_expr(p);
        if (!e->b) goto fail;
        e->end = e->b->end;
        if (check_height(p, e) < 0) goto fail;
    }
    if (e) p->edepth--;
    return e;
fail:
    expr_free(e);
    return NULL;
}

/* ------------------------------------------------------------------------------------------ */
/* Statement parser                                                                            */

enum { TERM_EOF, TERM_ELIF, TERM_ELSE, TERM_ENDIF, TERM_ENDFOR };
static const char *term_names[] = {"end of template", "elif", "else", "endif", "endfor"};

typedef struct term { int kind; size_t tag_open; size_t kw_pos; } term;

static int expect_end(parser *p)
{
    if (p->t.type != K_END) {
        buf b = {0};
        describe_tok(p, &b);
        if (p->t.type == K_EOF)
            perr(p, p->tag_open, "'%s' is never closed (expected '%s')", p->end_ch == '}' ? "{{" : "{%", end_delim(p));
        else
            perr(p, p->t.start, "expected '%s', found %s", end_delim(p), b.data);
        buf_free(&b);
        return -1;
    }
    p->strip_next = p->t.strip;
    return 0;
}

static node *new_node(nkind kind, size_t pos)
{
    node *n = xcalloc(1, sizeof *n);
    n->kind = kind;
    n->pos = pos;
    return n;
}

static void emit_text(body *out, const char *src, size_t start, size_t end, bool lstrip, bool rstrip)
{
    if (lstrip)
        while (start < end && is_space(src[start])) start++;
    if (rstrip)
        while (end > start && is_space(src[end - 1])) end--;
    if (end <= start) return;
    node *n = new_node(N_TEXT, start);
    n->text_start = start;
    n->text_len = end - start;
    body_push(out, n);
}

/* Find the next "{{", "{%" or "{#" at or after pos; len if none. */
static size_t find_open(const char *s, size_t len, size_t pos)
{
    while (pos + 1 < len) {
        const char *q = memchr(s + pos, '{', len - 1 - pos);
        if (!q) return len;
        size_t i = (size_t)(q - s);
        char c = s[i + 1];
        if (c == '{' || c == '%' || c == '#') return i;
        pos = i + 1;
    }
    return len;
}

static size_t find_str(const char *s, size_t len, size_t pos, const char *needle)
{
    size_t n = strlen(needle);
    if (pos > len) return len;
    const char *q = memmem(s + pos, len - pos, needle, n);
    return q ? (size_t)(q - s) : len;
}

/* Open a tag at `open` ("{{" or "{%"): set up the lexer on its contents. */
static int open_tag(parser *p, size_t open, char end_ch)
{
    p->tag_open = open;
    p->end_ch = end_ch;
    p->pos = open + 2;
    if (p->pos < p->len && p->src[p->pos] == '-') p->pos++;
    return lex(p);
}

static int parse_body(parser *p, body *out, int depth, term *tm);

static int parse_if(parser *p, node *n, int depth)
{
    size_t open = p->tag_open;
    for (;;) {
        expr *cond = parse_expr(p);
        if (!cond) return -1;
        n->conds = xrealloc(n->conds, (n->nconds + 1) * sizeof *n->conds);
        n->bodies = xrealloc(n->bodies, (n->nconds + 1) * sizeof *n->bodies);
        n->conds[n->nconds] = cond;
        memset(&n->bodies[n->nconds], 0, sizeof(body));
        n->nconds++;
        if (expect_end(p) < 0) return -1;
        term tm;
        if (parse_body(p, &n->bodies[n->nconds - 1], depth + 1, &tm) < 0) return -1;
        if (tm.kind == TERM_ELIF) continue;
        if (tm.kind == TERM_ELSE) {
            if (expect_end(p) < 0) return -1;
            if (parse_body(p, &n->else_body, depth + 1, &tm) < 0) return -1;
        }
        if (tm.kind == TERM_ENDIF) return expect_end(p);
        if (tm.kind == TERM_EOF) return perr(p, open, "{%% if %%} is never closed (expected {%% endif %%})");
        return perr(p, tm.kw_pos, "unexpected {%% %s %%} inside {%% if %%}%s", term_names[tm.kind],
                    tm.kind == TERM_ELIF || tm.kind == TERM_ELSE ? " after {% else %}" : "");
    }
}

static int parse_name(parser *p, char **name, size_t *len)
{
    if (p->t.type != K_NAME || is_reserved(p->src + p->t.start, p->t.len)) {
        return perr_expected(p, p->t.start, "a loop variable name");
    }
    *name = xstrndup(p->src + p->t.start, p->t.len);
    *len = p->t.len;
    return lex(p);
}

static int parse_for(parser *p, node *n, int depth)
{
    size_t open = p->tag_open;
    if (parse_name(p, &n->t1, &n->t1len) < 0) return -1;
    if (tok_op(p, ",")) {
        if (lex(p) < 0 || parse_name(p, &n->t2, &n->t2len) < 0) return -1;
    }
    if (!tok_kw(p, "in")) {
        return perr_expected(p, p->t.start, "'in' in {% for %}");
    }
    if (lex(p) < 0) return -1;
    n->e = parse_expr(p);
    if (!n->e) return -1;
    if (expect_end(p) < 0) return -1;
    term tm;
    if (parse_body(p, &n->body, depth + 1, &tm) < 0) return -1;
    if (tm.kind == TERM_ELSE) {
        if (expect_end(p) < 0) return -1;
        if (parse_body(p, &n->else_body, depth + 1, &tm) < 0) return -1;
    }
    if (tm.kind == TERM_ENDFOR) return expect_end(p);
    if (tm.kind == TERM_EOF) return perr(p, open, "{%% for %%} is never closed (expected {%% endfor %%})");
    return perr(p, tm.kw_pos, "unexpected {%% %s %%} inside {%% for %%}", term_names[tm.kind]);
}

/* {% raw %} … {% endraw %}: the tag has been lexed up to its end. */
static int parse_raw(parser *p, body *out)
{
    size_t open = p->tag_open;
    if (expect_end(p) < 0) return -1;
    bool lstrip = p->strip_next;
    p->strip_next = false;
    size_t start = p->pos, at = p->pos;
    for (;;) {
        size_t o = find_str(p->src, p->len, at, "{%");
        if (o >= p->len) return perr(p, open, "{%% raw %%} is never closed (expected {%% endraw %%})");
        size_t i = o + 2;
        bool rstrip = i < p->len && p->src[i] == '-';
        if (rstrip) i++;
        while (i < p->len && is_space(p->src[i])) i++;
        if (p->len - i >= 6 && !memcmp(p->src + i, "endraw", 6) && (i + 6 >= p->len || !is_ident(p->src[i + 6]))) {
            emit_text(out, p->src, start, o, lstrip, rstrip);
            p->tag_open = o;
            p->end_ch = '%';
            p->pos = i + 6;
            if (lex(p) < 0) return -1;
            return expect_end(p);
        }
        at = o + 2;
    }
}

static int parse_body(parser *p, body *out, int depth, term *tm)
{
    if (depth > TEMPLATE_MAX_NESTING)
        return perr(p, p->tag_open, "blocks nested too deeply (more than %d levels)", TEMPLATE_MAX_NESTING);
    for (;;) {
        size_t open = find_open(p->src, p->len, p->pos);
        bool rstrip = open < p->len && open + 2 < p->len && p->src[open + 2] == '-';
        emit_text(out, p->src, p->pos, open, p->strip_next, rstrip);
        p->strip_next = false;
        if (open >= p->len) {
            p->pos = p->len;
            tm->kind = TERM_EOF;
            return 0;
        }
        char kind = p->src[open + 1];
        if (kind == '#') {
            size_t close = find_str(p->src, p->len, open + 2, "#}");
            if (close >= p->len) return perr(p, open, "comment is never closed (expected '#}')");
            p->strip_next = close > open + 2 && p->src[close - 1] == '-';
            p->pos = close + 2;
            continue;
        }
        if (kind == '{') {
            if (open_tag(p, open, '}') < 0) return -1;
            if (p->t.type == K_END) return perr(p, open, "empty {{ }}");
            if (p->t.type == K_EOF) return expect_end(p);
            expr *e = parse_expr(p);
            if (!e) return -1;
            node *n = new_node(N_OUT, open);
            n->e = e;
            body_push(out, n);
            if (expect_end(p) < 0) return -1;
            continue;
        }
        /* {% statement %} */
        if (open_tag(p, open, '%') < 0) return -1;
        if (p->t.type != K_NAME) {
            if (p->t.type == K_EOF) return expect_end(p);
            return perr_expected(p, p->t.start, "a tag name after '{%'");
        }
        size_t kw = p->t.start;
        static const struct { const char *name; int kind; } terms[] = {
            {"elif", TERM_ELIF}, {"else", TERM_ELSE}, {"endif", TERM_ENDIF}, {"endfor", TERM_ENDFOR}};
        for (size_t i = 0; i < sizeof terms / sizeof terms[0]; i++)
            if (tok_kw(p, terms[i].name)) {
                if (lex(p) < 0) return -1;
                tm->kind = terms[i].kind;
                tm->tag_open = open;
                tm->kw_pos = kw;
                if (depth == 0)
                    return perr(p, kw, "unexpected {%% %s %%} outside %s", terms[i].name,
                                terms[i].kind == TERM_ENDFOR ? "{% for %}" : terms[i].kind == TERM_ELSE ? "{% if %} or {% for %}" : "{% if %}");
                return 0;
            }
        if (tok_kw(p, "if")) {
            if (lex(p) < 0) return -1;
            node *n = new_node(N_IF, open);
            body_push(out, n);
            if (parse_if(p, n, depth) < 0) return -1;
        } else if (tok_kw(p, "for")) {
            if (lex(p) < 0) return -1;
            node *n = new_node(N_FOR, open);
            body_push(out, n);
            if (parse_for(p, n, depth) < 0) return -1;
        } else if (tok_kw(p, "include")) {
            if (lex(p) < 0) return -1;
            node *n = new_node(N_INCLUDE, open);
            body_push(out, n);
            n->e = parse_expr(p);
            if (!n->e || expect_end(p) < 0) return -1;
        } else if (tok_kw(p, "raw")) {
            if (lex(p) < 0 || parse_raw(p, out) < 0) return -1;
        } else if (tok_kw(p, "endraw")) {
            return perr(p, kw, "unexpected {%% endraw %%} outside {%% raw %%}");
        } else {
            return perr(p, kw, "unknown tag '%.*s'", (int)(p->t.len > 60 ? 60 : p->t.len), p->src + kw);
        }
    }
}

static tmpl *parse_template(const char *src, size_t len, const char *name, char **error)
{
    parser p = {0};
    p.src = src;
    p.len = len;
    p.name = name;
    tmpl *t = xcalloc(1, sizeof *t);
    t->src = src;
    t->len = len;
    t->name = xstrdup(name);
    term tm;
    if (parse_body(&p, &t->body, 0, &tm) < 0) {
        *error = p.error ? p.error : xasprintf("%s: template error", name);
        tmpl_free(t);
        return NULL;
    }
    return t;
}

/* ------------------------------------------------------------------------------------------ */
/* Values                                                                                      */

enum { OWN_NONE, OWN_DEEP, OWN_SHALLOW, OWN_PAIRS };
enum { U_NONE, U_NAME, U_KEY, U_INDEX, U_TYPE };

/* A value during evaluation: a borrowed or owned json_t, or undefined (j == NULL). */
typedef struct val {
    const json_t *j;
    json_t *own;  /* what to free, per ownkind */
    int ownkind;  /* OWN_SHALLOW: an array whose items are borrowed; OWN_PAIRS: an array of
                     [owned key, borrowed value] arrays */
    const expr *unode; /* undefined: the expression that was missing */
    int ureason;
    long long uidx;
    size_t ulen;
    int utype, ukeytype;
} val;

static void free_shallow_array(json_t *a)
{
    free(a->u.array.items);
    free(a);
}

static void val_free(val *v)
{
    if (v->own) {
        switch (v->ownkind) {
        case OWN_DEEP: json_free(v->own); break;
        case OWN_SHALLOW: free_shallow_array(v->own); break;
        case OWN_PAIRS:
            for (size_t i = 0; i < v->own->u.array.len; i++) {
                json_t *pair = v->own->u.array.items[i];
                json_free(pair->u.array.items[0]);
                free_shallow_array(pair);
            }
            free_shallow_array(v->own);
            break;
        }
    }
    memset(v, 0, sizeof *v);
}

static val borrowed(const json_t *j)
{
    val v = {0};
    v.j = j;
    return v;
}

static val owned(json_t *j)
{
    val v = {0};
    v.j = j;
    v.own = j;
    v.ownkind = OWN_DEEP;
    return v;
}

static const char *type_name(const json_t *j)
{
    if (!j) return "undefined";
    switch (j->type) {
    case JSON_NULL: return "null";
    case JSON_TRUE:
    case JSON_FALSE: return "boolean";
    case JSON_NUMBER: return "number";
    case JSON_STRING: return "string";
    case JSON_ARRAY: return "list";
    case JSON_OBJECT: return "object";
    case JSON_RAW: break; /* never parsed */
    }
    return "value";
}

static bool truthy(const json_t *j)
{
    if (!j) return false;
    switch (j->type) {
    case JSON_NULL:
    case JSON_FALSE: return false;
    case JSON_TRUE: return true;
    case JSON_NUMBER: return j->u.number != 0 && !isnan(j->u.number);
    case JSON_STRING: return j->u.string.len != 0;
    case JSON_ARRAY: return j->u.array.len != 0;
    case JSON_OBJECT: return j->u.object.len != 0;
    case JSON_RAW: return true; /* never parsed */
    }
    return false;
}

/* json_format_number, with a fast path for whole numbers (which print as plain digits in JS below
 * 1e21; below 2^53 every one is exact). */
static int format_number(double d, char *out)
{
    if (d == floor(d) && fabs(d) < 9007199254740992.0) {
        long long v = (long long)d;
        char tmp[24];
        int n = 0;
        unsigned long long u = v < 0 ? (unsigned long long)-v : (unsigned long long)v;
        do {
            tmp[n++] = (char)('0' + u % 10);
            u /= 10;
        } while (u);
        int k = 0;
        if (v < 0) out[k++] = '-';
        while (n) out[k++] = tmp[--n];
        out[k] = '\0';
        return k;
    }
    return json_format_number(d, out);
}

/* Printing rules: strings raw, numbers like JS, true/false, null empty, containers compact JSON. */
static void put_value(buf *b, const json_t *j)
{
    char num[32];
    switch (j->type) {
    case JSON_NULL: break;
    case JSON_TRUE: buf_puts(b, "true"); break;
    case JSON_FALSE: buf_puts(b, "false"); break;
    case JSON_NUMBER: buf_append(b, num, (size_t)format_number(j->u.number, num)); break;
    case JSON_STRING: buf_append(b, j->u.string.bytes, j->u.string.len); break;
    default: {
        size_t n;
        char *s = json_dump(j, JSON_COMPACT, &n);
        buf_append(b, s, n);
        free(s);
        break;
    }
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Evaluator                                                                                   */

typedef struct binding {
    const char *name;
    size_t len;
    const json_t *v;
} binding;

typedef struct inc_entry {
    char *name;
    size_t name_len;
    tmpl *t;
} inc_entry;

typedef struct ctx {
    buf out;
    size_t max_output;
    const json_t *vars;
    binding *scope;
    size_t nscope, capscope;
    unsigned long long iterations, work;
    int include_depth, max_include_depth, depth;
    template_include_fn *include;
    void *include_ctx;
    inc_entry *incs;
    size_t nincs;
    const tmpl *cur;
    char *error;
} ctx;

static int fail(ctx *c, size_t pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(ctx *c, size_t pos, const char *fmt, ...)
{
    if (c->error) return -1;
    va_list ap;
    va_start(ap, fmt);
    c->error = vformat_error(c->cur->name, c->cur->src, c->cur->len, pos, fmt, ap);
    va_end(ap);
    return -1;
}

static int charge(ctx *c, size_t units, size_t pos)
{
    c->work += units;
    if (c->work > TEMPLATE_MAX_WORK)
        return fail(c, pos, "template takes too long to render (more than %d steps)", TEMPLATE_MAX_WORK);
    return 0;
}

static int fail_undefined(ctx *c, const val *v)
{
    const expr *e = v->unode;
    buf b = {0};
    buf_putc(&b, '\'');
    put_snippet(&b, c->cur->src + e->start, e->end - e->start);
    buf_puts(&b, "' is undefined");
    switch (v->ureason) {
    case U_KEY: buf_puts(&b, " (no such key)"); break;
    case U_INDEX: buf_printf(&b, " (index %lld out of range for length %zu)", v->uidx, v->ulen); break;
    case U_TYPE: {
        json_t t1 = {0}, t2 = {0};
        t1.type = (json_type)v->utype;
        t2.type = (json_type)v->ukeytype;
        buf_printf(&b, " (cannot look up a %s in a %s)", t2.type == JSON_STRING ? "key" : t2.type == JSON_NUMBER ? "number index" : type_name(&t2), type_name(&t1));
        break;
    }
    default: break;
    }
    fail(c, e->start, "%s", b.data);
    buf_free(&b);
    return -1;
}

static val undefined_at(const expr *e, int reason)
{
    val v = {0};
    v.unode = e;
    v.ureason = reason;
    return v;
}

static const json_t *object_lookup(ctx *c, const json_t *o, const char *key, size_t key_len)
{
    c->work += o->u.object.len / 8;
    for (size_t i = 0; i < o->u.object.len; i++) {
        const json_member *m = &o->u.object.items[i];
        if (m->key_len == key_len && memcmp(m->key, key, key_len) == 0) return m->value;
    }
    return NULL;
}

static int eval(ctx *c, const expr *e, val *out);

#define BYTES_PER_STEP 8

/* Structural equality (1 == 1.0, true != 1, objects regardless of key order), charging the work. */
static bool equal(ctx *c, const json_t *a, const json_t *b)
{
    c->work++;
    if (a->type != b->type) return false;
    switch (a->type) {
    case JSON_NUMBER: return a->u.number == b->u.number;
    case JSON_STRING:
        c->work += a->u.string.len / BYTES_PER_STEP;
        return a->u.string.len == b->u.string.len && !memcmp(a->u.string.bytes, b->u.string.bytes, a->u.string.len);
    case JSON_ARRAY:
        if (a->u.array.len != b->u.array.len) return false;
        for (size_t i = 0; i < a->u.array.len; i++) {
            if (c->work > TEMPLATE_MAX_WORK) return false;
            if (!equal(c, a->u.array.items[i], b->u.array.items[i])) return false;
        }
        return true;
    case JSON_OBJECT:
        if (a->u.object.len != b->u.object.len) return false;
        for (size_t i = 0; i < a->u.object.len; i++) {
            if (c->work > TEMPLATE_MAX_WORK) return false;
            const json_member *m = &a->u.object.items[i];
            const json_t *o = object_lookup(c, b, m->key, m->key_len);
            if (!o || !equal(c, m->value, o)) return false;
        }
        return true;
    default: return true;
    }
}

/* The cost of copying or serializing a value, in steps. */
static size_t value_cost(const json_t *j, size_t limit)
{
    size_t n = 1;
    if (j->type == JSON_STRING) n += j->u.string.len / BYTES_PER_STEP;
    else if (j->type == JSON_ARRAY)
        for (size_t i = 0; i < j->u.array.len && n <= limit; i++) n += value_cost(j->u.array.items[i], limit);
    else if (j->type == JSON_OBJECT)
        for (size_t i = 0; i < j->u.object.len && n <= limit; i++)
            n += 1 + j->u.object.items[i].key_len / BYTES_PER_STEP + value_cost(j->u.object.items[i].value, limit);
    return n;
}

static int charge_copy(ctx *c, const json_t *j, size_t pos)
{
    return charge(c, value_cost(j, TEMPLATE_MAX_WORK), pos);
}

/* Evaluate where only truthiness matters: undefined is false. */
static int eval_truth(ctx *c, const expr *e, bool *out)
{
    val v;
    if (eval(c, e, &v) < 0) return -1;
    *out = truthy(v.j);
    val_free(&v);
    return 0;
}

static int eval_defined(ctx *c, const expr *e, val *out)
{
    if (eval(c, e, out) < 0) return -1;
    if (!out->j) {
        fail_undefined(c, out);
        return -1;
    }
    return 0;
}

/* What printing a value costs beyond its bytes: number formatting is slow (shortest round-trip
 * digits), so it is charged in steps, per number inside containers too. */
static size_t print_cost(const json_t *j, size_t len)
{
    size_t n = 1 + len / BYTES_PER_STEP;
    if (j->type == JSON_NUMBER && j->u.number != floor(j->u.number)) n += 32;
    if (j->type == JSON_ARRAY || j->type == JSON_OBJECT) n += 100 * value_cost(j, TEMPLATE_MAX_WORK);
    return n;
}

/* Stringify by the printing rules, with the size bounded by max_output. */
static int to_text(ctx *c, const json_t *j, buf *b, size_t pos)
{
    size_t before = b->len;
    put_value(b, j);
    if (b->len > c->max_output) return fail(c, pos, "value larger than the output limit (%zu bytes)", c->max_output);
    return charge(c, print_cost(j, b->len - before), pos);
}

static int lookup(ctx *c, const expr *e, const json_t *base, const json_t *key, val *out)
{
    if (base->type == JSON_OBJECT && key->type == JSON_STRING) {
        const json_t *r = object_lookup(c, base, key->u.string.bytes, key->u.string.len);
        *out = r ? borrowed(r) : undefined_at(e, U_KEY);
        return 0;
    }
    if (base->type == JSON_ARRAY && key->type == JSON_NUMBER) {
        double d = key->u.number;
        if (d != floor(d) || !isfinite(d)) return fail(c, e->b->start, "list index must be a whole number, not %s", "a fraction");
        long long n = (long long)base->u.array.len;
        long long i = d < -1e18 ? -(1LL << 62) : d > 1e18 ? (1LL << 62) : (long long)d;
        long long k = i < 0 ? n + i : i;
        if (k < 0 || k >= n) {
            *out = undefined_at(e, U_INDEX);
            out->uidx = i;
            out->ulen = (size_t)n;
            return 0;
        }
        *out = borrowed(base->u.array.items[k]);
        return 0;
    }
    *out = undefined_at(e, U_TYPE);
    out->utype = base->type;
    out->ukeytype = key->type;
    return 0;
}

static int compare(ctx *c, const expr *e, const json_t *a, const json_t *b, bool *res)
{
    int op = e->op;
    if (op == CMP_EQ || op == CMP_NE) {
        size_t cost = 1;
        if (charge(c, cost, e->start) < 0) return -1;
        bool eq = equal(c, a, b);
        if (charge(c, 0, e->start) < 0) return -1;
        *res = op == CMP_EQ ? eq : !eq;
        return 0;
    }
    int r;
    if (a->type == JSON_NUMBER && b->type == JSON_NUMBER) {
        double x = a->u.number, y = b->u.number;
        r = x < y ? -1 : x > y ? 1 : 0;
        if (isnan(x) || isnan(y)) {
            *res = false;
            return 0;
        }
    } else if (a->type == JSON_STRING && b->type == JSON_STRING) {
        size_t n = a->u.string.len < b->u.string.len ? a->u.string.len : b->u.string.len;
        if (charge(c, n / BYTES_PER_STEP, e->start) < 0) return -1;
        r = memcmp(a->u.string.bytes, b->u.string.bytes, n);
        if (r == 0) r = a->u.string.len < b->u.string.len ? -1 : a->u.string.len > b->u.string.len ? 1 : 0;
    } else {
        return fail(c, e->start, "cannot compare a %s with a %s", type_name(a), type_name(b));
    }
    switch (op) {
    case CMP_LT: *res = r < 0; break;
    case CMP_GT: *res = r > 0; break;
    case CMP_LE: *res = r <= 0; break;
    default: *res = r >= 0; break;
    }
    return 0;
}

static int contains(ctx *c, const expr *e, const json_t *needle, const json_t *hay, bool *res)
{
    if (hay->type == JSON_ARRAY) {
        if (charge(c, hay->u.array.len, e->start) < 0) return -1;
        *res = false;
        for (size_t i = 0; i < hay->u.array.len && !*res; i++) *res = equal(c, needle, hay->u.array.items[i]);
        return charge(c, 0, e->start);
    }
    if (hay->type == JSON_OBJECT) {
        if (needle->type != JSON_STRING) return fail(c, e->start, "'in' an object needs a string key, not a %s", type_name(needle));
        *res = object_lookup(c, hay, needle->u.string.bytes, needle->u.string.len) != NULL;
        return 0;
    }
    if (hay->type == JSON_STRING) {
        if (needle->type != JSON_STRING) return fail(c, e->start, "'in' a string needs a string, not a %s", type_name(needle));
        if (charge(c, hay->u.string.len / BYTES_PER_STEP, e->start) < 0) return -1;
        *res = needle->u.string.len == 0 ||
               memmem(hay->u.string.bytes, hay->u.string.len, needle->u.string.bytes, needle->u.string.len) != NULL;
        return 0;
    }
    return fail(c, e->b->start, "'in' needs a list, object or string on the right, not a %s", type_name(hay));
}

static int eval_method(ctx *c, const expr *e, val *out)
{
    val base;
    if (eval_defined(c, e->a, &base) < 0) return -1;
    static const char *names[] = {"items", "keys", "values"};
    if (base.j->type != JSON_OBJECT) {
        fail(c, e->start, "%s() needs an object, not a %s", names[e->op], type_name(base.j));
        val_free(&base);
        return -1;
    }
    if (base.own) {
        /* Only a method on a temporary: keep it simple and deep-copy from it. */
        if (charge_copy(c, base.j, e->start) < 0) {
            val_free(&base);
            return -1;
        }
        json_t *r = json_array();
        for (size_t i = 0; i < base.j->u.object.len; i++) {
            const json_member *m = &base.j->u.object.items[i];
            if (e->op == M_KEYS) json_array_push(r, json_stringn(m->key, m->key_len));
            else if (e->op == M_VALUES) json_array_push(r, json_copy(m->value));
            else {
                json_t *pair = json_array();
                json_array_push(pair, json_stringn(m->key, m->key_len));
                json_array_push(pair, json_copy(m->value));
                json_array_push(r, pair);
            }
        }
        val_free(&base);
        *out = owned(r);
        return 0;
    }
    size_t n = base.j->u.object.len;
    if (charge(c, n, e->start) < 0) {
        val_free(&base);
        return -1;
    }
    json_t *r = json_array();
    r->u.array.items = xcalloc(n ? n : 1, sizeof(json_t *));
    r->u.array.cap = n ? n : 1;
    for (size_t i = 0; i < n; i++) {
        const json_member *m = &base.j->u.object.items[i];
        json_t *item;
        if (e->op == M_KEYS) item = json_stringn(m->key, m->key_len);
        else if (e->op == M_VALUES) item = m->value;
        else {
            item = json_array();
            item->u.array.items = xcalloc(2, sizeof(json_t *));
            item->u.array.cap = 2;
            item->u.array.items[0] = json_stringn(m->key, m->key_len);
            item->u.array.items[1] = m->value;
            item->u.array.len = 2;
        }
        r->u.array.items[r->u.array.len++] = item;
    }
    memset(out, 0, sizeof *out);
    out->j = out->own = r;
    out->ownkind = e->op == M_KEYS ? OWN_DEEP : e->op == M_VALUES ? OWN_SHALLOW : OWN_PAIRS;
    return 0;
}

static int int_arg(ctx *c, const expr *ae, const json_t *v, const char *what, long long lo, long long hi, long long *out)
{
    if (v->type != JSON_NUMBER || v->u.number != floor(v->u.number) || v->u.number < (double)lo || v->u.number > (double)hi)
        return fail(c, ae->start, "%s must be a whole number from %lld to %lld", what, lo, hi);
    *out = (long long)v->u.number;
    return 0;
}

static double round_common(double x, long long nd)
{
    if (!isfinite(x)) return x;
    if (nd >= 0) {
        char tmp[512];
        snprintf(tmp, sizeof tmp, "%.*f", (int)nd, x);
        return strtod(tmp, NULL);
    }
    double p = pow(10.0, (double)-nd);
    if (!isfinite(p)) return x * 0.0;
    return nearbyint(x / p) * p;
}

/* ---- the filters (see filters[]) ---- */

static int filter_default(ctx *c, const expr *e, val *in, val *out)
{
    bool use = !in->j || in->j->type == JSON_NULL;
    if (!use && e->items[1]) {
        bool b;
        if (eval_truth(c, e->items[1], &b) < 0) {
            val_free(in);
            return -1;
        }
        use = b && !truthy(in->j);
    }
    if (!use) {
        *out = *in;
        return 0;
    }
    val_free(in);
    if (e->items[0]) return eval_defined(c, e->items[0], out);
    *out = owned(json_stringn("", 0));
    return 0;
}

/* b's bytes as a new string value; frees b. */
static int text_result(buf *b, val *out)
{
    *out = owned(json_stringn(b->data ? b->data : "", b->len));
    buf_free(b);
    return 0;
}

static int change_case(ctx *c, const expr *e, const json_t *in, val *out, bool upper)
{
    buf b = {0};
    if (to_text(c, in, &b, e->start) < 0) {
        buf_free(&b);
        return -1;
    }
    for (size_t i = 0; i < b.len; i++) {
        char ch = b.data[i];
        if (upper && ch >= 'a' && ch <= 'z') b.data[i] = (char)(ch - 32);
        if (!upper && ch >= 'A' && ch <= 'Z') b.data[i] = (char)(ch + 32);
    }
    return text_result(&b, out);
}

static int filter_upper(ctx *c, const expr *e, const json_t *in, const val *args, val *out)
{
    return change_case(c, e, in, out, true);
}

static int filter_lower(ctx *c, const expr *e, const json_t *in, const val *args, val *out)
{
    return change_case(c, e, in, out, false);
}

static int filter_trim(ctx *c, const expr *e, const json_t *in, const val *args, val *out)
{
    buf b = {0};
    if (to_text(c, in, &b, e->start) < 0) {
        buf_free(&b);
        return -1;
    }
    size_t s = 0, n = b.len;
    while (s < n && is_space(b.data[s])) s++;
    while (n > s && is_space(b.data[n - 1])) n--;
    *out = owned(json_stringn(b.data ? b.data + s : "", n - s));
    buf_free(&b);
    return 0;
}

static int filter_join(ctx *c, const expr *e, const json_t *in, const val *args, val *out)
{
    if (in->type != JSON_ARRAY) return fail(c, e->start, "join needs a list, not a %s", type_name(in));
    buf sep = {0}, b = {0};
    bool ok = !args[0].j || to_text(c, args[0].j, &sep, e->items[0]->start) == 0;
    for (size_t i = 0; i < in->u.array.len && ok; i++) {
        if (i && sep.len) buf_append(&b, sep.data, sep.len);
        ok = to_text(c, in->u.array.items[i], &b, e->start) == 0 && charge(c, 1, e->start) == 0;
    }
    buf_free(&sep);
    if (!ok) {
        buf_free(&b);
        return -1;
    }
    return text_result(&b, out);
}

static int filter_length(ctx *c, const expr *e, const json_t *in, const val *args, val *out)
{
    size_t n;
    if (in->type == JSON_STRING) {
        n = 0;
        for (size_t i = 0; i < in->u.string.len; i++) n += ((unsigned char)in->u.string.bytes[i] & 0xC0) != 0x80;
        if (charge(c, in->u.string.len / BYTES_PER_STEP, e->start) < 0) return -1;
    } else if (in->type == JSON_ARRAY) {
        n = in->u.array.len;
    } else if (in->type == JSON_OBJECT) {
        n = in->u.object.len;
    } else {
        return fail(c, e->start, "length needs a string, list or object, not a %s", type_name(in));
    }
    *out = owned(json_number((double)n));
    return 0;
}

static int filter_tojson(ctx *c, const expr *e, const json_t *in, const val *args, val *out)
{
    int flags = JSON_COMPACT;
    const json_t *indent = args[0].j;
    if (indent && indent->type != JSON_NULL) {
        if (indent->type != JSON_NUMBER || (indent->u.number != 2 && indent->u.number != 0))
            return fail(c, e->items[0]->start, "tojson supports indent=2 only");
        if (indent->u.number == 2) flags = JSON_PRETTY;
    }
    size_t n;
    char *s = json_dump(in, flags, &n);
    if (n > c->max_output) {
        free(s);
        return fail(c, e->start, "value larger than the output limit (%zu bytes)", c->max_output);
    }
    if (charge(c, print_cost(in, n) + (in->type == JSON_NUMBER ? 100 : 0), e->start) < 0) {
        free(s);
        return -1;
    }
    *out = owned(json_stringn(s, n));
    free(s);
    return 0;
}

/* src with old replaced by rep, count times at most (-1: every time), into b. */
static int replace_into(ctx *c, const expr *e, const buf *src, const buf *old, const buf *rep, long long count, buf *b)
{
    size_t i = 0;
    while (i < src->len) {
        const char *q = count != 0 ? memmem(src->data + i, src->len - i, old->data, old->len) : NULL;
        if (!q) {
            buf_append(b, src->data + i, src->len - i);
            break;
        }
        size_t at = (size_t)(q - src->data);
        buf_append(b, src->data + i, at - i);
        buf_append(b, rep->data ? rep->data : "", rep->len);
        i = at + old->len;
        if (count > 0) count--;
        if (b->len > c->max_output) return fail(c, e->start, "value larger than the output limit (%zu bytes)", c->max_output);
    }
    return charge(c, b->len / BYTES_PER_STEP, e->start);
}

static int filter_replace(ctx *c, const expr *e, const json_t *in, const val *args, val *out)
{
    buf src = {0}, old = {0}, rep = {0}, b = {0};
    long long count = -1;
    int rc = -1;
    if (to_text(c, in, &src, e->start) == 0 && to_text(c, args[0].j, &old, e->items[0]->start) == 0 &&
        to_text(c, args[1].j, &rep, e->items[1]->start) == 0 &&
        (!args[2].j || args[2].j->type == JSON_NULL ||
         int_arg(c, e->items[2], args[2].j, "replace count", -1, 1LL << 53, &count) == 0)) {
        if (old.len == 0) fail(c, e->items[0]->start, "replace: the string to replace is empty");
        else if (replace_into(c, e, &src, &old, &rep, count, &b) == 0) rc = text_result(&b, out);
    }
    buf_free(&src), buf_free(&old), buf_free(&rep), buf_free(&b);
    return rc;
}

static int filter_round(ctx *c, const expr *e, const json_t *in, const val *args, val *out)
{
    if (in->type != JSON_NUMBER) return fail(c, e->start, "round needs a number, not a %s", type_name(in));
    long long nd = 0;
    if (args[0].j && args[0].j->type != JSON_NULL && int_arg(c, e->items[0], args[0].j, "round precision", -400, 100, &nd) < 0)
        return -1;
    int method = 0;
    if (args[1].j) {
        const char *m = json_string_value(args[1].j);
        if (m && !strcmp(m, "common")) method = 0;
        else if (m && !strcmp(m, "ceil")) method = 1;
        else if (m && !strcmp(m, "floor")) method = 2;
        else return fail(c, e->items[1]->start, "round method must be \"common\", \"ceil\" or \"floor\"");
    }
    if (charge(c, 16, e->start) < 0) return -1;
    double x = in->u.number, r;
    if (method == 0) {
        r = round_common(x, nd);
    } else {
        double p = pow(10.0, (double)nd);
        double y = x * p;
        if (!isfinite(p) || !isfinite(y) || p == 0) r = method == 1 ? ceil(x) : floor(x);
        else r = (method == 1 ? ceil(y) : floor(y)) / p;
    }
    if (r == 0) r = 0; /* no "-0" surprises (prints as 0 anyway) */
    *out = owned(json_number(r));
    return 0;
}

/* input | filter(args): the input first, then (for every filter but default) its arguments, then
 * the filter's function. */
static int eval_filter(ctx *c, const expr *e, val *out)
{
    const filter_def *fd = &filters[e->op];
    val in, args[MAX_FILTER_ARGS];
    memset(args, 0, sizeof args);
    if (eval(c, e->a, &in) < 0) return -1;
    if (fd->raw) return fd->raw(c, e, &in, out);
    if (!in.j) return fail_undefined(c, &in);
    int rc = -1;
    for (int i = 0; i < MAX_FILTER_ARGS; i++)
        if (e->items[i] && eval_defined(c, e->items[i], &args[i]) < 0) goto done;
    rc = fd->apply(c, e, in.j, args, out);
done:
    val_free(&in);
    for (int i = 0; i < MAX_FILTER_ARGS; i++) val_free(&args[i]);
    return rc;
}

static int eval(ctx *c, const expr *e, val *out)
{
    memset(out, 0, sizeof *out);
    if (charge(c, 1, e->start) < 0) return -1;
    switch (e->kind) {
    case E_LIT:
        *out = borrowed(e->lit);
        return 0;
    case E_NAME: {
        for (size_t i = c->nscope; i-- > 0;) {
            const binding *bd = &c->scope[i];
            if (bd->len == e->name_len && !memcmp(bd->name, e->name, e->name_len)) {
                *out = borrowed(bd->v);
                return 0;
            }
        }
        const json_t *v = c->vars ? object_lookup(c, c->vars, e->name, e->name_len) : NULL;
        *out = v ? borrowed(v) : undefined_at(e, U_NAME);
        return 0;
    }
    case E_ATTR:
    case E_INDEX: {
        val base, key = {0};
        if (eval(c, e->a, &base) < 0) return -1;
        if (!base.j) {
            *out = base; /* stays undefined; names the first missing part */
            return 0;
        }
        json_t tmp_key;
        const json_t *k;
        if (e->kind == E_ATTR) {
            memset(&tmp_key, 0, sizeof tmp_key);
            tmp_key.type = JSON_STRING;
            tmp_key.u.string.bytes = e->name;
            tmp_key.u.string.len = e->name_len;
            k = &tmp_key;
        } else {
            if (eval_defined(c, e->b, &key) < 0) {
                val_free(&base);
                return -1;
            }
            k = key.j;
        }
        int rc = lookup(c, e, base.j, k, out);
        val_free(&key);
        if (rc == 0 && out->j && base.own) {
            /* The result points into a temporary: copy it out before the temporary goes. */
            rc = charge_copy(c, out->j, e->start);
            *out = owned(json_copy(out->j));
        }
        val_free(&base);
        return rc;
    }
    case E_METHOD:
        return eval_method(c, e, out);
    case E_FILTER:
        return eval_filter(c, e, out);
    case E_TEST: {
        val v;
        if (eval(c, e->a, &v) < 0) return -1;
        bool r;
        if (e->op == T_DEFINED || e->op == T_UNDEFINED) {
            r = (v.j != NULL) == (e->op == T_DEFINED);
        } else {
            if (!v.j) return fail_undefined(c, &v);
            json_type t = v.j->type;
            r = e->op == T_NONE ? t == JSON_NULL
              : e->op == T_STRING ? t == JSON_STRING
              : e->op == T_NUMBER ? t == JSON_NUMBER
              : e->op == T_BOOLEAN ? (t == JSON_TRUE || t == JSON_FALSE)
              : t == JSON_OBJECT;
        }
        val_free(&v);
        *out = owned(json_bool(r != e->neg));
        return 0;
    }
    case E_NOT: {
        bool b;
        if (eval_truth(c, e->a, &b) < 0) return -1;
        *out = owned(json_bool(!b));
        return 0;
    }
    case E_NEG: {
        val v;
        if (eval_defined(c, e->a, &v) < 0) return -1;
        if (v.j->type != JSON_NUMBER) {
            fail(c, e->start, "unary '-' needs a number, not a %s", type_name(v.j));
            val_free(&v);
            return -1;
        }
        double d = -v.j->u.number;
        val_free(&v);
        *out = owned(json_number(d));
        return 0;
    }
    case E_AND:
    case E_OR: {
        val a;
        if (eval(c, e->a, &a) < 0) return -1;
        bool t = truthy(a.j);
        if ((e->kind == E_AND) != t) {
            *out = a;
            return 0;
        }
        val_free(&a);
        return eval(c, e->b, out);
    }
    case E_COND: {
        bool t;
        if (eval_truth(c, e->c, &t) < 0) return -1;
        return eval(c, t ? e->a : e->b, out);
    }
    case E_CMP:
    case E_IN:
    case E_NOTIN:
    case E_CONCAT: {
        val a, b;
        if (eval_defined(c, e->a, &a) < 0) return -1;
        if (eval_defined(c, e->b, &b) < 0) {
            val_free(&a);
            return -1;
        }
        int rc;
        bool r = false;
        if (e->kind == E_CONCAT) {
            buf s = {0};
            rc = to_text(c, a.j, &s, e->start);
            if (rc == 0) rc = to_text(c, b.j, &s, e->start);
            if (rc == 0) *out = owned(json_stringn(s.data ? s.data : "", s.len));
            buf_free(&s);
        } else {
            rc = e->kind == E_CMP ? compare(c, e, a.j, b.j, &r) : contains(c, e, a.j, b.j, &r);
            if (rc == 0) *out = owned(json_bool(e->kind == E_NOTIN ? !r : r));
        }
        val_free(&a);
        val_free(&b);
        return rc;
    }
    case E_LIST: {
        json_t *arr = json_array();
        for (size_t i = 0; i < e->nitems; i++) {
            val v;
            if (eval_defined(c, e->items[i], &v) < 0) {
                json_free(arr);
                return -1;
            }
            if (!(v.own && v.ownkind == OWN_DEEP) && charge_copy(c, v.j, e->items[i]->start) < 0) {
                val_free(&v);
                json_free(arr);
                return -1;
            }
            json_array_push(arr, v.own && v.ownkind == OWN_DEEP ? v.own : json_copy(v.j));
            if (v.own && v.ownkind == OWN_DEEP) v.own = NULL;
            val_free(&v);
        }
        *out = owned(arr);
        return 0;
    }
    }
    return fail(c, e->start, "internal error: unknown expression");
}

static int out_append(ctx *c, const char *s, size_t n, size_t pos)
{
    if (n > c->max_output - c->out.len)
        return fail(c, pos, "output exceeds the limit of %zu bytes", c->max_output);
    buf_append(&c->out, s, n);
    return 0;
}

static int render_body(ctx *c, const body *b);

static void scope_push(ctx *c, const char *name, size_t len, const json_t *v)
{
    if (c->nscope == c->capscope) {
        c->capscope = c->capscope ? c->capscope * 2 : 16;
        c->scope = xrealloc(c->scope, c->capscope * sizeof *c->scope);
    }
    c->scope[c->nscope++] = (binding){name, len, v};
}

static int render_for(ctx *c, const node *n)
{
    val it;
    if (eval_defined(c, n->e, &it) < 0) return -1;
    const json_t *j = it.j;
    int rc = 0;
    if (j->type != JSON_ARRAY && j->type != JSON_OBJECT) {
        rc = fail(c, n->e->start, "cannot loop over a %s", type_name(j));
        goto out;
    }
    if (j->type == JSON_OBJECT && n->t2) {
        rc = fail(c, n->e->start, "looping over an object gives its keys; use .items() to get keys and values");
        goto out;
    }
    size_t len = j->type == JSON_ARRAY ? j->u.array.len : j->u.object.len;
    if (len == 0) {
        rc = render_body(c, &n->else_body);
        goto out;
    }
    json_t *loop = json_object();
    static const char *fields[] = {"index", "index0", "revindex", "revindex0", "first", "last", "length"};
    for (size_t i = 0; i < 7; i++) json_object_set(loop, fields[i], json_number(0));
    json_t **f = xmalloc(7 * sizeof *f);
    for (size_t i = 0; i < 7; i++) f[i] = loop->u.object.items[i].value;
    f[6]->u.number = (double)len;
    size_t base = c->nscope;
    scope_push(c, "loop", 4, loop);
    scope_push(c, n->t1, n->t1len, NULL);
    if (n->t2) scope_push(c, n->t2, n->t2len, NULL);
    for (size_t i = 0; i < len && rc == 0; i++) {
        if (++c->iterations > TEMPLATE_MAX_ITERATIONS) {
            rc = fail(c, n->pos, "too many loop iterations (more than %d)", TEMPLATE_MAX_ITERATIONS);
            break;
        }
        f[0]->u.number = (double)(i + 1);
        f[1]->u.number = (double)i;
        f[2]->u.number = (double)(len - i);
        f[3]->u.number = (double)(len - i - 1);
        f[4]->type = i == 0 ? JSON_TRUE : JSON_FALSE;
        f[5]->type = i + 1 == len ? JSON_TRUE : JSON_FALSE;
        json_t *key = NULL;
        const json_t *item;
        if (j->type == JSON_ARRAY) {
            item = j->u.array.items[i];
        } else {
            key = json_stringn(j->u.object.items[i].key, j->u.object.items[i].key_len);
            item = key;
        }
        if (n->t2) {
            if (item->type != JSON_ARRAY || item->u.array.len != 2) {
                rc = fail(c, n->e->start, "cannot unpack a %s into two loop variables (need a two-element list)",
                          item->type == JSON_ARRAY ? "list of another length" : type_name(item));
                json_free(key);
                break;
            }
            c->scope[base + 1].v = item->u.array.items[0];
            c->scope[base + 2].v = item->u.array.items[1];
        } else {
            c->scope[base + 1].v = item;
        }
        rc = render_body(c, &n->body);
        json_free(key);
    }
    c->nscope = base;
    free(f);
    json_free(loop);
out:
    val_free(&it);
    return rc;
}

static void add_included_from(ctx *c, const tmpl *from, size_t pos)
{
    if (!c->error) return;
    int line, col;
    line_col(from->src, from->len, pos, &line, &col);
    char *e2 = xasprintf("%s (included from %s:%d:%d)", c->error, from->name, line, col);
    free(c->error);
    c->error = e2;
}

static int render_include(ctx *c, const node *n)
{
    val v;
    if (eval_defined(c, n->e, &v) < 0) return -1;
    if (v.j->type != JSON_STRING) {
        fail(c, n->e->start, "include needs a template name (a string), not a %s", type_name(v.j));
        val_free(&v);
        return -1;
    }
    char *name = xstrndup(v.j->u.string.bytes, v.j->u.string.len);
    size_t name_len = v.j->u.string.len;
    val_free(&v);
    int rc = -1;
    if (!c->include) {
        fail(c, n->pos, "{%% include %%} is not available here");
        goto out;
    }
    if (strlen(name) != name_len) {
        fail(c, n->e->start, "include name contains a NUL byte");
        goto out;
    }
    if (c->include_depth >= c->max_include_depth) {
        fail(c, n->pos, "includes nested too deeply (more than %d) including '%.200s'", c->max_include_depth, name);
        goto out;
    }
    tmpl *t = NULL;
    for (size_t i = 0; i < c->nincs; i++)
        if (c->incs[i].name_len == name_len && !memcmp(c->incs[i].name, name, name_len)) t = c->incs[i].t;
    if (!t) {
        if (c->nincs >= TEMPLATE_MAX_INCLUDES) {
            fail(c, n->pos, "too many different included templates (more than %d)", TEMPLATE_MAX_INCLUDES);
            goto out;
        }
        char *source = NULL, *err = NULL;
        size_t slen = 0;
        if (c->include(c->include_ctx, name, &source, &slen, &err) != 0) {
            fail(c, n->pos, "include '%.200s': %s", name, err ? err : "cannot load");
            free(err);
            free(source);
            goto out;
        }
        free(err);
        if (!source) source = xstrdup("");
        char *perror_ = NULL;
        t = parse_template(source, slen, name, &perror_);
        if (!t) {
            free(source);
            if (!c->error) c->error = perror_;
            else free(perror_);
            add_included_from(c, c->cur, n->pos);
            goto out;
        }
        t->owned_src = source;
        c->incs = xrealloc(c->incs, (c->nincs + 1) * sizeof *c->incs);
        c->incs[c->nincs++] = (inc_entry){xstrndup(name, name_len), name_len, t};
    }
    const tmpl *saved = c->cur;
    c->cur = t;
    c->include_depth++;
    rc = render_body(c, &t->body);
    c->include_depth--;
    c->cur = saved;
    if (rc < 0) add_included_from(c, saved, n->pos);
out:
    free(name);
    return rc;
}

static int render_node(ctx *c, const node *n)
{
    if (charge(c, 1, n->pos) < 0) return -1;
    switch (n->kind) {
    case N_TEXT:
        return out_append(c, c->cur->src + n->text_start, n->text_len, n->pos);
    case N_OUT: {
        val v;
        if (eval_defined(c, n->e, &v) < 0) return -1;
        int rc = 0;
        const json_t *j = v.j;
        if (j->type == JSON_STRING) {
            rc = out_append(c, j->u.string.bytes, j->u.string.len, n->pos);
        } else {
            buf b = {0};
            put_value(&b, j);
            rc = charge(c, print_cost(j, b.len), n->pos);
            if (rc == 0) rc = out_append(c, b.data ? b.data : "", b.len, n->pos);
            buf_free(&b);
        }
        val_free(&v);
        return rc;
    }
    case N_IF:
        for (size_t i = 0; i < n->nconds; i++) {
            bool t;
            if (eval_truth(c, n->conds[i], &t) < 0) return -1;
            if (t) return render_body(c, &n->bodies[i]);
        }
        return render_body(c, &n->else_body);
    case N_FOR:
        return render_for(c, n);
    case N_INCLUDE:
        return render_include(c, n);
    }
    return fail(c, n->pos, "internal error: unknown node");
}

static int render_body(ctx *c, const body *b)
{
    if (++c->depth > MAX_EVAL_DEPTH) {
        c->depth--;
        return fail(c, b->len ? b->items[0]->pos : 0, "templates nested too deeply (more than %d levels)", MAX_EVAL_DEPTH);
    }
    int rc = 0;
    for (size_t i = 0; i < b->len && rc == 0; i++) rc = render_node(c, b->items[i]);
    c->depth--;
    return rc;
}

char *template_render(const char *src, size_t len, const json_t *vars, const template_options *opt, size_t *out_len,
                      char **error)
{
    template_options defaults = {0};
    if (!opt) opt = &defaults;
    const char *name = opt->name ? opt->name : "<inline>";
    if (out_len) *out_len = 0;
    if (error) *error = NULL;
    char *err = NULL;
    if (vars && vars->type != JSON_OBJECT) {
        err = xasprintf("%s: template variables must be an object, not a %s", name, type_name(vars));
        goto fail;
    }
    tmpl *t = parse_template(src ? src : "", src ? len : 0, name, &err);
    if (!t) goto fail;
    ctx c = {0};
    c.max_output = opt->max_output ? opt->max_output : TEMPLATE_DEFAULT_MAX_OUTPUT;
    c.max_include_depth = opt->max_include_depth > 0 ? opt->max_include_depth : TEMPLATE_DEFAULT_MAX_INCLUDE_DEPTH;
    c.include = opt->include;
    c.include_ctx = opt->include_ctx;
    c.vars = vars;
    c.cur = t;
    int rc = render_body(&c, &t->body);
    for (size_t i = 0; i < c.nincs; i++) {
        free(c.incs[i].name);
        tmpl_free(c.incs[i].t);
    }
    free(c.incs);
    free(c.scope);
    tmpl_free(t);
    if (rc < 0) {
        buf_free(&c.out);
        err = c.error ? c.error : xasprintf("%s: template error", name);
        goto fail;
    }
    free(c.error);
    if (out_len) *out_len = c.out.len;
    return buf_steal(&c.out);
fail:
    if (error) *error = err;
    else free(err);
    return NULL;
}
