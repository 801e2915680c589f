/* tree_budget.c — one budget for a tree of runs (see tree_budget.h).
 *
 * Owns the tree's accounting: the members alive (a list under one mutex), the ticks of members
 * that ended with no live parent to charge, the first message the tree ended with. Trusts its
 * callers to pass members of this tree; the counts it is given come from engines (an isolated
 * worker's may lie: the supervisor's CPU-time backstop bounds what a lie can buy).
 *
 * CPU: spent = (for each live member, what its engine counted, charges it took included, plus the
 * charges it has not taken yet) + (ticks of members that ended with no live parent). A member's
 * ticks go to its parent when it ends, so nothing is counted twice: the parent's engine counts
 * them once it takes the charge. Memory: the sum of the live members' last reported heaps.
 */
#define _GNU_SOURCE
#include "runner/tree_budget.h"
#include "settings/settings.h"
#include "util/buf.h"
#include "util/clock.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* A member is granted at least this much memory or none: below it an engine cannot even start. */
#define TREE_MIN_MEMORY ((uint64_t)4 << 20)

struct tree_member {
    tree_budget *tb;
    tree_member *parent; /* NULL for the root, or when the parent left first (concurrent members) */
    tree_member *prev, *next;
    int depth;
    uint64_t ticks; /* what its engine counted at its last report (charges it took included) */
    uint64_t owed;  /* charges from ended children, not taken by its engine yet */
    uint64_t heap;  /* its engine's heap at its last report */
    void (*stop)(void *ctx);
    void *stop_ctx;
};

struct tree_budget {
    pthread_mutex_t mu;
    tree_caps caps;
    int64_t deadline_at_ms; /* CLOCK_MONOTONIC, 0 = none */
    tree_member *live;      /* list of live members */
    int n_live;
    uint64_t detached_ticks; /* of members that ended with no live parent */
    tree_member *root;
    char *ended;
};

void tree_caps_from(tree_caps *caps, const engine_limits *root, const settings *s)
{
    *caps = (tree_caps){
        .op_budget = root->op_budget,
        .mem_cap_bytes = root->mem_cap_bytes,
        .deadline_ms = root->deadline_ms,
        .max_depth = (int)settings_u64(s, "CHIDORI_TREE_MAX_DEPTH"),
        .max_live = (int)settings_u64(s, "CHIDORI_TREE_MAX_LIVE"),
    };
}

static void link_member(tree_budget *tb, tree_member *m)
{
    m->next = tb->live;
    if (tb->live) tb->live->prev = m;
    tb->live = m;
    tb->n_live++;
}

static void unlink_member(tree_budget *tb, tree_member *m)
{
    if (m->prev) m->prev->next = m->next;
    else tb->live = m->next;
    if (m->next) m->next->prev = m->prev;
    tb->n_live--;
}

tree_budget *tree_budget_new(const tree_caps *caps)
{
    tree_budget *tb = xcalloc(1, sizeof *tb);
    pthread_mutex_init(&tb->mu, NULL);
    tb->caps = *caps;
    if (caps->deadline_ms) tb->deadline_at_ms = clock_monotonic_ms() + (int64_t)caps->deadline_ms;
    tb->root = xcalloc(1, sizeof *tb->root);
    tb->root->tb = tb;
    link_member(tb, tb->root);
    return tb;
}

void tree_budget_free(tree_budget *tb)
{
    if (!tb) return;
    while (tb->live) {
        tree_member *m = tb->live;
        unlink_member(tb, m);
        free(m);
    }
    pthread_mutex_destroy(&tb->mu);
    free(tb->ended);
    free(tb);
}

tree_member *tree_root(tree_budget *tb) { return tb->root; }
int tree_member_depth(const tree_member *m) { return m->depth; }

int tree_admit(tree_budget *tb, tree_member *parent, tree_member **out, char **error)
{
    return tree_admit_at(tb, parent, parent ? parent->depth + 1 : 1, out, error);
}

