/*
 * ts_strip.c — chidori's TypeScript eraser (see ts_strip.h for the contract).
 *
 * Owns: a recursive-descent recogniser of the TypeScript grammar that records
 * edits (byte ranges to blank, text to insert) over the token array produced
 * by ts_lex.c, an import-elision pass, and the writer that applies the edits.
 * Trusts: nothing in the input.  Recursion is bounded by TS_STRIP_MAX_DEPTH;
 * errors unwind with longjmp to ts_strip() (all memory is owned by the parser
 * struct and freed there, so unwinding leaks nothing).
 *
 * How it works:
 *  - Statements and expressions are parsed just far enough to know where
 *    types can appear.  Types themselves are never edited piecemeal: the type
 *    skipper (skip_*) only finds where a type ends; the caller blanks the
 *    whole range.  Bracketed parts of types ({...}, [...], (...)) are jumped
 *    over with the lexer's bracket matching, which keeps this fast.
 *  - Ambiguities (`a < b > (c)`, `(x): T => x`, `<T>(x) => x`) are resolved
 *    like TypeScript does, by speculatively skipping a type and looking at the
 *    next token.  Speculation only runs the pure type skipper, so it never
 *    has edits to undo.  Type-argument lists are memoised per `<` token so
 *    chains like `a < b < c < d ...` stay linear.
 *  - A fully erased statement or class member gets a `;` in place of its
 *    first character, so erasing a line can never glue the statements around
 *    it together (ASI).
 */
#include "ts_strip.h"
#include "ts_lex.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Growable arrays                                                           */

#define VEC(T) struct { T *v; size_t n, cap; }
typedef VEC(int32_t) i32vec;
typedef VEC(uint8_t) u8vec;

typedef struct range { uint32_t a, b; } range;
typedef struct insert_op { uint32_t pos, del, text_off, text_len, seq; } insert_op;

/* One binding introduced by an import declaration (for elision). */
typedef struct import_binding { int32_t local; uint32_t a, b; } import_binding;
typedef struct import_decl {
    int32_t first_tok, last_tok;       /* the whole statement */
    import_binding def, ns;            /* default / namespace binding (local < 0: absent) */
    int32_t comma_tok;                 /* comma after the default binding, or -1 */
    int32_t group_first, group_last;   /* `{ ... }` or `* as X` tokens, or -1 */
    size_t spec_first, spec_count;     /* named specifiers in parser.specs */
} import_decl;
typedef struct export_decl { int32_t first_tok, last_tok; size_t spec_first, spec_count; } export_decl;

/* Hash set of names (byte ranges of the source) tagged with a scope id. */
typedef struct name_entry { uint32_t off, len; int32_t tag; } name_entry;
typedef struct name_set { name_entry *v; size_t cap, n; } name_set;

typedef struct ns_ctx { int32_t name_tok; } ns_ctx;

typedef struct parser {
    const char *src;
    uint32_t len;
    ts_tok *tk;
    int32_t ntk, i;
    jmp_buf *jb;
    int depth, spec, no_in, no_cond, no_arrow_ret;
    ts_error *err;
    bool have_err;

    VEC(range) blanks;
    VEC(insert_op) inserts;
    VEC(char) text;
    uint32_t seq;
    int32_t *targ_memo;           /* per token: 0 unknown, -1 fail, else index after `>` */

    VEC(import_decl) imports;
    VEC(import_binding) specs;
    VEC(export_decl) exports;
    VEC(import_binding) export_specs;
    i32vec type_names;            /* top-level interface / type alias names */
    i32vec collect;               /* identifiers bound by the binding being parsed */
    bool collecting;

    name_set declared;            /* (name, scope) of function/class/enum/namespace/var */
    int32_t scope, next_scope;
    ns_ctx *ns;                   /* namespace whose body we are directly in */
    int32_t hw;                   /* furthest token reached (speculation budget) */
    uint64_t spec_work;           /* tokens spent in speculative arrow parses */
    /* Scratch owned by the parser (so an error unwinding with longjmp leaks
     * nothing): a text builder, and a stack of token indices used by enums,
     * namespaces and constructors (each truncates back to its base). */
    struct sbuf_ { char *v; size_t n, cap; } sb;
    i32vec stack;
} parser;

static void fail_at(parser *p, int32_t tok, const char *fmt, ...);

static void *grow(parser *p, void *v, size_t *cap, size_t elem)
{
    size_t ncap = *cap ? *cap * 2 : 16;
    void *n = realloc(v, ncap * elem);
    if (!n) fail_at(p, p->i, "out of memory");
    *cap = ncap;
    return n;
}
#define PUSH(p, vec, val)                                                          \
    do {                                                                           \
        if ((vec).n == (vec).cap) (vec).v = grow((p), (vec).v, &(vec).cap, sizeof *(vec).v); \
        (vec).v[(vec).n++] = (val);                                                \
    } while (0)

/* ------------------------------------------------------------------------ */
/* Errors                                                                    */

/* 1-based line and column (in code points) of a byte offset. */
static void pos_to_line_col(const char *src, size_t len, size_t pos, int *line, int *col)
{
    const unsigned char *s = (const unsigned char *)src;
    int ln = 1, cl = 1;
    if (pos > len) pos = len;
    for (size_t k = 0; k < pos; k++) {
        unsigned char c = s[k];
        if (c == '\n' || (c == '\r' && !(k + 1 < len && s[k + 1] == '\n'))) { ln++; cl = 1; continue; }
        if (c == 0xE2 && k + 2 < len && s[k + 1] == 0x80 && (s[k + 2] == 0xA8 || s[k + 2] == 0xA9)) {
            ln++; cl = 1; k += 2; continue;
        }
        if (c == '\r') continue;
        if ((c & 0xC0) != 0x80) cl++;
    }
    *line = ln;
    *col = cl;
}

static void fail_at(parser *p, int32_t tok, const char *fmt, ...)
{
    if (!p->spec && !p->have_err) {
        if (tok < 0) tok = 0;
        if (tok >= p->ntk) tok = p->ntk - 1;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(p->err->message, sizeof p->err->message, fmt, ap);
        va_end(ap);
        pos_to_line_col(p->src, p->len, p->tk[tok].start, &p->err->line, &p->err->col);
        p->have_err = true;
    }
    longjmp(*p->jb, 1);
}

/* ------------------------------------------------------------------------ */
/* Token helpers                                                             */

static const ts_tok *tok_at(const parser *p, int32_t k)
{
    if (k < 0) k = 0;
    return &p->tk[k < p->ntk ? k : p->ntk - 1];
}
static const ts_tok *cur(const parser *p) { return tok_at(p, p->i); }
static bool op_at(const parser *p, int32_t k, int op)
{
    const ts_tok *t = tok_at(p, k);
    return t->kind == TK_PUNCT && t->op == op;
}
static bool is_op(const parser *p, int op) { return op_at(p, p->i, op); }
static bool kind_at(const parser *p, int32_t k, int kind) { return tok_at(p, k)->kind == kind; }
static bool word_at(const parser *p, int32_t k, const char *w)
{
    const ts_tok *t = tok_at(p, k);
    size_t n = strlen(w);
    return t->kind == TK_IDENT && t->end - t->start == n && memcmp(p->src + t->start, w, n) == 0;
}
static bool is_word(const parser *p, const char *w) { return word_at(p, p->i, w); }
static bool ident_at(const parser *p, int32_t k) { return kind_at(p, k, TK_IDENT); }
static bool nl_at(const parser *p, int32_t k) { return tok_at(p, k)->nl_before; }
static bool at_eof(const parser *p) { return cur(p)->kind == TK_EOF; }
static void next(parser *p)
{
    if (p->i < p->ntk - 1) p->i++;
    if (p->i > p->hw) p->hw = p->i;
}
static uint32_t tok_end(const parser *p, int32_t k) { return tok_at(p, k)->end; }
static uint32_t tok_start(const parser *p, int32_t k) { return tok_at(p, k)->start; }
/* End offset of the last consumed token. */
static uint32_t prev_end(const parser *p) { return p->i > 0 ? tok_end(p, p->i - 1) : 0; }

static const char *describe(const parser *p, int32_t k, char *buf, size_t n)
{
    const ts_tok *t = tok_at(p, k);
    if (t->kind == TK_EOF) return "end of file";
    size_t l = t->end - t->start;
    if (l > 24) l = 24;
    snprintf(buf, n, "'%.*s'", (int)l, p->src + t->start);
    return buf;
}

static void expect_op(parser *p, int op, const char *what)
{
    if (!is_op(p, op)) {
        char b[40];
        fail_at(p, p->i, "expected '%s' but found %s", what, describe(p, p->i, b, sizeof b));
    }
    next(p);
}

static bool eat_op(parser *p, int op)
{
    if (!is_op(p, op)) return false;
    next(p);
    return true;
}

static void expect_ident(parser *p, const char *what)
{
    if (!ident_at(p, p->i)) {
        char b[40];
        fail_at(p, p->i, "expected %s but found %s", what, describe(p, p->i, b, sizeof b));
    }
    next(p);
}

static void expect_word(parser *p, const char *w)
{
    if (!is_word(p, w)) {
        char b[40];
        fail_at(p, p->i, "expected '%s' but found %s", w, describe(p, p->i, b, sizeof b));
    }
    next(p);
}

/* Jumps from an opening bracket to just after its match. */
static void skip_group(parser *p)
{
    int32_t m = cur(p)->match;
    if (m <= p->i) fail_at(p, p->i, "unbalanced bracket");
    p->i = m;
    next(p);
}

/* Each bracket level of source costs a handful of C frames (assignment,
 * conditional, binary, unary, member ...), so the frame budget is a multiple
 * of the nesting limit; brackets themselves are limited by the lexer. */
#define MAX_FRAMES (8 * TS_STRIP_MAX_DEPTH)
#define ENTER(p)                                                                   \
    do {                                                                           \
        if (++(p)->depth > MAX_FRAMES)                                             \
            fail_at((p), (p)->i, "nesting deeper than %d levels", TS_STRIP_MAX_DEPTH); \
    } while (0)
#define LEAVE(p) ((p)->depth--)

/* ------------------------------------------------------------------------ */
/* Edits                                                                     */

static void blank(parser *p, uint32_t a, uint32_t b)
{
    if (a < b) PUSH(p, p->blanks, ((range){a, b}));
}

/* Blanks tokens first..last inclusive. */
static void blank_toks(parser *p, int32_t first, int32_t last)
{
    if (last >= first) blank(p, tok_start(p, first), tok_end(p, last));
}

/* Replaces del bytes at pos with text (del 0: pure insertion). */
static void insert_text(parser *p, uint32_t pos, uint32_t del, const char *s, size_t n)
{
    insert_op op = {pos, del, (uint32_t)p->text.n, (uint32_t)n, p->seq++};
    for (size_t k = 0; k < n; k++) PUSH(p, p->text, s[k]);
    PUSH(p, p->inserts, op);
}

/* Builds insertion text piece by piece (kept in a small local buffer type). */
typedef struct sbuf_ sbuf;
static void sb_add(parser *p, sbuf *b, const char *s, size_t n)
{
    for (size_t k = 0; k < n; k++) PUSH(p, *b, s[k]);
}
static void sb_str(parser *p, sbuf *b, const char *s) { sb_add(p, b, s, strlen(s)); }
static void sb_tok(parser *p, sbuf *b, int32_t k)
{
    sb_add(p, b, p->src + tok_start(p, k), tok_end(p, k) - tok_start(p, k));
}
static void sb_insert(parser *p, sbuf *b, uint32_t pos, uint32_t del)
{
    insert_text(p, pos, del, b->v ? b->v : "", b->n);
    b->n = 0;
}

/* Erases tokens first..last (a whole statement or class member).  The first
 * character becomes `;` so the code before and after cannot merge. */
static void erase_stmt(parser *p, int32_t first, int32_t last)
{
    if (last < first) return;
    blank_toks(p, first, last);
    insert_text(p, tok_start(p, first), 1, ";", 1);
}

typedef struct edit_mark { size_t blanks, inserts; } edit_mark;
static edit_mark mark_edits(const parser *p) { return (edit_mark){p->blanks.n, p->inserts.n}; }
static void drop_edits(parser *p, edit_mark m)
{
    p->blanks.n = m.blanks;
    p->inserts.n = m.inserts;
}

/* ------------------------------------------------------------------------ */
/* Name sets                                                                 */

static uint32_t hash_name(const char *s, uint32_t n, int32_t tag)
{
    uint32_t h = 2166136261u ^ (uint32_t)tag;
    for (uint32_t k = 0; k < n; k++) h = (h ^ (unsigned char)s[k]) * 16777619u;
    return h;
}

static bool name_set_has(const parser *p, const name_set *set, uint32_t off, uint32_t len, int32_t tag)
{
    if (!set->cap) return false;
    size_t mask = set->cap - 1;
    for (size_t h = hash_name(p->src + off, len, tag) & mask;; h = (h + 1) & mask) {
        const name_entry *e = &set->v[h];
        if (!e->len) return false;
        if (e->tag == tag && e->len == len && memcmp(p->src + e->off, p->src + off, len) == 0) return true;
    }
}

