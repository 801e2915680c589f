/*
 * ts_lex.c — tokenizer for chidori's TypeScript eraser.
 *
 * Owns: lexical analysis of untrusted TypeScript source (see ts_lex.h).
 * Trusts: nothing in the input.  All reads go through peek(), which returns 0
 * past the end, so the source need not be NUL-terminated.  Memory use is
 * O(len); time is O(len).
 */
#include "ts_lex.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct open_bracket {
    int32_t tok;  /* token index of the opener */
    char kind;    /* '(', '[', '{' or '`' for a template `${` */
    uint8_t flag; /* '(' : follows if/while/for/with;  '{' : opens a block */
    uint32_t tpl_start; /* '`': where the template literal began (for errors) */
} open_bracket;

typedef struct lexer {
    const unsigned char *s;
    size_t len, pos;
    ts_tok *toks;
    int32_t ntoks, cap;
    open_bracket stack[TS_LEX_MAX_NESTING];
    int depth;
    bool nl;            /* saw a line terminator since the last token */
    bool last_close_flag; /* flag of the bracket closed by the latest token */
    ts_lex_result *out;
} lexer;

static int peek(const lexer *L, size_t off)
{
    size_t at = L->pos + off;
    return at < L->len ? L->s[at] : 0;
}

static bool at_end(const lexer *L) { return L->pos >= L->len; }

static int lex_error(lexer *L, size_t pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(L->out->err_msg, sizeof L->out->err_msg, fmt, ap);
    va_end(ap);
    L->out->err_pos = pos;
    return -1;
}

static bool is_id_start(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c >= 0x80;
}

static bool is_id_part(int c) { return is_id_start(c) || (c >= '0' && c <= '9'); }

/* U+2028 / U+2029 are line terminators in JS (E2 80 A8 / E2 80 A9). */
static bool at_unicode_newline(const lexer *L)
{
    return peek(L, 0) == 0xE2 && peek(L, 1) == 0x80 && (peek(L, 2) == 0xA8 || peek(L, 2) == 0xA9);
}

/* U+00A0 (C2 A0) and U+FEFF (EF BB BF) are whitespace; other non-ASCII
 * bytes are treated as identifier characters. */
static size_t unicode_space_len(const lexer *L)
{
    if (peek(L, 0) == 0xC2 && peek(L, 1) == 0xA0) return 2;
    if (peek(L, 0) == 0xEF && peek(L, 1) == 0xBB && peek(L, 2) == 0xBF) return 3;
    return 0;
}

/* Skips whitespace and comments; records whether a newline was crossed. */
static int skip_trivia(lexer *L)
{
    while (!at_end(L)) {
        int c = peek(L, 0);
        if (c == '\n' || c == '\r') { L->nl = true; L->pos++; continue; }
        if (c == ' ' || c == '\t' || c == '\v' || c == '\f') { L->pos++; continue; }
        if (at_unicode_newline(L)) { L->nl = true; L->pos += 3; continue; }
        size_t ul = unicode_space_len(L);
        if (ul) { L->pos += ul; continue; }
        if (c == '/' && peek(L, 1) == '/') {
            while (!at_end(L) && peek(L, 0) != '\n' && peek(L, 0) != '\r' && !at_unicode_newline(L))
                L->pos++;
            continue;
        }
        if (c == '/' && peek(L, 1) == '*') {
            size_t start = L->pos;
            L->pos += 2;
            for (;;) {
                if (at_end(L)) return lex_error(L, start, "unterminated comment");
                if (peek(L, 0) == '*' && peek(L, 1) == '/') { L->pos += 2; break; }
                if (peek(L, 0) == '\n' || peek(L, 0) == '\r' || at_unicode_newline(L)) L->nl = true;
                L->pos++;
            }
            continue;
        }
        if (c == '#' && peek(L, 1) == '!' && L->pos == 0) { /* hashbang */
            while (!at_end(L) && peek(L, 0) != '\n' && peek(L, 0) != '\r') L->pos++;
            continue;
        }
        break;
    }
    return 0;
}