int tree_admit_at(tree_budget *tb, tree_member *parent, int depth, tree_member **out, char **error)
{
    *out = NULL;
    if (depth < 1) depth = 1;
    pthread_mutex_lock(&tb->mu);
    if (tb->ended) {
        *error = xasprintf("the agent tree has ended: %s", tb->ended);
    } else if (depth > tb->caps.max_depth) {
        *error = xasprintf("agent tree depth cap reached: a run %d levels below the root would pass "
                           "CHIDORI_TREE_MAX_DEPTH=%d; raise it or nest fewer agents",
                           depth, tb->caps.max_depth);
    } else if (tb->n_live >= tb->caps.max_live) {
        *error = xasprintf("agent tree live-run cap reached: %d runs of the tree are alive at once, "
                           "CHIDORI_TREE_MAX_LIVE=%d (the root included); raise it or start fewer at once",
                           tb->n_live, tb->caps.max_live);
    } else {
        tree_member *m = xcalloc(1, sizeof *m);
        m->tb = tb;
        m->parent = parent;
        m->depth = depth;
        link_member(tb, m);
        *out = m;
    }
    pthread_mutex_unlock(&tb->mu);
    return *out ? 0 : -1;
}

/* Under the lock. */
static uint64_t spent_ticks(const tree_budget *tb)
{
    uint64_t t = tb->detached_ticks;
    for (const tree_member *m = tb->live; m; m = m->next) t += m->ticks + m->owed;
    return t;
}

static uint64_t live_heap(const tree_budget *tb, const tree_member *except)
{
    uint64_t t = 0;
    for (const tree_member *m = tb->live; m; m = m->next)
        if (m != except) t += m->heap;
    return t;
}

int tree_grant(tree_budget *tb, tree_member *m, unsigned share, engine_limits *lim, engine_limit_kind *crossed,
               char **error)
{
    if (!share) share = 1;
    *crossed = LIMIT_NONE;
    pthread_mutex_lock(&tb->mu);
    const tree_caps *c = &tb->caps;
    if (c->op_budget) {
        uint64_t spent = spent_ticks(tb);
        if (spent >= c->op_budget) *crossed = LIMIT_BUDGET;
        else lim->op_budget = (c->op_budget - spent) / share ? (c->op_budget - spent) / share : 1;
    }
    if (!*crossed && c->mem_cap_bytes) {
        uint64_t used = live_heap(tb, m);
        uint64_t left = used < c->mem_cap_bytes ? (c->mem_cap_bytes - used) / share : 0;
        if (left < TREE_MIN_MEMORY) *crossed = LIMIT_MEMORY;
        else lim->mem_cap_bytes = left;
    }
    if (!*crossed && tb->deadline_at_ms) {
        int64_t left = tb->deadline_at_ms - clock_monotonic_ms();
        if (left <= 0) *crossed = LIMIT_DEADLINE;
        else lim->deadline_ms = (uint64_t)left;
    }
    pthread_mutex_unlock(&tb->mu);
    if (*crossed) *error = tree_limit_message(tb, *crossed, "a new run of the tree", NULL);
    return *crossed ? -1 : 0;
}

engine_limit_kind tree_check(tree_budget *tb)
{
    engine_limit_kind k = LIMIT_NONE;
    pthread_mutex_lock(&tb->mu);
    const tree_caps *c = &tb->caps;
    if (c->op_budget && spent_ticks(tb) > c->op_budget) k = LIMIT_BUDGET;
    else if (c->mem_cap_bytes && live_heap(tb, NULL) > c->mem_cap_bytes) k = LIMIT_MEMORY;
    else if (tb->deadline_at_ms && clock_monotonic_ms() >= tb->deadline_at_ms) k = LIMIT_DEADLINE;
    pthread_mutex_unlock(&tb->mu);
    return k;
}

void tree_report(tree_member *m, uint64_t ticks, uint64_t heap_bytes)
{
    tree_budget *tb = m->tb;
    pthread_mutex_lock(&tb->mu);
    m->ticks = ticks;
    m->heap = heap_bytes;
    pthread_mutex_unlock(&tb->mu);
}

