/* json.h — chidori's JSON values: a small DOM, a strict parser with limits, and a serializer
 * whose output matches JavaScript's JSON.stringify byte for byte.
 *
 * Why our own: every byte that crosses the host seam, a frame, a policy file or an HTTP body is
 * hostile, so the parser has an explicit size and depth limit and reports line:col; values carry
 * the line:col where they were parsed (the policy validator names the position of a bad key);
 * and because numbers are re-printed with JavaScript's Number::toString rules, a value that went
 * JS → JSON → C → JSON comes out identical, which durable replay relies on.
 *
 * Strings are byte strings in WTF-8 (UTF-8 that may also hold lone surrogates, which JSON.stringify
 * produces as \udXXX escapes); they may contain NUL. Objects keep insertion order; a duplicate key
 * keeps its first position and its last value, as JSON.parse does.
 */
#ifndef CHIDORI_JSON_H
#define CHIDORI_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

typedef enum json_type {
    JSON_NULL,
    JSON_FALSE,
    JSON_TRUE,
    JSON_NUMBER,
    JSON_STRING,
    JSON_ARRAY,
    JSON_OBJECT,
    JSON_RAW, /* text already serialized as compact JSON (json_raw); never made by the parser */
} json_type;

typedef struct json_t json_t;

typedef struct json_member {
    char *key;
    size_t key_len;
    json_t *value;
} json_member;

struct json_t {
    json_type type;
    int line, col; /* where it was parsed (1-based); 0 when built in C */
    union {
        double number;
        struct { char *bytes; size_t len; } string;
        struct { json_t **items; size_t len, cap; } array;
        struct { json_member *items; size_t len, cap; uint32_t *index; size_t index_cap; } object; /* index: hash of keys once large */
    } u;
};

typedef struct json_limits {
    size_t max_bytes; /* input larger than this is refused */
    int max_depth;    /* nesting of arrays/objects */
    size_t max_values; /* values (nodes) in one document; 0 = JSON_DEFAULT_MAX_VALUES */
} json_limits;

#define JSON_DEFAULT_MAX_BYTES ((size_t)64 << 20)
#define JSON_DEFAULT_MAX_DEPTH 512
/* Each value costs ~50 bytes of DOM; this bounds what one hostile document can make us allocate
 * (a 64 MiB `[0,0,…]` would otherwise be 32 M values, gigabytes of tree). */
#define JSON_DEFAULT_MAX_VALUES ((size_t)2 << 20)

typedef struct json_error {
    int line, col;
    char message[160];
} json_error;

/* Parse exactly one JSON value (surrounding whitespace allowed). NULL on error with *err set.
 * lim may be NULL for the defaults. */
json_t *json_parse(const char *text, size_t len, const json_limits *lim, json_error *err);
void json_free(json_t *v);
/* One value of a larger document, for a reader that walks the document's outer shape itself: the
 * value starting at text[*pos] (whitespace before it allowed), parsed as json_parse would parse
 * it at that place — `depth` containers around it, `*values` values counted before it, the same
 * limits, the same line:col marks — with *pos moved past it and *values counted on. NULL on any
 * error (nothing moved, no message: the caller parses the whole text to report it). */
json_t *json_parse_at(const char *text, size_t len, size_t *pos, int depth, const json_limits *lim, size_t *values);

/* Constructors. The containers take ownership of the values added to them. */
json_t *json_null(void);
json_t *json_bool(bool b);
json_t *json_number(double d);
json_t *json_string(const char *s);
json_t *json_stringn(const char *s, size_t len);
json_t *json_array(void);
json_t *json_object(void);
void json_array_push(json_t *array, json_t *value);
void json_object_set(json_t *object, const char *key, json_t *value);
json_t *json_copy(const json_t *v);
/* A value already serialized: text (taken over, len bytes, NUL-terminated) must be exactly what
 * json_dump(v, JSON_COMPACT) writes for some value v; json_dump writes it verbatim (a pretty dump
 * parses it to indent it), json_equal compares it by that text. It is for a large value written
 * once by its owner without a tree per element (the snapshot manifest's module lists,
 * effects/module_record.h); the accessors see it as none of the other types. */
json_t *json_raw(char *text, size_t len);
bool json_is_raw(const json_t *v);
/* A deep copy with every object's keys in byte order (a canonical form: digests, sorted-key output). */
json_t *json_sorted_copy(const json_t *v);
/* json_dump(json_sorted_copy(v), JSON_COMPACT, len): the canonical compact text (caller frees). */
char *json_dump_sorted(const json_t *v, size_t *len);

/* Accessors; all tolerate NULL and wrong types. */
json_t *json_object_get(const json_t *object, const char *key);
const char *json_string_value(const json_t *v); /* NUL-terminated view, NULL if not a string */
double json_number_value(const json_t *v);
bool json_is_string(const json_t *v);
bool json_is_object(const json_t *v);
bool json_is_array(const json_t *v);
bool json_equal(const json_t *a, const json_t *b);
/* Whether c stands for itself in a JSON string as json_dump writes it and as the call log's readers
 * take it without the parser: printable ASCII (0x20-0x7e) but for quote and backslash. */
static inline bool json_plain_byte(unsigned char c)
{
    static const uint64_t plain[2] = {0xfffffffb00000000ull, 0x7fffffffefffffffull};
    return c < 0x80 && (plain[c >> 6] >> (c & 63) & 1);
}
/* Whether json_dump(v, JSON_COMPACT) writes exactly text[0..len), read without writing it, so that
 * json_parse of text gives a value json_equal to v: for a value whose strings and keys are all
 * printable ASCII without quote or backslash, whose numbers are finite and that holds no raw text,
 * the exact answer; for any other, false (the caller then compares some other way). */
bool json_compact_is(const json_t *v, const char *text, size_t len);

/* Serialize. JSON_PRETTY indents by two spaces exactly like JSON.stringify(v, null, 2).
 * Returns a malloc'd NUL-terminated string; *len (if given) gets its length. */
enum { JSON_COMPACT = 0, JSON_PRETTY = 1 };
char *json_dump(const json_t *v, int flags, size_t *len);
/* The same text appended to b (util/buf.h); a string alone as json_dump writes it. */
struct buf;
void json_dump_into(struct buf *b, const json_t *v, int flags);
void json_dump_string_into(struct buf *b, const char *s, size_t len);

/* Format a double with JavaScript's Number::toString rules ("null" for NaN/Infinity, as in
 * JSON). buf must hold at least 32 bytes. Returns the length. */
int json_format_number(double d, char *buf);

#endif