static int push_tok(lexer *L, int kind, size_t start, int op)
{
    if (L->ntoks == L->cap) {
        int32_t ncap = L->cap ? L->cap * 2 : 256;
        ts_tok *n = realloc(L->toks, (size_t)ncap * sizeof *n);
        if (!n) return lex_error(L, start, "out of memory");
        L->toks = n;
        L->cap = ncap;
    }
    ts_tok *t = &L->toks[L->ntoks++];
    t->start = (uint32_t)start;
    t->end = (uint32_t)L->pos;
    t->match = -1;
    t->kind = (uint8_t)kind;
    t->nl_before = L->nl;
    t->op = (uint16_t)op;
    L->nl = false;
    return 0;
}

static bool tok_text_is(const lexer *L, const ts_tok *t, const char *word)
{
    size_t n = strlen(word);
    return t->kind == TK_IDENT && t->end - t->start == n && memcmp(L->s + t->start, word, n) == 0;
}

/* Keywords after which an expression (and so a regex) may start. */
static bool is_expr_keyword(const lexer *L, const ts_tok *t)
{
    static const char *const kw[] = {"return", "typeof", "instanceof", "in", "of", "new",
                                      "delete", "void", "throw", "case", "do", "else",
                                      "yield", "await", "extends", "satisfies", NULL};
    for (int i = 0; kw[i]; i++)
        if (tok_text_is(L, t, kw[i])) return true;
    return false;
}

/* Decides whether a '/' at the current position starts a regex literal. */
static bool regex_allowed(const lexer *L)
{
    if (L->ntoks == 0) return true;
    const ts_tok *t = &L->toks[L->ntoks - 1];
    switch (t->kind) {
    case TK_IDENT: return is_expr_keyword(L, t);
    case TK_NUM: case TK_STR: case TK_REGEX: case TK_TEMPLATE:
    case TK_TEMPLATE_TAIL: case TK_PRIVATE:
        return false;
    case TK_PUNCT: break;
    default: return true;
    }
    switch (t->op) {
    case P_RBRACK: case P_INC: case P_DEC: return false;
    case P_RPAREN: case P_RBRACE:
        /* `if (x) /re/` and `{ } /re/` start a regex; `(a) / b`, `({}) / b` divide. */
        return L->last_close_flag;
    case P_BANG: {
        /* `a! / b`: postfix non-null assertion (no newline before it). */
        if (L->ntoks >= 2 && !t->nl_before) {
            const ts_tok *q = &L->toks[L->ntoks - 2];
            if (q->kind == TK_IDENT || (q->kind == TK_PUNCT && (q->op == P_RPAREN || q->op == P_RBRACK)))
                return is_expr_keyword(L, q);
        }
        return true;
    }
    default: return true;
    }
}

static int scan_string(lexer *L, int quote)
{
    size_t start = L->pos++;
    for (;;) {
        if (at_end(L)) return lex_error(L, start, "unterminated string literal");
        int c = peek(L, 0);
        if (c == quote) { L->pos++; break; }
        if (c == '\n' || c == '\r') return lex_error(L, start, "unterminated string literal");
        if (c == '\\') {
            L->pos++;
            if (peek(L, 0) == '\r' && peek(L, 1) == '\n') L->pos++;
            if (!at_end(L)) L->pos++;
            continue;
        }
        L->pos++;
    }
    return push_tok(L, TK_STR, start, 0);
}

/* Scans template characters after '`' or '}' up to the closing '`' or '${'.
 * Returns 1 if it stopped at '${', 0 at '`', -1 on error. */
static int scan_template_chars(lexer *L, size_t start)
{
    for (;;) {
        if (at_end(L)) return lex_error(L, start, "unterminated template literal");
        int c = peek(L, 0);
        if (c == '`') { L->pos++; return 0; }
        if (c == '$' && peek(L, 1) == '{') { L->pos += 2; return 1; }
        if (c == '\\') { L->pos++; if (!at_end(L)) L->pos++; continue; }
        L->pos++;
    }
}