static void name_set_add(parser *p, name_set *set, uint32_t off, uint32_t len, int32_t tag)
{
    if (!len || name_set_has(p, set, off, len, tag)) return;
    if ((set->n + 1) * 2 > set->cap) {
        size_t ncap = set->cap ? set->cap * 2 : 64;
        name_entry *nv = calloc(ncap, sizeof *nv);
        if (!nv) fail_at(p, p->i, "out of memory");
        for (size_t k = 0; k < set->cap; k++) {
            name_entry e = set->v[k];
            if (!e.len) continue;
            size_t h = hash_name(p->src + e.off, e.len, e.tag) & (ncap - 1);
            while (nv[h].len) h = (h + 1) & (ncap - 1);
            nv[h] = e;
        }
        free(set->v);
        set->v = nv;
        set->cap = ncap;
    }
    size_t h = hash_name(p->src + off, len, tag) & (set->cap - 1);
    while (set->v[h].len) h = (h + 1) & (set->cap - 1);
    set->v[h] = (name_entry){off, len, tag};
    set->n++;
}

static void declare_name(parser *p, int32_t tok)
{
    name_set_add(p, &p->declared, tok_start(p, tok), tok_end(p, tok) - tok_start(p, tok), p->scope);
}
static bool is_declared(const parser *p, int32_t tok)
{
    return name_set_has(p, &p->declared, tok_start(p, tok), tok_end(p, tok) - tok_start(p, tok), p->scope);
}

/* ------------------------------------------------------------------------ */
/* Speculation                                                               */

typedef void (*skip_fn)(parser *);

/* Everything a failed speculation must put back. */
typedef struct spec_state {
    int32_t i;
    int depth, no_cond, no_in, no_arrow_ret;
    int32_t scope;
    ns_ctx *ns;
    bool collecting;
    size_t collect_n, stack_n;
    edit_mark edits;
} spec_state;

/* Calls fn with a fresh error handler: true if it returned, false if it
 * failed.  Nothing local changes after setjmp, so nothing can be clobbered. */
static bool guarded_call(parser *p, skip_fn fn)
{
    jmp_buf jb;
    jmp_buf *outer = p->jb;
    p->jb = &jb;
    if (setjmp(jb) != 0) {
        p->jb = outer;
        return false;
    }
    fn(p);
    p->jb = outer;
    return true;
}

/* Runs fn; on failure restores the parser and returns false.  With
 * keep_edits false, fn must be a pure skipper and any edits are dropped. */
static bool speculate_ex(parser *p, skip_fn fn, bool keep_edits)
{
    spec_state s = {p->i, p->depth, p->no_cond, p->no_in, p->no_arrow_ret, p->scope,
                    p->ns, p->collecting, p->collect.n, p->stack.n, mark_edits(p)};
    p->spec++;
    bool ok = guarded_call(p, fn);
    p->spec--;
    if (!ok) {
        p->i = s.i;
        p->depth = s.depth;
        p->no_cond = s.no_cond;
        p->no_in = s.no_in;
        p->no_arrow_ret = s.no_arrow_ret;
        p->scope = s.scope;
        p->ns = s.ns;
        p->collecting = s.collecting;
        p->collect.n = s.collect_n;
        p->stack.n = s.stack_n;
    }
    if (!ok || !keep_edits) drop_edits(p, s.edits);
    return ok;
}

static bool speculate(parser *p, skip_fn fn) { return speculate_ex(p, fn, false); }

/* ------------------------------------------------------------------------ */
/* Types: skippers.  They only move p->i; callers blank the range.           */

static void skip_type(parser *p);
static void skip_type_args(parser *p);

static void skip_type_params_body(parser *p)
{
    expect_op(p, P_LT, "<");
    while (!is_op(p, P_GT)) {
        while ((is_word(p, "const") || is_word(p, "in") || is_word(p, "out")) && ident_at(p, p->i + 1) &&
               !word_at(p, p->i + 1, "extends"))
            next(p);
        expect_ident(p, "type parameter name");
        if (is_word(p, "extends")) { next(p); skip_type(p); }
        if (eat_op(p, P_EQ)) skip_type(p);
        if (!eat_op(p, P_COMMA)) break;
    }
    expect_op(p, P_GT, ">");
}

static void skip_type_params(parser *p)
{
    ENTER(p);
    skip_type_params_body(p);
    LEAVE(p);
}

static void skip_type_args_body(parser *p)
{
    expect_op(p, P_LT, "<");
    if (is_op(p, P_GT)) fail_at(p, p->i, "type argument list cannot be empty");
    for (;;) {
        skip_type(p);
        if (!eat_op(p, P_COMMA)) break;
        if (is_op(p, P_GT)) break;
    }
    expect_op(p, P_GT, ">");
}

/* Memoised: the result for a given `<` token never depends on context. */
static void skip_type_args(parser *p)
{
    int32_t at = p->i;
    int32_t m = p->targ_memo[at];
    if (m > 0) { p->i = m; return; }
    if (m < 0) fail_at(p, at, "invalid type argument list");
    ENTER(p);
    bool ok = speculate(p, skip_type_args_body);
    LEAVE(p);
    p->targ_memo[at] = ok ? p->i : -1;
    if (!ok) {
        /* Re-run for the error message when not speculating. */
        if (!p->spec) skip_type_args_body(p);
        fail_at(p, at, "invalid type argument list");
    }
}

static void skip_entity_name(parser *p)
{
    if (!ident_at(p, p->i)) expect_ident(p, "type name");
    next(p);
    while (is_op(p, P_DOT) && (ident_at(p, p->i + 1) || kind_at(p, p->i + 1, TK_PRIVATE))) {
        next(p);
        next(p);
    }
}

static void skip_primary_type(parser *p)
{
    const ts_tok *t = cur(p);
    char b[40];
    switch (t->kind) {
    case TK_PUNCT:
        if (t->op == P_LPAREN || t->op == P_LBRACK || t->op == P_LBRACE) { skip_group(p); return; }
        if (t->op == P_MINUS && kind_at(p, p->i + 1, TK_NUM)) { next(p); next(p); return; }
        break;
    case TK_STR: case TK_NUM: case TK_TEMPLATE: next(p); return;
    case TK_TEMPLATE_HEAD: {
        int32_t k = p->i;
        while (tok_at(p, k)->kind != TK_TEMPLATE_TAIL) {
            int32_t m = tok_at(p, k)->match;
            if (m <= k) fail_at(p, k, "unterminated template literal type");
            k = m;
        }
        p->i = k;
        next(p);
        return;
    }
    case TK_IDENT:
        if (is_word(p, "typeof")) {
            next(p);
            if (is_word(p, "import")) {
                next(p);
                if (!is_op(p, P_LPAREN)) expect_op(p, P_LPAREN, "(");
                skip_group(p);
                while (is_op(p, P_DOT)) { next(p); expect_ident(p, "name"); }
            } else {
                skip_entity_name(p);
            }
            if (is_op(p, P_LT) && !nl_at(p, p->i)) skip_type_args(p);
            return;
        }
        if (is_word(p, "import") && op_at(p, p->i + 1, P_LPAREN)) {
            next(p);
            skip_group(p);
            while (is_op(p, P_DOT)) { next(p); expect_ident(p, "name"); }
            if (is_op(p, P_LT) && !nl_at(p, p->i)) skip_type_args(p);
            return;
        }
        skip_entity_name(p);
        if (is_op(p, P_LT) && !nl_at(p, p->i)) skip_type_args(p);
        return;
    default: break;
    }
    fail_at(p, p->i, "expected a type but found %s", describe(p, p->i, b, sizeof b));
}

static void skip_postfix_type(parser *p)
{
    skip_primary_type(p);
    while (is_op(p, P_LBRACK) && !nl_at(p, p->i)) skip_group(p);
}

static void skip_infer_constraint(parser *p)
{
    next(p); /* extends */
    p->no_cond++;
    skip_type(p);
    p->no_cond--;
}

static void skip_type_operator(parser *p)
{
    ENTER(p);
    if ((is_word(p, "keyof") || is_word(p, "unique") || is_word(p, "readonly")) &&
        !op_at(p, p->i + 1, P_COMMA) && !op_at(p, p->i + 1, P_GT) && !op_at(p, p->i + 1, P_RPAREN) &&
        !op_at(p, p->i + 1, P_RBRACK) && !op_at(p, p->i + 1, P_SEMI) && !op_at(p, p->i + 1, P_EQ) &&
        !op_at(p, p->i + 1, P_PIPE) && !op_at(p, p->i + 1, P_AMP) && !op_at(p, p->i + 1, P_RBRACE) &&
        !op_at(p, p->i + 1, P_LBRACK) && !kind_at(p, p->i + 1, TK_EOF)) {
        next(p);
        skip_type_operator(p);
    } else if (is_word(p, "infer") && ident_at(p, p->i + 1)) {
        next(p);
        next(p);
        if (is_word(p, "extends") && !nl_at(p, p->i)) {
            /* `infer U extends C` unless that `extends` starts a conditional type. */
            int32_t save = p->i;
            int outer_no_cond = p->no_cond;
            if (!speculate(p, skip_infer_constraint) || (!outer_no_cond && is_op(p, P_QUESTION)))
                p->i = save;
        }
    } else {
        skip_postfix_type(p);
    }
    LEAVE(p);
}

static void skip_union(parser *p)
{
    if (is_op(p, P_PIPE) || is_op(p, P_AMP)) next(p);
    skip_type_operator(p);
    while (is_op(p, P_PIPE) || is_op(p, P_AMP)) {
        next(p);
        skip_type_operator(p);
    }
}

static void skip_return_type(parser *p);

/* TypeScript's isUnambiguouslyStartOfFunctionType for the `(` at k:
 * `()`, `(...`, `(x:`, `(x,`, `(x?`, `(x=`, `(x) =>`, and patterns alike. */
static bool paren_starts_function_type(const parser *p, int32_t k)
{
    int32_t n = k + 1;
    if (op_at(p, n, P_RPAREN) || op_at(p, n, P_ELLIPSIS)) return true;
    static const char *const mods[] = {"public", "private", "protected", "readonly", NULL};
    for (int j = 0; mods[j]; j++)
        if (word_at(p, n, mods[j]) && ident_at(p, n + 1)) n++;
    if (ident_at(p, n)) n++;
    else if (op_at(p, n, P_LBRACK) || op_at(p, n, P_LBRACE)) {
        int32_t m = tok_at(p, n)->match;
        if (m <= n) return false;
        n = m + 1;
    } else return false;
    if (op_at(p, n, P_COLON) || op_at(p, n, P_COMMA) || op_at(p, n, P_QUESTION) || op_at(p, n, P_EQ)) return true;
    return op_at(p, n, P_RPAREN) && op_at(p, n + 1, P_ARROW);
}

/* `(a: A) => R`, `<T>(a: T) => R`, `new (...) => R`, `abstract new () => R` */
static bool skip_function_type(parser *p)
{
    int32_t k = p->i;
    if (word_at(p, k, "abstract") && word_at(p, k + 1, "new")) k++;
    bool ctor = word_at(p, k, "new") && (op_at(p, k + 1, P_LPAREN) || op_at(p, k + 1, P_LT));
    if (ctor) k++;
    if (op_at(p, k, P_LT)) {
        p->i = k;
        skip_type_params(p);
    } else if (op_at(p, k, P_LPAREN)) {
        if (!ctor && !paren_starts_function_type(p, k)) return false;
        p->i = k;
    } else {
        return false;
    }
    if (!is_op(p, P_LPAREN)) expect_op(p, P_LPAREN, "(");
    skip_group(p);
    expect_op(p, P_ARROW, "=>");
    skip_return_type(p);
    return true;
}

static void skip_type(parser *p)
{
    ENTER(p);
    if (!skip_function_type(p)) {
        skip_union(p);
        if (!p->no_cond && is_word(p, "extends") && !nl_at(p, p->i)) {
            next(p);
            p->no_cond++;
            skip_type(p);
            p->no_cond--;
            expect_op(p, P_QUESTION, "?");
            skip_type(p);
            expect_op(p, P_COLON, ":");
            skip_type(p);
        }
    }
    LEAVE(p);
}

/* Return types may be type predicates: `x is T`, `asserts x is T`, `asserts x`. */
static void skip_return_type(parser *p)
{
    ENTER(p);
    if (is_word(p, "asserts") && ident_at(p, p->i + 1) && !nl_at(p, p->i + 1)) {
        next(p);
        next(p);
        if (is_word(p, "is") && !nl_at(p, p->i)) { next(p); skip_type(p); }
    } else if (ident_at(p, p->i) && word_at(p, p->i + 1, "is") && !nl_at(p, p->i + 1)) {
        next(p);
        next(p);
        skip_type(p);
    } else {
        skip_type(p);
    }
    LEAVE(p);
}

