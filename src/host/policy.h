/* policy.h — the permission policy: which gated effects (the targets the effect modules name,
 * ops.h: http, workspace:*, tool:<name>) an agent may perform, may perform after asking, or may
 * not perform at all.
 *
 * A policy is an ordered list of rules plus a default. policy_parse turns a JSON document (a
 * CHIDORI_POLICY_FILE or inline CHIDORI_POLICY) into one, rejecting anything it does not fully
 * understand with "<source>:line:col: what"; policy_builtin returns the named profiles
 * (permissive, untrusted, supervised); policy_select applies the seed's selection order for the
 * `run` and `serve` surfaces, failing closed to `untrusted` on `serve`. See docs/policy.md.
 */
#ifndef CHIDORI_POLICY_H
#define CHIDORI_POLICY_H

#include <stddef.h>

#include "util/json.h"

typedef enum policy_decision { POLICY_ALLOW = 0, POLICY_ASK = 1, POLICY_DENY = 2 } policy_decision; /* ordered: stricter is larger */
typedef struct policy policy;

/* The largest policy document policy_parse (and policy_select, for files) accepts. */
#define POLICY_MAX_BYTES ((size_t)1 << 20)

/* Parse and validate a policy document (JSON). Unknown keys, unknown `target` forms, unknown `decision`
   values, wrong types, a `rules` that is not an array, an empty document, trailing garbage → NULL with
   *error naming "<source>:line:col: what" (source is e.g. the file path or "CHIDORI_POLICY"). Size-capped (1 MiB).
   *error is malloc'd; the caller frees it. */
policy *policy_parse(const char *text, size_t len, const char *source, char **error);
/* The built-in profiles: "permissive" (no rules, default always_allow), "untrusted" (allow workspace:list,
   workspace:read, workspace:manifest; default never_allow with a default_reason naming the opt-outs),
   "supervised" (same allowlist, default ask_before). NULL for an unknown name. */
policy *policy_builtin(const char *name);
const char *policy_name(const policy *p);   /* profile name, or the source for parsed files */
/* First match wins: a rule matches when its target matches (exact, or "*") and its match_args match the
   call's args (objects as recursive subsets; strings as substrings; the reserved key "url_prefix" matches
   when args.url is a string that STARTS WITH the value; other JSON values by equality; arrays by equality).
   No match → the default. *reason gets the rule's reason or default_reason (or NULL); owned by the policy. */
policy_decision policy_evaluate(const policy *p, const char *target, const json_t *args, const char **reason);
/* The least strict decision any call of target could get, whatever its args: what a rule with
   match_args decides counts (some args may match it), a rule without match_args decides for every
   args left. For offering tools before any call is made (`tool_schemas`). *reason as above: the
   reason of the rule or default that gives that decision. */
policy_decision policy_best_case(const policy *p, const char *target, const char **reason);
void policy_free(policy *p);

/* Selection order (seed): the --untrusted flag first; then CHIDORI_POLICY_FILE (a path), CHIDORI_POLICY (inline JSON),
   CHIDORI_POLICY_PROFILE (a built-in name); then the surface default: `run` → permissive, `serve` → untrusted unless
   --trusted (with --trusted, serve resolves like run). On `serve`, a malformed or unreadable source logs a warning
   (returned in *warning: one line, no newline, e.g. "policy: CHIDORI_POLICY: ...; failing closed to the untrusted
   profile") and fails closed to untrusted; on `run` it is an error (return -1, *error, malloc'd).
   An empty or truncated file is malformed. *description is the banner text, e.g.
   "untrusted (--untrusted)", "custom (CHIDORI_POLICY_FILE=/path/p.json)", "permissive (default for run)",
   "untrusted (default for serve; --trusted to allow all)". The three settings are read from s (settings.h;
   NULL: none set); a set but empty one counts as set. */
typedef enum policy_surface { POLICY_SURFACE_RUN, POLICY_SURFACE_SERVE } policy_surface;
typedef struct policy_selection { policy *policy; char *description; char *warning; } policy_selection;
struct settings;
int policy_select(policy_surface surface, int untrusted_flag, int trusted_flag, const struct settings *s,
                  policy_selection *out, char **error);
void policy_selection_clear(policy_selection *s);
/* The stricter of two decisions (never_allow > ask_before > always_allow), for per-session profiles. */
policy_decision policy_stricter(policy_decision a, policy_decision b);
const char *policy_decision_name(policy_decision d); /* "always_allow" | "ask_before" | "never_allow" */

#endif
