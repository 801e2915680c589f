/* tool_decl.c — the declaration of a legacy tool file, read as data (see tool_decl.h).
 *
 * Owns a small reader of one JavaScript object literal: the value after `export const tool
 * (: Type)? =`. It never evaluates anything; what is not plain data is a reason the file is broken.
 * Trusts nothing in the text: every read is bounded by len, the nesting by TOOL_DECL_MAX_DEPTH.
 */
#include "host/tool_decl.h"
#include "util/buf.h"

#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

typedef struct reader {
    const char *s;
    size_t len, pos;
    char *why; /* the first problem, or NULL */
} reader;

static bool ident_char(int c) { return isalnum(c) || c == '_' || c == '$'; }

static void fail(reader *r, const char *what)
{
    if (r->why) return;
    size_t line = 1;
    for (size_t i = 0; i < r->pos && i < r->len; i++) line += r->s[i] == '\n';
    r->why = xasprintf("line %zu: %s", line, what);
}

/* spaces and comments */
static void skip_ws(reader *r)
{
    while (r->pos < r->len) {
        char c = r->s[r->pos];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            r->pos++;
        } else if (c == '/' && r->pos + 1 < r->len && r->s[r->pos + 1] == '/') {
            while (r->pos < r->len && r->s[r->pos] != '\n') r->pos++;
        } else if (c == '/' && r->pos + 1 < r->len && r->s[r->pos + 1] == '*') {
            size_t end = r->pos + 2;
            while (end + 1 < r->len && !(r->s[end] == '*' && r->s[end + 1] == '/')) end++;
            if (end + 1 >= r->len) {
                fail(r, "a comment is not closed");
                r->pos = r->len;
                return;
            }
            r->pos = end + 2;
        } else {
            return;
        }
    }
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static void put_utf8(buf *b, unsigned long cp)
{
    if (cp < 0x80) {
        buf_putc(b, (char)cp);
    } else if (cp < 0x800) {
        buf_putc(b, (char)(0xC0 | (cp >> 6)));
        buf_putc(b, (char)(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        buf_putc(b, (char)(0xE0 | (cp >> 12)));
        buf_putc(b, (char)(0x80 | ((cp >> 6) & 0x3F)));
        buf_putc(b, (char)(0x80 | (cp & 0x3F)));
    } else {
        buf_putc(b, (char)(0xF0 | (cp >> 18)));
        buf_putc(b, (char)(0x80 | ((cp >> 12) & 0x3F)));
        buf_putc(b, (char)(0x80 | ((cp >> 6) & 0x3F)));
        buf_putc(b, (char)(0x80 | (cp & 0x3F)));
    }
}

/* n hex digits at pos, or -1 */
static long hex_digits(reader *r, size_t n)
{
    if (r->pos + n > r->len) return -1;
    long v = 0;
    for (size_t i = 0; i < n; i++) {
        int d = hexval((unsigned char)r->s[r->pos + i]);
        if (d < 0) return -1;
        v = v * 16 + d;
    }
    r->pos += n;
    return v;
}

/* One string literal ('…', "…" or `…` without ${}) appended to b. */
static bool read_string(reader *r, buf *b)
{
    char q = r->s[r->pos++];
    while (r->pos < r->len) {
        char c = r->s[r->pos++];
        if (c == q) return true;
        if (c == '\0') break;
        if (c == '\n' && q != '`') {
            fail(r, "a string is not closed on its line");
            return false;
        }
        if (q == '`' && c == '$' && r->pos < r->len && r->s[r->pos] == '{') {
            fail(r, "a template with ${…} is computed, not data");
            return false;
        }
        if (c != '\\') {
            buf_putc(b, c);
            continue;
        }
        if (r->pos >= r->len) break;
        char e = r->s[r->pos++];
        long cp;
        switch (e) {
        case 'n': buf_putc(b, '\n'); break;
        case 't': buf_putc(b, '\t'); break;
        case 'r': buf_putc(b, '\r'); break;
        case 'b': buf_putc(b, '\b'); break;
        case 'f': buf_putc(b, '\f'); break;
        case 'v': buf_putc(b, '\v'); break;
        case '\n': break; /* a line continuation */
        case 'x':
            if ((cp = hex_digits(r, 2)) <= 0) goto bad_escape;
            put_utf8(b, (unsigned long)cp);
            break;
        case 'u':
            if (r->pos < r->len && r->s[r->pos] == '{') {
                r->pos++;
                cp = 0;
                size_t n = 0;
                while (r->pos < r->len && r->s[r->pos] != '}' && n < 6) {
                    int d = hexval((unsigned char)r->s[r->pos++]);
                    if (d < 0) goto bad_escape;
                    cp = cp * 16 + d;
                    n++;
                }
                if (r->pos >= r->len || r->s[r->pos] != '}' || n == 0) goto bad_escape;
                r->pos++;
            } else if ((cp = hex_digits(r, 4)) < 0) {
                goto bad_escape;
            } else if (cp >= 0xD800 && cp < 0xDC00 && r->pos + 1 < r->len && r->s[r->pos] == '\\' &&
                       r->s[r->pos + 1] == 'u') {
                size_t back = r->pos;
                r->pos += 2;
                long lo = hex_digits(r, 4);
                if (lo >= 0xDC00 && lo < 0xE000) cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                else r->pos = back;
            }
            if (cp <= 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp < 0xE000)) goto bad_escape;
            put_utf8(b, (unsigned long)cp);
            break;
        case '0':
            goto bad_escape; /* no NUL inside a name or description */
        default: buf_putc(b, e); break;
        }
    }
    fail(r, "a string is not closed");
    return false;
bad_escape:
    fail(r, "a string has an escape that is not allowed here");
    return false;
}

static json_t *read_value(reader *r, int depth);

/* strings joined with + */
static json_t *read_strings(reader *r)
{
    buf b = {0};
    for (;;) {
        if (!read_string(r, &b)) {
            buf_free(&b);
            return NULL;
        }
        skip_ws(r);
        if (r->pos < r->len && r->s[r->pos] == '+') {
            r->pos++;
            skip_ws(r);
            if (r->pos < r->len && (r->s[r->pos] == '"' || r->s[r->pos] == '\'' || r->s[r->pos] == '`')) continue;
            fail(r, "only strings can be joined with + here");
            buf_free(&b);
            return NULL;
        }
        break;
    }
    json_t *v = json_stringn(b.data ? b.data : "", b.len);
    buf_free(&b);
    return v;
}

static json_t *read_number(reader *r)
{
    size_t start = r->pos;
    if (r->s[r->pos] == '-' || r->s[r->pos] == '+') r->pos++;
    while (r->pos < r->len && (isdigit((unsigned char)r->s[r->pos]) || r->s[r->pos] == '.' || r->s[r->pos] == 'e' ||
                               r->s[r->pos] == 'E' || ((r->s[r->pos] == '-' || r->s[r->pos] == '+') &&
                                                       (r->s[r->pos - 1] == 'e' || r->s[r->pos - 1] == 'E'))))
        r->pos++;
    size_t n = r->pos - start;
    if (n == 0 || n > 40) {
        fail(r, "a number is not plain");
        return NULL;
    }
    char tmp[48];
    memcpy(tmp, r->s + start, n);
    tmp[n] = 0;
    char *end;
    double d = strtod(tmp, &end);
    if (*end || !isfinite(d)) {
        fail(r, "a number is not plain");
        return NULL;
    }
    return json_number(d);
}

static bool word_at(reader *r, const char *w)
{
    size_t n = strlen(w);
    if (r->pos + n > r->len || memcmp(r->s + r->pos, w, n)) return false;
    if (r->pos + n < r->len && ident_char((unsigned char)r->s[r->pos + n])) return false;
    r->pos += n;
    return true;
}

static json_t *read_object(reader *r, int depth)
{
    json_t *o = json_object();
    r->pos++; /* { */
    for (;;) {
        skip_ws(r);
        if (r->pos >= r->len) break;
        char c = r->s[r->pos];
        if (c == '}') {
            r->pos++;
            return o;
        }
        char *key = NULL;
        if (c == '"' || c == '\'') {
            buf b = {0};
            if (!read_string(r, &b)) {
                buf_free(&b);
                break;
            }
            if (b.len != strlen(b.data ? b.data : "")) {
                buf_free(&b);
                fail(r, "a key holds a NUL byte");
                break;
            }
            key = b.data ? buf_steal(&b) : xstrdup("");
        } else if (ident_char((unsigned char)c) && !isdigit((unsigned char)c)) {
            size_t start = r->pos;
            while (r->pos < r->len && ident_char((unsigned char)r->s[r->pos])) r->pos++;
            key = xstrndup(r->s + start, r->pos - start);
        } else {
            fail(r, "an object key is not a name or a string (spreads and computed keys are not data)");
            break;
        }
        skip_ws(r);
        if (r->pos >= r->len || r->s[r->pos] != ':') {
            free(key);
            fail(r, "an object key is not followed by `:` (shorthand and methods are not data)");
            break;
        }
        r->pos++;
        json_t *v = read_value(r, depth + 1);
        if (!v) {
            free(key);
            break;
        }
        json_object_set(o, key, v);
        free(key);
        skip_ws(r);
        if (r->pos < r->len && r->s[r->pos] == ',') {
            r->pos++;
            continue;
        }
        if (r->pos < r->len && r->s[r->pos] == '}') continue;
        fail(r, "expected `,` or `}` in an object");
        break;
    }
    fail(r, "an object is not closed");
    json_free(o);
    return NULL;
}

static json_t *read_array(reader *r, int depth)
{
    json_t *a = json_array();
    r->pos++; /* [ */
    for (;;) {
        skip_ws(r);
        if (r->pos >= r->len) break;
        if (r->s[r->pos] == ']') {
            r->pos++;
            return a;
        }
        json_t *v = read_value(r, depth + 1);
        if (!v) break;
        json_array_push(a, v);
        skip_ws(r);
        if (r->pos < r->len && r->s[r->pos] == ',') {
            r->pos++;
            continue;
        }
        if (r->pos < r->len && r->s[r->pos] == ']') continue;
        fail(r, "expected `,` or `]` in an array");
        break;
    }
    fail(r, "an array is not closed");
    json_free(a);
    return NULL;
}

static json_t *read_value(reader *r, int depth)
{
    if (depth > TOOL_DECL_MAX_DEPTH) {
        fail(r, "the declaration is nested too deeply");
        return NULL;
    }
    skip_ws(r);
    if (r->pos >= r->len) {
        fail(r, "the declaration ends early");
        return NULL;
    }
    char c = r->s[r->pos];
    if (c == '{') return read_object(r, depth);
    if (c == '[') return read_array(r, depth);
    if (c == '"' || c == '\'' || c == '`') return read_strings(r);
    if (c == '-' || c == '+' || c == '.' || isdigit((unsigned char)c)) return read_number(r);
    if (word_at(r, "true")) return json_bool(true);
    if (word_at(r, "false")) return json_bool(false);
    if (word_at(r, "null") || word_at(r, "undefined")) return json_null();
    fail(r, "a value is not plain data (a string, number, boolean, null, array or object)");
    return NULL;
}

/* The first `phrase` in the text standing as whole words, or (size_t)-1. */
static size_t find_words(const char *s, size_t len, const char *phrase)
{
    size_t n = strlen(phrase);
    for (size_t i = 0; i + n <= len; i++) {
        if (memcmp(s + i, phrase, n)) continue;
        if (i > 0 && ident_char((unsigned char)s[i - 1])) continue;
        if (i + n < len && ident_char((unsigned char)s[i + n])) continue;
        return i;
    }
    return (size_t)-1;
}

static bool name_ok(const char *name, size_t len)
{
    if (len == 0 || len > TOOL_NAME_MAX || strstr(name, "__")) return false;
    for (size_t i = 0; i < len; i++)
        if (!isalnum((unsigned char)name[i]) && name[i] != '_' && name[i] != '-') return false;
    return true;
}

int tool_decl_parse(const char *text, size_t len, json_t **decl, char **why)
{
    *decl = NULL;
    *why = NULL;
    if (len > TOOL_DECL_MAX_BYTES) {
        *why = xasprintf("the file is larger than %zu KiB", TOOL_DECL_MAX_BYTES >> 10);
        return -1;
    }
    size_t at = find_words(text, len, "export const tool");
    if (at == (size_t)-1) return 0;
    reader r = {.s = text, .len = len, .pos = at + strlen("export const tool")};
    /* an optional type, then `=` */
    skip_ws(&r);
    if (r.pos < r.len && r.s[r.pos] == ':') {
        int nest = 0;
        while (r.pos < r.len) {
            char c = r.s[r.pos];
            if (c == '<' || c == '(' || c == '[' || c == '{') nest++;
            else if ((c == '>' || c == ')' || c == ']' || c == '}') && nest > 0) nest--;
            else if (c == '=' && nest == 0 && !(r.pos + 1 < r.len && r.s[r.pos + 1] == '>')) break;
            else if (c == ';' && nest == 0) break;
            r.pos++;
        }
    }
    if (r.pos >= r.len || r.s[r.pos] != '=') {
        /* (an unclosed comment already said why) */
        *why = r.why ? r.why : xstrdup("`export const tool` is not followed by `= {…}`");
        return -1;
    }
    r.pos++;
    skip_ws(&r);
    if (r.pos >= r.len || r.s[r.pos] != '{') {
        fail(&r, "`tool` must be an object literal {name, description, parameters}");
        *why = r.why;
        return -1;
    }
    json_t *v = read_value(&r, 0);
    if (!v) {
        *why = r.why ? r.why : xstrdup("the declaration cannot be read");
        return -1;
    }
    free(r.why);
    const json_t *name = json_object_get(v, "name"), *desc = json_object_get(v, "description"),
                 *params = json_object_get(v, "parameters");
    if (!json_is_string(name) || !name_ok(name->u.string.bytes, name->u.string.len)) {
        *why = xasprintf("`tool.name` must be a string of 1 to %d letters, digits, `_` or `-`, without `__` "
                         "(MCP tools own names with `__`)",
                         TOOL_NAME_MAX);
        json_free(v);
        return -1;
    }
    if (desc && !json_is_string(desc) && desc->type != JSON_NULL) {
        *why = xstrdup("`tool.description` must be a string");
        json_free(v);
        return -1;
    }
    if (params && !json_is_object(params) && params->type != JSON_NULL) {
        *why = xstrdup("`tool.parameters` must be an object (a JSON schema)");
        json_free(v);
        return -1;
    }
    static const char *const runs[] = {"export async function run", "export function run", "export const run",
                                       "export let run", "export var run"};
    bool has_run = false;
    for (size_t i = 0; i < sizeof runs / sizeof runs[0] && !has_run; i++)
        has_run = find_words(text, len, runs[i]) != (size_t)-1;
    if (!has_run) {
        *why = xstrdup("it declares `tool` but exports no `run` function (export async function run(args, chidori))");
        json_free(v);
        return -1;
    }
    json_t *out = json_object();
    json_object_set(out, "name", json_copy(name));
    json_object_set(out, "description", json_is_string(desc) ? json_copy(desc) : json_string(""));
    if (json_is_object(params)) {
        json_object_set(out, "parameters", json_copy(params));
    } else {
        json_t *p = json_object();
        json_object_set(p, "type", json_string("object"));
        json_object_set(p, "properties", json_object());
        json_object_set(out, "parameters", p);
    }
    json_free(v);
    *decl = out;
    return 1;
}
