/* policy.c — the permission policy engine (see policy.h and docs/policy.md).
 *
 * This file owns: the policy document's validation (policy_parse; the targets a rule may name
 * are the effect modules', ops.h), the three built-in profiles,
 * rule matching (policy_evaluate), and the seed's selection order for `run` and `serve`
 * (policy_select), including reading CHIDORI_POLICY_FILE.
 *
 * It trusts nothing in a policy document or in the environment: the document is size- and
 * depth-capped before parsing; every key, type, target form and decision is checked, and anything
 * not understood is an error naming "<source>:line:col" rather than being ignored (an ignored
 * key could be a misspelt restriction). Strings with embedded NUL bytes are refused where they
 * would be compared as C strings. On `serve` a source that cannot be used fails closed to the
 * untrusted profile; nothing in here ever falls back to allow-all on an error.
 *
 * The call's args (from the guest) are hostile too, but matching only reads them: it recurses
 * over the pattern (whose depth the parser capped), never over the args themselves.
 */
#define _GNU_SOURCE
#include "host/policy.h"
#include "host/ops.h"
#include "host/urlnorm.h"
#include "settings/settings.h"

#include "util/buf.h"
#include "util/files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define POLICY_MAX_DEPTH 64

typedef struct policy_rule {
    char *target;       /* "*" or an exact target */
    policy_decision decision;
    json_t *match_args; /* an object, or NULL for "any args" */
    char *reason;       /* may be NULL */
} policy_rule;

struct policy {
    char *name;
    policy_rule *rules;
    size_t n_rules;
    policy_decision fallback;
    char *default_reason; /* may be NULL */
};

/* ---------- small helpers ---------- */

static const char *type_name(const json_t *v)
{
    switch (v->type) {
    case JSON_NULL: return "null";
    case JSON_FALSE:
    case JSON_TRUE: return "a boolean";
    case JSON_NUMBER: return "a number";
    case JSON_STRING: return "a string";
    case JSON_ARRAY: return "an array";
    case JSON_OBJECT: return "an object";
    case JSON_RAW: break; /* never parsed */
    }
    return "a value";
}

/* Appends bytes as a double-quoted, escaped, length-limited excerpt (for error messages: the
 * bytes come from the document and may hold control characters). */
static void put_quoted(buf *b, const char *s, size_t len)
{
    buf_putc(b, '"');
    size_t shown = len > 48 ? 48 : len;
    for (size_t i = 0; i < shown; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') buf_printf(b, "\\%c", c);
        else if (c < 0x20 || c == 0x7f) buf_printf(b, "\\u%04x", c);
        else buf_putc(b, (char)c);
    }
    if (shown < len) buf_puts(b, "...");
    buf_putc(b, '"');
}

static bool is_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static bool str_eq(const json_t *s, const char *lit)
{
    size_t n = strlen(lit);
    return s && s->type == JSON_STRING && s->u.string.len == n && memcmp(s->u.string.bytes, lit, n) == 0;
}

static bool key_eq(const json_member *m, const char *lit)
{
    size_t n = strlen(lit);
    return m->key_len == n && memcmp(m->key, lit, n) == 0;
}

/* ---------- validation ---------- */

typedef struct vctx {
    const char *text;
    size_t len;
    const char *source;
    char *error;
} vctx;

static size_t offset_of(const vctx *c, int line, int col)
{
    size_t i = 0;
    for (int l = 1; l < line && i < c->len; i++)
        if (c->text[i] == '\n') l++;
    size_t off = i + (size_t)(col > 0 ? col - 1 : 0);
    return off < c->len ? off : c->len;
}

static void position_of(const vctx *c, size_t off, int *line, int *col)
{
    int l = 1;
    size_t ls = 0;
    for (size_t i = 0; i < off && i < c->len; i++)
        if (c->text[i] == '\n') l++, ls = i + 1;
    *line = l;
    *col = (int)(off - ls) + 1;
}

/* Where the key of an object member starts: values carry their own line:col, and the parser has
 * already accepted the text, so walking back over `"key" :` is safe. Falls back to the value. */
