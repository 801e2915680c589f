/* json.c — JSON DOM, strict limited parser, JSON.stringify-compatible serializer (see json.h).
 *
 * Trusts nothing about its input: the parser checks the size limit before reading, bounds the
 * nesting depth (it is recursive, so the depth limit is also its stack bound), validates UTF-8,
 * and never reads past len. It follows ECMAScript JSON.parse grammar exactly (RFC 8259).
 */
#include "json.h"
#include "buf.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------- construction ---------- */

/* Freed nodes are kept for the next ones, up to NODE_CACHE per thread: a tree is made and freed
 * node by node (a call frame, a record, an effect's arguments: 5 to 30 nodes), which glibc's
 * per-thread cache of 7 blocks a size does not cover. A thread's kept nodes are freed when it ends;
 * none are kept under AddressSanitizer, so that it sees every node's own life. */
#if defined(__SANITIZE_ADDRESS__) /* gcc's; clang says it through __has_feature */
#define NODE_CACHE 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NODE_CACHE 0
#endif
#endif
#ifndef NODE_CACHE
#define NODE_CACHE 64
#endif

#if NODE_CACHE
static __thread json_t *node_cache[NODE_CACHE];
static __thread int node_cached;
static __thread bool node_drain_set;
static pthread_key_t node_key;
static bool node_key_made;

static void node_cache_drain(void *unused)
{
    (void)unused;
    while (node_cached) free(node_cache[--node_cached]);
    node_drain_set = false; /* a later destructor's json_free sets it again, and glibc calls this again */
}

/* Made before main: a worker confines itself (seccomp) before its first JSON, and pthread_once
 * wakes waiters with a futex call its filter does not allow. */
__attribute__((constructor)) static void node_key_make(void)
{
    node_key_made = pthread_key_create(&node_key, node_cache_drain) == 0;
}
#endif

/* A freed node's type while it waits in the cache: freeing it again aborts, as glibc's own check
 * would have (a double free must not hand one node out twice). */
#define JSON_FREED_NODE ((json_type)0x7e)

static json_t *json_new(json_type t)
{
    json_t *v;
#if NODE_CACHE
    if (node_cached) {
        v = node_cache[--node_cached];
        memset(v, 0, sizeof *v);
    } else
#endif
        v = xcalloc(1, sizeof *v);
    v->type = t;
    return v;
}

static void node_free(json_t *v)
{
#if NODE_CACHE
    if (node_cached < NODE_CACHE && node_key_made) {
        /* the first node kept by this thread: free them when it ends */
        if (!node_drain_set && pthread_setspecific(node_key, (void *)1) == 0) node_drain_set = true;
        if (node_drain_set) {
            v->type = JSON_FREED_NODE;
            node_cache[node_cached++] = v;
            return;
        }
    }
#endif
    free(v);
}

json_t *json_null(void) { return json_new(JSON_NULL); }
json_t *json_bool(bool b) { return json_new(b ? JSON_TRUE : JSON_FALSE); }
json_t *json_array(void) { return json_new(JSON_ARRAY); }

json_t *json_raw(char *text, size_t len)
{
    json_t *v = json_new(JSON_RAW);
    v->u.string.bytes = text;
    v->u.string.len = len;
    return v;
}

bool json_is_raw(const json_t *v) { return v && v->type == JSON_RAW; }
json_t *json_object(void) { return json_new(JSON_OBJECT); }

json_t *json_number(double d)
{
    json_t *v = json_new(JSON_NUMBER);
    v->u.number = d;
    return v;
}

json_t *json_stringn(const char *s, size_t len)
{
    json_t *v = json_new(JSON_STRING);
    v->u.string.bytes = xstrndup(s, len);
    v->u.string.len = len;
    return v;
}

json_t *json_string(const char *s) { return json_stringn(s, strlen(s)); }

void json_array_push(json_t *a, json_t *value)
{
    if (a->u.array.len == a->u.array.cap) {
        a->u.array.cap = a->u.array.cap ? a->u.array.cap * 2 : 4;
        a->u.array.items = xrealloc(a->u.array.items, a->u.array.cap * sizeof(json_t *));
    }
    a->u.array.items[a->u.array.len++] = value;
}

/* Objects past INDEX_FROM members get an open-addressing hash index of member positions, so
 * building an object of n keys is O(n), not O(n²) (a hostile object of 100k keys took 83 s). */
#define INDEX_FROM 16

static uint32_t key_hash(const char *key, size_t len)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (size_t i = 0; i < len; i++) h = (h ^ (unsigned char)key[i]) * 16777619u;
    return h;
}