uint64_t tree_take_charge(tree_member *m)
{
    tree_budget *tb = m->tb;
    pthread_mutex_lock(&tb->mu);
    uint64_t owed = m->owed;
    m->ticks += owed; /* its engine counts them from now on; its next report includes them */
    m->owed = 0;
    pthread_mutex_unlock(&tb->mu);
    return owed;
}

uint64_t tree_meter(tree_member *m, uint64_t ticks, uint64_t heap_bytes)
{
    tree_budget *tb = m->tb;
    pthread_mutex_lock(&tb->mu);
    uint64_t owed = m->owed;
    m->ticks = ticks + owed;
    m->heap = heap_bytes;
    m->owed = 0;
    pthread_mutex_unlock(&tb->mu);
    return owed;
}

void tree_charge(tree_member *m, uint64_t ticks)
{
    tree_budget *tb = m->tb;
    pthread_mutex_lock(&tb->mu);
    m->owed += ticks;
    pthread_mutex_unlock(&tb->mu);
}

void tree_leave(tree_member *m, uint64_t ticks)
{
    if (!m) return;
    tree_budget *tb = m->tb;
    pthread_mutex_lock(&tb->mu);
    uint64_t all = (ticks > m->ticks ? ticks : m->ticks) + m->owed;
    if (m->parent) m->parent->owed += all;
    else tb->detached_ticks += all;
    for (tree_member *o = tb->live; o; o = o->next) /* concurrent children outlive it: theirs go to the tree */
        if (o->parent == m) o->parent = NULL;
    unlink_member(tb, m);
    if (m == tb->root) tb->root = NULL;
    pthread_mutex_unlock(&tb->mu);
    free(m);
}

void tree_on_stop(tree_member *m, void (*stop)(void *ctx), void *ctx)
{
    pthread_mutex_lock(&m->tb->mu);
    m->stop = stop;
    m->stop_ctx = ctx;
    pthread_mutex_unlock(&m->tb->mu);
}

void tree_abort(tree_budget *tb, const char *message)
{
    pthread_mutex_lock(&tb->mu);
    if (!tb->ended) {
        tb->ended = xstrdup(message);
        /* under the lock: a member cannot leave (and be freed) while it is being stopped */
        for (tree_member *m = tb->live; m; m = m->next)
            if (m->stop) {
                void (*fn)(void *) = m->stop;
                m->stop = NULL;
                fn(m->stop_ctx);
            }
    }
    pthread_mutex_unlock(&tb->mu);
}

const char *tree_ended(tree_budget *tb)
{
    pthread_mutex_lock(&tb->mu);
    const char *e = tb->ended;
    pthread_mutex_unlock(&tb->mu);
    return e;
}

char *tree_limit_message(const tree_budget *tb, engine_limit_kind kind, const char *who, const char *detail)
{
    const tree_caps *c = &tb->caps;
    char *head;
    switch (kind) {
    case LIMIT_BUDGET:
        head = xasprintf("CPU budget exhausted: the agent tree (the root run and every run it started) used its "
                         "%llu ticks (CHIDORI_JS_OP_BUDGET, one budget for the whole tree); raise it or do less work",
                         (unsigned long long)c->op_budget);
        break;
    case LIMIT_MEMORY:
        head = xasprintf("memory ceiling reached: the agent tree's live runs needed more than %llu MiB together "
                         "(CHIDORI_JS_MEM_CAP_MB, summed over the runs alive at once)",
                         (unsigned long long)(c->mem_cap_bytes >> 20));
        break;
    case LIMIT_DEADLINE:
        head = xasprintf("wall-clock deadline exceeded: the agent tree passed %llu ms from the root run's start "
                         "(CHIDORI_JS_DEADLINE_MS, one deadline for the whole tree)",
                         (unsigned long long)c->deadline_ms);
        break;
    default: head = xstrdup("the agent tree ended"); break;
    }
    char *msg = detail ? xasprintf("%s; %s ran out: %s", head, who, detail) : xasprintf("%s; %s ran out", head, who);
    free(head);
    return msg;
}
