/* plain_args.c — an effect's arguments read straight from the guest's value (see plain_args.h).
 *
 * The effect path marshalled every call as JSON.stringify in the guest's realm, then parsed the
 * text back in C: about 12,000 instructions for { label: "tick" }. For a value whose
 * serialization can run no guest code and depends on nothing the guest can bend, this walk
 * builds the same json_t directly. Anything else (an accessor, a toJSON anywhere on a prototype
 * chain, a Proxy, a class other than a plain object or array, a BigInt, a function, a cycle, a
 * large value) makes it give up before reading anything observable, and the caller takes the
 * old path, so the result, the errors and the limits are exactly the old ones.
 *
 * Trusts nothing in the value; runs no JavaScript (only own-property reads of ordinary objects,
 * which call no guest code).
 */
#include "engine/plain_args.h"

#include <math.h>
#include <string.h>

/* Past these the old path runs (its own limits and errors apply there). */
#define PLAIN_MAX_DEPTH 32
#define PLAIN_MAX_VALUES 4096
#define PLAIN_MAX_BYTES ((size_t)256 << 10)

/* The class ids of a plain object and an array: QuickJS's first two (its class enum starts
 * "JS_CLASS_OBJECT = 1, JS_CLASS_ARRAY"); the unit test plain_args_class_ids checks them against
 * real ones, so an engine that numbers them otherwise fails there, not here. */
enum { object_class = 1, array_class = 2 };

typedef struct walk {
    JSContext *ctx;
    JSAtom to_json;
    size_t values, bytes;
} walk;

enum { GIVE_UP = 0, DONE = 1, FAILED = -1 };

/* An ordinary object or array with no `toJSON` of its own (any kind of property). */
static int ordinary_without_to_json(walk *w, JSValueConst obj)
{
    JSClassID id = JS_GetClassID(obj);
    if (id != object_class && id != array_class) return GIVE_UP;
    JSPropertyDescriptor desc;
    int has = JS_GetOwnProperty(w->ctx, &desc, obj, w->to_json);
    if (has < 0) return FAILED;
    if (has) {
        JS_FreeValue(w->ctx, desc.value);
        JS_FreeValue(w->ctx, desc.getter);
        JS_FreeValue(w->ctx, desc.setter);
        return GIVE_UP;
    }
    return DONE;
}

/* JSON.stringify would look `toJSON` up on obj and its whole prototype chain: every object on
 * it must be ordinary (no Proxy trap to run) and hold none. */
static int chain_is_plain(walk *w, JSValueConst obj)
{
    int rc = ordinary_without_to_json(w, obj);
    JSValue p = rc == DONE ? JS_GetPrototype(w->ctx, obj) : JS_NULL;
    for (int hops = 0; rc == DONE && !JS_IsNull(p); hops++) {
        if (JS_IsException(p)) return FAILED;
        if (hops >= 8) rc = GIVE_UP;
        else rc = ordinary_without_to_json(w, p);
        JSValue next = rc == DONE ? JS_GetPrototype(w->ctx, p) : JS_NULL;
        JS_FreeValue(w->ctx, p);
        p = next;
    }
    JS_FreeValue(w->ctx, p);
    return rc;
}

static int value_of(walk *w, JSValueConst v, int depth, json_t **out);

/* An own data property's value, or GIVE_UP for an accessor. *v is the caller's to free. */
static int own_data(walk *w, JSValueConst obj, JSAtom key, JSValue *v)
{
    JSPropertyDescriptor desc;
    int has = JS_GetOwnProperty(w->ctx, &desc, obj, key);
    if (has < 0) return FAILED;
    if (!has) return GIVE_UP;
    if (desc.flags & JS_PROP_GETSET) {
        JS_FreeValue(w->ctx, desc.getter);
        JS_FreeValue(w->ctx, desc.setter);
        JS_FreeValue(w->ctx, desc.value);
        return GIVE_UP;
    }
    JS_FreeValue(w->ctx, desc.getter);
    JS_FreeValue(w->ctx, desc.setter);
    *v = desc.value;
    return DONE;
}

static int object_of(walk *w, JSValueConst obj, int depth, json_t **out)
{
    JSPropertyEnum *tab = NULL;
    uint32_t len = 0;
    /* the keys JSON.stringify serializes, in its order (the same call it makes) */
    if (JS_GetOwnPropertyNames(w->ctx, &tab, &len, obj, JS_GPN_STRING_MASK | JS_GPN_ENUM_ONLY) < 0) return FAILED;
    json_t *o = json_object();
    int rc = DONE;
    for (uint32_t i = 0; i < len && rc == DONE; i++) {
        JSValue v = JS_UNDEFINED;
        rc = own_data(w, obj, tab[i].atom, &v);
        json_t *jv = NULL;
        if (rc == DONE) rc = value_of(w, v, depth + 1, &jv);
        JS_FreeValue(w->ctx, v);
        if (rc != DONE || !jv) continue; /* undefined and symbols are left out, as stringify does */
        JSValue ks = JS_AtomToString(w->ctx, tab[i].atom);
        size_t klen = 0;
        const char *k = JS_IsException(ks) ? NULL : JS_ToCStringLen(w->ctx, &klen, ks);
        JS_FreeValue(w->ctx, ks);
        if (!k) rc = FAILED;
        else if (strlen(k) != klen) rc = GIVE_UP; /* a NUL in the key: json_object_set would cut it */
        else if ((w->bytes += klen) > PLAIN_MAX_BYTES) rc = GIVE_UP;
        else json_object_set(o, k, jv), jv = NULL;
        if (k) JS_FreeCString(w->ctx, k);
        json_free(jv);
    }
    for (uint32_t i = 0; i < len; i++) JS_FreeAtom(w->ctx, tab[i].atom);
    js_free(w->ctx, tab);
    if (rc == DONE) {
        *out = o;
        return DONE;
    }
    json_free(o);
    return rc;
}