/* Blanks `: Type` starting at the colon. */
static void erase_annotation(parser *p)
{
    uint32_t a = cur(p)->start;
    next(p);
    skip_type(p);
    blank(p, a, prev_end(p));
}

static void erase_return_annotation(parser *p)
{
    uint32_t a = cur(p)->start;
    next(p);
    skip_return_type(p);
    blank(p, a, prev_end(p));
}

static void erase_type_params(parser *p)
{
    uint32_t a = cur(p)->start;
    skip_type_params(p);
    blank(p, a, prev_end(p));
}

/* ------------------------------------------------------------------------ */
/* Expressions                                                               */

static void parse_expr(parser *p);
static void parse_assign(parser *p);
static void parse_unary(parser *p);
static void parse_lhs(parser *p);
static void parse_function(parser *p, int32_t stmt_first, bool is_decl);
static void parse_class(parser *p, int32_t stmt_first, bool is_decl);
static void parse_function_body(parser *p);
static void parse_binding(parser *p);
typedef struct param_props { size_t base; } param_props; /* names: p->stack[base..] */
static void parse_params(parser *p, param_props *props);

static void parse_template(parser *p)
{
    next(p); /* head */
    for (;;) {
        parse_expr(p);
        if (kind_at(p, p->i, TK_TEMPLATE_MIDDLE)) { next(p); continue; }
        if (kind_at(p, p->i, TK_TEMPLATE_TAIL)) { next(p); return; }
        fail_at(p, p->i, "expected '}' in template literal");
    }
}

static void parse_args(parser *p)
{
    int save = p->no_in, save_arrow = p->no_arrow_ret;
    p->no_in = 0;
    p->no_arrow_ret = 0;
    next(p); /* ( */
    while (!is_op(p, P_RPAREN)) {
        eat_op(p, P_ELLIPSIS);
        parse_assign(p);
        if (!is_op(p, P_RPAREN)) expect_op(p, P_COMMA, ",");
    }
    next(p);
    p->no_in = save;
    p->no_arrow_ret = save_arrow;
}

static bool is_property_name_start(const parser *p, int32_t k)
{
    const ts_tok *t = tok_at(p, k);
    return t->kind == TK_IDENT || t->kind == TK_STR || t->kind == TK_NUM || t->kind == TK_PRIVATE ||
           (t->kind == TK_PUNCT && (t->op == P_LBRACK || t->op == P_STAR));
}

static void parse_property_name(parser *p)
{
    const ts_tok *t = cur(p);
    if (t->kind == TK_IDENT || t->kind == TK_STR || t->kind == TK_NUM || t->kind == TK_PRIVATE) {
        next(p);
    } else if (is_op(p, P_LBRACK)) {
        int save = p->no_in;
        p->no_in = 0;
        next(p);
        parse_assign(p);
        expect_op(p, P_RBRACK, "]");
        p->no_in = save;
    } else {
        char b[40];
        fail_at(p, p->i, "expected a property name but found %s", describe(p, p->i, b, sizeof b));
    }
}

/* Method tail after the name: `<T>(params): R { body }`. */
static void parse_method_rest(parser *p)
{
    if (is_op(p, P_LT)) erase_type_params(p);
    if (!is_op(p, P_LPAREN)) expect_op(p, P_LPAREN, "(");
    parse_params(p, NULL);
    if (is_op(p, P_COLON)) erase_return_annotation(p);
    if (!is_op(p, P_LBRACE)) expect_op(p, P_LBRACE, "{");
    parse_function_body(p);
}

static void parse_object_literal(parser *p)
{
    int save = p->no_in, save_arrow = p->no_arrow_ret;
    p->no_in = 0;
    p->no_arrow_ret = 0;
    next(p); /* { */
    while (!is_op(p, P_RBRACE)) {
        if (eat_op(p, P_ELLIPSIS)) {
            parse_assign(p);
        } else {
            if ((is_word(p, "get") || is_word(p, "set") || is_word(p, "async")) &&
                is_property_name_start(p, p->i + 1) && !(is_word(p, "async") && nl_at(p, p->i + 1)))
                next(p);
            eat_op(p, P_STAR);
            parse_property_name(p);
            if (is_op(p, P_LPAREN) || is_op(p, P_LT)) {
                parse_method_rest(p);
            } else if (eat_op(p, P_COLON) || eat_op(p, P_EQ)) {
                parse_assign(p);
            }
        }
        if (!is_op(p, P_RBRACE)) expect_op(p, P_COMMA, ",");
    }
    next(p);
    p->no_in = save;
    p->no_arrow_ret = save_arrow;
}

static void parse_array_literal(parser *p)
{
    int save = p->no_in, save_arrow = p->no_arrow_ret;
    p->no_in = 0;
    p->no_arrow_ret = 0;
    next(p); /* [ */
    while (!is_op(p, P_RBRACK)) {
        if (eat_op(p, P_COMMA)) continue;
        eat_op(p, P_ELLIPSIS);
        parse_assign(p);
        if (!is_op(p, P_RBRACK)) expect_op(p, P_COMMA, ",");
    }
    next(p);
    p->no_in = save;
    p->no_arrow_ret = save_arrow;
}

static void parse_primary(parser *p)
{
    const ts_tok *t = cur(p);
    char b[40];
    switch (t->kind) {
    case TK_IDENT:
        if (is_word(p, "function")) { parse_function(p, -1, false); return; }
        if (is_word(p, "async") && word_at(p, p->i + 1, "function") && !nl_at(p, p->i + 1)) {
            next(p);
            parse_function(p, -1, false);
            return;
        }
        if (is_word(p, "class")) { parse_class(p, -1, false); return; }
        if (is_word(p, "import")) {
            next(p);
            if (is_op(p, P_DOT)) { next(p); expect_ident(p, "'meta'"); return; }
            if (is_op(p, P_LPAREN)) { parse_args(p); return; }
            fail_at(p, p->i, "unexpected 'import'");
        }
        next(p);
        return;
    case TK_NUM: case TK_STR: case TK_REGEX: case TK_TEMPLATE: case TK_PRIVATE:
        next(p);
        return;
    case TK_TEMPLATE_HEAD: parse_template(p); return;
    case TK_PUNCT:
        if (t->op == P_LPAREN) {
            int save = p->no_in, save_arrow = p->no_arrow_ret;
            p->no_in = 0;
            p->no_arrow_ret = 0;
            next(p);
            parse_expr(p);
            expect_op(p, P_RPAREN, ")");
            p->no_in = save;
            p->no_arrow_ret = save_arrow;
            return;
        }
        if (t->op == P_LBRACK) { parse_array_literal(p); return; }
        if (t->op == P_LBRACE) { parse_object_literal(p); return; }
        if (t->op == P_AT) fail_at(p, p->i, "decorators are not supported");
        if (t->op == P_SLASH || t->op == P_SLASHEQ)
            fail_at(p, p->i, "cannot tell a regular expression from a division here; add parentheses");
        break;
    default: break;
    }
    fail_at(p, p->i, "expected an expression but found %s", describe(p, p->i, b, sizeof b));
}

static bool is_binary_op_tok(const parser *p, int32_t k);

static bool starts_expression(const parser *p, int32_t k)
{
    const ts_tok *t = tok_at(p, k);
    switch (t->kind) {
    case TK_IDENT: case TK_NUM: case TK_STR: case TK_REGEX: case TK_TEMPLATE:
    case TK_TEMPLATE_HEAD: case TK_PRIVATE:
        return true;
    case TK_PUNCT:
        switch (t->op) {
        case P_LPAREN: case P_LBRACK: case P_LBRACE: case P_BANG: case P_TILDE: case P_PLUS:
        case P_MINUS: case P_INC: case P_DEC: case P_LT: case P_SLASH: case P_SLASHEQ: case P_AT:
            return true;
        default: return false;
        }
    default: return false;
    }
}

/* TypeScript's canFollowTypeArgumentsInExpression. */
static bool can_follow_type_args(const parser *p)
{
    const ts_tok *t = cur(p);
    if (t->kind == TK_TEMPLATE || t->kind == TK_TEMPLATE_HEAD) return true;
    if (t->kind == TK_PUNCT) {
        if (t->op == P_LPAREN) return true;
        if (t->op == P_LT || t->op == P_GT || t->op == P_PLUS || t->op == P_MINUS) return false;
    }
    return t->nl_before || is_binary_op_tok(p, p->i) || !starts_expression(p, p->i);
}

/* At `<` after an expression: erase `<T, U>` if TypeScript reads type arguments. */
static bool try_expr_type_args(parser *p)
{
    int32_t at = p->i;
    if (!speculate(p, skip_type_args)) return false;
    if (!can_follow_type_args(p)) {
        p->i = at;
        return false;
    }
    blank(p, tok_start(p, at), prev_end(p));
    return true;
}

static void parse_suffixes(parser *p, bool allow_call)
{
    for (;;) {
        const ts_tok *t = cur(p);
        if (t->kind == TK_TEMPLATE) { next(p); continue; }
        if (t->kind == TK_TEMPLATE_HEAD) { parse_template(p); continue; }
        if (t->kind != TK_PUNCT) return;
        switch (t->op) {
        case P_DOT:
            next(p);
            if (!ident_at(p, p->i) && !kind_at(p, p->i, TK_PRIVATE)) expect_ident(p, "property name");
            next(p);
            continue;
        case P_QDOT:
            if (!allow_call) return;
            next(p);
            if (is_op(p, P_LT)) {
                uint32_t a = cur(p)->start;
                skip_type_args(p);
                blank(p, a, prev_end(p));
            }
            if (is_op(p, P_LPAREN)) parse_args(p);
            else if (is_op(p, P_LBRACK)) {
                int save = p->no_in;
                p->no_in = 0;
                next(p);
                parse_expr(p);
                expect_op(p, P_RBRACK, "]");
                p->no_in = save;
            } else if (ident_at(p, p->i) || kind_at(p, p->i, TK_PRIVATE)) next(p);
            else expect_ident(p, "property name");
            continue;
        case P_LBRACK: {
            int save = p->no_in;
            p->no_in = 0;
            next(p);
            parse_expr(p);
            expect_op(p, P_RBRACK, "]");
            p->no_in = save;
            continue;
        }
        case P_LPAREN:
            if (!allow_call) return;
            parse_args(p);
            continue;
        case P_BANG:
            if (t->nl_before) return;
            blank(p, t->start, t->end);
            next(p);
            continue;
        case P_LT:
            if (try_expr_type_args(p)) continue;
            return;
        default: return;
        }
    }
}

static void parse_new(parser *p)
{
    ENTER(p);
    next(p); /* new */
    if (is_op(p, P_DOT)) {
        next(p);
        expect_ident(p, "'target'");
    } else {
        if (is_word(p, "new")) parse_new(p);
        else parse_primary(p);
        parse_suffixes(p, false);
        if (is_op(p, P_LPAREN)) parse_args(p);
    }
    LEAVE(p);
}

static void parse_lhs(parser *p)
{
    ENTER(p);
    if (is_word(p, "new")) parse_new(p);
    else parse_primary(p);
    parse_suffixes(p, true);
    LEAVE(p);
}

/* Number of `>` tokens glued together at k (adjacent, no space). */
static int glued_gt(const parser *p, int32_t k)
{
    int n = 1;
    while (n < 4 && op_at(p, k + n, P_GT) && tok_start(p, k + n) == tok_end(p, k + n - 1)) n++;
    return n;
}
static bool glued_eq_after(const parser *p, int32_t k)
{
    return op_at(p, k, P_EQ) && tok_start(p, k) == tok_end(p, k - 1);
}

/* Binary operator at k: returns precedence (0 if none) and token count. */
static int binary_op(const parser *p, int32_t k, int *ntoks)
{
    const ts_tok *t = tok_at(p, k);
    *ntoks = 1;
    if (t->kind == TK_IDENT) {
        if (word_at(p, k, "instanceof")) return 8;
        if (word_at(p, k, "in") && !p->no_in) return 8;
        return 0;
    }
    if (t->kind != TK_PUNCT) return 0;
    switch (t->op) {
    case P_QQ: return 1;
    case P_OROR: return 2;
    case P_ANDAND: return 3;
    case P_PIPE: return 4;
    case P_CARET: return 5;
    case P_AMP: return 6;
    case P_EQEQ: case P_NE: case P_EQEQEQ: case P_NEE: return 7;
    case P_LT: case P_LE: return 8;
    case P_GT: {
        int n = glued_gt(p, k);
        if (n > 3) return 0;
        if (glued_eq_after(p, k + n)) {
            if (n > 1) return 0;       /* >>= or >>>= is an assignment */
            *ntoks = 2;                /* >= */
            return 8;
        }
        *ntoks = n;
        return n == 1 ? 8 : 9;
    }
    case P_SHL: return 9;
    case P_PLUS: case P_MINUS: return 10;
    case P_STAR: case P_SLASH: case P_PERCENT: return 11;
    case P_STARSTAR: return 12;
    default: return 0;
    }
}

