/* ops.c — the op table: the list of effect modules (ops.h), and what is derived from it: finding
 * an op by name, and the policy targets a policy file may name.
 *
 * The order of the list is the order modules are initialized in (their settings checked) and the
 * order the policy's error message names the targets in; nothing else depends on it. Trusts nothing in the names it is asked about (op names and targets come
 * from guest code and policy files): they are only compared.
 */
#include "host/ops.h"
#include "util/buf.h"

#include <string.h>

/* One line per module here and in the list: the modules are defined in their own files. */
extern const effect_module log_module, step_module, input_module, memory_module, agent_module, exec_module,
    prompt_module, http_module, workspace_module, tools_module, template_module, fs_module, crypto_module,
    module_loader_module;
extern const effect_module context_module; /* effects/context.c: chidori.context's digest */
extern const effect_module branch_module;  /* effects/branch.c: sub-runs (issue 19) */
extern const effect_module signal_module;  /* effects/signal.c: signals (issue 18) */
extern const effect_module actors_module;  /* effects/actors.c: actors and receive (issue 19) */

const effect_module *const effect_modules[] = {
    &log_module,  &step_module,   &input_module, &memory_module,    &agent_module,
    &exec_module, &prompt_module, &http_module,  &workspace_module, &tools_module,
    &template_module, &fs_module, &crypto_module, &module_loader_module,
    &context_module, &branch_module, &signal_module, &actors_module, NULL,
};

size_t effect_module_count(void) { return sizeof effect_modules / sizeof effect_modules[0] - 1; }

const op_def *host_op_find(const char *name, const effect_module **module)
{
    for (const effect_module *const *m = effect_modules; *m; m++)
        for (const op_def *op = (*m)->ops; op->name; op++)
            if (strcmp(op->name, name) == 0) {
                if (module) *module = *m;
                return op;
            }
    return NULL;
}

static bool is_trace(const op_def *d)
{
    return d && (d->flags & (OP_TRACE | OP_RECORDED | OP_INTERNAL)) == (OP_TRACE | OP_RECORDED);
}

bool host_op_is_trace(const char *op) { return is_trace(host_op_find(op, NULL)); }

json_t *host_trace_ops(void) /* at each isolated run's start: one pass over the ops */
{
    json_t *names = json_array();
    for (const effect_module *const *m = effect_modules; *m; m++)
        for (const op_def *op = (*m)->ops; op->name; op++)
            if (is_trace(op)) json_array_push(names, json_string(op->name));
    return names;
}

/* "tool:<name>": the family's prefix length ("tool:"), or 0 for an exact target. */
static size_t family_prefix(const char *pattern)
{
    size_t n = strlen(pattern);
    const char *lt = strchr(pattern, '<');
    return n && pattern[n - 1] == '>' && lt && lt > pattern ? (size_t)(lt - pattern) : 0;
}

bool effect_target_known(const char *t)
{
    if (!strcmp(t, "*")) return true;
    for (const effect_module *const *m = effect_modules; *m; m++)
        for (const char *const *p = (*m)->targets; p && *p; p++) {
            size_t k = family_prefix(*p);
            if (k ? !strncmp(t, *p, k) && t[k] != '\0' : !strcmp(t, *p)) return true;
        }
    return false;
}

/* A module's exact targets that share a "family:" prefix read as one: "workspace:list|read". */
char *effect_targets_describe(void)
{
    buf b = {0};
    for (const effect_module *const *m = effect_modules; *m; m++) {
        const char *shared = NULL;
        size_t shared_len = 0;
        for (const char *const *p = (*m)->targets; p && *p; p++) {
            const char *colon = strchr(*p, ':');
            size_t k = colon && !family_prefix(*p) ? (size_t)(colon - *p) + 1 : 0;
            if (shared && k && k == shared_len && !strncmp(*p, shared, k)) {
                buf_printf(&b, "|%s", *p + k);
                continue;
            }
            if (b.len) buf_puts(&b, ", ");
            buf_puts(&b, *p);
            shared = k ? *p : NULL;
            shared_len = k;
        }
    }
    buf_puts(&b, b.len ? " or *" : "*");
    return buf_steal(&b);
}
