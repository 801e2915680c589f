/* tree_budget.h — one budget for a tree of runs: the root run and every run it starts (nested
 * agents through runner.c; branches, actors' attempts and their nested agents through
 * runner/member_run.c).
 *
 * The tree has the root run's limits, once: its CPU budget in ticks (CHIDORI_JS_OP_BUDGET), its
 * memory ceiling summed over the members alive at once (CHIDORI_JS_MEM_CAP_MB) and its wall-clock
 * deadline from the root's start (CHIDORI_JS_DEADLINE_MS); plus a cap on depth
 * (CHIDORI_TREE_MAX_DEPTH) and on members alive at once (CHIDORI_TREE_MAX_LIVE). A member is one
 * engine run; the root is the first. The budget does not stop anything by itself: it grants each
 * new member the limits it may run under (what is left of the tree's), and the member's own
 * enforcement (the engine's checks, and the supervisor's backstop on an isolated worker) holds it
 * to them. Crossing a grant is crossing the tree's limit, so the caller then ends the whole tree
 * (tree_abort) with the message tree_limit_message gives.
 *
 * Thread-safe: every function may be called from any thread (one mutex per tree; no call blocks
 * on anything else). Members may run concurrently (the member primitive of branch and actors)
 * or nested synchronously (callAgent: the parent's engine waits inside its call).
 *
 * How a member is wired (callAgent does exactly this, in runner.c's run_nested and host_meter):
 *   1. tree_admit(tb, parent, &m, &err)   refuse on the depth or live cap, or a tree that ended;
 *                                          a refusal is a tree limit: end the tree with err.
 *   2. tree_grant(tb, m, share, &limits)  the member's engine_limits: the CPU ticks, memory and
 *                                          deadline left to the tree, split `share` ways (members
 *                                          started together, e.g. a wave of branches, pass their
 *                                          count so their sum stays within the tree's).
 *   3. while it runs: tree_report(m, ticks, heap) at each of its seam calls (host_meter does it
 *      from the engine's own counts) and tree_take_charge(m) right after each: the ticks of its
 *      children that ended meanwhile, which its engine adds to its own count (so a parent that
 *      waited for children is charged what they spent).
 *   4. tree_leave(m, ticks) when it ends: its final ticks go to its parent's charge (or, with no
 *      parent alive, to the tree); its memory is free for others.
 *   5. a member that ended by a limit of its grant (engine_result.limit: BUDGET, DEADLINE,
 *      MEMORY): tree_abort(tb, tree_limit_message(...)); tree_abort calls the stop callback of
 *      every live member (tree_on_stop: kill its worker, cancel its engine) once.
 *
 * Wiring a member that has a host of its own (branch, actor; for the lead at merge):
 *   - its host_config.tree_meter / tree_charge go to tree_meter / tree_charge of ITS member (the
 *     depth argument is for callAgent's chain inside one host; such a member ignores it, or keeps
 *     a chain of its own for the nested agents it calls);
 *   - its engine's limits are what tree_grant gave (share = the members started together), so the
 *     engine's checks, the supervisor's backstop and the worker's cgroup all follow the grant;
 *   - tree_on_stop: a runner_cancel of its own, whose runner_cancel_now is the stop (an isolated
 *     worker is killed through the cancel descriptor; an in-process engine is refused its next
 *     effect, and its grant bounds any pure computation until then);
 *   - when it ends: tree_leave(m, engine_result.ticks); if its result's limit is BUDGET, DEADLINE
 *     or MEMORY, tree_abort with tree_limit_message, and the caller's recorded call should carry
 *     "ends_run" (host_internal.h: end_after_record) so a replay ends there too; its record should
 *     carry "tree_ticks" (record_extra) so a replay charges what it spent.
 */
#ifndef CHIDORI_TREE_BUDGET_H
#define CHIDORI_TREE_BUDGET_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/engine.h"

struct settings;

