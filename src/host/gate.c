/* gate.c — the policy gate of host_call: which target a gated op is, and what the policy says.
 *
 * Only the powerful ops reach it (OP_GATED in their module, ops.h), and each names its own target
 * through its op's `target` function: `workspace` → workspace:<action>, `tool` → tool:<name>,
 * `http` → http. Pure effects never do. The arguments matched against a rule's match_args are
 * the ones the target function gives: the tool's arguments for tool:<name>, the call's {action,
 * path, content} for the workspace, {url, method, …} for http.
 *
 * Decisions: allow → perform. never_allow → the call fails with ``policy: `<target>` denied``
 * (and the reason), reported on stderr, and recorded like any failed call (so a replay re-throws
 * it without asking the policy again). ask_before → allowed when this (target, args) was approved
 * earlier in the session or CHIDORI_POLICY_AUTO_APPROVE=1; under `serve` the run suspends for an
 * approval; on the CLI, where nothing can answer, it is an error. A session profile is layered on
 * the server policy and the stricter decision wins.
 *
 * `tool_schemas` (the tools a prompt offers the model) is not one call but a list: each named tool
 * is offered only when some call of tool:<name> could pass (host_gate_may_offer, from
 * policy_best_case), so a server whose every tool is denied is never started (effects/tools.c).
 */
#include "host/host_internal.h"
#include "host/ops.h"
#include "host/policy.h"
#include "util/buf.h"

#include <stdlib.h>
#include <string.h>

/* The target and the arguments the policy sees, from the op's module. */
static char *gate_target(const char *op, const json_t *args, const json_t **match)
{
    *match = args;
    const op_def *def = host_op_find(op, NULL);
    if (def && def->target) return def->target(args, match);
    return xstrdup(op); /* a gated op always names its target; this is only a safe default */
}

static bool approved_before(host *h, const char *target, const json_t *args)
{
    for (size_t i = 0; h->approvals && i < h->approvals->u.array.len; i++) {
        const json_t *a = h->approvals->u.array.items[i];
        if (!strcmp(json_string_value(json_object_get(a, "target")) ?: "", target) &&
            json_equal(json_object_get(a, "args"), args))
            return true;
    }
    return false;
}

int host_gate(host *h, const char *op, const json_t *args, char **error)
{
    if (!h->policy) return HOST_OK;
    const json_t *match;
    char *target = gate_target(op, args, &match);
    json_t *none = NULL;
    if (!match) match = none = json_object();
    const char *reason = NULL;
    policy_decision d = host_gate_decide(h, target, match, &reason);
    int rc = HOST_OK;
    if (d == POLICY_ASK && !(approved_before(h, target, args) || h->auto_approve)) {
        if (h->approvals_can_suspend) {
            json_free(h->pending_approval);
            h->pending_approval = json_object();
            json_object_set(h->pending_approval, "target", json_string(target));
            json_object_set(h->pending_approval, "args", json_copy(args));
            json_object_set(h->pending_approval, "reason", reason ? json_string(reason) : json_null());
            rc = HOST_SUSPEND;
        } else {
            *error = reason ? xasprintf("policy: `%s` needs approval (ask_before): %s", target, reason)
                            : xasprintf("policy: `%s` needs approval (ask_before), and nothing can approve it "
                                        "here; set CHIDORI_POLICY_AUTO_APPROVE=1 to approve such calls",
                                        target);
            rc = HOST_ERROR;
        }
    } else if (d == POLICY_DENY) {
        *error = xasprintf("policy: `%s` denied%s%s", target, reason ? ": " : "", reason ? reason : "");
        rc = HOST_ERROR;
    }
    if (rc == HOST_ERROR) {
        fputs("chidori: ", h->log_out);
        write_for_terminal(h->log_out, *error, strlen(*error)); /* a tool name is the agent's text */
        fputc('\n', h->log_out);
        fflush(h->log_out);
    }
    json_free(none);
    free(target);
    return rc;
}

bool host_gate_may_offer(host *h, const char *target, char **why)
{
    *why = NULL;
    if (!h->policy) return true;
    const char *reason = NULL, *session_reason = NULL;
    policy_decision d = policy_best_case(h->policy, target, &reason);
    if (h->session_policy) {
        policy_decision s = policy_best_case(h->session_policy, target, &session_reason);
        if (s > d) d = s, reason = session_reason;
    }
    if (d != POLICY_DENY) return true;
    *why = xasprintf("policy: `%s` denied%s%s", target, reason ? ": " : "", reason ? reason : "");
    return false;
}

int host_gate_decide(host *h, const char *target, const json_t *match, const char **reason)
{
    *reason = NULL;
    if (!h->policy) return POLICY_ALLOW;
    const char *session_reason = NULL;
    policy_decision d = policy_evaluate(h->policy, target, match, reason);
    if (h->session_policy) {
        policy_decision s = policy_evaluate(h->session_policy, target, match, &session_reason);
        if (s > d) d = s, *reason = session_reason;
    }
    return d;
}

bool host_gate_auto_approves(const host *h) { return h->auto_approve; }