static void index_insert(json_t *o, size_t pos)
{
    json_member *m = &o->u.object.items[pos];
    size_t mask = o->u.object.index_cap - 1;
    size_t i = key_hash(m->key, m->key_len) & mask;
    while (o->u.object.index[i]) i = (i + 1) & mask;
    o->u.object.index[i] = (uint32_t)pos + 1; /* 0 marks an empty slot */
}

static void index_rebuild(json_t *o)
{
    size_t cap = 64;
    while (cap < o->u.object.len * 2 + 2) cap *= 2;
    free(o->u.object.index);
    o->u.object.index = xcalloc(cap, sizeof(uint32_t));
    o->u.object.index_cap = cap;
    for (size_t i = 0; i < o->u.object.len; i++) index_insert(o, i);
}

static json_member *object_find(const json_t *o, const char *key, size_t key_len)
{
    if (o->u.object.index) {
        size_t mask = o->u.object.index_cap - 1;
        for (size_t i = key_hash(key, key_len) & mask; o->u.object.index[i]; i = (i + 1) & mask) {
            json_member *m = &o->u.object.items[o->u.object.index[i] - 1];
            if (m->key_len == key_len && memcmp(m->key, key, key_len) == 0) return m;
        }
        return NULL;
    }
    for (size_t i = 0; i < o->u.object.len; i++) {
        json_member *m = &o->u.object.items[i];
        if (m->key_len == key_len && memcmp(m->key, key, key_len) == 0) return m;
    }
    return NULL;
}

static void object_setn(json_t *o, const char *key, size_t key_len, json_t *value)
{
    json_member *m = object_find(o, key, key_len);
    if (m) {
        json_free(m->value);
        m->value = value;
        return;
    }
    if (o->u.object.len == o->u.object.cap) {
        o->u.object.cap = o->u.object.cap ? o->u.object.cap * 2 : 4;
        o->u.object.items = xrealloc(o->u.object.items, o->u.object.cap * sizeof(json_member));
    }
    m = &o->u.object.items[o->u.object.len++];
    m->key = xstrndup(key, key_len);
    m->key_len = key_len;
    m->value = value;
    if (o->u.object.index && o->u.object.len * 2 <= o->u.object.index_cap) index_insert(o, o->u.object.len - 1);
    else if (o->u.object.len > INDEX_FROM) index_rebuild(o);
}

void json_object_set(json_t *o, const char *key, json_t *value)
{
    object_setn(o, key, strlen(key), value);
}

void json_free(json_t *v)
{
    if (!v) return;
    if (v->type == JSON_FREED_NODE) abort(); /* freed twice */
    switch (v->type) {
    case JSON_STRING:
    case JSON_RAW:
        free(v->u.string.bytes);
        break;
    case JSON_ARRAY:
        for (size_t i = 0; i < v->u.array.len; i++) json_free(v->u.array.items[i]);
        free(v->u.array.items);
        break;
    case JSON_OBJECT:
        for (size_t i = 0; i < v->u.object.len; i++) {
            free(v->u.object.items[i].key);
            json_free(v->u.object.items[i].value);
        }
        free(v->u.object.items);
        free(v->u.object.index);
        break;
    default:
        break;
    }
    node_free(v);
}

static int member_order(const void *a, const void *b)
{
    const json_member *x = *(const json_member *const *)a, *y = *(const json_member *const *)b;
    size_t n = x->key_len < y->key_len ? x->key_len : y->key_len;
    int c = memcmp(x->key, y->key, n);
    return c ? c : (x->key_len > y->key_len) - (x->key_len < y->key_len);
}

char *json_dump_sorted(const json_t *v, size_t *len)
{
    json_t *s = json_sorted_copy(v);
    char *text = json_dump(s, JSON_COMPACT, len);
    json_free(s);
    return text;
}

json_t *json_sorted_copy(const json_t *v)
{
    if (json_is_array(v)) {
        json_t *a = json_array();
        for (size_t i = 0; i < v->u.array.len; i++) json_array_push(a, json_sorted_copy(v->u.array.items[i]));
        return a;
    }
    if (!json_is_object(v)) return json_copy(v);
    size_t n = v->u.object.len;
    const json_member **m = xmalloc((n ? n : 1) * sizeof *m);
    for (size_t i = 0; i < n; i++) m[i] = &v->u.object.items[i];
    qsort(m, n, sizeof *m, member_order);
    json_t *o = json_object();
    for (size_t i = 0; i < n; i++) object_setn(o, m[i]->key, m[i]->key_len, json_sorted_copy(m[i]->value));
    free(m);
    return o;
}