static bool is_binary_op_tok(const parser *p, int32_t k)
{
    int n;
    if (word_at(p, k, "as") || word_at(p, k, "satisfies")) return true;
    return binary_op(p, k, &n) > 0;
}

/* Token count of an assignment operator at k, or 0. */
static int assign_op(const parser *p, int32_t k)
{
    const ts_tok *t = tok_at(p, k);
    if (t->kind != TK_PUNCT) return 0;
    switch (t->op) {
    case P_EQ: case P_PLUSEQ: case P_MINUSEQ: case P_STAREQ: case P_SLASHEQ: case P_PERCENTEQ:
    case P_STARSTAREQ: case P_SHLEQ: case P_AMPEQ: case P_PIPEEQ: case P_CARETEQ: case P_ANDANDEQ:
    case P_OROREQ: case P_QQEQ:
        return 1;
    case P_GT: {
        int n = glued_gt(p, k);
        if ((n == 2 || n == 3) && glued_eq_after(p, k + n)) return n + 1;
        return 0;
    }
    default: return 0;
    }
}

/* `x as T` / `x satisfies T` / `x as const`: blank from the keyword on. */
static void erase_as_clause(parser *p)
{
    int32_t kw = p->i;
    next(p);
    if (is_word(p, "const") && word_at(p, kw, "as")) next(p);
    else skip_type(p);
    blank(p, tok_start(p, kw), prev_end(p));
    /* TypeScript ends the statement here if the next line starts with ( [ or `;
     * without the type in between, JavaScript would continue the expression. */
    const ts_tok *n = cur(p);
    if (n->nl_before && (n->kind == TK_TEMPLATE || n->kind == TK_TEMPLATE_HEAD ||
                         (n->kind == TK_PUNCT && (n->op == P_LPAREN || n->op == P_LBRACK))))
        insert_text(p, tok_start(p, kw), 1, ";", 1);
}

static void parse_binary(parser *p, int min_prec)
{
    ENTER(p);
    parse_unary(p);
    for (;;) {
        if ((is_word(p, "as") || is_word(p, "satisfies")) && !nl_at(p, p->i)) {
            if (min_prec > 8) break;
            erase_as_clause(p);
            continue;
        }
        int n, prec = binary_op(p, p->i, &n);
        if (!prec || prec < min_prec) break;
        bool right_assoc = is_op(p, P_STARSTAR);
        for (int k = 0; k < n; k++) next(p);
        parse_binary(p, right_assoc ? prec : prec + 1);
    }
    LEAVE(p);
}

static void parse_conditional(parser *p)
{
    parse_binary(p, 1);
    if (is_op(p, P_QUESTION)) {
        next(p);
        int save_in = p->no_in, save_arrow = p->no_arrow_ret;
        p->no_in = 0;
        p->no_arrow_ret = 1; /* `a ? (b) : c` — the `(b) :` is not an arrow's return type */
        parse_assign(p);
        p->no_in = save_in;
        p->no_arrow_ret = save_arrow;
        expect_op(p, P_COLON, ":");
        parse_assign(p);
    }
}

static void parse_unary(parser *p)
{
    ENTER(p);
    const ts_tok *t = cur(p);
    if (t->kind == TK_PUNCT &&
        (t->op == P_BANG || t->op == P_TILDE || t->op == P_PLUS || t->op == P_MINUS || t->op == P_INC ||
         t->op == P_DEC)) {
        next(p);
        parse_unary(p);
    } else if (is_word(p, "typeof") || is_word(p, "void") || is_word(p, "delete") ||
               (is_word(p, "await") && starts_expression(p, p->i + 1) && !is_binary_op_tok(p, p->i + 1))) {
        next(p);
        parse_unary(p);
    } else if (is_op(p, P_LT)) {
        /* `<T>expr` type assertion. */
        uint32_t a = t->start;
        next(p);
        skip_type(p);
        expect_op(p, P_GT, ">");
        blank(p, a, prev_end(p));
        parse_unary(p);
    } else {
        parse_lhs(p);
        if ((is_op(p, P_INC) || is_op(p, P_DEC)) && !nl_at(p, p->i)) next(p);
    }
    LEAVE(p);
}

/* Is the `(` at k the parameter list of an arrow function?  0: no, 1: yes,
 * 2: only if the whole arrow is followed by `:` (TypeScript's rule for an
 * arrow with a return type in the true branch of `?:`, as in
 * `a ? (x): T => x : y`). */
static int paren_arrow_at(parser *p, int32_t k)
{
    int32_t m = tok_at(p, k)->match;
    if (m <= k) return 0;
    if (op_at(p, m + 1, P_ARROW)) return 1;
    if (!op_at(p, m + 1, P_COLON)) return 0;
    int32_t save = p->i;
    p->i = m + 2;
    bool ok = speculate(p, skip_return_type) && is_op(p, P_ARROW);
    p->i = save;
    if (!ok) return 0;
    return p->no_arrow_ret ? 2 : 1;
}

static int generic_arrow_at(parser *p, int32_t k)
{
    int32_t save = p->i;
    p->i = k;
    int r = speculate(p, skip_type_params) && is_op(p, P_LPAREN) ? paren_arrow_at(p, p->i) : 0;
    p->i = save;
    return r;
}

static int arrow_ahead(parser *p)
{
    int32_t k = p->i;
    if (is_word(p, "async") && !nl_at(p, k + 1)) {
        if (ident_at(p, k + 1) && op_at(p, k + 2, P_ARROW)) return 1;
        if (op_at(p, k + 1, P_LPAREN)) return paren_arrow_at(p, k + 1);
        if (op_at(p, k + 1, P_LT)) return generic_arrow_at(p, k + 1);
    }
    if (ident_at(p, k) && op_at(p, k + 1, P_ARROW)) return 1;
    if (op_at(p, k, P_LPAREN)) return paren_arrow_at(p, k);
    if (op_at(p, k, P_LT)) return generic_arrow_at(p, k);
    return 0;
}

static void parse_arrow(parser *p)
{
    if (is_word(p, "async")) next(p);
    if (is_op(p, P_LT)) erase_type_params(p);
    if (ident_at(p, p->i)) next(p);
    else parse_params(p, NULL);
    if (is_op(p, P_COLON)) erase_return_annotation(p);
    expect_op(p, P_ARROW, "=>");
    if (is_op(p, P_LBRACE)) {
        parse_function_body(p);
    } else {
        int save = p->no_arrow_ret;
        p->no_arrow_ret = 0;
        parse_assign(p);
        p->no_arrow_ret = save;
    }
}

static void parse_arrow_then_colon(parser *p)
{
    parse_arrow(p);
    if (!is_op(p, P_COLON)) fail_at(p, p->i, "expected ':'");
}

/* Speculative parse (with edits) of `(x): T => body` followed by `:`.
 * Work is budgeted so nested ambiguous conditionals cannot go exponential. */
static bool try_arrow_before_colon(parser *p)
{
    int32_t start = p->i;
    p->hw = start;
    bool ok = speculate_ex(p, parse_arrow_then_colon, true);
    p->spec_work += (uint64_t)(p->hw - start) + 1;
    if (p->spec_work > 8 * (uint64_t)p->ntk + 10000)
        fail_at(p, start, "expression too ambiguous to parse; add parentheses");
    return ok;
}

static void parse_assign(parser *p)
{
    int arrow;
    ENTER(p);
    if (is_word(p, "yield")) {
        next(p);
        eat_op(p, P_STAR);
        if (!nl_at(p, p->i) && starts_expression(p, p->i)) parse_assign(p);
    } else if ((arrow = arrow_ahead(p)) == 1 || (arrow == 2 && try_arrow_before_colon(p))) {
        if (arrow == 1) parse_arrow(p);
    } else {
        parse_conditional(p);
        int n = assign_op(p, p->i);
        if (n) {
            for (int k = 0; k < n; k++) next(p);
            parse_assign(p);
        }
    }
    LEAVE(p);
}

static void parse_expr(parser *p)
{
    parse_assign(p);
    while (eat_op(p, P_COMMA)) parse_assign(p);
}

/* ------------------------------------------------------------------------ */
/* Bindings, parameters, functions                                           */

static void collect_binding(parser *p, int32_t tok)
{
    if (p->collecting) PUSH(p, p->collect, tok);
}

static void parse_binding(parser *p)
{
    ENTER(p);
    if (ident_at(p, p->i)) {
        collect_binding(p, p->i);
        next(p);
    } else if (is_op(p, P_LBRACK)) {
        next(p);
        while (!is_op(p, P_RBRACK)) {
            if (eat_op(p, P_COMMA)) continue;
            eat_op(p, P_ELLIPSIS);
            parse_binding(p);
            if (eat_op(p, P_EQ)) parse_assign(p);
            if (!is_op(p, P_RBRACK)) expect_op(p, P_COMMA, ",");
        }
        next(p);
    } else if (is_op(p, P_LBRACE)) {
        next(p);
        while (!is_op(p, P_RBRACE)) {
            if (eat_op(p, P_ELLIPSIS)) {
                parse_binding(p);
            } else {
                int32_t name = p->i;
                parse_property_name(p);
                if (eat_op(p, P_COLON)) parse_binding(p);
                else if (ident_at(p, name)) collect_binding(p, name);
                if (eat_op(p, P_EQ)) parse_assign(p);
            }
            if (!is_op(p, P_RBRACE)) expect_op(p, P_COMMA, ",");
        }
        next(p);
    } else {
        char b[40];
        fail_at(p, p->i, "expected a binding name but found %s", describe(p, p->i, b, sizeof b));
    }
    LEAVE(p);
}

static bool is_param_modifier(const parser *p)
{
    static const char *const mods[] = {"public", "private", "protected", "readonly", "override", NULL};
    for (int k = 0; mods[k]; k++)
        if (is_word(p, mods[k])) {
            int32_t n = p->i + 1;
            return ident_at(p, n) || op_at(p, n, P_LBRACE) || op_at(p, n, P_LBRACK);
        }
    return false;
}

/* At `(`: parameters.  props != NULL in constructors (parameter properties). */
static void parse_params(parser *p, param_props *props)
{
    int save_in = p->no_in, save_arrow = p->no_arrow_ret;
    bool save_collecting = p->collecting;
    p->no_in = 0;
    p->no_arrow_ret = 0;
    p->collecting = false;
    next(p);
    while (!is_op(p, P_RPAREN)) {
        if (is_op(p, P_AT)) fail_at(p, p->i, "decorators are not supported");
        bool is_prop = false;
        while (is_param_modifier(p)) {
            if (!props) fail_at(p, p->i, "parameter modifiers are only allowed in a constructor");
            blank_toks(p, p->i, p->i);
            next(p);
            is_prop = true;
        }
        if (is_word(p, "this") && (op_at(p, p->i + 1, P_COLON) || op_at(p, p->i + 1, P_COMMA) ||
                                   op_at(p, p->i + 1, P_RPAREN))) {
            /* `this` parameter: erase it and its comma. */
            uint32_t a = cur(p)->start;
            next(p);
            if (is_op(p, P_COLON)) { next(p); skip_type(p); }
            eat_op(p, P_COMMA);
            blank(p, a, prev_end(p));
            continue;
        }
        eat_op(p, P_ELLIPSIS);
        if (is_prop) {
            if (!ident_at(p, p->i)) fail_at(p, p->i, "a parameter property must be a plain name");
            PUSH(p, p->stack, p->i);
        }
        parse_binding(p);
        if (is_op(p, P_QUESTION)) { blank_toks(p, p->i, p->i); next(p); }
        if (is_op(p, P_COLON)) erase_annotation(p);
        if (eat_op(p, P_EQ)) parse_assign(p);
        if (!is_op(p, P_RPAREN)) expect_op(p, P_COMMA, ",");
    }
    next(p);
    p->no_in = save_in;
    p->no_arrow_ret = save_arrow;
    p->collecting = save_collecting;
}

static bool parse_statement(parser *p);

/* Statements until the `}` at the current nesting (not consumed). */
static void parse_statement_list(parser *p)
{
    while (!is_op(p, P_RBRACE)) {
        if (at_eof(p)) fail_at(p, p->i, "expected '}'");
        parse_statement(p);
    }
}

typedef struct saved_ctx { int no_in, no_arrow_ret; int32_t scope; ns_ctx *ns; bool collecting; } saved_ctx;
static saved_ctx enter_body(parser *p)
{
    saved_ctx s = {p->no_in, p->no_arrow_ret, p->scope, p->ns, p->collecting};
    p->no_in = 0;
    p->no_arrow_ret = 0;
    p->scope = ++p->next_scope;
    p->ns = NULL;
    p->collecting = false;
    return s;
}
static void leave_body(parser *p, saved_ctx s)
{
    p->no_in = s.no_in;
    p->no_arrow_ret = s.no_arrow_ret;
    p->scope = s.scope;
    p->ns = s.ns;
    p->collecting = s.collecting;
}