static int open_bracket_push(lexer *L, char kind, uint8_t flag, uint32_t tpl_start)
{
    if (L->depth >= TS_LEX_MAX_NESTING)
        return lex_error(L, L->toks[L->ntoks - 1].start, "nesting deeper than %d levels", TS_LEX_MAX_NESTING);
    L->stack[L->depth].tok = L->ntoks - 1;
    L->stack[L->depth].kind = kind;
    L->stack[L->depth].flag = flag;
    L->stack[L->depth].tpl_start = tpl_start;
    L->depth++;
    return 0;
}

static void link(lexer *L, int32_t a, int32_t b)
{
    L->toks[a].match = b;
    L->toks[b].match = a;
}

static int scan_template(lexer *L)
{
    size_t start = L->pos++;
    int r = scan_template_chars(L, start);
    if (r < 0) return -1;
    if (push_tok(L, r ? TK_TEMPLATE_HEAD : TK_TEMPLATE, start, 0)) return -1;
    return r ? open_bracket_push(L, '`', 0, (uint32_t)start) : 0;
}

/* '}' that closes a template substitution: continue the template. */
static int scan_template_continuation(lexer *L)
{
    size_t start = L->pos++;
    uint32_t tpl_start = L->stack[L->depth - 1].tpl_start;
    int r = scan_template_chars(L, tpl_start);
    if (r < 0) return -1;
    L->depth--;
    int32_t head = L->stack[L->depth].tok;
    if (push_tok(L, r ? TK_TEMPLATE_MIDDLE : TK_TEMPLATE_TAIL, start, 0)) return -1;
    L->toks[head].match = L->ntoks - 1;
    return r ? open_bracket_push(L, '`', 0, tpl_start) : 0;
}

static int scan_regex(lexer *L)
{
    size_t start = L->pos++;
    bool in_class = false;
    for (;;) {
        if (at_end(L)) return lex_error(L, start, "unterminated regular expression");
        int c = peek(L, 0);
        if (c == '\n' || c == '\r' || at_unicode_newline(L))
            return lex_error(L, start, "unterminated regular expression");
        L->pos++;
        if (c == '\\') { if (!at_end(L) && peek(L, 0) != '\n' && peek(L, 0) != '\r') L->pos++; continue; }
        if (c == '[') in_class = true;
        else if (c == ']') in_class = false;
        else if (c == '/' && !in_class) break;
    }
    while (!at_end(L) && is_id_part(peek(L, 0))) L->pos++; /* flags */
    return push_tok(L, TK_REGEX, start, 0);
}

static bool is_digit_of(int c, int base)
{
    if (c == '_') return true;
    if (base == 16) return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    if (base == 8) return c >= '0' && c <= '7';
    if (base == 2) return c == '0' || c == '1';
    return c >= '0' && c <= '9';
}

static int scan_number(lexer *L)
{
    size_t start = L->pos;
    int c1 = peek(L, 1) | 0x20;
    if (peek(L, 0) == '0' && (c1 == 'x' || c1 == 'o' || c1 == 'b')) {
        int base = c1 == 'x' ? 16 : c1 == 'o' ? 8 : 2;
        L->pos += 2;
        while (!at_end(L) && is_digit_of(peek(L, 0), base)) L->pos++;
    } else {
        while (!at_end(L) && is_digit_of(peek(L, 0), 10)) L->pos++;
        if (peek(L, 0) == '.') {
            L->pos++;
            while (!at_end(L) && is_digit_of(peek(L, 0), 10)) L->pos++;
        }
        if ((peek(L, 0) | 0x20) == 'e') {
            size_t save = L->pos++;
            if (peek(L, 0) == '+' || peek(L, 0) == '-') L->pos++;
            if (peek(L, 0) >= '0' && peek(L, 0) <= '9') {
                while (!at_end(L) && is_digit_of(peek(L, 0), 10)) L->pos++;
            } else {
                L->pos = save;
            }
        }
    }
    if (peek(L, 0) == 'n') L->pos++; /* BigInt */
    if (!at_end(L) && is_id_part(peek(L, 0)))
        return lex_error(L, L->pos, "identifier starts immediately after numeric literal");
    return push_tok(L, TK_NUM, start, 0);
}