json_t *json_copy(const json_t *v)
{
    if (!v) return NULL;
    json_t *c;
    switch (v->type) {
    case JSON_STRING:
        c = json_stringn(v->u.string.bytes, v->u.string.len);
        break;
    case JSON_RAW:
        c = json_raw(xmalloc(v->u.string.len + 1), v->u.string.len);
        memcpy(c->u.string.bytes, v->u.string.bytes, v->u.string.len + 1);
        break;
    case JSON_NUMBER:
        c = json_number(v->u.number);
        break;
    case JSON_ARRAY:
        c = json_array();
        for (size_t i = 0; i < v->u.array.len; i++) json_array_push(c, json_copy(v->u.array.items[i]));
        break;
    case JSON_OBJECT:
        c = json_object();
        for (size_t i = 0; i < v->u.object.len; i++) {
            json_member *m = &v->u.object.items[i];
            object_setn(c, m->key, m->key_len, json_copy(m->value));
        }
        break;
    default:
        c = json_new(v->type);
        break;
    }
    c->line = v->line;
    c->col = v->col;
    return c;
}

/* ---------- access ---------- */

json_t *json_object_get(const json_t *o, const char *key)
{
    if (!o || o->type != JSON_OBJECT) return NULL;
    json_member *m = object_find(o, key, strlen(key));
    return m ? m->value : NULL;
}

const char *json_string_value(const json_t *v)
{
    return v && v->type == JSON_STRING ? v->u.string.bytes : NULL;
}

double json_number_value(const json_t *v)
{
    return v && v->type == JSON_NUMBER ? v->u.number : NAN;
}

bool json_is_string(const json_t *v) { return v && v->type == JSON_STRING; }
bool json_is_object(const json_t *v) { return v && v->type == JSON_OBJECT; }
bool json_is_array(const json_t *v) { return v && v->type == JSON_ARRAY; }

/* A raw value against any other: by the compact text json_dump writes for each. */
static bool equal_as_text(const json_t *a, const json_t *b)
{
    size_t na, nb;
    char *ta = json_dump(a, JSON_COMPACT, &na), *tb = json_dump(b, JSON_COMPACT, &nb);
    bool same = na == nb && memcmp(ta, tb, na) == 0;
    free(ta);
    free(tb);
    return same;
}

bool json_equal(const json_t *a, const json_t *b)
{
    if (!a || !b) return a == b;
    if (a->type == JSON_RAW || b->type == JSON_RAW) return equal_as_text(a, b);
    if (a->type != b->type) return false;
    switch (a->type) {
    case JSON_NUMBER:
        return a->u.number == b->u.number;
    case JSON_STRING:
        return a->u.string.len == b->u.string.len &&
               memcmp(a->u.string.bytes, b->u.string.bytes, a->u.string.len) == 0;
    case JSON_ARRAY:
        if (a->u.array.len != b->u.array.len) return false;
        for (size_t i = 0; i < a->u.array.len; i++)
            if (!json_equal(a->u.array.items[i], b->u.array.items[i])) return false;
        return true;
    case JSON_OBJECT:
        if (a->u.object.len != b->u.object.len) return false;
        for (size_t i = 0; i < a->u.object.len; i++) {
            json_member *m = &a->u.object.items[i];
            json_member *n = object_find(b, m->key, m->key_len);
            if (!n || !json_equal(m->value, n->value)) return false;
        }
        return true;
    default:
        return true;
    }
}

/* A plain string (see json_compact_is) as dump_string writes it, at text[*pos]: *pos moves past it. */
static bool plain_text_is(const char *s, size_t n, const char *text, size_t len, size_t *pos)
{
    if (len - *pos < n + 2 || text[*pos] != '"' || text[*pos + n + 1] != '"' || memcmp(text + *pos + 1, s, n) != 0)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!json_plain_byte((unsigned char)s[i])) return false;
    *pos += n + 2;
    return true;
}

static bool compact_is_at(const json_t *v, const char *text, size_t len, size_t *pos)
{
    char num[40];
    const char *word = NULL;
    size_t n;
    switch (v->type) {
    case JSON_NULL: word = "null"; break;
    case JSON_TRUE: word = "true"; break;
    case JSON_FALSE: word = "false"; break;
    case JSON_NUMBER:
        /* NaN and the infinities are written "null", which parses to another value: never "the same" */
        if (!isfinite(v->u.number)) return false;
        json_format_number(v->u.number, num), word = num;
        break;
    case JSON_STRING: return plain_text_is(v->u.string.bytes, v->u.string.len, text, len, pos);
    case JSON_ARRAY:
        if (*pos >= len || text[(*pos)++] != '[') return false;
        for (size_t i = 0; i < v->u.array.len; i++)
            if ((i && (*pos >= len || text[(*pos)++] != ',')) || !compact_is_at(v->u.array.items[i], text, len, pos))
                return false;
        return *pos < len && text[(*pos)++] == ']';
    case JSON_OBJECT:
        if (*pos >= len || text[(*pos)++] != '{') return false;
        for (size_t i = 0; i < v->u.object.len; i++) {
            const json_member *m = &v->u.object.items[i];
            if ((i && (*pos >= len || text[(*pos)++] != ',')) || !plain_text_is(m->key, m->key_len, text, len, pos) ||
                *pos >= len || text[(*pos)++] != ':' || !compact_is_at(m->value, text, len, pos))
                return false;
        }
        return *pos < len && text[(*pos)++] == '}';
    default:
        return false;
    }
    n = strlen(word);
    if (len - *pos < n || memcmp(text + *pos, word, n) != 0) return false;
    *pos += n;
    return true;
}

