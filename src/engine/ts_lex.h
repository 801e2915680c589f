/*
 * ts_lex.h — tokenizer for chidori's TypeScript eraser (internal header).
 *
 * Owns: turning untrusted bytes into a flat token array with matched
 * brackets.  Trusts nothing about the input: every read is bounds-checked
 * against len, the input need not be NUL-terminated, bracket nesting is
 * limited to TS_LEX_MAX_NESTING, and errors come back as a byte offset plus
 * a message instead of crashing.
 *
 * Design notes:
 *  - The whole file is tokenized up front so the parser can look ahead by
 *    index and jump over bracketed groups in O(1) (tok.match).
 *  - Regex-vs-division is decided from the previous significant token (the
 *    classic heuristic, refined for `)` of if/while/for/with, `}` of blocks and
 *    the postfix non-null `!`).
 *  - `>` is always a single-character token; the parser glues adjacent `>`
 *    tokens into `>>`, `>=`, `>>>=` ... where it expects a binary operator.
 *    This is what lets `Array<Array<T>>` close two type-argument lists.
 *  - Template literals with nested `${ ... }` are split into HEAD, MIDDLE and
 *    TAIL tokens; a HEAD/MIDDLE's match is the next MIDDLE/TAIL.
 */
#ifndef CHIDORI_TS_LEX_H
#define CHIDORI_TS_LEX_H

#include <stddef.h>
#include <stdint.h>

#define TS_LEX_MAX_NESTING 1000

enum ts_tok_kind {
    TK_EOF,
    TK_IDENT,     /* identifiers and all keywords */
    TK_PRIVATE,   /* #name */
    TK_NUM,
    TK_STR,
    TK_REGEX,
    TK_TEMPLATE,  /* `...` without substitutions */
    TK_TEMPLATE_HEAD,   /* `...${ */
    TK_TEMPLATE_MIDDLE, /* }...${ */
    TK_TEMPLATE_TAIL,   /* }...` */
    TK_PUNCT
};

enum ts_punct {
    P_NONE,
    P_LBRACE, P_RBRACE, P_LPAREN, P_RPAREN, P_LBRACK, P_RBRACK,
    P_SEMI, P_COMMA, P_LT, P_GT, P_DOT, P_ELLIPSIS, P_QDOT, P_QUESTION,
    P_QQ, P_QQEQ, P_COLON, P_EQ, P_ARROW, P_EQEQ, P_EQEQEQ, P_NE, P_NEE,
    P_LE, P_SHL, P_SHLEQ, P_PLUS, P_MINUS, P_STAR, P_SLASH, P_PERCENT,
    P_STARSTAR, P_INC, P_DEC, P_AMP, P_PIPE, P_CARET, P_BANG, P_TILDE,
    P_ANDAND, P_OROR, P_PLUSEQ, P_MINUSEQ, P_STAREQ, P_SLASHEQ, P_PERCENTEQ,
    P_STARSTAREQ, P_AMPEQ, P_PIPEEQ, P_CARETEQ, P_ANDANDEQ, P_OROREQ, P_AT,
    P_COUNT
};

typedef struct ts_tok {
    uint32_t start, end; /* byte offsets into the source */
    int32_t match;       /* index of the matching bracket token, or -1 */
    uint8_t kind;        /* enum ts_tok_kind */
    uint8_t nl_before;   /* a line terminator lies between this and the previous token */
    uint16_t op;         /* enum ts_punct for TK_PUNCT */
} ts_tok;

typedef struct ts_lex_result {
    ts_tok *toks;   /* malloc'd, ntoks entries, the last one is TK_EOF */
    int32_t ntoks;
    /* on error: toks == NULL, err_pos/err_msg set */
    size_t err_pos;
    char err_msg[200];
} ts_lex_result;

/* Tokenize src[0..len).  Returns 0 on success, -1 on error (see result). */
int ts_lex(const char *src, size_t len, ts_lex_result *out);

#endif