/* Identifier characters, including \uXXXX and \u{...} escapes. */
static void scan_ident_chars(lexer *L)
{
    while (!at_end(L)) {
        int c = peek(L, 0);
        if (c == '\\' && peek(L, 1) == 'u') {
            L->pos += 2;
            if (peek(L, 0) == '{') {
                while (!at_end(L) && peek(L, 0) != '}' && is_digit_of(peek(L, 0), 16)) L->pos++;
                if (peek(L, 0) == '}') L->pos++;
            } else {
                for (int k = 0; k < 4 && is_digit_of(peek(L, 0), 16); k++) L->pos++;
            }
            continue;
        }
        if (!is_id_part(c) || at_unicode_newline(L) || unicode_space_len(L)) break;
        L->pos++;
    }
}

static const struct { const char *text; int op; } PUNCTS[] = {
    {"...", P_ELLIPSIS}, {"===", P_EQEQEQ}, {"!==", P_NEE}, {"**=", P_STARSTAREQ},
    {"<<=", P_SHLEQ}, {"&&=", P_ANDANDEQ}, {"||=", P_OROREQ}, {"?\?=", P_QQEQ},
    {"=>", P_ARROW}, {"==", P_EQEQ}, {"!=", P_NE}, {"<=", P_LE}, {"<<", P_SHL},
    {"+=", P_PLUSEQ}, {"-=", P_MINUSEQ}, {"*=", P_STAREQ}, {"/=", P_SLASHEQ},
    {"%=", P_PERCENTEQ}, {"&=", P_AMPEQ}, {"|=", P_PIPEEQ}, {"^=", P_CARETEQ},
    {"&&", P_ANDAND}, {"||", P_OROR}, {"??", P_QQ}, {"?.", P_QDOT}, {"++", P_INC},
    {"--", P_DEC}, {"**", P_STARSTAR},
    {"{", P_LBRACE}, {"}", P_RBRACE}, {"(", P_LPAREN}, {")", P_RPAREN},
    {"[", P_LBRACK}, {"]", P_RBRACK}, {";", P_SEMI}, {",", P_COMMA}, {"<", P_LT},
    {">", P_GT}, {".", P_DOT}, {"?", P_QUESTION}, {":", P_COLON}, {"=", P_EQ},
    {"+", P_PLUS}, {"-", P_MINUS}, {"*", P_STAR}, {"/", P_SLASH}, {"%", P_PERCENT},
    {"&", P_AMP}, {"|", P_PIPE}, {"^", P_CARET}, {"!", P_BANG}, {"~", P_TILDE},
    {"@", P_AT},
};

static int match_punct(const lexer *L, size_t *n)
{
    for (size_t k = 0; k < sizeof PUNCTS / sizeof PUNCTS[0]; k++) {
        const char *t = PUNCTS[k].text;
        size_t tl = strlen(t);
        size_t j = 0;
        while (j < tl && peek(L, j) == (unsigned char)t[j]) j++;
        if (j < tl) continue;
        if (PUNCTS[k].op == P_QDOT && peek(L, 2) >= '0' && peek(L, 2) <= '9') continue; /* a?.5:b */
        *n = tl;
        return PUNCTS[k].op;
    }
    return P_NONE;
}

/* Was the '(' just pushed preceded by if/while/for/with?  (regex heuristic) */
static uint8_t paren_flag(const lexer *L)
{
    if (L->ntoks < 2) return 0;
    const ts_tok *t = &L->toks[L->ntoks - 2];
    return tok_text_is(L, t, "if") || tok_text_is(L, t, "while") || tok_text_is(L, t, "for") ||
           tok_text_is(L, t, "with");
}

/* Does the '{' just pushed open a block (as opposed to an object literal)? */
static uint8_t brace_flag(const lexer *L)
{
    if (L->ntoks < 2) return 1;
    const ts_tok *t = &L->toks[L->ntoks - 2];
    if (t->kind == TK_IDENT) return !is_expr_keyword(L, t) || tok_text_is(L, t, "else") || tok_text_is(L, t, "do");
    if (t->kind != TK_PUNCT) return 0;
    return t->op == P_RPAREN || t->op == P_ARROW || t->op == P_SEMI || t->op == P_LBRACE ||
           t->op == P_RBRACE;
}

