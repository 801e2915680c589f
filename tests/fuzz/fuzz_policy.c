/* fuzz_policy.c — the policy parser and matcher. The input is a policy document, optionally
 * followed by a NUL byte and the JSON args of a call. Properties: no crash or leak; a rejected
 * document always has an error of the form "<source>:line:col: what" with a position inside the
 * text; an accepted one evaluates every gated target deterministically, giving a decision in
 * range; and policy_select with the document as CHIDORI_POLICY never fails on `serve` (it fails
 * closed to untrusted, which denies http) and fails on `run` exactly when the parser refuses. */
#include "host/policy.h"
#include "settings/settings.h"
#include "util/buf.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static void check_error(const char *err, const char *text, size_t len)
{
    int line = 0, col = 0, n = 0;
    if (!err || sscanf(err, "fuzz:%d:%d: %n", &line, &col, &n) != 2 || n == 0 || !err[n]) abort();
    int lines = 1;
    for (size_t i = 0; i < len; i++)
        if (text[i] == '\n') lines++;
    if (line < 1 || col < 1 || line > lines) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    const char *nul = memchr(text, 0, size);
    size_t plen = nul ? (size_t)(nul - text) : size;

    /* The whole input, NULs included, as a document. */
    char *err = NULL;
    policy *whole = policy_parse(text, size, "fuzz", &err);
    if (whole) {
        if (err) abort();
        policy_free(whole);
    } else {
        check_error(err, text, size);
        free(err);
    }

    /* The part before the first NUL as the document, the rest as the call's args. */
    err = NULL;
    policy *p = policy_parse(text, plen, "fuzz", &err);
    if (!p) {
        check_error(err, text, plen);
        free(err);
    } else if (err) {
        abort();
    }

    if (p) {
        json_t *args = NULL;
        if (nul) {
            json_error jerr;
            args = json_parse(nul + 1, size - plen - 1, NULL, &jerr);
        }
        static const char *targets[] = {"http", "workspace:list", "workspace:read", "workspace:write",
                                        "workspace:delete", "workspace:manifest", "tool:x", "app_data:get", "*", ""};
        for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
            const char *r1 = NULL, *r2 = NULL;
            policy_decision a = policy_evaluate(p, targets[i], args, &r1);
            policy_decision b = policy_evaluate(p, targets[i], args, &r2);
            if (a != b || r1 != r2 || (unsigned)a > POLICY_DENY) abort();
            if (r1) (void)strlen(r1);
            if (policy_stricter(a, POLICY_DENY) != POLICY_DENY || policy_stricter(a, POLICY_ALLOW) != a) abort();
        }
        json_free(args);
    }

    /* Selection with the document as CHIDORI_POLICY. */
    char *doc = xasprintf("CHIDORI_POLICY=%.*s", (int)plen, text);
    settings *set = settings_from_environ((char *[]){doc, NULL}, &err);
    if (!set) abort();
    policy_selection sel;
    err = NULL;
    if (policy_select(POLICY_SURFACE_SERVE, 0, 0, set, &sel, &err) != 0 || err || !sel.policy) abort();
    if (!p && (policy_evaluate(sel.policy, "http", NULL, NULL) != POLICY_DENY || !sel.warning)) abort();
    if (p && sel.warning) abort();
    policy_selection_clear(&sel);
    int rc = policy_select(POLICY_SURFACE_RUN, 0, 0, set, &sel, &err);
    if ((rc != 0) != (p == NULL)) abort();
    if (rc != 0 && (!err || sel.policy)) abort();
    free(err);
    policy_selection_clear(&sel);
    settings_free(set);
    free(doc);
    policy_free(p);
    return 0;
}