bool json_compact_is(const json_t *v, const char *text, size_t len)
{
    size_t pos = 0;
    return v && compact_is_at(v, text, len, &pos) && pos == len;
}

/* ---------- parsing ---------- */

typedef struct parser {
    const char *s;
    size_t len, pos;
    int line;
    size_t line_start;
    int max_depth;
    size_t values, max_values;
    json_error *err;
    bool failed;
} parser;

static void fail_at(parser *p, size_t pos, const char *msg)
{
    if (p->failed) return;
    p->failed = true;
    if (p->err) {
        /* Recount the position so the column is right even if pos != p->pos. */
        int line = 1;
        size_t ls = 0;
        for (size_t i = 0; i < pos && i < p->len; i++)
            if (p->s[i] == '\n') line++, ls = i + 1;
        p->err->line = line;
        p->err->col = (int)(pos - ls) + 1;
        snprintf(p->err->message, sizeof p->err->message, "%s", msg);
    }
}

static void skip_ws(parser *p)
{
    while (p->pos < p->len) {
        char c = p->s[p->pos];
        if (c == '\n') {
            p->line++;
            p->line_start = p->pos + 1;
        } else if (c != ' ' && c != '\t' && c != '\r') {
            break;
        }
        p->pos++;
    }
}

static void mark(parser *p, json_t *v, size_t at)
{
    v->line = p->line;
    v->col = (int)(at - p->line_start) + 1;
}

static int hex4(parser *p, size_t at, unsigned *out)
{
    if (at + 4 > p->len) return -1;
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p->s[at + i];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
        else return -1;
    }
    *out = v;
    return 0;
}