static int scan_punct(lexer *L)
{
    size_t start = L->pos, n = 0;
    int c = peek(L, 0);
    if (c == '/' && regex_allowed(L)) return scan_regex(L);
    int op = match_punct(L, &n);
    if (op == P_NONE) return lex_error(L, start, "unexpected character '%c'", c >= 32 && c < 127 ? c : '?');
    if (op == P_RBRACE && L->depth > 0 && L->stack[L->depth - 1].kind == '`')
        return scan_template_continuation(L);
    L->pos += n;
    if (push_tok(L, TK_PUNCT, start, op)) return -1;
    switch (op) {
    case P_LPAREN: return open_bracket_push(L, '(', paren_flag(L), 0);
    case P_LBRACK: return open_bracket_push(L, '[', 0, 0);
    case P_LBRACE: return open_bracket_push(L, '{', brace_flag(L), 0);
    case P_RPAREN: case P_RBRACK: case P_RBRACE: {
        char want = op == P_RPAREN ? '(' : op == P_RBRACK ? '[' : '{';
        if (L->depth == 0 || L->stack[L->depth - 1].kind != want) {
            if (L->depth > 0)
                return lex_error(L, start, "'%c' does not match '%c' opened at offset %u", c,
                                 L->stack[L->depth - 1].kind == '`' ? '{' : L->stack[L->depth - 1].kind,
                                 (unsigned)L->toks[L->stack[L->depth - 1].tok].start);
            return lex_error(L, start, "unexpected '%c'", c);
        }
        L->depth--;
        L->last_close_flag = L->stack[L->depth].flag;
        link(L, L->stack[L->depth].tok, L->ntoks - 1);
        return 0;
    }
    default: return 0;
    }
}

static int lex_token(lexer *L)
{
    size_t start = L->pos;
    int c = peek(L, 0);
    if (is_id_start(c) || (c == '\\' && peek(L, 1) == 'u')) {
        scan_ident_chars(L);
        if (L->pos == start) return lex_error(L, start, "invalid character");
        return push_tok(L, TK_IDENT, start, 0);
    }
    if (c == '#' && (is_id_start(peek(L, 1)) || peek(L, 1) == '\\')) {
        L->pos++;
        scan_ident_chars(L);
        return push_tok(L, TK_PRIVATE, start, 0);
    }
    if (c >= '0' && c <= '9') return scan_number(L);
    if (c == '.' && peek(L, 1) >= '0' && peek(L, 1) <= '9') return scan_number(L);
    if (c == '"' || c == '\'') return scan_string(L, c);
    if (c == '`') return scan_template(L);
    return scan_punct(L);
}

int ts_lex(const char *src, size_t len, ts_lex_result *out)
{
    lexer *L = calloc(1, sizeof *L);
    memset(out, 0, sizeof *out);
    if (!L) {
        snprintf(out->err_msg, sizeof out->err_msg, "out of memory");
        return -1;
    }
    L->s = (const unsigned char *)src;
    L->len = len;
    L->out = out;
    int rc = 0;
    for (;;) {
        if ((rc = skip_trivia(L))) break;
        if (at_end(L)) break;
        if ((rc = lex_token(L))) break;
    }
    if (!rc && L->depth > 0) {
        const open_bracket *ob = &L->stack[L->depth - 1];
        rc = ob->kind == '`' ? lex_error(L, ob->tpl_start, "unterminated template literal")
                             : lex_error(L, L->toks[ob->tok].start, "'%c' is never closed", ob->kind);
    }
    if (!rc) rc = push_tok(L, TK_EOF, L->len, 0);
    if (rc) {
        free(L->toks);
        free(L);
        return -1;
    }
    out->toks = L->toks;
    out->ntoks = L->ntoks;
    free(L);
    return 0;
}