static void parse_function_body(parser *p)
{
    ENTER(p);
    saved_ctx s = enter_body(p);
    next(p); /* { */
    parse_statement_list(p);
    next(p);
    leave_body(p, s);
    LEAVE(p);
}

static void consume_semicolon(parser *p)
{
    if (eat_op(p, P_SEMI)) return;
    if (is_op(p, P_RBRACE) || at_eof(p) || nl_at(p, p->i)) return;
    char b[40];
    fail_at(p, p->i, "expected ';' but found %s", describe(p, p->i, b, sizeof b));
}

/* At `function`.  stmt_first >= 0 for declarations: a body-less declaration
 * (overload signature) erases tokens stmt_first.. as a statement. */
static void parse_function(parser *p, int32_t stmt_first, bool is_decl)
{
    ENTER(p);
    next(p); /* function */
    eat_op(p, P_STAR);
    if (ident_at(p, p->i)) {
        if (is_decl) declare_name(p, p->i);
        next(p);
    }
    if (is_op(p, P_LT)) erase_type_params(p);
    if (!is_op(p, P_LPAREN)) expect_op(p, P_LPAREN, "(");
    parse_params(p, NULL);
    if (is_op(p, P_COLON)) erase_return_annotation(p);
    if (is_op(p, P_LBRACE)) {
        parse_function_body(p);
    } else if (is_decl) {
        consume_semicolon(p);
        erase_stmt(p, stmt_first, p->i - 1);
    } else {
        expect_op(p, P_LBRACE, "{");
    }
    LEAVE(p);
}

/* ------------------------------------------------------------------------ */
/* Classes                                                                   */

typedef struct class_ctx { int32_t body_open; bool has_extends; } class_ctx;

static bool is_member_modifier_word(const parser *p, int32_t k)
{
    static const char *const mods[] = {"public", "private", "protected", "readonly", "override",
                                       "abstract", "declare", "static", "accessor", "async",
                                       "get", "set", NULL};
    for (int j = 0; mods[j]; j++)
        if (word_at(p, k, mods[j])) return true;
    return false;
}

/* A modifier keyword is a modifier only when a member name follows it. */
static bool modifier_applies(const parser *p, int32_t k)
{
    if (!is_member_modifier_word(p, k)) return false;
    if ((word_at(p, k, "async") || word_at(p, k, "accessor")) && nl_at(p, k + 1)) return false;
    if (word_at(p, k, "static") && op_at(p, k + 1, P_LBRACE)) return false; /* static block */
    return is_property_name_start(p, k + 1) || op_at(p, k + 1, P_LBRACE);
}

/* Emits the parameter-property code of a constructor: field declarations at
 * the top of the class body (TypeScript's ES2022 output declares them) and
 * `this.x = x;` at the start of the body or after `super(...)`. */
static void emit_param_props(parser *p, const class_ctx *cls, const param_props *props, uint32_t at)
{
    sbuf *b = &p->sb;
    b->n = 0;
    for (size_t k = props->base; k < p->stack.n; k++) {
        sb_str(p, b, " ");
        sb_tok(p, b, p->stack.v[k]);
        sb_str(p, b, ";");
    }
    sb_insert(p, b, tok_end(p, cls->body_open), 0);
    for (size_t k = props->base; k < p->stack.n; k++) {
        int32_t t = p->stack.v[k];
        sb_str(p, b, " this.");
        sb_tok(p, b, t);
        sb_str(p, b, " = ");
        sb_tok(p, b, t);
        sb_str(p, b, ";");
    }
    sb_insert(p, b, at, 0);
}

/* Constructor body: like a function body, but param props go in after super(). */
static void parse_ctor_body(parser *p, const class_ctx *cls, param_props *props)
{
    ENTER(p);
    saved_ctx s = enter_body(p);
    uint32_t body_start = tok_end(p, p->i);
    next(p); /* { */
    bool done = p->stack.n == props->base;
    if (!done && !cls->has_extends) {
        emit_param_props(p, cls, props, body_start);
        done = true;
    }
    while (!is_op(p, P_RBRACE)) {
        if (at_eof(p)) fail_at(p, p->i, "expected '}'");
        bool super_call = is_word(p, "super") && op_at(p, p->i + 1, P_LPAREN);
        parse_statement(p);
        if (super_call && !done) {
            emit_param_props(p, cls, props, prev_end(p));
            done = true;
        }
    }
    if (!done) emit_param_props(p, cls, props, body_start);
    next(p);
    leave_body(p, s);
    LEAVE(p);
}

static void parse_class_member(parser *p, const class_ctx *cls)
{
    int32_t first = p->i;
    edit_mark mark = mark_edits(p);
    bool erase = false;
    if (eat_op(p, P_SEMI)) return;
    if (is_op(p, P_AT)) fail_at(p, p->i, "decorators are not supported");
    if (is_word(p, "static") && op_at(p, p->i + 1, P_LBRACE)) {
        next(p);
        parse_function_body(p);
        return;
    }
    while (modifier_applies(p, p->i)) {
        if (is_word(p, "abstract") || is_word(p, "declare")) erase = true;
        else if (is_word(p, "accessor")) fail_at(p, p->i, "'accessor' fields are not supported");
        else if (!is_word(p, "static") && !is_word(p, "async") && !is_word(p, "get") && !is_word(p, "set"))
            blank_toks(p, p->i, p->i);
        next(p);
    }
    /* Index signature `[key: string]: T`. */
    if (is_op(p, P_LBRACK) && ident_at(p, p->i + 1) && op_at(p, p->i + 2, P_COLON)) {
        skip_group(p);
        if (is_op(p, P_COLON)) { next(p); skip_type(p); }
        consume_semicolon(p);
        drop_edits(p, mark);
        erase_stmt(p, first, p->i - 1);
        return;
    }
    eat_op(p, P_STAR);
    bool is_ctor = is_word(p, "constructor") || (kind_at(p, p->i, TK_STR) &&
                   tok_end(p, p->i) - tok_start(p, p->i) == 13 &&
                   memcmp(p->src + tok_start(p, p->i) + 1, "constructor", 11) == 0);
    parse_property_name(p);
    if (is_op(p, P_QUESTION) || is_op(p, P_BANG)) { blank_toks(p, p->i, p->i); next(p); }
    if (is_op(p, P_LPAREN) || is_op(p, P_LT)) {
        param_props props = {p->stack.n};
        if (is_op(p, P_LT)) erase_type_params(p);
        if (!is_op(p, P_LPAREN)) expect_op(p, P_LPAREN, "(");
        parse_params(p, is_ctor ? &props : NULL);
        if (is_op(p, P_COLON)) erase_return_annotation(p);
        if (is_op(p, P_LBRACE)) {
            if (is_ctor && !erase) parse_ctor_body(p, cls, &props);
            else parse_function_body(p);
        } else {
            consume_semicolon(p); /* overload or abstract method */
            erase = true;
        }
        p->stack.n = props.base;
    } else {
        if (is_op(p, P_COLON)) erase_annotation(p);
        if (eat_op(p, P_EQ)) {
            saved_ctx s = enter_body(p);
            parse_assign(p);
            leave_body(p, s);
        }
        consume_semicolon(p);
    }
    if (erase) {
        drop_edits(p, mark);
        erase_stmt(p, first, p->i - 1);
    }
}

/* At `class` (any `abstract` before it is the caller's business). */
static void parse_class(parser *p, int32_t stmt_first, bool is_decl)
{
    ENTER(p);
    (void)stmt_first;
    next(p); /* class */
    if (ident_at(p, p->i) && !is_word(p, "extends") && !is_word(p, "implements")) {
        if (is_decl) declare_name(p, p->i);
        next(p);
    }
    if (is_op(p, P_LT)) erase_type_params(p);
    class_ctx cls = {-1, false};
    if (is_word(p, "extends")) {
        next(p);
        cls.has_extends = true;
        parse_lhs(p);
        if (is_op(p, P_LT)) {
            uint32_t a = cur(p)->start;
            skip_type_args(p);
            blank(p, a, prev_end(p));
        }
    }
    if (is_word(p, "implements")) {
        uint32_t a = cur(p)->start;
        next(p);
        for (;;) {
            skip_type(p);
            if (!eat_op(p, P_COMMA)) break;
        }
        blank(p, a, prev_end(p));
    }
    if (!is_op(p, P_LBRACE)) expect_op(p, P_LBRACE, "{");
    cls.body_open = p->i;
    saved_ctx s = enter_body(p);
    next(p);
    while (!is_op(p, P_RBRACE)) {
        if (at_eof(p)) fail_at(p, p->i, "expected '}'");
        parse_class_member(p, &cls);
    }
    next(p);
    leave_body(p, s);
    LEAVE(p);
}

/* ------------------------------------------------------------------------ */
/* Statements                                                                */

static void parse_block(parser *p)
{
    ENTER(p);
    if (!is_op(p, P_LBRACE)) expect_op(p, P_LBRACE, "{");
    int32_t save_scope = p->scope;
    p->scope = ++p->next_scope;
    next(p);
    parse_statement_list(p);
    next(p);
    p->scope = save_scope;
    LEAVE(p);
}

/* Declarator list after var/let/const.  Collects bound names when asked. */
static void parse_var_decls(parser *p)
{
    for (;;) {
        parse_binding(p);
        if (is_op(p, P_BANG) && !nl_at(p, p->i)) { blank_toks(p, p->i, p->i); next(p); }
        if (is_op(p, P_COLON)) erase_annotation(p);
        if (eat_op(p, P_EQ)) parse_assign(p);
        if (!eat_op(p, P_COMMA)) break;
    }
}

static bool is_var_start(const parser *p, int32_t k)
{
    if (word_at(p, k, "var")) return true;
    if (word_at(p, k, "const")) return !word_at(p, k + 1, "enum");
    if (word_at(p, k, "let"))
        return ident_at(p, k + 1) || op_at(p, k + 1, P_LBRACK) || op_at(p, k + 1, P_LBRACE);
    if (word_at(p, k, "using")) return ident_at(p, k + 1) && !nl_at(p, k + 1) && !word_at(p, k + 1, "in");
    if (word_at(p, k, "await") && word_at(p, k + 1, "using")) return ident_at(p, k + 2) && !nl_at(p, k + 2);
    return false;
}

static void parse_for(parser *p)
{
    next(p); /* for */
    if (is_word(p, "await")) next(p);
    expect_op(p, P_LPAREN, "(");
    if (!is_op(p, P_SEMI)) {
        p->no_in++;
        if (is_var_start(p, p->i)) {
            if (is_word(p, "await")) next(p);
            next(p);
            parse_var_decls(p);
        } else {
            parse_expr(p);
        }
        p->no_in--;
    }
    if (is_word(p, "of") || is_word(p, "in")) {
        next(p);
        parse_expr(p);
    } else {
        expect_op(p, P_SEMI, ";");
        if (!is_op(p, P_SEMI)) parse_expr(p);
        expect_op(p, P_SEMI, ";");
        if (!is_op(p, P_RPAREN)) parse_expr(p);
    }
    expect_op(p, P_RPAREN, ")");
    parse_statement(p);
}

static void parse_paren_condition(parser *p)
{
    expect_op(p, P_LPAREN, "(");
    parse_expr(p);
    expect_op(p, P_RPAREN, ")");
}

static void parse_try(parser *p)
{
    next(p);
    parse_block(p);
    if (is_word(p, "catch")) {
        next(p);
        if (eat_op(p, P_LPAREN)) {
            parse_binding(p);
            if (is_op(p, P_COLON)) erase_annotation(p);
            expect_op(p, P_RPAREN, ")");
        }
        parse_block(p);
    }
    if (is_word(p, "finally")) {
        next(p);
        parse_block(p);
    }
}

static void parse_switch(parser *p)
{
    next(p);
    parse_paren_condition(p);
    expect_op(p, P_LBRACE, "{");
    while (!is_op(p, P_RBRACE)) {
        if (at_eof(p)) fail_at(p, p->i, "expected '}'");
        if (is_word(p, "case")) {
            next(p);
            parse_expr(p);
            expect_op(p, P_COLON, ":");
        } else if (is_word(p, "default") && op_at(p, p->i + 1, P_COLON)) {
            next(p);
            next(p);
        } else {
            parse_statement(p);
        }
    }
    next(p);
}

/* `type X<T> = ...;` — erased. */
static void parse_type_alias(parser *p, int32_t first)
{
    next(p); /* type */
    if (!p->scope) PUSH(p, p->type_names, p->i);
    next(p); /* name */
    if (is_op(p, P_LT)) skip_type_params(p);
    expect_op(p, P_EQ, "=");
    skip_type(p);
    consume_semicolon(p);
    erase_stmt(p, first, p->i - 1);
}

/* `interface X<T> extends A, B { ... }` — erased. */
static void parse_interface(parser *p, int32_t first)
{
    next(p); /* interface */
    if (!p->scope) PUSH(p, p->type_names, p->i);
    next(p);
    if (is_op(p, P_LT)) skip_type_params(p);
    if (is_word(p, "extends")) {
        next(p);
        for (;;) {
            skip_type(p);
            if (!eat_op(p, P_COMMA)) break;
        }
    }
    if (!is_op(p, P_LBRACE)) expect_op(p, P_LBRACE, "{");
    skip_group(p);
    erase_stmt(p, first, p->i - 1);
}

