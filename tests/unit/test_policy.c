/* test_policy.c — the permission policy: the file shape and its validation (exact line:col),
 * first-match-wins, match_args semantics (subset objects, substring strings, anchored url_prefix,
 * equality otherwise), the built-in profiles, stricter-wins layering, and the selection order
 * for `run` and `serve` with serve's fail-closed fallback. Table-driven; a failing row names
 * its index. */
#include "unit.h"
#include "host/policy.h"
#include "util/buf.h"
#include "settings/settings.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))

#define CHECK_ROW(cond, i)                                                     \
    do {                                                                       \
        if (!(cond)) {                                                         \
            char m_[512];                                                      \
            snprintf(m_, sizeof m_, "row %zu: %s", (size_t)(i), #cond);        \
            unit_fail(__FILE__, __LINE__, m_);                                 \
            return;                                                            \
        }                                                                      \
    } while (0)

#define CHECK_ROW_STR(a, b, i)                                                                  \
    do {                                                                                        \
        const char *a_ = (a), *b_ = (b);                                                        \
        if (!a_ || !b_ || strcmp(a_, b_) != 0) {                                                \
            char m_[1024];                                                                      \
            snprintf(m_, sizeof m_, "row %zu: %s == %s (got \"%.300s\", want \"%.300s\")", (size_t)(i), #a, \
                     #b, a_ ? a_ : "(null)", b_ ? b_ : "(null)");                               \
            unit_fail(__FILE__, __LINE__, m_);                                                  \
            return;                                                                             \
        }                                                                                       \
    } while (0)

static policy *parse(const char *doc)
{
    char *err = NULL;
    policy *p = policy_parse(doc, strlen(doc), "test.json", &err);
    if (!p) fprintf(stderr, "parse failed: %s\n", err ? err : "(no error)");
    free(err);
    return p;
}

static json_t *args_of(const char *text)
{
    if (!text) return NULL;
    json_error e;
    return json_parse(text, strlen(text), NULL, &e);
}

typedef struct eval_case {
    const char *policy;
    const char *target;
    const char *args; /* JSON, or NULL for no args */
    policy_decision want;
    const char *want_reason; /* NULL: expect no reason */
} eval_case;

static const char *run_eval_cases(const eval_case *cases, size_t n, size_t *bad)
{
    static char msg[512];
    for (size_t i = 0; i < n; i++) {
        policy *p = parse(cases[i].policy);
        json_t *a = args_of(cases[i].args);
        const char *reason = (const char *)1;
        policy_decision d = p ? policy_evaluate(p, cases[i].target, a, &reason) : (policy_decision)-1;
        bool reason_ok = cases[i].want_reason ? (reason && strcmp(reason, cases[i].want_reason) == 0) : reason == NULL;
        bool ok = p && (!cases[i].args || a) && d == cases[i].want && reason_ok;
        if (!ok)
            snprintf(msg, sizeof msg, "row %zu: %s %s under %s: got %s (reason %s), want %s (reason %s)", i,
                     cases[i].target, cases[i].args ? cases[i].args : "(no args)", cases[i].policy,
                     p ? policy_decision_name(d) : "(parse failed)",
                     reason == (const char *)1 ? "(unset)" : reason ? reason : "(null)",
                     policy_decision_name(cases[i].want), cases[i].want_reason ? cases[i].want_reason : "(null)");
        json_free(a);
        policy_free(p);
        if (!ok) {
            *bad = i;
            return msg;
        }
    }
    return NULL;
}

#define CHECK_EVAL_CASES(cases)                                         \
    do {                                                                \
        size_t bad_;                                                    \
        const char *m_ = run_eval_cases(cases, N(cases), &bad_);        \
        if (m_) {                                                       \
            unit_fail(__FILE__, __LINE__, m_);                          \
            return;                                                     \
        }                                                               \
    } while (0)

/* ---------- rule order, targets, defaults ---------- */

TEST(policy_first_match_wins_and_star_and_default)
{
    const char *ordered = "{\"rules\": ["
                          "{\"target\": \"http\", \"decision\": \"always_allow\", \"reason\": \"first\"},"
                          "{\"target\": \"http\", \"decision\": \"never_allow\", \"reason\": \"second\"},"
                          "{\"target\": \"*\", \"decision\": \"ask_before\", \"reason\": \"star\"}],"
                          "\"default\": \"never_allow\", \"default_reason\": \"fallback\"}";
    const char *reversed = "{\"rules\": ["
                           "{\"target\": \"http\", \"decision\": \"never_allow\", \"reason\": \"second\"},"
                           "{\"target\": \"http\", \"decision\": \"always_allow\", \"reason\": \"first\"}]}";
    const char *star_first = "{\"rules\": ["
                             "{\"target\": \"*\", \"decision\": \"never_allow\"},"
                             "{\"target\": \"workspace:read\", \"decision\": \"always_allow\"}]}";
    const char *only_default = "{\"default\": \"never_allow\", \"default_reason\": \"nothing is allowed\"}";
    const char *no_default = "{\"rules\": [{\"target\": \"http\", \"decision\": \"never_allow\"}]}";
    const char *ask_default = "{\"rules\": [], \"default\": \"ask_before\"}";
    const char *scoped = "{\"rules\": [{\"target\": \"tool:search\", \"decision\": \"always_allow\"}],"
                         "\"default\": \"never_allow\", \"default_reason\": \"d\"}";
    eval_case cases[] = {
        {ordered, "http", "{\"url\": \"https://x/\"}", POLICY_ALLOW, "first"},
        {reversed, "http", "{\"url\": \"https://x/\"}", POLICY_DENY, "second"},
        {ordered, "workspace:write", "{}", POLICY_ASK, "star"},
        {ordered, "tool:anything", NULL, POLICY_ASK, "star"},
        {ordered, "app_data:get", "{\"action\": \"get\"}", POLICY_ASK, "star"},
        {star_first, "workspace:read", "{}", POLICY_DENY, NULL}, /* a rule without a reason gives none */
        {only_default, "http", "{}", POLICY_DENY, "nothing is allowed"},
        {only_default, "workspace:list", NULL, POLICY_DENY, "nothing is allowed"},
        {no_default, "workspace:write", "{}", POLICY_ALLOW, NULL}, /* default defaults to always_allow */
        {no_default, "http", "{}", POLICY_DENY, NULL},
        {ask_default, "http", "{}", POLICY_ASK, NULL},
        {"{}", "http", "{}", POLICY_ALLOW, NULL},
        /* targets match exactly: no prefixes, no case folding */
        {scoped, "tool:search", "{}", POLICY_ALLOW, NULL},
        {scoped, "tool:searchx", "{}", POLICY_DENY, "d"},
        {scoped, "tool:", "{}", POLICY_DENY, "d"},
        {scoped, "tool:Search", "{}", POLICY_DENY, "d"},
        {scoped, "tool", "{}", POLICY_DENY, "d"},
        {scoped, "", "{}", POLICY_DENY, "d"},
    };
    CHECK_EVAL_CASES(cases);
}

TEST(policy_evaluate_without_a_policy_denies)
{
    const char *reason = "x";
    CHECK(policy_evaluate(NULL, "workspace:read", NULL, &reason) == POLICY_DENY);
    CHECK(reason == NULL);
    policy *p = parse("{\"rules\": [{\"target\": \"*\", \"decision\": \"ask_before\"}], \"default\": \"never_allow\"}");
    CHECK(p);
    CHECK(policy_evaluate(p, NULL, NULL, NULL) == POLICY_ASK); /* only `*` can match a missing target */
    policy_free(p);
}

/* ---------- match_args ---------- */

#define RULE(pattern)                                                                                              \
    "{\"rules\": [{\"target\": \"*\", \"decision\": \"always_allow\", \"reason\": \"matched\", \"match_args\": " \
    pattern "}], \"default\": \"never_allow\"}"
#define YES POLICY_ALLOW, "matched"
#define NO POLICY_DENY, NULL

TEST(policy_match_args_objects_are_recursive_subsets)
{
    eval_case cases[] = {
        {RULE("{}"), "http", "{\"url\": \"u\"}", YES},
        {RULE("{}"), "http", NULL, YES},
        {RULE("{}"), "http", "[]", NO}, /* an object pattern needs object args */
        {RULE("{\"method\": \"GET\"}"), "http", "{\"url\": \"https://a/\", \"method\": \"GET\"}", YES},
        {RULE("{\"method\": \"GET\"}"), "http", "{\"url\": \"https://a/\"}", NO}, /* missing key */
        {RULE("{\"method\": \"GET\"}"), "http", NULL, NO},
        {RULE("{\"method\": \"GET\"}"), "http", "{\"method\": \"POST\"}", NO},
        {RULE("{\"method\": \"GET\"}"), "http", "{\"Method\": \"GET\"}", NO}, /* keys are case-sensitive */
        {RULE("{\"method\": \"GET\", \"url\": \"/v1/\"}"), "http", "{\"url\": \"https://a/v1/x\", \"method\": \"GET\"}", YES},
        {RULE("{\"method\": \"GET\", \"url\": \"/v1/\"}"), "http", "{\"url\": \"https://a/v2/x\", \"method\": \"GET\"}", NO},
        {RULE("{\"opts\": {\"mode\": \"fast\"}}"), "tool:t", "{\"opts\": {\"mode\": \"fast\", \"n\": 1}, \"q\": 2}", YES},
        {RULE("{\"opts\": {\"mode\": \"fast\"}}"), "tool:t", "{\"opts\": {\"mode\": \"slow\"}}", NO},
        {RULE("{\"opts\": {\"mode\": \"fast\"}}"), "tool:t", "{\"opts\": {}}", NO},
        {RULE("{\"opts\": {\"mode\": \"fast\"}}"), "tool:t", "{\"opts\": \"mode fast\"}", NO},
        {RULE("{\"opts\": {\"mode\": \"fast\"}}"), "tool:t", "{\"opts\": null}", NO},
        {RULE("{\"opts\": {}}"), "tool:t", "{\"opts\": {\"a\": 1}}", YES},
        {RULE("{\"opts\": {}}"), "tool:t", "{\"opts\": []}", NO},
        {RULE("{\"a\": {\"b\": {\"c\": \"deep\"}}}"), "tool:t", "{\"a\": {\"b\": {\"c\": \"very deep\", \"d\": 0}}}", YES},
        {RULE("{\"a\": {\"b\": {\"c\": \"deep\"}}}"), "tool:t", "{\"a\": {\"b\": {\"d\": \"deep\"}}}", NO},
        {RULE("{\"weird key \\\"\\u0000\": 1}"), "tool:t", "{\"weird key \\\"\\u0000\": 1}", YES},
        {RULE("{\"weird key \\\"\\u0000\": 1}"), "tool:t", "{\"weird key \\\"\": 1}", NO},
    };
    CHECK_EVAL_CASES(cases);
}

TEST(policy_match_args_strings_match_as_substrings)
{
    eval_case cases[] = {
        {RULE("{\"url\": \"/status/\"}"), "http", "{\"url\": \"https://a.example/status/1\"}", YES},
        {RULE("{\"url\": \"/status/\"}"), "http", "{\"url\": \"/status/\"}", YES},
        {RULE("{\"url\": \"/status/\"}"), "http", "{\"url\": \"https://a.example/stat\"}", NO},
        {RULE("{\"url\": \"/status/\"}"), "http", "{\"url\": \"https://a.example/STATUS/\"}", NO},
        {RULE("{\"url\": \"/status/\"}"), "http", "{\"url\": [\"/status/\"]}", NO},
        {RULE("{\"url\": \"/status/\"}"), "http", "{\"url\": 5}", NO},
        {RULE("{\"q\": \"\"}"), "tool:t", "{\"q\": \"anything\"}", YES}, /* "" is in every string */
        {RULE("{\"q\": \"\"}"), "tool:t", "{\"q\": \"\"}", YES},
        {RULE("{\"q\": \"\"}"), "tool:t", "{\"q\": null}", NO},
        {RULE("{\"q\": \"\"}"), "tool:t", "{}", NO},
        {RULE("{\"q\": \"a\\u0000b\"}"), "tool:t", "{\"q\": \"xa\\u0000by\"}", YES}, /* NUL is just a byte */
        {RULE("{\"q\": \"a\\u0000b\"}"), "tool:t", "{\"q\": \"xa\"}", NO},
        {RULE("{\"q\": \"\\u00e9\"}"), "tool:t", "{\"q\": \"caf\\u00e9!\"}", YES},
        {RULE("{\"q\": \"longer than the value\"}"), "tool:t", "{\"q\": \"longer\"}", NO},
    };
    CHECK_EVAL_CASES(cases);
}

TEST(policy_match_args_url_prefix_is_anchored)
{
    const char *prefix = RULE("{\"url_prefix\": \"https://api.example.com/\"}");
    /* The trap the seed warns about: a plain string is a substring test, so a hostile URL that
     * carries the allowed host in its query string satisfies it. url_prefix does not. */
    const char *plain = RULE("{\"url\": \"https://api.example.com/\"}");
    const char *hostile = "{\"url\": \"https://evil.example/?x=https://api.example.com/\", \"method\": \"GET\"}";
    eval_case cases[] = {
        {prefix, "http", "{\"url\": \"https://api.example.com/v1/items\", \"method\": \"GET\"}", YES},
        {prefix, "http", "{\"url\": \"https://api.example.com/\"}", YES},
        {prefix, "http", hostile, NO},
        {plain, "http", hostile, YES},
        {prefix, "http", "{\"url\": \"https://api.example.com.evil.example/\"}", NO},
        {prefix, "http", "{\"url\": \"https://api.example.com\"}", NO}, /* shorter than the prefix */
        {prefix, "http", "{\"url\": \"HTTPS://api.example.com/\"}", NO},
        {prefix, "http", "{\"url\": \" https://api.example.com/\"}", NO},
        {prefix, "http", "{\"url\": \"http://api.example.com/\"}", NO},
        {prefix, "http", "{\"method\": \"GET\"}", NO}, /* no url */
        {prefix, "http", NULL, NO},
        {prefix, "http", "{\"url\": null}", NO},
        {prefix, "http", "{\"url\": [\"https://api.example.com/\"]}", NO},
        {prefix, "http", "{\"url\": {\"href\": \"https://api.example.com/\"}}", NO},
        /* url_prefix is reserved: it never names an arg of its own */
        {prefix, "http", "{\"url_prefix\": \"https://api.example.com/\"}", NO},
        {RULE("{\"url_prefix\": \"\"}"), "http", "{\"url\": \"anything\"}", YES},
        {RULE("{\"url_prefix\": \"\"}"), "http", "{}", NO},
        {RULE("{\"url_prefix\": \"https://api.example.com/\", \"method\": \"GET\"}"), "http",
         "{\"url\": \"https://api.example.com/x\", \"method\": \"GET\"}", YES},
        {RULE("{\"url_prefix\": \"https://api.example.com/\", \"method\": \"GET\"}"), "http",
         "{\"url\": \"https://api.example.com/x\", \"method\": \"DELETE\"}", NO},
        /* inside a nested object it anchors that object's url */
        {RULE("{\"req\": {\"url_prefix\": \"https://a/\"}}"), "tool:fetch", "{\"req\": {\"url\": \"https://a/x\"}}", YES},
        {RULE("{\"req\": {\"url_prefix\": \"https://a/\"}}"), "tool:fetch", "{\"req\": {\"url\": \"https://b/?https://a/\"}}", NO},
        {RULE("{\"req\": {\"url_prefix\": \"https://a/\"}}"), "tool:fetch", "{\"url\": \"https://a/x\"}", NO},
    };
    CHECK_EVAL_CASES(cases);
}

TEST(policy_match_args_origin_prefix_ends_at_its_authority)
{
    /* A url_prefix without a path is accepted when the policy loads (it is the prefix of its own
     * normalized form), so it must not also be the prefix of another host or port. */
    const char *origin = RULE("{\"url_prefix\": \"https://api.example.com\"}");
    const char *port = RULE("{\"url_prefix\": \"http://127.0.0.1:1808\"}");
    eval_case cases[] = {
        {origin, "http", "{\"url\": \"https://api.example.com/\"}", YES},
        {origin, "http", "{\"url\": \"https://api.example.com/v1?q=1\"}", YES},
        {origin, "http", "{\"url\": \"https://api.example.com.evil.example/\"}", NO},
        {origin, "http", "{\"url\": \"https://api.example.community/\"}", NO},
        {origin, "http", "{\"url\": \"https://api.example.com:8443/\"}", NO},
        {port, "http", "{\"url\": \"http://127.0.0.1:1808/x\"}", YES},
        {port, "http", "{\"url\": \"http://127.0.0.1:18081/x\"}", NO},
        {port, "http", "{\"url\": \"http://127.0.0.1:1808\"}", NO},
    };
    CHECK_EVAL_CASES(cases);
}

TEST(policy_match_args_other_values_by_equality)
{
    eval_case cases[] = {
        {RULE("{\"n\": 1}"), "tool:t", "{\"n\": 1}", YES},
        {RULE("{\"n\": 1}"), "tool:t", "{\"n\": 1.0}", YES},
        {RULE("{\"n\": 1}"), "tool:t", "{\"n\": 1e0}", YES},
        {RULE("{\"n\": 1}"), "tool:t", "{\"n\": 2}", NO},
        {RULE("{\"n\": 1}"), "tool:t", "{\"n\": \"1\"}", NO},
        {RULE("{\"n\": 1}"), "tool:t", "{\"n\": true}", NO},
        {RULE("{\"n\": 1}"), "tool:t", "{\"n\": [1]}", NO},
        {RULE("{\"n\": 0}"), "tool:t", "{\"n\": -0}", YES},
        {RULE("{\"n\": 0.1}"), "tool:t", "{\"n\": 0.10000000000000001}", YES},
        {RULE("{\"n\": 0.1}"), "tool:t", "{\"n\": 0.1000001}", NO},
        {RULE("{\"b\": true}"), "tool:t", "{\"b\": true}", YES},
        {RULE("{\"b\": true}"), "tool:t", "{\"b\": false}", NO},
        {RULE("{\"b\": true}"), "tool:t", "{\"b\": 1}", NO},
        {RULE("{\"b\": true}"), "tool:t", "{\"b\": \"true\"}", NO},
        {RULE("{\"b\": false}"), "tool:t", "{\"b\": false}", YES},
        {RULE("{\"b\": false}"), "tool:t", "{\"b\": null}", NO},
        {RULE("{\"b\": false}"), "tool:t", "{}", NO},
        {RULE("{\"z\": null}"), "tool:t", "{\"z\": null}", YES},
        {RULE("{\"z\": null}"), "tool:t", "{}", NO}, /* missing is not null */
        {RULE("{\"z\": null}"), "tool:t", "{\"z\": false}", NO},
        {RULE("{\"z\": null}"), "tool:t", "{\"z\": \"\"}", NO},
        {RULE("{\"a\": [1, \"x\"]}"), "tool:t", "{\"a\": [1, \"x\"]}", YES},
        {RULE("{\"a\": [1, \"x\"]}"), "tool:t", "{\"a\": [1, \"xy\"]}", NO}, /* no substrings inside arrays */
        {RULE("{\"a\": [1, \"x\"]}"), "tool:t", "{\"a\": [1, \"x\", 2]}", NO},
        {RULE("{\"a\": [1, \"x\"]}"), "tool:t", "{\"a\": [\"x\", 1]}", NO},
        {RULE("{\"a\": [1, \"x\"]}"), "tool:t", "{\"a\": [1]}", NO},
        {RULE("{\"a\": [{\"k\": 1}]}"), "tool:t", "{\"a\": [{\"k\": 1}]}", YES},
        {RULE("{\"a\": [{\"k\": 1}]}"), "tool:t", "{\"a\": [{\"k\": 1, \"j\": 2}]}", NO}, /* arrays: equality */
        {RULE("{\"a\": []}"), "tool:t", "{\"a\": []}", YES},
        {RULE("{\"a\": []}"), "tool:t", "{\"a\": {}}", NO},
    };
    CHECK_EVAL_CASES(cases);
}

/* ---------- built-in profiles and layering ---------- */

TEST(policy_builtin_profiles_decide_every_gated_target)
{
    static const char *targets[] = {"http",           "workspace:list", "workspace:read", "workspace:write",
                                    "workspace:delete", "workspace:manifest", "tool:search", "app_data:get",
                                    "app_data:put"};
    struct {
        const char *profile;
        policy_decision want[N(targets)];
    } rows[] = {
        {"permissive", {POLICY_ALLOW, POLICY_ALLOW, POLICY_ALLOW, POLICY_ALLOW, POLICY_ALLOW, POLICY_ALLOW, POLICY_ALLOW,
                        POLICY_ALLOW, POLICY_ALLOW}},
        {"untrusted", {POLICY_DENY, POLICY_ALLOW, POLICY_ALLOW, POLICY_DENY, POLICY_DENY, POLICY_ALLOW, POLICY_DENY,
                       POLICY_DENY, POLICY_DENY}},
        {"supervised", {POLICY_ASK, POLICY_ALLOW, POLICY_ALLOW, POLICY_ASK, POLICY_ASK, POLICY_ALLOW, POLICY_ASK,
                        POLICY_ASK, POLICY_ASK}},
    };
    json_t *args = args_of("{\"url\": \"https://api.example.com/\", \"method\": \"GET\", \"path\": \".\"}");
    for (size_t r = 0; r < N(rows); r++) {
        policy *p = policy_builtin(rows[r].profile);
        CHECK_ROW(p != NULL, r);
        CHECK_ROW_STR(policy_name(p), rows[r].profile, r);
        for (size_t t = 0; t < N(targets); t++) {
            const char *reason = NULL;
            policy_decision d = policy_evaluate(p, targets[t], args, &reason);
            if (d != rows[r].want[t]) {
                char m[256];
                snprintf(m, sizeof m, "%s: %s got %s, want %s", rows[r].profile, targets[t], policy_decision_name(d),
                         policy_decision_name(rows[r].want[t]));
                policy_free(p);
                json_free(args);
                unit_fail(__FILE__, __LINE__, m);
                return;
            }
            /* allowed calls carry no reason; refused or asked ones explain themselves */
            CHECK_ROW((d == POLICY_ALLOW) == (reason == NULL), r * 100 + t);
        }
        policy_free(p);
    }
    json_free(args);

    policy *u = policy_builtin("untrusted");
    const char *reason = NULL;
    CHECK(policy_evaluate(u, "http", NULL, &reason) == POLICY_DENY);
    /* the default reason names the ways out */
    CHECK(reason && strstr(reason, "--trusted") && strstr(reason, "--untrusted") && strstr(reason, "CHIDORI_POLICY_FILE") &&
          strstr(reason, "CHIDORI_POLICY_PROFILE"));
    policy_free(u);

    const char *unknown[] = {"", "Untrusted", "untrusted ", "strict", "custom", "untrusted\n"};
    for (size_t i = 0; i < N(unknown); i++) CHECK_ROW(policy_builtin(unknown[i]) == NULL, i);
    CHECK(policy_builtin(NULL) == NULL);
}

TEST(policy_stricter_wins_and_decision_names)
{
    policy_decision all[] = {POLICY_ALLOW, POLICY_ASK, POLICY_DENY};
    policy_decision want[3][3] = {{POLICY_ALLOW, POLICY_ASK, POLICY_DENY},
                                  {POLICY_ASK, POLICY_ASK, POLICY_DENY},
                                  {POLICY_DENY, POLICY_DENY, POLICY_DENY}};
    for (size_t a = 0; a < 3; a++)
        for (size_t b = 0; b < 3; b++) CHECK_ROW(policy_stricter(all[a], all[b]) == want[a][b], a * 3 + b);
    CHECK_STR(policy_decision_name(POLICY_ALLOW), "always_allow");
    CHECK_STR(policy_decision_name(POLICY_ASK), "ask_before");
    CHECK_STR(policy_decision_name(POLICY_DENY), "never_allow");

    /* A session profile layered on the server policy can tighten but never relax it. */
    struct { const char *server, *session, *target; policy_decision want; } rows[] = {
        {"permissive", "untrusted", "http", POLICY_DENY},
        {"permissive", "supervised", "http", POLICY_ASK},
        {"untrusted", "permissive", "http", POLICY_DENY},
        {"supervised", "permissive", "workspace:write", POLICY_ASK},
        {"untrusted", "supervised", "workspace:write", POLICY_DENY},
        {"supervised", "untrusted", "workspace:read", POLICY_ALLOW},
    };
    for (size_t i = 0; i < N(rows); i++) {
        policy *s = policy_builtin(rows[i].server), *t = policy_builtin(rows[i].session);
        policy_decision d = policy_stricter(policy_evaluate(s, rows[i].target, NULL, NULL),
                                            policy_evaluate(t, rows[i].target, NULL, NULL));
        policy_free(s);
        policy_free(t);
        CHECK_ROW(d == rows[i].want, i);
    }
}

/* ---------- parsing ---------- */

TEST(policy_parse_accepts_the_documented_shape)
{
    const char *seed_example =
        "{\n"
        "  \"rules\": [\n"
        "    {\n"
        "      \"target\": \"http\",\n"
        "      \"decision\": \"always_allow\",\n"
        "      \"match_args\": {\n"
        "        \"url_prefix\": \"http://ops.internal:9911/\"\n"
        "      },\n"
        "      \"reason\": \"ops API only\"\n"
        "    },\n"
        "    { \"target\": \"workspace:write\", \"decision\": \"always_allow\" },\n"
        "    { \"target\": \"workspace:read\",  \"decision\": \"always_allow\" },\n"
        "    { \"target\": \"workspace:list\",  \"decision\": \"always_allow\" }\n"
        "  ],\n"
        "  \"default\": \"never_allow\",\n"
        "  \"default_reason\": \"this server allows only the ops API and workspace writes\"\n"
        "}\n";
    const char *why = "this server allows only the ops API and workspace writes";
    eval_case cases[] = {
        {seed_example, "http", "{\"url\": \"http://ops.internal:9911/status\", \"method\": \"GET\"}", POLICY_ALLOW,
         "ops API only"},
        {seed_example, "http", "{\"url\": \"https://example.com/?http://ops.internal:9911/\"}", POLICY_DENY, why},
        {seed_example, "workspace:write", "{\"path\": \"a\"}", POLICY_ALLOW, NULL},
        {seed_example, "workspace:delete", "{\"path\": \"a\"}", POLICY_DENY, why},
        {seed_example, "workspace:manifest", "{}", POLICY_DENY, why},
        {seed_example, "tool:search", "{}", POLICY_DENY, why},
    };
    CHECK_EVAL_CASES(cases);

    const char *good[] = {
        "{}",
        " \n\t{ } \r\n",
        "{\"rules\": []}",
        "{\"default\": \"always_allow\"}",
        "{\"default_reason\": \"\"}",
        "{\"rules\": [{\"decision\": \"never_allow\", \"target\": \"*\"}]}",
        "{\"rules\": [{\"target\": \"workspace:list\", \"decision\": \"always_allow\"},"
        "{\"target\": \"workspace:read\", \"decision\": \"always_allow\"},"
        "{\"target\": \"workspace:write\", \"decision\": \"ask_before\"},"
        "{\"target\": \"workspace:delete\", \"decision\": \"never_allow\"},"
        "{\"target\": \"workspace:manifest\", \"decision\": \"always_allow\"},"
        "{\"target\": \"tool:x\", \"decision\": \"always_allow\", \"match_args\": {}},"
        "{\"target\": \"tool:mcp.server/tool-name with spaces\", \"decision\": \"always_allow\"},"
        "{\"target\": \"tool:search\", \"decision\": \"always_allow\", \"reason\": \"r\"},"
        "{\"target\": \"http\", \"decision\": \"ask_before\", \"match_args\": {\"url_prefix\": \"\", \"n\": [1, {}]}}]}",
    };
    for (size_t i = 0; i < N(good); i++) {
        char *err = NULL;
        policy *p = policy_parse(good[i], strlen(good[i]), "g.json", &err);
        CHECK_ROW_STR(err ? err : "(ok)", "(ok)", i);
        CHECK_ROW(p != NULL, i);
        CHECK_ROW_STR(policy_name(p), "g.json", i);
        policy_free(p);
    }
}

TEST(policy_parse_errors_name_source_line_and_col)
{
    struct { const char *doc, *want; } rows[] = {
        /* unknown keys point at the key */
        {"{\n  \"rules\": [],\n  \"defualt\": \"never_allow\"\n}",
         "p.json:3:3: unknown key \"defualt\" (expected rules, default or default_reason)"},
        {"{\"rules\": [\n  {\"target\": \"http\",\n   \"decison\": \"never_allow\"}\n]}",
         "p.json:3:4: unknown key \"decison\" in rules[0] (expected target, decision, match_args or reason)"},
        {"{\"rules\": [{\"target\": \"http\", \"decision\": \"never_allow\"},\n"
         "           {\"target\": \"http\", \"decision\": \"never_allow\", \"match\": {}}]}",
         "p.json:2:58: unknown key \"match\" in rules[1] (expected target, decision, match_args or reason)"},
        {"{\"a\\\"b\\\\\"  :  1}", "p.json:1:2: unknown key \"a\\\"b\\\\\" (expected rules, default or default_reason)"},
        {"{\"x\\u0001\":1}", "p.json:1:2: unknown key \"x\\u0001\" (expected rules, default or default_reason)"},
        /* unknown targets point at the target's value */
        {"{\"rules\": [\n  {\"target\": \"network\", \"decision\": \"never_allow\"}\n]}",
         "p.json:2:14: unknown target \"network\" (expected http, workspace:list|read|write|delete|manifest, "
         "tool:<name> or *)"},
        /* unknown decisions point at the decision's value */
        {"{\"rules\": [{\"target\": \"http\",\n\t\"decision\": \"allow\"}]}",
         "p.json:2:14: unknown decision \"allow\" for \"decision\" (expected always_allow, ask_before or never_allow)"},
        {"{\"default\": \"deny\"}",
         "p.json:1:13: unknown decision \"deny\" for \"default\" (expected always_allow, ask_before or never_allow)"},
        /* wrong types */
        {"{\"rules\": {\"target\": \"http\"}}", "p.json:1:11: \"rules\" must be an array of rules, not an object"},
        {"{\"rules\": null}", "p.json:1:11: \"rules\" must be an array of rules, not null"},
        {"{\"rules\": [\"http\"]}",
         "p.json:1:12: rules[0] must be an object with \"target\" and \"decision\", not a string"},
        {"{\"rules\": [{\"target\": 1, \"decision\": \"never_allow\"}]}",
         "p.json:1:23: \"target\" must be a string, not a number"},
        {"{\"rules\": [{\"target\": \"http\", \"decision\": false}]}",
         "p.json:1:43: \"decision\" must be a string, not a boolean"},
        {"{\"rules\": [{\"target\": \"http\", \"decision\": \"never_allow\", \"reason\": 7}]}",
         "p.json:1:68: \"reason\" must be a string, not a number"},
        {"{\"rules\": [{\"target\": \"http\", \"decision\": \"never_allow\", \"match_args\": \"evil\"}]}",
         "p.json:1:72: \"match_args\" must be an object, not a string"},
        {"{\"rules\": [{\"target\": \"http\", \"decision\": \"never_allow\", \"match_args\": [1]}]}",
         "p.json:1:72: \"match_args\" must be an object, not an array"},
        {"{\"rules\": [{\"target\": \"http\", \"decision\": \"always_allow\", \"match_args\": {\"url_prefix\": 1}}]}",
         "p.json:1:88: \"url_prefix\" in match_args must be a string, not a number"},
        {"{\"default\": null}", "p.json:1:13: \"default\" must be a string, not null"},
        {"{\"default_reason\": [\"x\"]}", "p.json:1:20: \"default_reason\" must be a string, not an array"},
        {"{\"default_reason\": \"a\\u0000b\"}", "p.json:1:20: \"default_reason\" contains a NUL character"},
        {"[]", "p.json:1:1: a policy must be a JSON object with \"rules\" and \"default\", not an array"},
        {"\n  \"never_allow\"", "p.json:2:3: a policy must be a JSON object with \"rules\" and \"default\", not a string"},
        {"null", "p.json:1:1: a policy must be a JSON object with \"rules\" and \"default\", not null"},
        /* missing fields point at the rule */
        {"{\"rules\": [\n {\"decision\": \"never_allow\"}]}", "p.json:2:2: rules[0] has no \"target\""},
        {"{\"rules\": [{\"target\": \"http\"}]}", "p.json:1:12: rules[0] has no \"decision\""},
        /* empty documents */
        {"", "p.json:1:1: empty policy document (expected a JSON object with \"rules\" and \"default\")"},
        {" \n\t\r\n", "p.json:1:1: empty policy document (expected a JSON object with \"rules\" and \"default\")"},
    };
    for (size_t i = 0; i < N(rows); i++) {
        char *err = NULL;
        policy *p = policy_parse(rows[i].doc, strlen(rows[i].doc), "p.json", &err);
        CHECK_ROW(p == NULL, i);
        CHECK_ROW_STR(err, rows[i].want, i);
        free(err);
    }
}

TEST(policy_parse_rejects_unknown_target_forms)
{
    const char *targets[] = {"",           "HTTP",          "http ",          " http",          "https",
                             "network",    "workspace",     "workspace:",     "workspace:*",    "workspace:exec",
                             "workspace:READ", "workspace:read ", "workspace:list:x", "tool:",       "tool",
                             "app_data:",  "app_data",      "app_data:get",   "*:*",            "**",             "* ",
                             "prompt",     "log",           "memory:set",     "tool:a\\u0000b", "http\\u0000",
                             "workspace:read\\u0000x"};
    for (size_t i = 0; i < N(targets); i++) {
        char doc[256];
        snprintf(doc, sizeof doc, "{\"rules\": [{\"target\": \"%s\", \"decision\": \"always_allow\"}]}", targets[i]);
        char *err = NULL;
        policy *p = policy_parse(doc, strlen(doc), "t", &err);
        CHECK_ROW(p == NULL, i);
        CHECK_ROW(err && strncmp(err, "t:1:23: unknown target \"", 24) == 0, i);
        free(err);
    }
    const char *decisions[] = {"", "allow", "deny", "ask", "Always_Allow", "ALWAYS_ALLOW", "always_allow ",
                               "never", "always-allow", "always_allow\\u0000"};
    for (size_t i = 0; i < N(decisions); i++) {
        char doc[256];
        snprintf(doc, sizeof doc, "{\"rules\": [{\"target\": \"*\", \"decision\": \"%s\"}]}", decisions[i]);
        char *err = NULL;
        policy *p = policy_parse(doc, strlen(doc), "t", &err);
        CHECK_ROW(p == NULL, i);
        CHECK_ROW(err && strncmp(err, "t:1:40: unknown decision \"", 26) == 0, i);
        free(err);
    }
}

TEST(policy_parse_rejects_malformed_json_with_position)
{
    struct { const char *doc, *prefix; } rows[] = {
        {"{\"rules\": [", "p.json:1:12: "},                     /* truncated */
        {"{\"rules\": [{\"target\": \"http\"", "p.json:1:"},     /* truncated mid-rule */
        {"{} x", "p.json:1:4: "},                              /* trailing garbage */
        {"{}\n{}", "p.json:2:1: "},
        {"{\"rules\": [],}", "p.json:1:"},
        {"// comment\n{}", "p.json:1:1: "},                    /* JSON has no comments */
        {"{'rules': []}", "p.json:1:2: "},
        {"\xef\xbb\xbf{}", "p.json:1:1: "},
    };
    for (size_t i = 0; i < N(rows); i++) {
        char *err = NULL;
        policy *p = policy_parse(rows[i].doc, strlen(rows[i].doc), "p.json", &err);
        CHECK_ROW(p == NULL, i);
        CHECK_ROW(err && strncmp(err, rows[i].prefix, strlen(rows[i].prefix)) == 0 && strlen(err) > strlen(rows[i].prefix), i);
        free(err);
    }

    /* NULL text, NULL source, NULL error pointer */
    char *err = NULL;
    CHECK(policy_parse(NULL, 0, NULL, &err) == NULL);
    CHECK(err && strncmp(err, "policy:1:1: empty", 17) == 0);
    free(err);
    CHECK(policy_parse("{x", 2, "s", NULL) == NULL);
    /* embedded NUL: the length is what counts */
    err = NULL;
    CHECK(policy_parse("{}\0{}", 5, "s", &err) == NULL);
    CHECK(err != NULL);
    free(err);
}

TEST(policy_parse_is_size_and_depth_capped)
{
    /* just over 1 MiB, otherwise valid */
    size_t n = POLICY_MAX_BYTES + 1;
    char *big = malloc(n + 1);
    memset(big, ' ', n);
    big[0] = '{';
    big[n - 1] = '}';
    big[n] = 0;
    char *err = NULL;
    policy *p = policy_parse(big, n, "big.json", &err);
    CHECK(p == NULL);
    CHECK(err && strstr(err, "big.json:1:1: ") == err && strstr(err, "limit"));
    free(err);
    /* exactly 1 MiB is fine */
    big[n - 2] = '}';
    err = NULL;
    p = policy_parse(big, n - 1, "big.json", &err);
    CHECK(p != NULL && err == NULL);
    policy_free(p);
    free(big);

    /* match_args nested 200 deep */
    buf b = {0};
    buf_puts(&b, "{\"rules\": [{\"target\": \"*\", \"decision\": \"always_allow\", \"match_args\": ");
    for (int i = 0; i < 200; i++) buf_puts(&b, "{\"a\": ");
    buf_puts(&b, "1");
    for (int i = 0; i < 200; i++) buf_putc(&b, '}');
    buf_puts(&b, "}]}");
    err = NULL;
    p = policy_parse(b.data, b.len, "deep.json", &err);
    CHECK(p == NULL);
    CHECK(err && strncmp(err, "deep.json:1:", 12) == 0);
    free(err);
    buf_free(&b);
}

/* Every way of mangling a valid document either parses or names a position; none crashes or
 * leaks (run under ASan). */
TEST(policy_parse_survives_garbage)
{
    const char *base = "{\"rules\": [{\"target\": \"http\", \"decision\": \"always_allow\", \"match_args\": "
                       "{\"url_prefix\": \"https://a/\", \"m\": {\"k\": [1, true, null, \"s\"]}}, \"reason\": \"r\"},"
                       "{\"target\": \"tool:x\", \"decision\": \"ask_before\"}], \"default\": \"never_allow\", "
                       "\"default_reason\": \"d\"}";
    size_t n = strlen(base);
    char *doc = malloc(n + 1);
    json_t *args = args_of("{\"url\": \"https://a/b\", \"m\": {\"k\": [1, true, null, \"s\"]}}");
    uint32_t seed = 12345;
    static const char alphabet[] = "{}[]\":,\\ \n0aeltrunfs*-:_\x01\x80\xff";
    for (int iter = 0; iter < 20000; iter++) {
        memcpy(doc, base, n + 1);
        size_t len = n;
        int edits = 1 + iter % 4;
        for (int e = 0; e < edits; e++) {
            seed = seed * 1103515245u + 12345u;
            size_t pos = (seed >> 8) % len;
            seed = seed * 1103515245u + 12345u;
            switch ((seed >> 16) % 3) {
            case 0: doc[pos] = alphabet[(seed >> 4) % (sizeof alphabet - 1)]; break; /* replace */
            case 1: len = pos ? pos : 1; break;                                    /* truncate */
            case 2: memmove(doc + pos, doc + pos + 1, len - pos); len--; break;     /* delete */
            }
            if (len == 0) len = 1;
        }
        char *err = NULL;
        policy *p = policy_parse(doc, len, "g", &err);
        if (p) {
            CHECK_ROW(err == NULL, iter);
            (void)policy_evaluate(p, "http", args, NULL);
            (void)policy_evaluate(p, "tool:x", NULL, NULL);
            policy_free(p);
        } else {
            int line = 0, col = 0;
            CHECK_ROW(err && sscanf(err, "g:%d:%d: ", &line, &col) == 2 && line >= 1 && col >= 1, iter);
            free(err);
        }
    }
    json_free(args);
    free(doc);
}

/* ---------- selection ---------- */

static const char *fake_env[3]; /* CHIDORI_POLICY_FILE, CHIDORI_POLICY, CHIDORI_POLICY_PROFILE */

/* The settings of an environment holding the fake_env values that are not NULL. */
static settings *fake_settings(void)
{
    static const char *const names[3] = {"CHIDORI_POLICY_FILE", "CHIDORI_POLICY", "CHIDORI_POLICY_PROFILE"};
    char *env[4] = {NULL};
    size_t n = 0;
    for (size_t i = 0; i < 3; i++)
        if (fake_env[i]) env[n++] = xasprintf("%s=%s", names[i], fake_env[i]);
    char *error = NULL;
    settings *s = settings_from_environ(env, &error);
    for (size_t i = 0; i < n; i++) free(env[i]);
    if (!s) fprintf(stderr, "%s\n", error), abort();
    return s;
}

static char test_dir[64];

static const char *make_files(void)
{
    snprintf(test_dir, sizeof test_dir, "/tmp/chidori-policy-XXXXXX");
    if (!mkdtemp(test_dir)) return NULL;
    struct { const char *name, *text; } files[] = {
        {"allow.json", "{\"default\": \"always_allow\"}"},
        {"deny.json", "{\"rules\": [{\"target\": \"workspace:read\", \"decision\": \"always_allow\"}],\n"
                      " \"default\": \"never_allow\", \"default_reason\": \"file says no\"}\n"},
        {"empty.json", ""},
        {"blank.json", "\n\n"},
        {"truncated.json", "{\"rules\": [{\"target\": \"http\", \"decision\": \"alw"},
        {"badkey.json", "{\n  \"rulez\": []\n}"},
    };
    for (size_t i = 0; i < N(files); i++) {
        char path[128];
        snprintf(path, sizeof path, "%s/%s", test_dir, files[i].name);
        FILE *f = fopen(path, "w");
        if (!f) return NULL;
        fputs(files[i].text, f);
        fclose(f);
    }
    char sub[128];
    snprintf(sub, sizeof sub, "%s/adir", test_dir);
    mkdir(sub, 0700);
    /* one byte over the cap */
    char path[128];
    snprintf(path, sizeof path, "%s/huge.json", test_dir);
    FILE *f = fopen(path, "w");
    if (!f) return NULL;
    fputc('{', f);
    for (size_t i = 0; i < POLICY_MAX_BYTES - 1; i++) fputc(' ', f);
    fputc('}', f);
    fclose(f);
    return test_dir;
}

static void remove_files(void)
{
    const char *names[] = {"allow.json", "deny.json", "empty.json", "blank.json", "truncated.json", "badkey.json",
                           "huge.json"};
    char path[128];
    for (size_t i = 0; i < N(names); i++) {
        snprintf(path, sizeof path, "%s/%s", test_dir, names[i]);
        unlink(path);
    }
    snprintf(path, sizeof path, "%s/adir", test_dir);
    rmdir(path);
    rmdir(test_dir);
}

enum { RUN = POLICY_SURFACE_RUN, SERVE = POLICY_SURFACE_SERVE };

typedef struct select_case {
    int surface, untrusted, trusted;
    const char *file; /* "@name" is a file in the test directory */
    const char *inline_json;
    const char *profile;
    int want_rc;
    const char *want_name;        /* "@file" means the path of `file` */
    const char *want_description; /* "%s" is replaced by the path of `file` */
    const char *want_warning;     /* a substring of the warning; NULL: no warning */
    const char *want_error;       /* a substring of the error (rc -1) */
    policy_decision want_http;    /* what the chosen policy says about http */
} select_case;

TEST(policy_select_follows_the_seed_order)
{
    CHECK(make_files() != NULL);
    const char *U = "untrusted", *P = "permissive";
    const char *serve_default = "untrusted (default for serve; --trusted to allow all)";
    const char *run_default = "permissive (default for run)";
    select_case cases[] = {
        /* surface defaults */
        {RUN, 0, 0, NULL, NULL, NULL, 0, P, run_default, NULL, NULL, POLICY_ALLOW},
        {RUN, 0, 1, NULL, NULL, NULL, 0, P, run_default, NULL, NULL, POLICY_ALLOW},
        {SERVE, 0, 0, NULL, NULL, NULL, 0, U, serve_default, NULL, NULL, POLICY_DENY},
        {SERVE, 0, 1, NULL, NULL, NULL, 0, P, "permissive (serve --trusted)", NULL, NULL, POLICY_ALLOW},
        /* --untrusted is the last word, over every env source (even broken ones, which are not read) */
        {RUN, 1, 0, NULL, NULL, NULL, 0, U, "untrusted (--untrusted)", NULL, NULL, POLICY_DENY},
        {SERVE, 1, 0, NULL, NULL, NULL, 0, U, "untrusted (--untrusted)", NULL, NULL, POLICY_DENY},
        {SERVE, 1, 1, NULL, NULL, NULL, 0, U, "untrusted (--untrusted)", NULL, NULL, POLICY_DENY},
        {RUN, 1, 0, "@allow.json", NULL, NULL, 0, U, "untrusted (--untrusted)", NULL, NULL, POLICY_DENY},
        {RUN, 1, 0, NULL, "{}", NULL, 0, U, "untrusted (--untrusted)", NULL, NULL, POLICY_DENY},
        {RUN, 1, 0, NULL, NULL, "permissive", 0, U, "untrusted (--untrusted)", NULL, NULL, POLICY_DENY},
        {SERVE, 1, 1, "@allow.json", "{}", "permissive", 0, U, "untrusted (--untrusted)", NULL, NULL, POLICY_DENY},
        {RUN, 1, 0, "@missing.json", "{bad", "bogus", 0, U, "untrusted (--untrusted)", NULL, NULL, POLICY_DENY},
        /* CHIDORI_POLICY_FILE → CHIDORI_POLICY → CHIDORI_POLICY_PROFILE */
        {RUN, 0, 0, "@allow.json", NULL, NULL, 0, "@file", "custom (CHIDORI_POLICY_FILE=%s)", NULL, NULL, POLICY_ALLOW},
        {SERVE, 0, 0, "@allow.json", NULL, NULL, 0, "@file", "custom (CHIDORI_POLICY_FILE=%s)", NULL, NULL, POLICY_ALLOW},
        {RUN, 0, 0, "@deny.json", "{}", "permissive", 0, "@file", "custom (CHIDORI_POLICY_FILE=%s)", NULL, NULL, POLICY_DENY},
        {RUN, 0, 0, NULL,
         "{\"rules\": [{\"target\": \"workspace:read\", \"decision\": \"always_allow\"}], \"default\": \"never_allow\"}",
         "permissive", 0, "CHIDORI_POLICY", "custom (CHIDORI_POLICY)",
         NULL, NULL, POLICY_DENY},
        {SERVE, 0, 0, NULL, "{}", NULL, 0, "CHIDORI_POLICY", "custom (CHIDORI_POLICY)", NULL, NULL, POLICY_ALLOW},
        {RUN, 0, 0, NULL, NULL, "supervised", 0, "supervised", "supervised (CHIDORI_POLICY_PROFILE=supervised)", NULL,
         NULL, POLICY_ASK},
        {RUN, 0, 0, NULL, NULL, "untrusted", 0, U, "untrusted (CHIDORI_POLICY_PROFILE=untrusted)", NULL, NULL, POLICY_DENY},
        {SERVE, 0, 0, NULL, NULL, "permissive", 0, P, "permissive (CHIDORI_POLICY_PROFILE=permissive)", NULL, NULL,
         POLICY_ALLOW},
        /* serve: a source that cannot be used fails closed to untrusted, with a warning */
        {SERVE, 0, 0, "@empty.json", NULL, NULL, 0, U, "untrusted (fail-closed: CHIDORI_POLICY_FILE could not be used)",
         "empty policy document", NULL, POLICY_DENY},
        {SERVE, 0, 0, "@blank.json", NULL, NULL, 0, U, "untrusted (fail-closed: CHIDORI_POLICY_FILE could not be used)",
         "blank.json:1:1: empty policy document", NULL, POLICY_DENY},
        {SERVE, 0, 0, "@truncated.json", NULL, NULL, 0, U,
         "untrusted (fail-closed: CHIDORI_POLICY_FILE could not be used)", "truncated.json:1:", NULL, POLICY_DENY},
        {SERVE, 0, 0, "@badkey.json", NULL, NULL, 0, U, "untrusted (fail-closed: CHIDORI_POLICY_FILE could not be used)",
         "badkey.json:2:3: unknown key \"rulez\"", NULL, POLICY_DENY},
        {SERVE, 0, 0, "@missing.json", NULL, NULL, 0, U,
         "untrusted (fail-closed: CHIDORI_POLICY_FILE could not be used)", "No such file", NULL, POLICY_DENY},
        {SERVE, 0, 0, "@adir", NULL, NULL, 0, U, "untrusted (fail-closed: CHIDORI_POLICY_FILE could not be used)",
         "directory", NULL, POLICY_DENY},
        {SERVE, 0, 0, "@huge.json", NULL, NULL, 0, U, "untrusted (fail-closed: CHIDORI_POLICY_FILE could not be used)",
         "limit", NULL, POLICY_DENY},
        {SERVE, 0, 0, "", NULL, NULL, 0, U, "untrusted (fail-closed: CHIDORI_POLICY_FILE could not be used)",
         "CHIDORI_POLICY_FILE", NULL, POLICY_DENY},
        {SERVE, 0, 0, NULL, "{\"rules\": [", NULL, 0, U, "untrusted (fail-closed: CHIDORI_POLICY could not be used)",
         "CHIDORI_POLICY:1:12: ", NULL, POLICY_DENY},
        {SERVE, 0, 0, NULL, "", NULL, 0, U, "untrusted (fail-closed: CHIDORI_POLICY could not be used)",
         "CHIDORI_POLICY:1:1: empty policy document", NULL, POLICY_DENY},
        {SERVE, 0, 0, NULL, "{\"default\": \"allow_all\"}", NULL, 0, U,
         "untrusted (fail-closed: CHIDORI_POLICY could not be used)", "CHIDORI_POLICY:1:13: unknown decision", NULL,
         POLICY_DENY},
        {SERVE, 0, 0, NULL, NULL, "bogus", 0, U, "untrusted (fail-closed: CHIDORI_POLICY_PROFILE could not be used)",
         "unknown profile \"bogus\"", NULL, POLICY_DENY},
        {SERVE, 0, 0, NULL, NULL, "", 0, U, "untrusted (fail-closed: CHIDORI_POLICY_PROFILE could not be used)",
         "unknown profile \"\"", NULL, POLICY_DENY},
        /* ... also with --trusted, and a broken source does not fall through to the next one */
        {SERVE, 0, 1, "@truncated.json", NULL, NULL, 0, U,
         "untrusted (fail-closed: CHIDORI_POLICY_FILE could not be used)", "truncated.json", NULL, POLICY_DENY},
        {SERVE, 0, 1, NULL, "nope", NULL, 0, U, "untrusted (fail-closed: CHIDORI_POLICY could not be used)",
         "CHIDORI_POLICY:1:1: ", NULL, POLICY_DENY},
        {SERVE, 0, 0, "@missing.json", "{}", "permissive", 0, U,
         "untrusted (fail-closed: CHIDORI_POLICY_FILE could not be used)", "missing.json", NULL, POLICY_DENY},
        {SERVE, 0, 1, NULL, "[]", "permissive", 0, U, "untrusted (fail-closed: CHIDORI_POLICY could not be used)",
         "CHIDORI_POLICY:1:1: a policy must be a JSON object", NULL, POLICY_DENY},
        /* run: the same sources are errors */
        {RUN, 0, 0, "@empty.json", NULL, NULL, -1, NULL, NULL, NULL, "empty.json:1:1: empty policy document", 0},
        {RUN, 0, 0, "@blank.json", NULL, NULL, -1, NULL, NULL, NULL, "empty policy document", 0},
        {RUN, 0, 0, "@truncated.json", NULL, NULL, -1, NULL, NULL, NULL, "truncated.json:1:", 0},
        {RUN, 0, 0, "@badkey.json", NULL, NULL, -1, NULL, NULL, NULL, "badkey.json:2:3: unknown key \"rulez\"", 0},
        {RUN, 0, 0, "@missing.json", NULL, NULL, -1, NULL, NULL, NULL, "CHIDORI_POLICY_FILE: ", 0},
        {RUN, 0, 0, "@adir", NULL, NULL, -1, NULL, NULL, NULL, "directory", 0},
        {RUN, 0, 0, "@huge.json", NULL, NULL, -1, NULL, NULL, NULL, "limit", 0},
        {RUN, 0, 0, NULL, "{\"rules\": [", NULL, -1, NULL, NULL, NULL, "CHIDORI_POLICY:1:12: ", 0},
        {RUN, 0, 0, NULL, "", NULL, -1, NULL, NULL, NULL, "CHIDORI_POLICY:1:1: empty policy document", 0},
        {RUN, 0, 0, NULL, NULL, "bogus", -1, NULL, NULL, NULL,
         "CHIDORI_POLICY_PROFILE: unknown profile \"bogus\" (expected permissive, untrusted or supervised)", 0},
        {RUN, 0, 0, "@missing.json", "{}", "permissive", -1, NULL, NULL, NULL, "missing.json", 0},
    };
    for (size_t i = 0; i < N(cases); i++) {
        const select_case *c = &cases[i];
        char file[160] = "";
        if (c->file && c->file[0] == '@') snprintf(file, sizeof file, "%s/%s", test_dir, c->file + 1);
        else if (c->file) snprintf(file, sizeof file, "%s", c->file);
        fake_env[0] = c->file ? file : NULL;
        fake_env[1] = c->inline_json;
        fake_env[2] = c->profile;
        policy_selection sel;
        memset(&sel, 0xAB, sizeof sel); /* policy_select must initialise it */
        char *err = (char *)1;
        settings *set = fake_settings();
        int rc = policy_select((policy_surface)c->surface, c->untrusted, c->trusted, set, &sel, &err);
        settings_free(set);
        CHECK_ROW(rc == c->want_rc, i);
        if (rc != 0) {
            CHECK_ROW(sel.policy == NULL && sel.description == NULL && sel.warning == NULL, i);
            CHECK_ROW(err != NULL && err != (char *)1, i);
            if (!strstr(err, c->want_error)) CHECK_ROW_STR(err, c->want_error, i);
            free(err);
            continue;
        }
        CHECK_ROW(err == NULL, i);
        CHECK_ROW(sel.policy != NULL, i);
        char want_desc[256];
        snprintf(want_desc, sizeof want_desc, c->want_description, file);
        const char *want_name = strcmp(c->want_name, "@file") == 0 ? file : c->want_name;
        const char *desc = sel.description, *name = policy_name(sel.policy);
        char *warning = sel.warning ? xstrdup(sel.warning) : NULL;
        policy_decision http = policy_evaluate(sel.policy, "http", NULL, NULL);
        policy_decision read = policy_evaluate(sel.policy, "workspace:read", NULL, NULL);
        char desc_copy[256], name_copy[256];
        snprintf(desc_copy, sizeof desc_copy, "%s", desc ? desc : "(null)");
        snprintf(name_copy, sizeof name_copy, "%s", name ? name : "(null)");
        policy_selection_clear(&sel);
        CHECK_ROW(sel.policy == NULL && sel.description == NULL && sel.warning == NULL, i);
        CHECK_ROW_STR(desc_copy, want_desc, i);
        CHECK_ROW_STR(name_copy, want_name, i);
        CHECK_ROW(http == c->want_http, i);
        CHECK_ROW(read == POLICY_ALLOW, i); /* every posture here allows workspace:read */
        if (c->want_warning) {
            bool ok = warning && strstr(warning, c->want_warning) && strstr(warning, "untrusted");
            if (!ok) CHECK_ROW_STR(warning, c->want_warning, i);
        } else {
            CHECK_ROW_STR(warning ? warning : "(none)", "(none)", i);
        }
        free(warning);
    }
    remove_files();
    policy_selection_clear(NULL);
}

TEST(policy_select_reads_the_settings_the_edge_built)
{
    char *error = NULL;
    settings *set = settings_from_environ((char *[]){"CHIDORI_POLICY={\"default\": \"ask_before\"}", NULL}, &error);
    policy_selection sel;
    CHECK(set && policy_select(POLICY_SURFACE_RUN, 0, 0, set, &sel, NULL) == 0);
    settings_free(set);
    CHECK(sel.policy && policy_evaluate(sel.policy, "http", NULL, NULL) == POLICY_ASK);
    policy_selection_clear(&sel);
    /* no settings at all: nothing is set, the surface's default */
    CHECK(policy_select(POLICY_SURFACE_RUN, 0, 0, NULL, &sel, NULL) == 0);
    CHECK(sel.policy && policy_evaluate(sel.policy, "http", NULL, NULL) == POLICY_ALLOW);
    policy_selection_clear(&sel);
}