static void key_position(const vctx *c, const json_t *value, int *line, int *col)
{
    *line = value->line;
    *col = value->col;
    if (value->line <= 0) return;
    size_t i = offset_of(c, value->line, value->col);
    while (i > 0 && is_ws(c->text[i - 1])) i--;
    if (i == 0 || c->text[i - 1] != ':') return;
    i--;
    while (i > 0 && is_ws(c->text[i - 1])) i--;
    if (i == 0 || c->text[i - 1] != '"') return;
    i--; /* i is at the closing quote */
    while (i > 0) {
        i--;
        if (c->text[i] != '"') continue;
        size_t bs = 0;
        while (bs < i && c->text[i - 1 - bs] == '\\') bs++;
        if (bs % 2 == 0) {
            position_of(c, i, line, col);
            return;
        }
    }
}

static bool fail_at(vctx *c, int line, int col, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static bool fail_at(vctx *c, int line, int col, const char *fmt, ...)
{
    if (c->error) return false;
    buf b = {0};
    buf_printf(&b, "%s:%d:%d: ", c->source, line > 0 ? line : 1, col > 0 ? col : 1);
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(&b, fmt, ap);
    va_end(ap);
    c->error = buf_steal(&b);
    return false;
}

#define FAIL_AT_VALUE(c, v, ...) fail_at((c), (v)->line, (v)->col, __VA_ARGS__)

static bool fail_unknown_key(vctx *c, const json_member *m, const char *where, const char *expected)
{
    int line, col;
    key_position(c, m->value, &line, &col);
    buf b = {0};
    put_quoted(&b, m->key, m->key_len);
    fail_at(c, line, col, "unknown key %s%s (expected %s)", b.data, where, expected);
    buf_free(&b);
    return false;
}

static bool parse_decision(vctx *c, const json_t *v, const char *what, policy_decision *out)
{
    if (v->type != JSON_STRING) return FAIL_AT_VALUE(c, v, "%s must be a string, not %s", what, type_name(v));
    if (str_eq(v, "always_allow")) *out = POLICY_ALLOW;
    else if (str_eq(v, "ask_before")) *out = POLICY_ASK;
    else if (str_eq(v, "never_allow")) *out = POLICY_DENY;
    else {
        buf b = {0};
        put_quoted(&b, v->u.string.bytes, v->u.string.len);
        FAIL_AT_VALUE(c, v, "unknown decision %s for %s (expected always_allow, ask_before or never_allow)", b.data,
                      what);
        buf_free(&b);
        return false;
    }
    return true;
}

/* A string field that will be used as a C string: no embedded NUL. */
static bool parse_cstring(vctx *c, const json_t *v, const char *what, char **out)
{
    if (v->type != JSON_STRING) return FAIL_AT_VALUE(c, v, "%s must be a string, not %s", what, type_name(v));
    if (memchr(v->u.string.bytes, '\0', v->u.string.len)) return FAIL_AT_VALUE(c, v, "%s contains a NUL character", what);
    *out = xstrndup(v->u.string.bytes, v->u.string.len);
    return true;
}

/* A url_prefix is compared with the normalized URL (urlnorm.h), so one that could never match a
 * normalized URL ("HTTP://Host/", "http://h:80/", "http://h/a/../b") is an error naming the form
 * to write. A prefix that is not an http(s) URL with a host is left alone. */
static bool prefix_is_normalized(vctx *c, const json_t *v)
{
    const char *p = v->u.string.bytes;
    size_t n = v->u.string.len;
    if (!(n > 7 && !strncasecmp(p, "http://", 7)) && !(n > 8 && !strncasecmp(p, "https://", 8))) return true;
    char *why = NULL;
    char *norm = url_normalize(p, n, &why);
    bool ok = true;
    if (norm) {
        size_t k = strlen(norm);
        /* "https://host" (no path) is the prefix of its own normalized "https://host/" */
        ok = (k == n && !memcmp(norm, p, n)) || (k == n + 1 && norm[n] == '/' && !memcmp(norm, p, n) &&
                                                   !memchr(p + (p[4] == ':' ? 7 : 8), '/', n - (p[4] == ':' ? 7 : 8)));
        if (!ok) {
            buf b = {0};
            put_quoted(&b, norm, k);
            ok = FAIL_AT_VALUE(c, v, "\"url_prefix\" is compared with normalized URLs (lower-case scheme and host, "
                                     "no default port, no dot segments), so this one never matches; write it %s",
                               b.data);
            buf_free(&b);
        }
    }
    free(norm);
    free(why);
    return ok;
}

/* match_args patterns: objects all the way down are fine; the reserved key url_prefix (at any
 * object level) must hold a string, since it is compared as a prefix. */
static bool check_pattern(vctx *c, const json_t *pat)
{
    if (pat->type == JSON_OBJECT) {
        for (size_t i = 0; i < pat->u.object.len; i++) {
            const json_member *m = &pat->u.object.items[i];
            if (key_eq(m, "url_prefix") && m->value->type != JSON_STRING)
                return FAIL_AT_VALUE(c, m->value, "\"url_prefix\" in match_args must be a string, not %s",
                                     type_name(m->value));
            if (key_eq(m, "url_prefix") && !prefix_is_normalized(c, m->value)) return false;
            if (!check_pattern(c, m->value)) return false;
        }
    }
    return true;
}

static bool parse_rule(vctx *c, const json_t *r, size_t index, policy_rule *out)
{
    if (r->type != JSON_OBJECT)
        return FAIL_AT_VALUE(c, r, "rules[%zu] must be an object with \"target\" and \"decision\", not %s", index,
                             type_name(r));
    const json_t *target = NULL, *decision = NULL, *match_args = NULL, *reason = NULL;
    for (size_t i = 0; i < r->u.object.len; i++) {
        const json_member *m = &r->u.object.items[i];
        if (key_eq(m, "target")) target = m->value;
        else if (key_eq(m, "decision")) decision = m->value;
        else if (key_eq(m, "match_args")) match_args = m->value;
        else if (key_eq(m, "reason")) reason = m->value;
        else {
            char where[48];
            snprintf(where, sizeof where, " in rules[%zu]", index);
            return fail_unknown_key(c, m, where, "target, decision, match_args or reason");
        }
    }
    if (!target) return FAIL_AT_VALUE(c, r, "rules[%zu] has no \"target\"", index);
    if (!decision) return FAIL_AT_VALUE(c, r, "rules[%zu] has no \"decision\"", index);
    if (target->type != JSON_STRING)
        return FAIL_AT_VALUE(c, target, "\"target\" must be a string, not %s", type_name(target));
    if (memchr(target->u.string.bytes, '\0', target->u.string.len) || !effect_target_known(target->u.string.bytes)) {
        /* the targets are the effect modules' (ops.h), listed from them */
        buf b = {0};
        put_quoted(&b, target->u.string.bytes, target->u.string.len);
        char *expected = effect_targets_describe();
        FAIL_AT_VALUE(c, target, "unknown target %s (expected %s)", b.data, expected);
        free(expected);
        buf_free(&b);
        return false;
    }
    if (!parse_decision(c, decision, "\"decision\"", &out->decision)) return false;
    if (match_args) {
        if (match_args->type != JSON_OBJECT)
            return FAIL_AT_VALUE(c, match_args, "\"match_args\" must be an object, not %s", type_name(match_args));
        if (!check_pattern(c, match_args)) return false;
    }
    if (reason && !parse_cstring(c, reason, "\"reason\"", &out->reason)) return false;
    out->target = xstrndup(target->u.string.bytes, target->u.string.len);
    out->match_args = match_args ? json_copy(match_args) : NULL;
    return true;
}

static policy *policy_new(const char *name)
{
    policy *p = xcalloc(1, sizeof *p);
    p->name = xstrdup(name);
    p->fallback = POLICY_ALLOW;
    return p;
}

policy *policy_parse(const char *text, size_t len, const char *source, char **error)
{
    if (error) *error = NULL;
    if (!source) source = "policy";
    vctx c = {.text = text ? text : "", .len = text ? len : 0, .source = source};
    policy *p = NULL;
    json_t *doc = NULL;

    size_t ws = 0;
    while (ws < c.len && is_ws(c.text[ws])) ws++;
    if (ws == c.len) {
        fail_at(&c, 1, 1, "empty policy document (expected a JSON object with \"rules\" and \"default\")");
        goto out;
    }
    if (c.len > POLICY_MAX_BYTES) {
        fail_at(&c, 1, 1, "policy document of %zu bytes exceeds the %zu-byte limit", c.len, POLICY_MAX_BYTES);
        goto out;
    }
    json_limits lim = {POLICY_MAX_BYTES, POLICY_MAX_DEPTH, 0};
    json_error jerr;
    doc = json_parse(c.text, c.len, &lim, &jerr);
    if (!doc) {
        fail_at(&c, jerr.line, jerr.col, "%s", jerr.message);
        goto out;
    }
    if (doc->type != JSON_OBJECT) {
        FAIL_AT_VALUE(&c, doc, "a policy must be a JSON object with \"rules\" and \"default\", not %s", type_name(doc));
        goto out;
    }

    p = policy_new(source);
    const json_t *rules = NULL;
    for (size_t i = 0; i < doc->u.object.len; i++) {
        const json_member *m = &doc->u.object.items[i];
        if (key_eq(m, "rules")) {
            rules = m->value;
        } else if (key_eq(m, "default")) {
            if (!parse_decision(&c, m->value, "\"default\"", &p->fallback)) goto out;
        } else if (key_eq(m, "default_reason")) {
            if (!parse_cstring(&c, m->value, "\"default_reason\"", &p->default_reason)) goto out;
        } else {
            fail_unknown_key(&c, m, "", "rules, default or default_reason");
            goto out;
        }
    }
    if (rules) {
        if (rules->type != JSON_ARRAY) {
            FAIL_AT_VALUE(&c, rules, "\"rules\" must be an array of rules, not %s", type_name(rules));
            goto out;
        }
        p->rules = xcalloc(rules->u.array.len ? rules->u.array.len : 1, sizeof *p->rules);
        for (size_t i = 0; i < rules->u.array.len; i++) {
            if (!parse_rule(&c, rules->u.array.items[i], i, &p->rules[i])) {
                p->n_rules = i + 1; /* free what the failed rule allocated too */
                goto out;
            }
            p->n_rules = i + 1;
        }
    }

out:
    json_free(doc);
    if (c.error) {
        policy_free(p);
        if (error) *error = c.error;
        else free(c.error);
        return NULL;
    }
    return p;
}

void policy_free(policy *p)
{
    if (!p) return;
    for (size_t i = 0; i < p->n_rules; i++) {
        free(p->rules[i].target);
        free(p->rules[i].reason);
        json_free(p->rules[i].match_args);
    }
    free(p->rules);
    free(p->default_reason);
    free(p->name);
    free(p);
}

/* ---------- built-in profiles ---------- */

#define UNTRUSTED_REASON                                                                                         \
    "the untrusted profile denies this effect (it allows only workspace:list, workspace:read and "            \
    "workspace:manifest); to allow more, run without --untrusted, start `chidori serve` with --trusted, or set " \
    "CHIDORI_POLICY_FILE, CHIDORI_POLICY or CHIDORI_POLICY_PROFILE"
#define SUPERVISED_REASON                                                                                      \
    "the supervised profile asks before any effect other than workspace:list, workspace:read and "          \
    "workspace:manifest (approve it, or set CHIDORI_POLICY_AUTO_APPROVE=1 on the command line)"

static void add_rule(policy *p, const char *target, policy_decision d)
{
    p->rules = xrealloc(p->rules, (p->n_rules + 1) * sizeof *p->rules);
    p->rules[p->n_rules++] = (policy_rule){.target = xstrdup(target), .decision = d};
}

policy *policy_builtin(const char *name)
{
    if (!name) return NULL;
    policy *p;
    if (!strcmp(name, "permissive")) {
        p = policy_new(name);
    } else if (!strcmp(name, "untrusted") || !strcmp(name, "supervised")) {
        bool untrusted = name[0] == 'u';
        p = policy_new(name);
        add_rule(p, "workspace:list", POLICY_ALLOW);
        add_rule(p, "workspace:read", POLICY_ALLOW);
        add_rule(p, "workspace:manifest", POLICY_ALLOW);
        p->fallback = untrusted ? POLICY_DENY : POLICY_ASK;
        p->default_reason = xstrdup(untrusted ? UNTRUSTED_REASON : SUPERVISED_REASON);
    } else {
        return NULL;
    }
    return p;
}

const char *policy_name(const policy *p)
{
    return p ? p->name : NULL;
}

/* ---------- evaluation ---------- */

static const json_t *member(const json_t *obj, const char *key, size_t key_len)
{
    if (!obj || obj->type != JSON_OBJECT) return NULL;
    for (size_t i = 0; i < obj->u.object.len; i++) {
        const json_member *m = &obj->u.object.items[i];
        if (m->key_len == key_len && memcmp(m->key, key, key_len) == 0) return m->value;
    }
    return NULL;
}

/* Is an http(s) url_prefix an origin without a path ("https://h", "http://h:8080")? */
static bool origin_only(const char *p, size_t n)
{
    size_t k = n > 7 && !strncasecmp(p, "http://", 7) ? 7 : n > 8 && !strncasecmp(p, "https://", 8) ? 8 : 0;
    return k && !memchr(p + k, '/', n - k) && !memchr(p + k, '?', n - k) && !memchr(p + k, '#', n - k);
}

/* Does the call's value match the pattern? Recurses over the pattern only. */
static bool matches(const json_t *pat, const json_t *val)
{
    switch (pat->type) {
    case JSON_OBJECT:
        if (!val || val->type != JSON_OBJECT) return false;
        for (size_t i = 0; i < pat->u.object.len; i++) {
            const json_member *m = &pat->u.object.items[i];
            if (key_eq(m, "url_prefix")) {
                const json_t *url = member(val, "url", 3);
                if (!url || url->type != JSON_STRING || m->value->type != JSON_STRING) return false;
                size_t n = m->value->u.string.len;
                if (url->u.string.len < n || memcmp(url->u.string.bytes, m->value->u.string.bytes, n) != 0)
                    return false;
                /* a prefix that is a whole origin ("http://h", "http://h:1808") ends at its
                 * authority: "http://h.evil.example/" and "http://h:18081/" do not start with it */
                if (origin_only(m->value->u.string.bytes, n) && url->u.string.bytes[n] != '/') return false;
                continue;
            }
            const json_t *v = member(val, m->key, m->key_len);
            if (!v || !matches(m->value, v)) return false;
        }
        return true;
    case JSON_STRING:
        if (!val || val->type != JSON_STRING) return false;
        if (pat->u.string.len == 0) return true;
        return memmem(val->u.string.bytes, val->u.string.len, pat->u.string.bytes, pat->u.string.len) != NULL;
    default:
        return val && json_equal(pat, val);
    }
}

policy_decision policy_evaluate(const policy *p, const char *target, const json_t *args, const char **reason)
{
    if (reason) *reason = NULL;
    if (!p) return POLICY_DENY; /* no policy is not permission */
    if (!target) target = "";
    static const json_t no_args = {.type = JSON_OBJECT};
    if (!args) args = &no_args;
    for (size_t i = 0; i < p->n_rules; i++) {
        const policy_rule *r = &p->rules[i];
        if (strcmp(r->target, "*") != 0 && strcmp(r->target, target) != 0) continue;
        if (r->match_args && !matches(r->match_args, args)) continue;
        if (reason) *reason = r->reason;
        return r->decision;
    }
    if (reason) *reason = p->default_reason;
    return p->fallback;
}

policy_decision policy_best_case(const policy *p, const char *target, const char **reason)
{
    if (reason) *reason = NULL;
    if (!p) return POLICY_DENY;
    if (!target) target = "";
    policy_decision best = POLICY_DENY;
    const char *best_reason = NULL;
    bool any = false;
    for (size_t i = 0; i < p->n_rules; i++) {
        const policy_rule *r = &p->rules[i];
        if (strcmp(r->target, "*") != 0 && strcmp(r->target, target) != 0) continue;
        if (!any || r->decision < best) best = r->decision, best_reason = r->reason, any = true;
        if (!r->match_args) { /* every call still unmatched stops here */
            if (reason) *reason = best_reason;
            return best;
        }
    }
    if (!any || p->fallback < best) best = p->fallback, best_reason = p->default_reason;
    if (reason) *reason = best_reason;
    return best;
}

policy_decision policy_stricter(policy_decision a, policy_decision b)
{
    /* Out-of-range values count as the strictest. */
    if ((unsigned)a > POLICY_DENY) a = POLICY_DENY;
    if ((unsigned)b > POLICY_DENY) b = POLICY_DENY;
    return a > b ? a : b;
}

const char *policy_decision_name(policy_decision d)
{
    switch (d) {
    case POLICY_ALLOW: return "always_allow";
    case POLICY_ASK: return "ask_before";
    case POLICY_DENY: return "never_allow";
    }
    return "never_allow";
}

/* ---------- selection ---------- */

void policy_selection_clear(policy_selection *s)
{
    if (!s) return;
    policy_free(s->policy);
    free(s->description);
    free(s->warning);
    memset(s, 0, sizeof *s);
}

int policy_select(policy_surface surface, int untrusted_flag, int trusted_flag, const settings *set,
                  policy_selection *out, char **error)
{
    if (error) *error = NULL;
    memset(out, 0, sizeof *out);
    bool serve = surface == POLICY_SURFACE_SERVE;

    if (untrusted_flag) {
        out->policy = policy_builtin("untrusted");
        out->description = xstrdup("untrusted (--untrusted)");
        return 0;
    }

    /* The first configured source decides; a broken one is not skipped in favour of the next. */
    const char *file = settings_text(set, "CHIDORI_POLICY_FILE");
    const char *inline_json = file ? NULL : settings_text(set, "CHIDORI_POLICY");
    const char *profile = file || inline_json ? NULL : settings_text(set, "CHIDORI_POLICY_PROFILE");
    const char *var = NULL;
    char *problem = NULL;
    if (file) {
        var = "CHIDORI_POLICY_FILE";
        size_t len = 0;
        char *err = NULL;
        char *text = read_file_capped(file, POLICY_MAX_BYTES, &len, &err);
        if (text) {
            out->policy = policy_parse(text, len, file, &err);
            free(text);
        }
        if (out->policy) out->description = xasprintf("custom (CHIDORI_POLICY_FILE=%s)", file);
        else problem = xasprintf("CHIDORI_POLICY_FILE: %s", err), free(err);
    } else if (inline_json) {
        var = "CHIDORI_POLICY";
        char *err = NULL;
        out->policy = policy_parse(inline_json, strlen(inline_json), "CHIDORI_POLICY", &err);
        if (out->policy) out->description = xstrdup("custom (CHIDORI_POLICY)");
        else problem = err;
    } else if (profile) {
        var = "CHIDORI_POLICY_PROFILE";
        out->policy = policy_builtin(profile);
        if (out->policy) {
            out->description = xasprintf("%s (CHIDORI_POLICY_PROFILE=%s)", profile, profile);
        } else {
            buf b = {0};
            put_quoted(&b, profile, strlen(profile));
            problem = xasprintf("CHIDORI_POLICY_PROFILE: unknown profile %s (expected permissive, untrusted or "
                                "supervised)",
                                b.data);
            buf_free(&b);
        }
    } else if (serve && !trusted_flag) {
        out->policy = policy_builtin("untrusted");
        out->description = xstrdup("untrusted (default for serve; --trusted to allow all)");
    } else {
        out->policy = policy_builtin("permissive");
        out->description = xstrdup(serve ? "permissive (serve --trusted)" : "permissive (default for run)");
    }
    if (!problem) return 0;

    if (!serve) {
        if (error) *error = problem;
        else free(problem);
        return -1;
    }
    /* serve: fail closed, audibly. */
    out->policy = policy_builtin("untrusted");
    out->description = xasprintf("untrusted (fail-closed: %s could not be used)", var);
    out->warning = xasprintf("policy: %s; failing closed to the untrusted profile", problem);
    free(problem);
    return 0;
}