static int array_of(walk *w, JSValueConst arr, int depth, json_t **out)
{
    JSValue lv = JS_UNDEFINED;
    JSAtom length = JS_NewAtom(w->ctx, "length");
    int rc = own_data(w, arr, length, &lv);
    JS_FreeAtom(w->ctx, length);
    uint32_t len = 0;
    if (rc == DONE && (JS_VALUE_GET_TAG(lv) != JS_TAG_INT || JS_VALUE_GET_INT(lv) < 0)) rc = GIVE_UP;
    if (rc == DONE) len = (uint32_t)JS_VALUE_GET_INT(lv);
    JS_FreeValue(w->ctx, lv);
    if (rc == DONE && len > PLAIN_MAX_VALUES) rc = GIVE_UP;
    json_t *a = rc == DONE ? json_array() : NULL;
    for (uint32_t i = 0; i < len && rc == DONE; i++) {
        JSAtom at = JS_NewAtomUInt32(w->ctx, i);
        if (at == JS_ATOM_NULL) {
            rc = FAILED;
            break;
        }
        JSValue v = JS_UNDEFINED;
        rc = own_data(w, arr, at, &v); /* a hole would read the prototype chain: not plain */
        JS_FreeAtom(w->ctx, at);
        json_t *jv = NULL;
        if (rc == DONE) rc = value_of(w, v, depth + 1, &jv);
        JS_FreeValue(w->ctx, v);
        if (rc == DONE) json_array_push(a, jv ? jv : json_null()); /* undefined and symbols: null */
    }
    if (rc == DONE) {
        *out = a;
        return DONE;
    }
    json_free(a);
    return rc;
}

/* DONE with *out (NULL: a value stringify leaves out, undefined or a symbol), GIVE_UP, FAILED. */
static int value_of(walk *w, JSValueConst v, int depth, json_t **out)
{
    *out = NULL;
    if (++w->values > PLAIN_MAX_VALUES || depth > PLAIN_MAX_DEPTH) return GIVE_UP;
    switch (JS_VALUE_GET_TAG(v)) {
    case JS_TAG_NULL: *out = json_null(); return DONE;
    case JS_TAG_BOOL: *out = json_bool(JS_VALUE_GET_BOOL(v)); return DONE;
    case JS_TAG_INT: *out = json_number((double)JS_VALUE_GET_INT(v)); return DONE;
    case JS_TAG_FLOAT64: {
        double d = JS_VALUE_GET_FLOAT64(v);
        /* what stringify then a parse give: NaN and the infinities as null, -0 as 0 */
        *out = !isfinite(d) ? json_null() : json_number(d == 0 ? 0 : d);
        return DONE;
    }
    case JS_TAG_UNDEFINED:
    case JS_TAG_SYMBOL: return DONE;
    case JS_TAG_OBJECT: {
        if (JS_IsFunction(w->ctx, v)) return GIVE_UP; /* its toJSON lookup reaches Function.prototype */
        int rc = chain_is_plain(w, v);
        if (rc != DONE) return rc;
        return JS_GetClassID(v) == array_class ? array_of(w, v, depth, out) : object_of(w, v, depth, out);
    }
    default:
        break;
    }
    if (!JS_IsString(v)) return GIVE_UP; /* BigInt and anything newer */
    size_t len = 0;
    const char *s = JS_ToCStringLen(w->ctx, &len, v);
    if (!s) return FAILED;
    int rc = (w->bytes += len) > PLAIN_MAX_BYTES ? GIVE_UP : DONE;
    if (rc == DONE) *out = json_stringn(s, len); /* lone surrogates as WTF-8, as the parser keeps them */
    JS_FreeCString(w->ctx, s);
    return rc;
}

int plain_args_atom(JSContext *ctx, JSValueConst v, JSAtom to_json, json_t **out)
{
    *out = NULL;
    if (JS_VALUE_GET_TAG(v) != JS_TAG_OBJECT || JS_GetClassID(v) != object_class) return GIVE_UP;
    walk w = {ctx, to_json, 0, 0};
    int rc = value_of(&w, v, 0, out);
    if (rc != DONE) {
        json_free(*out);
        *out = NULL;
    }
    return rc;
}

int plain_args(JSContext *ctx, JSValueConst v, json_t **out)
{
    JSAtom to_json = JS_NewAtom(ctx, "toJSON");
    if (to_json == JS_ATOM_NULL) {
        *out = NULL;
        return FAILED;
    }
    int rc = plain_args_atom(ctx, v, to_json, out);
    JS_FreeAtom(ctx, to_json);
    return rc;
}