/* Closing text for the IIFE of an enum or namespace named by token `name`. */
static void sb_iife_close(parser *p, sbuf *b, int32_t name, int32_t parent)
{
    sb_str(p, b, "})(");
    sb_tok(p, b, name);
    if (parent >= 0) {
        sb_str(p, b, " = ");
        sb_tok(p, b, parent);
        sb_str(p, b, ".");
        sb_tok(p, b, name);
        sb_str(p, b, " || (");
        sb_tok(p, b, parent);
        sb_str(p, b, ".");
        sb_tok(p, b, name);
        sb_str(p, b, " = {}));");
    } else {
        sb_str(p, b, " || (");
        sb_tok(p, b, name);
        sb_str(p, b, " = {}));");
    }
}

/* Enum members being declared live on p->stack as (token << 1 | is_string),
 * from index base up. */
static int32_t member_tok(const parser *p, size_t k) { return p->stack.v[k] >> 1; }
static bool member_is_string(const parser *p, size_t k) { return p->stack.v[k] & 1; }

/* Index on p->stack of the earlier member named like token tok, or -1. */
static long find_member(const parser *p, size_t base, int32_t tok)
{
    const ts_tok *t = tok_at(p, tok);
    for (size_t m = base; m < p->stack.n; m++) {
        const ts_tok *mt = tok_at(p, member_tok(p, m));
        if (mt->kind == TK_IDENT && mt->end - mt->start == t->end - t->start &&
            memcmp(p->src + mt->start, p->src + t->start, t->end - t->start) == 0)
            return (long)m;
    }
    return -1;
}

/* Is an enum initializer string-valued (TypeScript then adds no reverse
 * mapping)?  Strings, string members and `+` between them. */
static bool enum_init_is_string(const parser *p, int32_t first, int32_t last, size_t base)
{
    bool any = false;
    for (int32_t k = first; k <= last; k++) {
        const ts_tok *t = tok_at(p, k);
        if (t->kind == TK_STR || t->kind == TK_TEMPLATE) { any = true; continue; }
        if (t->kind == TK_PUNCT && (t->op == P_PLUS || t->op == P_LPAREN || t->op == P_RPAREN)) continue;
        if (t->kind == TK_IDENT) {
            long m = find_member(p, base, k);
            if (m >= 0 && member_is_string(p, (size_t)m)) { any = true; continue; }
        }
        return false;
    }
    return any;
}

static void sb_enum_key(parser *p, sbuf *b, int32_t name)
{
    if (kind_at(p, name, TK_STR)) {
        sb_tok(p, b, name);
    } else {
        sb_str(p, b, "\"");
        sb_tok(p, b, name);
        sb_str(p, b, "\"");
    }
}

/* `enum E { A, B = 2, C = "c" }` → IIFE like TypeScript's, on the same lines.
 * parent >= 0: exported member of that namespace. */
static void parse_enum(parser *p, int32_t export_tok, int32_t parent)
{
    int32_t kw = p->i;
    next(p);
    int32_t name = p->i;
    expect_ident(p, "enum name");
    if (!is_op(p, P_LBRACE)) expect_op(p, P_LBRACE, "{");
    int32_t open = p->i;
    sbuf *b = &p->sb;
    b->n = 0;
    if (parent >= 0 && export_tok >= 0) blank_toks(p, export_tok, export_tok);
    blank_toks(p, kw, open);
    if (!is_declared(p, name)) {
        sb_str(p, b, "var ");
        sb_tok(p, b, name);
        sb_str(p, b, "; ");
        declare_name(p, name);
    } else if (export_tok >= 0 && parent < 0) {
        blank_toks(p, export_tok, export_tok); /* already exported by the first declaration */
    }
    sb_str(p, b, "(function (");
    sb_tok(p, b, name);
    sb_str(p, b, ") {");
    sb_insert(p, b, tok_start(p, kw), 0);
    next(p);

    size_t base = p->stack.n;
    while (!is_op(p, P_RBRACE)) {
        int32_t m = p->i;
        if (!ident_at(p, m) && !kind_at(p, m, TK_STR)) {
            char d[40];
            fail_at(p, m, "expected an enum member name but found %s", describe(p, m, d, sizeof d));
        }
        next(p);
        bool str = false;
        if (is_op(p, P_EQ)) {
            blank_toks(p, m, p->i);
            next(p);
            int32_t init_first = p->i;
            size_t blanks_before = p->blanks.n;
            parse_assign(p);
            int32_t init_last = p->i - 1;
            str = enum_init_is_string(p, init_first, init_last, base);
            sb_str(p, b, str ? "" : "");
            sb_tok(p, b, name);
            sb_str(p, b, "[");
            if (!str) {
                sb_tok(p, b, name);
                sb_str(p, b, "[");
            }
            sb_enum_key(p, b, m);
            sb_str(p, b, "] = ");
            sb_insert(p, b, tok_start(p, m), 0);
            /* Earlier members are referenced by bare name inside initializers. */
            for (int32_t k = init_first; k <= init_last; k++) {
                if (!ident_at(p, k) || find_member(p, base, k) < 0) continue;
                if (k > init_first && (op_at(p, k - 1, P_DOT) || op_at(p, k - 1, P_QDOT))) continue;
                bool in_blank = false;
                for (size_t r = blanks_before; r < p->blanks.n; r++)
                    if (tok_start(p, k) >= p->blanks.v[r].a && tok_start(p, k) < p->blanks.v[r].b) in_blank = true;
                if (in_blank) continue;
                sb_tok(p, b, name);
                sb_str(p, b, ".");
                sb_insert(p, b, tok_start(p, k), 0);
            }
            if (!str) {
                sb_str(p, b, "] = ");
                sb_enum_key(p, b, m);
            }
            sb_str(p, b, ";");
            sb_insert(p, b, tok_end(p, init_last), 0);
        } else {
            blank_toks(p, m, m);
            sb_tok(p, b, name);
            sb_str(p, b, "[");
            sb_tok(p, b, name);
            sb_str(p, b, "[");
            sb_enum_key(p, b, m);
            sb_str(p, b, "] = ");
            if (p->stack.n == base) {
                sb_str(p, b, "0");
            } else {
                sb_tok(p, b, name);
                sb_str(p, b, "[");
                sb_enum_key(p, b, member_tok(p, p->stack.n - 1));
                sb_str(p, b, "] + 1");
            }
            sb_str(p, b, "] = ");
            sb_enum_key(p, b, m);
            sb_str(p, b, ";");
            sb_insert(p, b, tok_start(p, m), 0);
        }
        PUSH(p, p->stack, (int32_t)(((uint32_t)m << 1) | (str ? 1u : 0u)));
        if (is_op(p, P_COMMA)) {
            blank_toks(p, p->i, p->i);
            next(p);
        } else if (!is_op(p, P_RBRACE)) {
            expect_op(p, P_RBRACE, "}");
        }
    }
    sb_iife_close(p, b, name, parent);
    sb_insert(p, b, tok_start(p, p->i), 1);
    next(p);
    p->stack.n = base;
}

static void parse_import_alias(parser *p, int32_t import_tok, int32_t parent);

/* `namespace A.B { ... }`: erased when it holds only types, else an IIFE per
 * name like TypeScript emits.  Returns whether it produced code. */
static bool parse_namespace(parser *p, int32_t first, int32_t export_tok, int32_t parent)
{
    int32_t kw = p->i;
    next(p);
    if (kind_at(p, p->i, TK_STR)) { /* `module "x" { }` — ambient */
        next(p);
        if (is_op(p, P_LBRACE)) skip_group(p);
        else consume_semicolon(p);
        erase_stmt(p, first, p->i - 1);
        return false;
    }
    size_t base = p->stack.n;
    PUSH(p, p->stack, p->i);
    expect_ident(p, "namespace name");
    while (eat_op(p, P_DOT)) {
        PUSH(p, p->stack, p->i);
        expect_ident(p, "namespace name");
    }
    size_t count = p->stack.n - base;
    if (!is_op(p, P_LBRACE)) expect_op(p, P_LBRACE, "{");
    int32_t open = p->i;
    edit_mark mark = mark_edits(p);
    uint32_t seq_mark = p->seq;
    (void)seq_mark;

    ns_ctx ctx = {p->stack.v[p->stack.n - 1]};
    ENTER(p);
    saved_ctx s = enter_body(p);
    p->ns = &ctx;
    next(p);
    bool has_value = false;
    while (!is_op(p, P_RBRACE)) {
        if (at_eof(p)) fail_at(p, p->i, "expected '}'");
        has_value |= parse_statement(p);
    }
    leave_body(p, s);
    LEAVE(p);
    int32_t close = p->i;
    next(p);

    if (!has_value) {
        drop_edits(p, mark);
        erase_stmt(p, first, close);
        if (!p->scope) PUSH(p, p->type_names, p->stack.v[base]);
        p->stack.n = base;
        return false;
    }
    /* Header: `[export] var A; (function (A) { var B; (function (B) {` */
    sbuf *b = &p->sb;
    b->n = 0;
    if (parent >= 0 && export_tok >= 0) blank_toks(p, export_tok, export_tok);
    blank_toks(p, kw, open);
    if (!is_declared(p, p->stack.v[base])) {
        sb_str(p, b, "var ");
        sb_tok(p, b, p->stack.v[base]);
        sb_str(p, b, "; ");
        declare_name(p, p->stack.v[base]);
    } else if (export_tok >= 0 && parent < 0) {
        blank_toks(p, export_tok, export_tok);
    }
    for (size_t k = 0; k < count; k++) {
        if (k > 0) {
            sb_str(p, b, "var ");
            sb_tok(p, b, p->stack.v[base + k]);
            sb_str(p, b, "; ");
        }
        sb_str(p, b, "(function (");
        sb_tok(p, b, p->stack.v[base + k]);
        sb_str(p, b, ") {");
    }
    sb_insert(p, b, tok_start(p, kw), 0);
    for (size_t k = count; k-- > 0;)
        sb_iife_close(p, b, p->stack.v[base + k], k > 0 ? p->stack.v[base + k - 1] : parent);
    sb_insert(p, b, tok_start(p, close), 1);
    p->stack.n = base;
    return true;
}

/* `declare ...` — the whole statement is erased. */
static void parse_declare(parser *p, int32_t first)
{
    next(p); /* declare */
    if (is_word(p, "global") || is_word(p, "module") || is_word(p, "namespace")) {
        while (!is_op(p, P_LBRACE) && !is_op(p, P_SEMI) && !at_eof(p) &&
               !(p->i > first + 2 && nl_at(p, p->i)))
            next(p);
        if (is_op(p, P_LBRACE)) skip_group(p);
        else consume_semicolon(p);
        erase_stmt(p, first, p->i - 1);
        return;
    }
    edit_mark mark = mark_edits(p);
    int32_t save_scope = p->scope;
    p->scope = ++p->next_scope; /* names declared here are not runtime declarations */
    parse_statement(p);
    p->scope = save_scope;
    drop_edits(p, mark);
    erase_stmt(p, first, p->i - 1);
}