static void put_utf8(buf *b, unsigned cp)
{
    char tmp[4];
    int n;
    if (cp < 0x80) tmp[0] = (char)cp, n = 1;
    else if (cp < 0x800) tmp[0] = (char)(0xC0 | (cp >> 6)), tmp[1] = (char)(0x80 | (cp & 0x3F)), n = 2;
    else if (cp < 0x10000) {
        tmp[0] = (char)(0xE0 | (cp >> 12));
        tmp[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        tmp[2] = (char)(0x80 | (cp & 0x3F));
        n = 3;
    } else {
        tmp[0] = (char)(0xF0 | (cp >> 18));
        tmp[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        tmp[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        tmp[3] = (char)(0x80 | (cp & 0x3F));
        n = 4;
    }
    buf_append(b, tmp, (size_t)n);
}

/* Length of a valid UTF-8 sequence at s[0..avail), or 0 if invalid (overlongs, surrogates and
 * code points above U+10FFFF are invalid in raw input). */
static size_t utf8_seq_len(const unsigned char *s, size_t avail)
{
    unsigned c = s[0];
    if (c < 0x80) return 1;
    size_t n;
    unsigned cp;
    if (c >= 0xC2 && c <= 0xDF) n = 2, cp = c & 0x1F;
    else if (c >= 0xE0 && c <= 0xEF) n = 3, cp = c & 0x0F;
    else if (c >= 0xF0 && c <= 0xF4) n = 4, cp = c & 0x07;
    else return 0;
    if (avail < n) return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    if (n == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) return 0;
    if (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) return 0;
    return n;
}

/* Parses a string starting at the opening quote; result bytes in *out. */
static int parse_string_raw(parser *p, buf *out)
{
    size_t start = p->pos;
    p->pos++; /* opening quote */
    for (;;) {
        if (p->pos >= p->len) {
            fail_at(p, start, "unterminated string");
            return -1;
        }
        unsigned char c = (unsigned char)p->s[p->pos];
        if (c == '"') {
            p->pos++;
            return 0;
        }
        if (c < 0x20) {
            fail_at(p, p->pos, "control character in string");
            return -1;
        }
        if (c == '\\') {
            if (p->pos + 1 >= p->len) {
                fail_at(p, p->pos, "unterminated escape");
                return -1;
            }
            char e = p->s[p->pos + 1];
            p->pos += 2;
            switch (e) {
            case '"': buf_putc(out, '"'); break;
            case '\\': buf_putc(out, '\\'); break;
            case '/': buf_putc(out, '/'); break;
            case 'b': buf_putc(out, '\b'); break;
            case 'f': buf_putc(out, '\f'); break;
            case 'n': buf_putc(out, '\n'); break;
            case 'r': buf_putc(out, '\r'); break;
            case 't': buf_putc(out, '\t'); break;
            case 'u': {
                unsigned cp;
                if (hex4(p, p->pos, &cp) < 0) {
                    fail_at(p, p->pos - 2, "bad \\u escape");
                    return -1;
                }
                p->pos += 4;
                if (cp >= 0xD800 && cp <= 0xDBFF && p->pos + 6 <= p->len && p->s[p->pos] == '\\' &&
                    p->s[p->pos + 1] == 'u') {
                    unsigned lo;
                    if (hex4(p, p->pos + 2, &lo) == 0 && lo >= 0xDC00 && lo <= 0xDFFF) {
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                        p->pos += 6;
                    }
                }
                put_utf8(out, cp); /* a lone surrogate becomes WTF-8 */
                break;
            }
            default:
                fail_at(p, p->pos - 2, "bad escape in string");
                return -1;
            }
            continue;
        }
        /* a run of plain bytes (no quote, backslash or control character; valid UTF-8) is
         * appended in one go: most strings are one run */
        size_t run = p->pos;
        for (;;) {
            unsigned char b = (unsigned char)p->s[run];
            if (b >= 0x20 && b < 0x80 && b != '"' && b != '\\') {
                if (++run >= p->len) break;
                continue;
            }
            if (b < 0x80) break; /* quote, backslash or control: handled above */
            size_t n = utf8_seq_len((const unsigned char *)p->s + run, p->len - run);
            if (!n) {
                if (run == p->pos) {
                    fail_at(p, p->pos, "invalid UTF-8 in string");
                    return -1;
                }
                break; /* append the run first; the next turn reports the bad byte */
            }
            run += n;
            if (run >= p->len) break;
        }
        buf_append(out, p->s + p->pos, run - p->pos);
        p->pos = run;
    }
}

/* A string at the opening quote made only of plain ASCII (no escape, no control byte), as most
 * keys and values are: its bytes stand in the text as they are. true with *at and *n and the
 * position past the closing quote; false (nothing moved) for any other string. */
static bool plain_string(parser *p, const char **at, size_t *n)
{
    size_t i = p->pos + 1;
    while (i < p->len) {
        unsigned char c = (unsigned char)p->s[i];
        if (c == '"') {
            *at = p->s + p->pos + 1;
            *n = i - p->pos - 1;
            p->pos = i + 1;
            return true;
        }
        if (c < 0x20 || c >= 0x80 || c == '\\') return false;
        i++;
    }
    return false;
}

static json_t *parse_value(parser *p, int depth);

static json_t *parse_number(parser *p)
{
    size_t start = p->pos;
    const char *s = p->s;
    size_t i = p->pos;
    if (i < p->len && s[i] == '-') i++;
    if (i >= p->len) goto bad;
    if (s[i] == '0') {
        i++;
    } else if (s[i] >= '1' && s[i] <= '9') {
        while (i < p->len && s[i] >= '0' && s[i] <= '9') i++;
    } else {
        goto bad;
    }
    if (i < p->len && s[i] == '.') {
        i++;
        if (i >= p->len || s[i] < '0' || s[i] > '9') goto bad;
        while (i < p->len && s[i] >= '0' && s[i] <= '9') i++;
    }
    if (i < p->len && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < p->len && (s[i] == '+' || s[i] == '-')) i++;
        if (i >= p->len || s[i] < '0' || s[i] > '9') goto bad;
        while (i < p->len && s[i] >= '0' && s[i] <= '9') i++;
    }
    {
        size_t n = i - start;
        /* a whole number of at most 15 digits is exact in a double: no strtod (most numbers) */
        size_t from = start + (s[start] == '-');
        if (i - from <= 15) {
            int64_t whole = 0;
            size_t k = from;
            while (k < i && s[k] >= '0' && s[k] <= '9') whole = whole * 10 + (s[k++] - '0');
            if (k == i) {
                json_t *v = json_number(s[start] == '-' ? -(double)whole : (double)whole);
                mark(p, v, start);
                p->pos = i;
                return v;
            }
        }
        /* strtod needs a terminated copy; numbers are short unless hostile, so cap the copy. */
        char small[64];
        char *tmp = n < sizeof small ? small : xmalloc(n + 1);
        memcpy(tmp, s + start, n);
        tmp[n] = '\0';
        double d = strtod(tmp, NULL);
        if (tmp != small) free(tmp);
        json_t *v = json_number(d);
        mark(p, v, start);
        p->pos = i;
        return v;
    }
bad:
    fail_at(p, start, "invalid number");
    return NULL;
}

static bool match_word(parser *p, const char *w)
{
    size_t n = strlen(w);
    if (p->len - p->pos >= n && memcmp(p->s + p->pos, w, n) == 0) {
        p->pos += n;
        return true;
    }
    return false;
}

static json_t *parse_array(parser *p, int depth)
{
    json_t *a = json_array();
    mark(p, a, p->pos);
    p->pos++; /* [ */
    skip_ws(p);
    if (p->pos < p->len && p->s[p->pos] == ']') {
        p->pos++;
        return a;
    }
    for (;;) {
        json_t *v = parse_value(p, depth + 1);
        if (!v) goto fail;
        json_array_push(a, v);
        skip_ws(p);
        if (p->pos >= p->len) {
            fail_at(p, p->pos, "unterminated array");
            goto fail;
        }
        char c = p->s[p->pos];
        if (c == ',') {
            p->pos++;
            continue;
        }
        if (c == ']') {
            p->pos++;
            return a;
        }
        fail_at(p, p->pos, "expected ',' or ']' in array");
        goto fail;
    }
fail:
    json_free(a);
    return NULL;
}

static json_t *parse_object(parser *p, int depth)
{
    json_t *o = json_object();
    mark(p, o, p->pos);
    p->pos++; /* { */
    skip_ws(p);
    if (p->pos < p->len && p->s[p->pos] == '}') {
        p->pos++;
        return o;
    }
    buf key = {0};
    for (;;) {
        skip_ws(p);
        if (p->pos >= p->len || p->s[p->pos] != '"') {
            fail_at(p, p->pos, "expected a string key in object");
            goto fail;
        }
        const char *key_at;
        size_t key_len;
        if (!plain_string(p, &key_at, &key_len)) {
            key.len = 0;
            if (parse_string_raw(p, &key) < 0) goto fail;
            key_at = key.data ? key.data : "";
            key_len = key.len;
        }
        skip_ws(p);
        if (p->pos >= p->len || p->s[p->pos] != ':') {
            fail_at(p, p->pos, "expected ':' after object key");
            goto fail;
        }
        p->pos++;
        json_t *v = parse_value(p, depth + 1);
        if (!v) goto fail;
        object_setn(o, key_at, key_len, v);
        skip_ws(p);
        if (p->pos >= p->len) {
            fail_at(p, p->pos, "unterminated object");
            goto fail;
        }
        char c = p->s[p->pos];
        if (c == ',') {
            p->pos++;
            continue;
        }
        if (c == '}') {
            p->pos++;
            buf_free(&key);
            return o;
        }
        fail_at(p, p->pos, "expected ',' or '}' in object");
        goto fail;
    }
fail:
    buf_free(&key);
    json_free(o);
    return NULL;
}

static json_t *parse_value(parser *p, int depth)
{
    if (depth > p->max_depth) {
        fail_at(p, p->pos, "nesting too deep");
        return NULL;
    }
    if (++p->values > p->max_values) {
        fail_at(p, p->pos, "too many values in one document");
        return NULL;
    }
    skip_ws(p);
    if (p->pos >= p->len) {
        fail_at(p, p->pos, "unexpected end of input");
        return NULL;
    }
    size_t at = p->pos;
    char c = p->s[p->pos];
    json_t *v = NULL;
    switch (c) {
    case '{':
        return parse_object(p, depth);
    case '[':
        return parse_array(p, depth);
    case '"': {
        const char *at_text;
        size_t n;
        if (plain_string(p, &at_text, &n)) {
            v = json_stringn(at_text, n);
            break;
        }
        buf b = {0};
        if (parse_string_raw(p, &b) < 0) {
            buf_free(&b);
            return NULL;
        }
        v = json_new(JSON_STRING);
        v->u.string.len = b.len;
        v->u.string.bytes = buf_steal(&b);
        break;
    }
    case 't':
        if (match_word(p, "true")) v = json_bool(true);
        break;
    case 'f':
        if (match_word(p, "false")) v = json_bool(false);
        break;
    case 'n':
        if (match_word(p, "null")) v = json_null();
        break;
    default:
        if (c == '-' || (c >= '0' && c <= '9')) return parse_number(p);
        break;
    }
    if (!v) {
        fail_at(p, at, "unexpected character");
        return NULL;
    }
    mark(p, v, at);
    return v;
}

json_t *json_parse(const char *text, size_t len, const json_limits *lim, json_error *err)
{
    json_limits def = {JSON_DEFAULT_MAX_BYTES, JSON_DEFAULT_MAX_DEPTH, JSON_DEFAULT_MAX_VALUES};
    if (!lim) lim = &def;
    parser p = {.s = text, .len = len, .line = 1, .max_depth = lim->max_depth, .err = err,
                .max_values = lim->max_values ? lim->max_values : JSON_DEFAULT_MAX_VALUES};
    if (err) memset(err, 0, sizeof *err);
    if (len > lim->max_bytes) {
        if (err) {
            err->line = 1;
            err->col = 1;
            snprintf(err->message, sizeof err->message, "JSON input of %zu bytes exceeds the %zu-byte limit", len,
                     lim->max_bytes);
        }
        return NULL;
    }
    json_t *v = parse_value(&p, 0);
    if (!v) return NULL;
    skip_ws(&p);
    if (p.pos != p.len) {
        fail_at(&p, p.pos, "unexpected text after the JSON value");
        json_free(v);
        return NULL;
    }
    return v;
}

json_t *json_parse_at(const char *text, size_t len, size_t *pos, int depth, const json_limits *lim, size_t *values)
{
    parser p = {.s = text, .len = len, .pos = *pos, .line = 1, .max_depth = lim->max_depth,
                .values = *values, .max_values = lim->max_values ? lim->max_values : JSON_DEFAULT_MAX_VALUES};
    if (*pos > len) return NULL;
    /* where a value is marked: as in a parse of the whole text */
    for (const char *q = text, *end = text + *pos; (q = memchr(q, '\n', (size_t)(end - q))) != NULL; q++) {
        p.line++;
        p.line_start = (size_t)(q - text) + 1;
    }
    if (len > lim->max_bytes) return NULL;
    json_t *v = parse_value(&p, depth);
    if (!v) return NULL;
    *pos = p.pos;
    *values = p.values;
    return v;
}

/* ---------- serialization ---------- */

int json_format_number(double d, char *out)
{
    if (!isfinite(d)) return (int)(strcpy(out, "null"), 4);
    if (d == 0) return (int)(strcpy(out, "0"), 1); /* also -0, as in JS */
    if (d > -9007199254740992.0 && d < 9007199254740992.0 && d == (double)(int64_t)d) { /* range first: the cast is UB outside it */
        /* integers print as themselves (and most are): digits written here, no printf */
        int64_t whole = (int64_t)d;
        uint64_t mag = whole < 0 ? (uint64_t)-whole : (uint64_t)whole;
        char rev[24];
        int n = 0, o = 0;
        do rev[n++] = (char)('0' + mag % 10); while (mag /= 10);
        if (whole < 0) out[o++] = '-';
        while (n) out[o++] = rev[--n];
        out[o] = '\0';
        return o;
    }
    /* Shortest digits that round-trip, from %.*e. */
    char tmp[40];
    int prec;
    for (prec = 0; prec < 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*e", prec, d);
        if (strtod(tmp, NULL) == d) break;
    }
    snprintf(tmp, sizeof tmp, "%.*e", prec, d);
    /* tmp = [-]D[.DDD]e[+-]XX */
    char digits[24];
    int k = 0;
    const char *q = tmp;
    bool neg = false;
    if (*q == '-') neg = true, q++;
    for (; *q && *q != 'e'; q++)
        if (*q >= '0' && *q <= '9') digits[k++] = *q;
    while (k > 1 && digits[k - 1] == '0') k--;
    digits[k] = '\0';
    int e = atoi(q + 1);
    int n = e + 1; /* value = 0.digits × 10^n */
    char *o = out;
    if (neg) *o++ = '-';
    if (k <= n && n <= 21) {
        memcpy(o, digits, (size_t)k), o += k;
        for (int i = 0; i < n - k; i++) *o++ = '0';
    } else if (0 < n && n <= 21) {
        memcpy(o, digits, (size_t)n), o += n;
        *o++ = '.';
        memcpy(o, digits + n, (size_t)(k - n)), o += k - n;
    } else if (-6 < n && n <= 0) {
        *o++ = '0', *o++ = '.';
        for (int i = 0; i < -n; i++) *o++ = '0';
        memcpy(o, digits, (size_t)k), o += k;
    } else {
        *o++ = digits[0];
        if (k > 1) {
            *o++ = '.';
            memcpy(o, digits + 1, (size_t)(k - 1)), o += k - 1;
        }
        o += sprintf(o, "e%c%d", n - 1 >= 0 ? '+' : '-', abs(n - 1));
    }
    *o = '\0';
    return (int)(o - out);
}

static void dump_string(buf *b, const char *s, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    buf_reserve(b, len + 2);
    buf_putc(b, '"');
    size_t i = 0;
    while (i < len) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            buf_putc(b, '\\');
            buf_putc(b, (char)c);
            i++;
        } else if (c < 0x20) {
            switch (c) {
            case '\b': buf_puts(b, "\\b"); break;
            case '\f': buf_puts(b, "\\f"); break;
            case '\n': buf_puts(b, "\\n"); break;
            case '\r': buf_puts(b, "\\r"); break;
            case '\t': buf_puts(b, "\\t"); break;
            default: {
                char e[7] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15], 0};
                buf_puts(b, e);
            }
            }
            i++;
        } else if (c < 0x80) {
            size_t run = i + 1; /* a run of plain ASCII goes out in one append */
            while (run < len && (unsigned char)s[run] >= 0x20 && (unsigned char)s[run] < 0x80 && s[run] != '"' &&
                   s[run] != '\\')
                run++;
            buf_append(b, s + i, run - i);
            i = run;
        } else if (c == 0xED && i + 2 < len && (unsigned char)s[i + 1] >= 0xA0 && (unsigned char)s[i + 1] <= 0xBF &&
                   ((unsigned char)s[i + 2] & 0xC0) == 0x80) {
            /* WTF-8 lone surrogate → \udXXX, as well-formed JSON.stringify does */
            unsigned cp = ((c & 0x0Fu) << 12) | (((unsigned char)s[i + 1] & 0x3Fu) << 6) | ((unsigned char)s[i + 2] & 0x3Fu);
            char e[7] = {'\\', 'u', hex[cp >> 12], hex[(cp >> 8) & 15], hex[(cp >> 4) & 15], hex[cp & 15], 0};
            buf_puts(b, e);
            i += 3;
        } else {
            size_t n = utf8_seq_len((const unsigned char *)s + i, len - i);
            if (n) {
                buf_append(b, s + i, n);
                i += n;
            } else {
                buf_puts(b, "\xEF\xBF\xBD"); /* invalid byte from C-built text → U+FFFD */
                i++;
            }
        }
    }
    buf_putc(b, '"');
}

