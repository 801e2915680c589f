/* test_settings.c — the settings table's one parser and its accessors (src/settings/). */
#include "unit.h"
#include "settings/settings.h"
#include "util/buf.h"

#include <stdint.h>
#include <stdlib.h>

/* settings of one NAME=value, or NULL with *error */
static settings *one(const char *kv, char **error)
{
    *error = NULL;
    return settings_from_environ((char *[]){(char *)kv, NULL}, error);
}

TEST(settings_numbers_are_digits_in_range)
{
    static const struct { const char *kv; uint64_t want; } good[] = {
        {"CHIDORI_JS_OP_BUDGET=0", 0},
        {"CHIDORI_JS_OP_BUDGET=18446744073709551615", UINT64_MAX},
        {"CHIDORI_JS_OP_BUDGET=007", 7},
        {"CHIDORI_HTTP_MAX_REDIRECTS=100", 100},
        {"CHIDORI_JS_OP_BUDGET=", 5000000000ull}, /* empty: the default */
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        char *error;
        settings *s = one(good[i].kv, &error);
        CHECK(s != NULL && error == NULL);
        const char *name = strstr(good[i].kv, "MAX_REDIRECTS") ? "CHIDORI_HTTP_MAX_REDIRECTS" : "CHIDORI_JS_OP_BUDGET";
        CHECK(settings_u64(s, name) == good[i].want);
        settings_free(s);
    }
    static const char *const bad[] = {
        "CHIDORI_JS_OP_BUDGET=18446744073709551616", "CHIDORI_JS_OP_BUDGET=99999999999999999999999",
        "CHIDORI_JS_OP_BUDGET=-1", "CHIDORI_JS_OP_BUDGET=+1", "CHIDORI_JS_OP_BUDGET= 1", "CHIDORI_JS_OP_BUDGET=1 ",
        "CHIDORI_JS_OP_BUDGET=1e3", "CHIDORI_JS_OP_BUDGET=0x10", "CHIDORI_JS_OP_BUDGET=1k",
        "CHIDORI_HTTP_MAX_REDIRECTS=101", "CHIDORI_HTTP_MAX_BYTES=0", "CHIDORI_LOG_MAX_BYTES=1023",
        "CHIDORI_JS_MEM_CAP_MB=1099511627777",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *error;
        settings *s = one(bad[i], &error);
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)(strchr(bad[i], '=') - bad[i]), bad[i]);
        if (s || !error || strncmp(error, name, strlen(name)) != 0 || !strstr(error, "must be") ||
            !strstr(error, strchr(bad[i], '=') + 1)) {
            char m[300];
            snprintf(m, sizeof m, "%s: %s", bad[i], error ? error : "(accepted)");
            settings_free(s);
            free(error);
            unit_fail(__FILE__, __LINE__, m);
            return;
        }
        free(error);
    }
}

TEST(settings_words_flags_and_texts)
{
    char *error;
    settings *s = settings_from_environ((char *[]){"CHIDORI_TS_FS=none", "CHIDORI_ISOLATE_REQUIRE_SANDBOX=1",
                                                   "CHIDORI_SERVE_FORKSERVER=0", "CHIDORI_TEST_LLM_RESPONSE=",
                                                   "CHIDORI_TS_FS=vfs" /* the first counts */,
                                                   "CHIDORI_ISOLATE_DEADLINE_MS=0", "PATH=/bin", "UNRELATED=1", NULL},
                                        &error);
    CHECK(s != NULL);
    CHECK_STR(settings_word(s, "CHIDORI_TS_FS"), "none");
    CHECK_STR(settings_word(s, "CHIDORI_TS_DATE"), "virtual");
    CHECK(settings_flag(s, "CHIDORI_ISOLATE_REQUIRE_SANDBOX") && !settings_flag(s, "CHIDORI_SERVE_FORKSERVER"));
    CHECK(settings_flag(NULL, "CHIDORI_SERVE_FORKSERVER")); /* default 1 */
    CHECK_STR(settings_text(s, "CHIDORI_TEST_LLM_RESPONSE"), ""); /* a text keeps an empty value */
    CHECK(settings_nonempty(s, "CHIDORI_TEST_LLM_RESPONSE") == NULL && !settings_given(s, "CHIDORI_TEST_LLM_RESPONSE"));
    CHECK(settings_text(s, "CHIDORI_MODEL") == NULL);
    CHECK(settings_given(s, "CHIDORI_ISOLATE_DEADLINE_MS") && settings_u64(s, "CHIDORI_ISOLATE_DEADLINE_MS") == 0);
    CHECK(!settings_given(s, "CHIDORI_ISOLATE_CPU_SECS"));
    CHECK_STR(settings_env(s, "PATH"), "/bin");
    CHECK(settings_env(s, "HOME") == NULL && settings_env(NULL, "PATH") == NULL);
    settings_free(s);

    s = one("CHIDORI_TS_RANDOM=host", &error);
    CHECK(!s && error && strstr(error, "CHIDORI_TS_RANDOM=host: host randomness for Math.random does not exist"));
    free(error);
    s = one("CHIDORI_ISOLATE=host", &error); /* not a captured source: no host note */
    CHECK(!s && error && strstr(error, "CHIDORI_ISOLATE must be one of `process`, `off`, got `host`"));
    free(error);
    s = one("CHIDORI_POLICY_AUTO_APPROVE=true", &error);
    CHECK(!s && error && strstr(error, "CHIDORI_POLICY_AUTO_APPROVE must be `0` or `1`, got `true`"));
    free(error);
    s = one("CHIDORI_HTTP_ALLOW_HOSTS=10.1.0.0/8", &error);
    CHECK(!s && error && strstr(error, "CHIDORI_HTTP_ALLOW_HOSTS: ") && strstr(error, "10.0.0.0/8"));
    free(error);
    /* a long value is quoted only in part */
    buf b = {0};
    buf_puts(&b, "CHIDORI_SERVE_WARM_WORKERS=");
    for (int i = 0; i < 5000; i++) buf_putc(&b, '9');
    s = one(b.data, &error);
    CHECK(!s && error && strlen(error) < 400);
    free(error);
    buf_free(&b);
}