/* Records `import` bindings; at the post-pass unused ones are elided. */
static void parse_import(parser *p, int32_t first)
{
    next(p); /* import */
    if (is_word(p, "type") && !word_at(p, p->i + 1, "from") && !op_at(p, p->i + 1, P_COMMA) &&
        !op_at(p, p->i + 1, P_EQ)) {
        /* import type ... — erase through the module specifier. */
        if (ident_at(p, p->i + 1) && op_at(p, p->i + 2, P_EQ)) {
            next(p);
            next(p);
            next(p);
            skip_entity_name(p);
            if (is_op(p, P_LPAREN)) skip_group(p);
        } else {
            while (!kind_at(p, p->i, TK_STR) && !at_eof(p)) {
                if (is_op(p, P_LBRACE)) skip_group(p);
                else next(p);
            }
            next(p);
            if ((is_word(p, "with") || is_word(p, "assert")) && op_at(p, p->i + 1, P_LBRACE)) {
                next(p);
                skip_group(p);
            }
        }
        consume_semicolon(p);
        erase_stmt(p, first, p->i - 1);
        return;
    }
    if (kind_at(p, p->i, TK_STR)) { /* side-effect import */
        next(p);
        if ((is_word(p, "with") || is_word(p, "assert")) && op_at(p, p->i + 1, P_LBRACE)) {
            next(p);
            skip_group(p);
        }
        consume_semicolon(p);
        return;
    }
    if (ident_at(p, p->i) && op_at(p, p->i + 1, P_EQ)) {
        parse_import_alias(p, first, -1);
        return;
    }
    import_decl d = {first, -1, {-1, 0, 0}, {-1, 0, 0}, -1, -1, -1, p->specs.n, 0};
    if (ident_at(p, p->i) && !(is_word(p, "from") && kind_at(p, p->i + 1, TK_STR))) {
        d.def.local = p->i;
        d.def.a = tok_start(p, p->i);
        next(p);
        if (is_op(p, P_COMMA)) d.comma_tok = p->i;
        eat_op(p, P_COMMA);
        d.def.b = prev_end(p);
    }
    if (is_op(p, P_STAR)) {
        d.group_first = p->i;
        next(p);
        expect_word(p, "as");
        d.ns.local = p->i;
        expect_ident(p, "namespace import name");
        d.group_last = p->i - 1;
        d.ns.a = tok_start(p, d.group_first);
        d.ns.b = prev_end(p);
    } else if (is_op(p, P_LBRACE)) {
        d.group_first = p->i;
        next(p);
        while (!is_op(p, P_RBRACE)) {
            int32_t s = p->i;
            bool type_only = false;
            if (is_word(p, "type")) {
                int32_t n = p->i + 1;
                if (word_at(p, n, "as")) type_only = word_at(p, n + 1, "as") || !ident_at(p, n + 1);
                else type_only = ident_at(p, n) || kind_at(p, n, TK_STR);
                if (type_only) next(p);
            }
            int32_t local = p->i;
            if (!ident_at(p, p->i) && !kind_at(p, p->i, TK_STR)) expect_ident(p, "import name");
            next(p);
            if (is_word(p, "as")) {
                next(p);
                local = p->i;
                expect_ident(p, "local name");
            }
            if (!is_op(p, P_RBRACE)) expect_op(p, P_COMMA, ",");
            if (type_only) blank(p, tok_start(p, s), prev_end(p));
            else PUSH(p, p->specs, ((import_binding){local, tok_start(p, s), prev_end(p)}));
        }
        d.group_last = p->i;
        next(p);
    }
    d.spec_count = p->specs.n - d.spec_first;
    expect_word(p, "from");
    if (!kind_at(p, p->i, TK_STR)) fail_at(p, p->i, "expected a module specifier string");
    next(p);
    if ((is_word(p, "with") || is_word(p, "assert")) && op_at(p, p->i + 1, P_LBRACE)) {
        next(p);
        skip_group(p);
    }
    consume_semicolon(p);
    d.last_tok = p->i - 1;
    PUSH(p, p->imports, d);
}

/* `import A = N.B;` → `var A = N.B;` (parent >= 0: exported from a namespace). */
static void parse_import_alias(parser *p, int32_t import_tok, int32_t parent)
{
    int32_t name = p->i;
    next(p);
    next(p); /* = */
    if (is_word(p, "require") && op_at(p, p->i + 1, P_LPAREN))
        fail_at(p, p->i, "'import x = require()' is not supported in ES modules; use 'import x from'");
    skip_entity_name(p);
    consume_semicolon(p);
    insert_text(p, tok_start(p, import_tok), 6, "var   ", 6);
    if (parent >= 0) {
        sbuf *b = &p->sb;
    b->n = 0;
        sb_str(p, b, " ");
        sb_tok(p, b, parent);
        sb_str(p, b, ".");
        sb_tok(p, b, name);
        sb_str(p, b, " = ");
        sb_tok(p, b, name);
        sb_str(p, b, ";");
        sb_insert(p, b, prev_end(p), 0);
        }
}

/* `export { a, type B as C } [from "x"]` */
static void parse_export_braces(parser *p, int32_t first)
{
    export_decl d = {first, -1, p->export_specs.n, 0};
    size_t total = 0, typed = 0;
    next(p); /* { */
    while (!is_op(p, P_RBRACE)) {
        int32_t s = p->i;
        bool type_only = false;
        if (is_word(p, "type")) {
            int32_t n = p->i + 1;
            if (word_at(p, n, "as")) type_only = word_at(p, n + 1, "as") || !ident_at(p, n + 1);
            else type_only = ident_at(p, n) || kind_at(p, n, TK_STR);
            if (type_only) next(p);
        }
        int32_t local = p->i;
        if (!ident_at(p, p->i) && !kind_at(p, p->i, TK_STR)) expect_ident(p, "export name");
        next(p);
        if (is_word(p, "as")) {
            next(p);
            if (!ident_at(p, p->i) && !kind_at(p, p->i, TK_STR)) expect_ident(p, "export name");
            next(p);
        }
        if (!is_op(p, P_RBRACE)) expect_op(p, P_COMMA, ",");
        total++;
        if (type_only) {
            typed++;
            blank(p, tok_start(p, s), prev_end(p));
        } else {
            PUSH(p, p->export_specs, ((import_binding){local, tok_start(p, s), prev_end(p)}));
        }
    }
    next(p);
    bool has_from = false;
    if (is_word(p, "from")) {
        next(p);
        if (!kind_at(p, p->i, TK_STR)) fail_at(p, p->i, "expected a module specifier string");
        next(p);
        has_from = true;
        if ((is_word(p, "with") || is_word(p, "assert")) && op_at(p, p->i + 1, P_LBRACE)) {
            next(p);
            skip_group(p);
        }
    }
    consume_semicolon(p);
    d.last_tok = p->i - 1;
    d.spec_count = p->export_specs.n - d.spec_first;
    if (total > 0 && typed == total) {
        erase_stmt(p, first, d.last_tok);
        p->export_specs.n = d.spec_first;
    } else if (!has_from && !p->scope) {
        PUSH(p, p->exports, d);
    } else {
        p->export_specs.n = d.spec_first;
    }
}

/* Inside a namespace, `export <declaration>` also assigns NS.name. */
static void emit_ns_exports(parser *p, const i32vec *names, size_t from)
{
    if (names->n <= from) return;
    sbuf *b = &p->sb;
    b->n = 0;
    sb_str(p, b, ";");
    for (size_t k = from; k < names->n; k++) {
        sb_str(p, b, " ");
        sb_tok(p, b, p->ns->name_tok);
        sb_str(p, b, ".");
        sb_tok(p, b, names->v[k]);
        sb_str(p, b, " = ");
        sb_tok(p, b, names->v[k]);
        sb_str(p, b, ";");
    }
    sb_insert(p, b, prev_end(p), 0);
}

static bool is_declare_start(const parser *p)
{
    static const char *const next_words[] = {"var", "let", "const", "function", "class", "enum",
                                             "namespace", "module", "global", "type", "interface",
                                             "abstract", "async", "using", NULL};
    if (!is_word(p, "declare") || nl_at(p, p->i + 1)) return false;
    for (int k = 0; next_words[k]; k++)
        if (word_at(p, p->i + 1, next_words[k])) return true;
    return false;
}

static bool is_type_alias_start(const parser *p, int32_t k)
{
    return word_at(p, k, "type") && ident_at(p, k + 1) && !nl_at(p, k + 1);
}
static bool is_interface_start(const parser *p, int32_t k)
{
    return word_at(p, k, "interface") && ident_at(p, k + 1) && !nl_at(p, k + 1);
}
static bool is_namespace_start(const parser *p, int32_t k)
{
    return (word_at(p, k, "namespace") && ident_at(p, k + 1) && !nl_at(p, k + 1)) ||
           (word_at(p, k, "module") && (ident_at(p, k + 1) || kind_at(p, k + 1, TK_STR)) && !nl_at(p, k + 1));
}
static bool is_enum_start(const parser *p, int32_t k)
{
    return word_at(p, k, "enum") && ident_at(p, k + 1);
}

/* Parses the declaration after `export` (first = the export token). */
static bool parse_export(parser *p, int32_t first)
{
    next(p); /* export */
    int32_t parent = p->ns ? p->ns->name_tok : -1;
    if (is_word(p, "type") && (op_at(p, p->i + 1, P_LBRACE) || op_at(p, p->i + 1, P_STAR))) {
        next(p);
        if (is_op(p, P_LBRACE)) skip_group(p);
        else {
            next(p);
            if (is_word(p, "as")) { next(p); next(p); }
        }
        if (is_word(p, "from")) { next(p); next(p); }
        if ((is_word(p, "with") || is_word(p, "assert")) && op_at(p, p->i + 1, P_LBRACE)) {
            next(p);
            skip_group(p);
        }
        consume_semicolon(p);
        erase_stmt(p, first, p->i - 1);
        return false;
    }
    if (is_op(p, P_LBRACE)) { parse_export_braces(p, first); return true; }
    if (is_op(p, P_STAR)) {
        next(p);
        if (is_word(p, "as")) { next(p); next(p); }
        expect_word(p, "from");
        if (!kind_at(p, p->i, TK_STR)) fail_at(p, p->i, "expected a module specifier string");
        next(p);
        if ((is_word(p, "with") || is_word(p, "assert")) && op_at(p, p->i + 1, P_LBRACE)) {
            next(p);
            skip_group(p);
        }
        consume_semicolon(p);
        return true;
    }
    if (is_op(p, P_EQ)) fail_at(p, p->i, "'export =' is not supported in ES modules; use 'export default'");
    if (is_word(p, "as") && word_at(p, p->i + 1, "namespace")) {
        next(p);
        next(p);
        next(p);
        consume_semicolon(p);
        erase_stmt(p, first, p->i - 1);
        return false;
    }
    if (is_word(p, "default")) {
        next(p);
        if (is_interface_start(p, p->i)) { parse_interface(p, first); return false; }
        if (is_word(p, "abstract") && word_at(p, p->i + 1, "class")) {
            blank_toks(p, p->i, p->i);
            next(p);
        }
        if (is_word(p, "class")) { parse_class(p, first, true); return true; }
        if (is_word(p, "function")) { parse_function(p, first, true); return true; }
        if (is_word(p, "async") && word_at(p, p->i + 1, "function") && !nl_at(p, p->i + 1)) {
            next(p);
            parse_function(p, first, true);
            return true;
        }
        parse_assign(p);
        consume_semicolon(p);
        return true;
    }
    if (is_declare_start(p)) { parse_declare(p, first); return false; }
    if (is_type_alias_start(p, p->i)) { parse_type_alias(p, first); return false; }
    if (is_interface_start(p, p->i)) { parse_interface(p, first); return false; }
    if (is_word(p, "import") && ident_at(p, p->i + 1) && op_at(p, p->i + 2, P_EQ)) {
        int32_t imp = p->i;
        if (parent >= 0) blank_toks(p, first, first);
        next(p);
        parse_import_alias(p, imp, parent);
        return true;
    }
    if (is_word(p, "const") && is_enum_start(p, p->i + 1)) {
        blank_toks(p, p->i, p->i);
        next(p);
    }
    if (is_enum_start(p, p->i)) { parse_enum(p, first, parent); return true; }
    if (is_namespace_start(p, p->i)) return parse_namespace(p, first, first, parent);

    /* A value declaration: inside a namespace, export it as NS.name. */
    if (parent >= 0) blank_toks(p, first, first);
    bool save_collecting = p->collecting;
    size_t from = p->collect.n;
    if (parent >= 0) p->collecting = true;
    bool r = true;
    if (is_var_start(p, p->i)) {
        next(p);
        parse_var_decls(p);
        consume_semicolon(p);
    } else if (is_word(p, "abstract") && word_at(p, p->i + 1, "class")) {
        blank_toks(p, p->i, p->i);
        next(p);
        if (p->collecting) PUSH(p, p->collect, p->i + 1);
        parse_class(p, first, true);
    } else if (is_word(p, "class") || is_word(p, "function") ||
               (is_word(p, "async") && word_at(p, p->i + 1, "function"))) {
        if (is_word(p, "async")) next(p);
        int32_t name = p->i + 1;
        if (op_at(p, name, P_STAR)) name++;
        size_t blanks_before = p->inserts.n;
        if (is_word(p, "class")) parse_class(p, first, true);
        else parse_function(p, first, true);
        /* an overload signature was erased: nothing to export */
        bool erased = p->inserts.n > blanks_before && p->inserts.v[p->inserts.n - 1].pos == tok_start(p, first) &&
                      p->inserts.v[p->inserts.n - 1].del == 1;
        if (erased) r = false;
        else if (p->collecting && ident_at(p, name)) PUSH(p, p->collect, name);
    } else {
        char b[40];
        fail_at(p, p->i, "expected a declaration after 'export' but found %s", describe(p, p->i, b, sizeof b));
    }
    if (parent >= 0 && r) emit_ns_exports(p, &p->collect, from);
    p->collect.n = from;
    p->collecting = save_collecting;
    return r;
}

static void parse_var_statement(parser *p)
{
    if (is_word(p, "await")) next(p);
    next(p);
    bool save = p->collecting;
    size_t from = p->collect.n;
    if (!p->scope) p->collecting = true;
    parse_var_decls(p);
    consume_semicolon(p);
    for (size_t k = from; k < p->collect.n; k++) declare_name(p, p->collect.v[k]);
    if (!save) p->collect.n = from;
    p->collecting = save;
}