typedef struct tree_caps {
    uint64_t op_budget;     /* ticks for the whole tree; 0 = no budget */
    uint64_t mem_cap_bytes; /* summed over live members; 0 = no ceiling */
    uint64_t deadline_ms;   /* from tree_budget_new; 0 = no deadline */
    int max_depth;          /* members below the root (the root is depth 0) */
    int max_live;           /* members alive at once, the root included */
} tree_caps;

/* The caps from a run's limits and the CHIDORI_TREE_* settings (NULL: defaults). */
void tree_caps_from(tree_caps *caps, const engine_limits *root_limits, const struct settings *s);

typedef struct tree_budget tree_budget;
typedef struct tree_member tree_member;

/* A tree with its root member admitted (the clock of its deadline starts now). */
tree_budget *tree_budget_new(const tree_caps *caps);
/* Frees the tree and any member still in it. */
void tree_budget_free(tree_budget *tb);
tree_member *tree_root(tree_budget *tb);

/* Admit a member under parent (a live member of tb). 0 with *out, or -1 with *error naming the
 * cap and the setting that raises it (the tree is not ended by this call: the caller ends it). */
int tree_admit(tree_budget *tb, tree_member *parent, tree_member **out, char **error);
/* The same at an explicit depth (>= 1), with parent possibly NULL: a member whose spawner may end
 * first (an actor's iteration) is charged to the tree, not to a member, when it ends. */
int tree_admit_at(tree_budget *tb, tree_member *parent, int depth, tree_member **out, char **error);
/* The limits m runs under: lim's op_budget, mem_cap_bytes and deadline_ms replaced by what is
 * left to the tree divided by share (>= 1). A limit the tree does not have is left as lim has it.
 * -1 with *error when nothing is left (the limit is crossed already: end the tree), else 0. */
int tree_grant(tree_budget *tb, tree_member *m, unsigned share, engine_limits *lim, engine_limit_kind *crossed,
               char **error);
/* What m's engine has counted so far (its ticks, its charges included; its heap in bytes). */
void tree_report(tree_member *m, uint64_t ticks, uint64_t heap_bytes);
/* Ticks charged to m by children that ended since the last take (its engine adds them). */
uint64_t tree_take_charge(tree_member *m);
/* Both in one step (one lock; what the seam's meter does at every effect): report, then take. */
uint64_t tree_meter(tree_member *m, uint64_t ticks, uint64_t heap_bytes);
/* Charge m ticks spent on its behalf elsewhere (a replayed nested run's recorded ticks). */
void tree_charge(tree_member *m, uint64_t ticks);
/* m ended having counted ticks: it leaves the tree (m is freed). */
void tree_leave(tree_member *m, uint64_t ticks);
int tree_member_depth(const tree_member *m);

/* Whether the tree as a whole has crossed a limit now (members running side by side each keep to
 * their own grant, but their sum is what counts): the CPU ticks spent, the heaps of the live
 * members summed, the deadline. LIMIT_NONE when within them. A member's meter asks it. */
engine_limit_kind tree_check(tree_budget *tb);

/* End the tree: the first message wins; every live member's stop callback is called once. */
void tree_abort(tree_budget *tb, const char *message);
/* The message the tree ended with (owned by tb), or NULL while it runs. */
const char *tree_ended(tree_budget *tb);
/* Called when the tree is ended while m is alive, with the tree's lock held (so m cannot leave
 * meanwhile): stop must only flag and wake, never call into the tree. */
void tree_on_stop(tree_member *m, void (*stop)(void *ctx), void *ctx);

/* The message for a member that crossed its grant of `kind`: names the tree's limit and its
 * setting, and who crossed it (who: e.g. "nested agent `child.js`"; detail: the member's own
 * message, or NULL). Caller frees. */
char *tree_limit_message(const tree_budget *tb, engine_limit_kind kind, const char *who, const char *detail);

#endif