TEST(settings_table_rows_are_well_formed)
{
    size_t n;
    const setting_def *t = settings_table(&n);
    CHECK(n >= 50);
    for (size_t i = 0; i < n; i++) {
        CHECK(!strncmp(t[i].name, "CHIDORI_", 8) && t[i].commands && t[i].meaning && *t[i].meaning);
        CHECK(settings_find(t[i].name) == &t[i]); /* no name twice */
        if (t[i].kind == SETTING_NUMBER) CHECK(t[i].min <= t[i].def && t[i].def <= t[i].max);
        if (t[i].kind == SETTING_WORD) CHECK(t[i].words && t[i].words[0]);
        if (t[i].kind == SETTING_FLAG) CHECK(t[i].def <= 1);
        if (t[i].kind != SETTING_WORD) CHECK(t[i].default_text != NULL);
        char *acc = settings_describe_accepted(&t[i]);
        CHECK(acc && *acc && !strchr(acc, '\t') && !strchr(acc, '|'));
        free(acc);
    }
    CHECK(settings_find("CHIDORI_NOT_A_SETTING") == NULL);
}

/* Every row is found by its name, and a reader gets that row's value (the accessors look names up
 * in a hash of the table): each text row is given its own name as its value. */
TEST(settings_every_row_is_read_by_its_name)
{
    size_t n;
    const setting_def *t = settings_table(&n);
    char **env = calloc(n + 1, sizeof *env);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (t[i].kind == SETTING_TEXT && !t[i].check) env[k++] = xasprintf("%s=%s", t[i].name, t[i].name);
    CHECK(k >= 10);
    char *error = NULL;
    settings *s = settings_from_environ(env, &error);
    CHECK(s != NULL);
    for (size_t i = 0; s && i < n; i++) {
        bool mine = t[i].kind == SETTING_TEXT && !t[i].check;
        CHECK(settings_given(s, t[i].name) == mine);
        if (mine) CHECK_STR(settings_text(s, t[i].name), t[i].name);
        if (t[i].kind == SETTING_NUMBER) CHECK(settings_u64(s, t[i].name) == t[i].def);
        if (t[i].kind == SETTING_WORD) CHECK_STR(settings_word(s, t[i].name), t[i].words[0]);
    }
    settings_free(s);
    free(error);
    for (size_t i = 0; i < k; i++) free(env[i]);
    free(env);
}

/* A bad value is echoed in the error, which is printed on the operator's terminal: an escape
 * sequence in it (a window title, a clipboard write, a screen clear) is shown escaped, not sent. */
TEST(settings_bad_value_echo_is_sanitized)
{
    static const char *const bad[] = {
        "CHIDORI_JS_OP_BUDGET=\x1b]0;PWNED\x07" "12", "CHIDORI_TS_DATE=\x1b[2J", "CHIDORI_ISOLATE=\xc2\x9b" "31m",
        "CHIDORI_SERVE_FORKSERVER=\x1b]52;c;eA==\x07",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *error;
        settings *s = one(bad[i], &error);
        CHECK(s == NULL && error != NULL);
        if (!error) return;
        CHECK(strchr(error, '\x1b') == NULL && strchr(error, '\x07') == NULL && strstr(error, "\xc2\x9b") == NULL);
        CHECK(strstr(error, "got `") != NULL);
        free(error);
    }
}