/* Returns whether the statement produces runtime code (false: erased). */
static bool parse_statement(parser *p)
{
    ENTER(p);
    int32_t first = p->i;
    bool value = true;
    const ts_tok *t = cur(p);
    if (t->kind == TK_PUNCT) {
        if (t->op == P_LBRACE) parse_block(p);
        else if (t->op == P_SEMI) { next(p); value = false; }
        else if (t->op == P_AT) fail_at(p, p->i, "decorators are not supported");
        else goto expression;
        LEAVE(p);
        return value;
    }
    if (t->kind != TK_IDENT) goto expression;

    if (is_var_start(p, p->i)) parse_var_statement(p);
    else if (is_word(p, "function")) parse_function(p, first, true);
    else if (is_word(p, "async") && word_at(p, p->i + 1, "function") && !nl_at(p, p->i + 1)) {
        next(p);
        parse_function(p, first, true);
    } else if (is_word(p, "class")) parse_class(p, first, true);
    else if (is_word(p, "abstract") && word_at(p, p->i + 1, "class") && !nl_at(p, p->i + 1)) {
        blank_toks(p, p->i, p->i);
        next(p);
        parse_class(p, first, true);
    } else if (is_word(p, "if")) {
        next(p);
        parse_paren_condition(p);
        parse_statement(p);
        if (is_word(p, "else")) { next(p); parse_statement(p); }
    } else if (is_word(p, "for")) parse_for(p);
    else if (is_word(p, "while") || is_word(p, "with")) {
        next(p);
        parse_paren_condition(p);
        parse_statement(p);
    } else if (is_word(p, "do")) {
        next(p);
        parse_statement(p);
        expect_word(p, "while");
        parse_paren_condition(p);
        eat_op(p, P_SEMI);
    } else if (is_word(p, "return") || is_word(p, "throw")) {
        next(p);
        if (!is_op(p, P_SEMI) && !is_op(p, P_RBRACE) && !at_eof(p) && !nl_at(p, p->i)) parse_expr(p);
        consume_semicolon(p);
    } else if (is_word(p, "break") || is_word(p, "continue")) {
        next(p);
        if (ident_at(p, p->i) && !nl_at(p, p->i)) next(p);
        consume_semicolon(p);
    } else if (is_word(p, "debugger")) {
        next(p);
        consume_semicolon(p);
    } else if (is_word(p, "try")) parse_try(p);
    else if (is_word(p, "switch")) parse_switch(p);
    else if (is_word(p, "import") && !op_at(p, p->i + 1, P_LPAREN) && !op_at(p, p->i + 1, P_DOT)) {
        if (p->scope && !p->ns) fail_at(p, p->i, "'import' is only allowed at the top level");
        if (p->ns) {
            if (!(ident_at(p, p->i + 1) && op_at(p, p->i + 2, P_EQ)))
                fail_at(p, p->i, "'import' is only allowed at the top level");
            next(p);
            parse_import_alias(p, first, -1);
        } else {
            parse_import(p, first);
        }
    } else if (is_word(p, "export")) value = parse_export(p, first);
    else if (is_type_alias_start(p, p->i)) { parse_type_alias(p, first); value = false; }
    else if (is_interface_start(p, p->i)) { parse_interface(p, first); value = false; }
    else if (is_word(p, "const") && is_enum_start(p, p->i + 1)) {
        blank_toks(p, p->i, p->i);
        next(p);
        parse_enum(p, -1, -1);
    } else if (is_enum_start(p, p->i)) parse_enum(p, -1, -1);
    else if (is_namespace_start(p, p->i)) value = parse_namespace(p, first, -1, -1);
    else if (is_declare_start(p)) { parse_declare(p, first); value = false; }
    else if (op_at(p, p->i + 1, P_COLON) && !is_word(p, "this")) { /* label */
        next(p);
        next(p);
        parse_statement(p);
    } else {
        goto expression;
    }
    LEAVE(p);
    return value;

expression:
    parse_expr(p);
    consume_semicolon(p);
    LEAVE(p);
    return true;
}

/* ------------------------------------------------------------------------ */
/* Post-pass: import elision and export of local types                       */

static bool binding_used(const parser *p, const name_set *used, int32_t local)
{
    return name_set_has(p, used, tok_start(p, local), tok_end(p, local) - tok_start(p, local), 0);
}

static void elide_imports(parser *p, const uint8_t *mask)
{
    if (!p->imports.n && !p->exports.n) return;
    /* Tokens of import declarations do not count as uses. */
    uint8_t *skip = calloc((size_t)p->ntk, 1);
    if (!skip) fail_at(p, 0, "out of memory");
    for (size_t k = 0; k < p->imports.n; k++)
        for (int32_t t = p->imports.v[k].first_tok; t <= p->imports.v[k].last_tok; t++) skip[t] = 1;
    name_set used = {0};
    int32_t prev = -1;
    for (int32_t t = 0; t < p->ntk; t++) {
        const ts_tok *tk = &p->tk[t];
        if (tk->kind == TK_EOF || mask[tk->start]) continue;
        if (tk->kind == TK_IDENT && !skip[t] && !(prev >= 0 && (op_at(p, prev, P_DOT) || op_at(p, prev, P_QDOT))))
            name_set_add(p, &used, tk->start, tk->end - tk->start, 0);
        prev = t;
    }
    free(skip);

    for (size_t k = 0; k < p->imports.n; k++) {
        const import_decl *d = &p->imports.v[k];
        bool def = d->def.local >= 0 && binding_used(p, &used, d->def.local);
        bool ns = d->ns.local >= 0 && binding_used(p, &used, d->ns.local);
        size_t kept_specs = 0;
        for (size_t s = 0; s < d->spec_count; s++)
            if (binding_used(p, &used, p->specs.v[d->spec_first + s].local)) kept_specs++;
        bool group_kept = ns || kept_specs > 0;
        if (!def && !group_kept) {
            erase_stmt(p, d->first_tok, d->last_tok);
            continue;
        }
        if (d->def.local >= 0 && !def) blank(p, d->def.a, d->def.b);
        if (def && !group_kept && d->group_first >= 0)
            blank(p, tok_start(p, d->comma_tok >= 0 ? d->comma_tok : d->group_first), tok_end(p, d->group_last));
        for (size_t s = 0; s < d->spec_count; s++) {
            const import_binding *b = &p->specs.v[d->spec_first + s];
            if (!binding_used(p, &used, b->local)) blank(p, b->a, b->b);
        }
    }
    free(used.v);

    /* `export { T }` of a top-level interface/type alias that is not also a value. */
    name_set types = {0};
    for (size_t k = 0; k < p->type_names.n; k++) {
        int32_t t = p->type_names.v[k];
        if (!name_set_has(p, &p->declared, tok_start(p, t), tok_end(p, t) - tok_start(p, t), 0))
            name_set_add(p, &types, tok_start(p, t), tok_end(p, t) - tok_start(p, t), 0);
    }
    for (size_t k = 0; k < p->exports.n; k++) {
        const export_decl *d = &p->exports.v[k];
        size_t erased = 0;
        for (size_t s = 0; s < d->spec_count; s++) {
            const import_binding *b = &p->export_specs.v[d->spec_first + s];
            if (binding_used(p, &types, b->local) && !name_set_has(p, &p->declared, tok_start(p, b->local),
                                                                    tok_end(p, b->local) - tok_start(p, b->local), 0)) {
                blank(p, b->a, b->b);
                erased++;
            }
        }
        if (d->spec_count > 0 && erased == d->spec_count) erase_stmt(p, d->first_tok, d->last_tok);
    }
    free(types.v);
}

/* ------------------------------------------------------------------------ */
/* Writer                                                                    */

static int cmp_insert(const void *a, const void *b)
{
    const insert_op *x = a, *y = b;
    if (x->pos != y->pos) return x->pos < y->pos ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void fill_mask(const parser *p, uint8_t *mask)
{
    for (size_t k = 0; k < p->blanks.n; k++) {
        range r = p->blanks.v[k];
        if (r.b > p->len) r.b = p->len;
        if (r.a < r.b) memset(mask + r.a, 1, r.b - r.a);
    }
}

/* Applies the edits.  Blanked bytes become spaces, one per UTF-16 unit of the
 * character they belonged to, so columns in the JS engine's terms are kept. */
static char *write_output(parser *p, const uint8_t *mask, size_t *out_len)
{
    const unsigned char *s = (const unsigned char *)p->src;
    if (p->inserts.n) qsort(p->inserts.v, p->inserts.n, sizeof *p->inserts.v, cmp_insert);
    /* Worst case: every byte is a (malformed) 4-byte lead that becomes two spaces. */
    size_t cap = 2 * (size_t)p->len + p->text.n + 1, n = 0;
    char *out = malloc(cap);
    if (!out) return NULL;
    size_t j = 0, skip_until = 0;
    for (size_t pos = 0; pos <= p->len; pos++) {
        while (j < p->inserts.n && p->inserts.v[j].pos == pos) {
            const insert_op *op = &p->inserts.v[j++];
            if (op->text_len) memcpy(out + n, p->text.v + op->text_off, op->text_len);
            n += op->text_len;
            if (pos + op->del > skip_until) skip_until = pos + op->del;
        }
        if (pos == p->len) break;
        if (pos < skip_until) continue;
        unsigned char c = s[pos];
        if (!mask[pos] || c == '\n' || c == '\r') { out[n++] = (char)c; continue; }
        if (c == 0xE2 && pos + 2 < p->len && s[pos + 1] == 0x80 && (s[pos + 2] == 0xA8 || s[pos + 2] == 0xA9)) {
            memcpy(out + n, s + pos, 3);
            n += 3;
            pos += 2;
            continue;
        }
        if (c < 0x80 || (c >= 0xC0 && c < 0xF0) || c >= 0xF8) out[n++] = ' ';
        else if (c >= 0xF0) { out[n++] = ' '; out[n++] = ' '; }
        /* continuation bytes: nothing */
    }
    out[n] = '\0';
    *out_len = n;
    return out;
}

/* ------------------------------------------------------------------------ */
/* Entry point                                                               */

static void free_parser(parser *p)
{
    free(p->blanks.v);
    free(p->inserts.v);
    free(p->text.v);
    free(p->targ_memo);
    free(p->imports.v);
    free(p->specs.v);
    free(p->exports.v);
    free(p->export_specs.v);
    free(p->type_names.v);
    free(p->collect.v);
    free(p->sb.v);
    free(p->stack.v);
    free(p->declared.v);
    free(p->tk);
}

static void set_error(ts_error *err, const char *src, size_t len, size_t pos, const char *msg)
{
    pos_to_line_col(src, len, pos, &err->line, &err->col);
    snprintf(err->message, sizeof err->message, "%s", msg);
}

/* Parses and elides; errors longjmp back here.  Kept apart from ts_strip()
 * so that no local of the caller is live across setjmp.  Returns the blank
 * mask (one byte per input byte) or NULL on error. */
static uint8_t *run_parser(parser *p)
{
    jmp_buf jb;
    uint8_t *volatile mask = NULL;
    p->jb = &jb;
    if (setjmp(jb) == 0) {
        p->targ_memo = calloc((size_t)p->ntk, sizeof *p->targ_memo);
        if (!p->targ_memo) fail_at(p, 0, "out of memory");
        while (!at_eof(p)) {
            if (is_op(p, P_RBRACE)) fail_at(p, p->i, "unexpected '}'");
            parse_statement(p);
        }
        mask = calloc((size_t)p->len + 1, 1);
        if (!mask) fail_at(p, 0, "out of memory");
        fill_mask(p, mask);
        elide_imports(p, mask);
        fill_mask(p, mask);
        return mask;
    }
    free(mask);
    return NULL;
}

char *ts_strip(const char *src, size_t len, size_t *out_len, ts_error *err)
{
    ts_error dummy;
    if (!err) err = &dummy;
    memset(err, 0, sizeof *err);
    if (out_len) *out_len = 0;
    if (!src && len) {
        set_error(err, "", 0, 0, "no input");
        return NULL;
    }
    if (len > TS_STRIP_MAX_INPUT) {
        err->line = 1;
        err->col = 1;
        snprintf(err->message, sizeof err->message, "input is larger than %u bytes", TS_STRIP_MAX_INPUT);
        return NULL;
    }
    if (!src) src = "";
    ts_lex_result lr;
    if (ts_lex(src, len, &lr) != 0) {
        set_error(err, src, len, lr.err_pos, lr.err_msg);
        return NULL;
    }
    parser *p = calloc(1, sizeof *p);
    if (!p) {
        free(lr.toks);
        set_error(err, src, len, 0, "out of memory");
        return NULL;
    }
    p->src = src;
    p->len = (uint32_t)len;
    p->tk = lr.toks;
    p->ntk = lr.ntoks;
    p->err = err;
    char *out = NULL;
    uint8_t *mask = run_parser(p);
    if (mask) {
        size_t n = 0;
        out = write_output(p, mask, &n);
        if (!out) set_error(err, src, len, 0, "out of memory");
        else if (out_len) *out_len = n;
        free(mask);
    } else if (!p->have_err) {
        set_error(err, src, len, 0, "internal error");
    }
    free_parser(p);
    free(p);
    return out;
}