static void indent(buf *b, int level)
{
    buf_putc(b, '\n');
    for (int i = 0; i < level; i++) buf_puts(b, "  ");
}

static void dump_value(buf *b, const json_t *v, bool pretty, int level)
{
    char num[40];
    switch (v->type) {
    case JSON_NULL: buf_puts(b, "null"); break;
    case JSON_TRUE: buf_puts(b, "true"); break;
    case JSON_FALSE: buf_puts(b, "false"); break;
    case JSON_NUMBER:
        json_format_number(v->u.number, num);
        buf_puts(b, num);
        break;
    case JSON_STRING: dump_string(b, v->u.string.bytes, v->u.string.len); break;
    case JSON_RAW: {
        json_error err;
        json_t *tree = pretty ? json_parse(v->u.string.bytes, v->u.string.len, NULL, &err) : NULL;
        if (tree) dump_value(b, tree, pretty, level);
        else buf_append(b, v->u.string.bytes, v->u.string.len);
        json_free(tree);
        break;
    }
    case JSON_ARRAY:
        if (v->u.array.len == 0) {
            buf_puts(b, "[]");
            break;
        }
        buf_putc(b, '[');
        for (size_t i = 0; i < v->u.array.len; i++) {
            if (i) buf_putc(b, ',');
            if (pretty) indent(b, level + 1);
            dump_value(b, v->u.array.items[i], pretty, level + 1);
        }
        if (pretty) indent(b, level);
        buf_putc(b, ']');
        break;
    case JSON_OBJECT:
        if (v->u.object.len == 0) {
            buf_puts(b, "{}");
            break;
        }
        buf_putc(b, '{');
        for (size_t i = 0; i < v->u.object.len; i++) {
            json_member *m = &v->u.object.items[i];
            if (i) buf_putc(b, ',');
            if (pretty) indent(b, level + 1);
            dump_string(b, m->key, m->key_len);
            buf_puts(b, pretty ? ": " : ":");
            dump_value(b, m->value, pretty, level + 1);
        }
        if (pretty) indent(b, level);
        buf_putc(b, '}');
        break;
    }
}

void json_dump_into(struct buf *b, const json_t *v, int flags)
{
    if (!v) buf_puts(b, "null");
    else dump_value(b, v, flags & JSON_PRETTY, 0);
}

void json_dump_string_into(struct buf *b, const char *s, size_t len) { dump_string(b, s, len); }

char *json_dump(const json_t *v, int flags, size_t *len)
{
    buf b = {0};
    if (!v) buf_puts(&b, "null");
    else dump_value(&b, v, flags & JSON_PRETTY, 0);
    if (len) *len = b.len;
    return buf_steal(&b);
}
