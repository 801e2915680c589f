/* test_effect_modules.c — the op table is the list of effect modules (host/ops.h): every op is
 * declared once, gated ops name their targets, the policy validator accepts exactly the modules'
 * targets and lists them in its error, and internal ops are refused through host_call. */
#include "unit.h"
#include "host/host.h"
#include "host/ops.h"
#include "host/policy.h"
#include "settings/settings.h"
#include "util/buf.h"

#include <stdlib.h>

TEST(effect_modules_declare_each_op_once_and_gated_ops_name_targets)
{
    CHECK(effect_module_count() > 0);
    for (size_t i = 0; effect_modules[i]; i++) {
        const effect_module *m = effect_modules[i];
        CHECK(m->name && m->ops);
        bool gated = false;
        for (const op_def *op = m->ops; op->name; op++) {
            const effect_module *owner = NULL;
            CHECK(host_op_find(op->name, &owner) == op && owner == m); /* the name is nowhere else */
            CHECK(op->perform);
            if (op->flags & OP_GATED) {
                CHECK(op->target);
                gated = true;
            }
            /* the engine refuses "__" ops from JavaScript; the host refuses internal ops from
             * host_call: both must mean the same ops */
            CHECK(((op->flags & OP_INTERNAL) != 0) == (strncmp(op->name, "__", 2) == 0));
            /* a resume appends the answer as the call's record */
            CHECK(!(op->flags & OP_ANSWERABLE) || (op->flags & OP_RECORDED));
        }
        CHECK(gated == (m->targets != NULL));
        CHECK(!m->free || m->init); /* only what init made is freed */
    }
    CHECK(host_op_find("no_such_op", NULL) == NULL);
}

/* A module's settings list names what the edge reads: a row of the settings table, or a variable
 * the settings pass through from the environment (a provider's key, what MCP servers inherit). */
static bool known_setting(const char *name)
{
    if (settings_find(name)) return true;
    size_t n;
    const setting_passthrough *p = settings_passthrough(&n);
    for (size_t i = 0; i < n; i++)
        if (!strcmp(p[i].name, name)) return true;
    return false;
}

TEST(effect_modules_list_only_settings_the_edge_reads)
{
    for (size_t i = 0; effect_modules[i]; i++) {
        const effect_module *m = effect_modules[i];
        for (const char *const *name = m->settings; name && *name; name++) {
            if (!known_setting(*name)) fprintf(stderr, "module %s lists unknown setting %s\n", m->name, *name);
            CHECK(known_setting(*name));
        }
    }
}

/* A policy naming target parses (a family's "<...>" written as a name). */
static bool policy_accepts(const char *target)
{
    char doc[256], *err = NULL;
    snprintf(doc, sizeof doc, "{\"rules\": [{\"target\": \"%s\", \"decision\": \"never_allow\"}]}", target);
    policy *p = policy_parse(doc, strlen(doc), "t", &err);
    free(err);
    policy_free(p);
    return p != NULL;
}

TEST(policy_targets_are_the_modules_targets)
{
    size_t n = 0;
    for (size_t i = 0; effect_modules[i]; i++) {
        for (const char *const *t = effect_modules[i]->targets; t && *t; t++, n++) {
            const char *lt = strchr(*t, '<');
            char *as_written = lt ? xasprintf("%.*ssome.name", (int)(lt - *t), *t) : xstrdup(*t);
            if (!policy_accepts(as_written)) {
                char m[200];
                snprintf(m, sizeof m, "a policy naming %s (module %s) does not parse", as_written, effect_modules[i]->name);
                free(as_written);
                unit_fail(__FILE__, __LINE__, m);
                return;
            }
            free(as_written);
        }
    }
    CHECK(n >= 3);
    CHECK(policy_accepts("*"));
    CHECK(!policy_accepts("app_data:get")); /* no op ever used it (docs/policy.md) */
    CHECK(!policy_accepts("tool:"));
    CHECK(!policy_accepts("prompt"));
    /* the error lists what the modules declare, in the list's order */
    char *expected = effect_targets_describe();
    CHECK_STR(expected, "http, workspace:list|read|write|delete|manifest, tool:<name> or *");
    const char *doc = "{\"rules\": [{\"target\": \"network\", \"decision\": \"never_allow\"}]}";
    char *err = NULL;
    CHECK(policy_parse(doc, strlen(doc), "p", &err) == NULL);
    char *want = xasprintf("p:1:23: unknown target \"network\" (expected %s)", expected);
    CHECK_STR(err, want);
    free(want);
    free(err);
    /* and every target of every module is named in it */
    for (size_t i = 0; effect_modules[i]; i++)
        for (const char *const *t = effect_modules[i]->targets; t && *t; t++) {
            const char *colon = strchr(*t, ':');
            const char *shown = colon && !strchr(*t, '<') ? colon + 1 : *t;
            CHECK(strstr(expected, shown));
        }
    free(expected);
}

static host *plain_host(void)
{
    char *error = NULL;
    host_config cfg = {.project_root = "/tmp", .log_out = stderr, .console_out = stderr};
    host *h = host_new(&cfg, &error);
    free(error);
    return h;
}

TEST(host_call_refuses_internal_ops_and_the_internal_entry_refuses_the_rest)
{
    host *h = plain_host();
    CHECK(h);
    json_t *args = json_object(), *res = NULL;
    json_object_set(args, "specifier", json_string("./x.js"));
    char *err = NULL;
    CHECK(host_call(h, "__module_load", args, &res, &err) == HOST_ERROR && !res);
    CHECK_STR(err, "host operation `__module_load` is chidori's own and cannot be called by an agent");
    free(err);
    err = NULL;
    /* the same op through chidori's own entry is performed (the file is missing: its own error) */
    CHECK(host_internal_call(h, "__module_load", args, &res, &err) == HOST_ERROR && err &&
          strstr(err, "cannot find module `./x.js`"));
    free(err);
    err = NULL;
    json_free(args);
    args = json_object();
    json_object_set(args, "label", json_string("m"));
    CHECK(host_internal_call(h, "mark", args, &res, &err) == HOST_ERROR && !res);
    CHECK_STR(err, "host operation `mark` is not one of chidori's own");
    free(err);
    CHECK(host_record_count(h) == 0); /* nothing refused was performed or recorded */
    json_free(args);
    host_free(h);
}
