/* test_tree_budget.c — the tree budget's accounts (src/runner/tree_budget.c): admission under the
 * depth and live caps, grants of what is left (CPU, memory summed over live members, deadline,
 * split by share), charges that go to the parent when a member leaves and are counted once, the
 * first abort winning and stopping every live member once, and the accounts staying exact when
 * many threads meter and leave at once (the member primitive's concurrent use). */
#define _GNU_SOURCE
#include "unit.h"
#include "runner/tree_budget.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static tree_caps caps(uint64_t ticks, uint64_t mem, uint64_t deadline_ms, int depth, int live)
{
    return (tree_caps){.op_budget = ticks, .mem_cap_bytes = mem, .deadline_ms = deadline_ms, .max_depth = depth,
                       .max_live = live};
}

TEST(tree_budget_admits_under_the_depth_and_live_caps)
{
    tree_caps c = caps(0, 0, 0, 2, 3);
    tree_budget *tb = tree_budget_new(&c);
    tree_member *a, *b, *x;
    char *err = NULL;
    CHECK(tree_admit(tb, tree_root(tb), &a, &err) == 0 && tree_member_depth(a) == 1);
    CHECK(tree_admit(tb, a, &b, &err) == 0 && tree_member_depth(b) == 2);
    CHECK(tree_admit(tb, b, &x, &err) == -1 && x == NULL && err && strstr(err, "CHIDORI_TREE_MAX_DEPTH=2"));
    free(err), err = NULL;
    /* root, a, b alive: a fourth is over the live cap, whatever its depth */
    CHECK(tree_admit(tb, tree_root(tb), &x, &err) == -1 && err && strstr(err, "CHIDORI_TREE_MAX_LIVE=3"));
    free(err), err = NULL;
    tree_leave(b, 0);
    CHECK(tree_admit(tb, tree_root(tb), &x, &err) == 0);
    tree_abort(tb, "stop");
    tree_member *y;
    CHECK(tree_admit(tb, tree_root(tb), &y, &err) == -1 && err && strstr(err, "stop"));
    free(err);
    tree_budget_free(tb); /* frees the members still in it */
}

TEST(tree_budget_grants_what_is_left_and_charges_the_parent_once)
{
    tree_caps c = caps(1000000, 100u << 20, 0, 8, 64);
    tree_budget *tb = tree_budget_new(&c);
    tree_member *root = tree_root(tb), *a;
    char *err = NULL;
    engine_limit_kind crossed;
    CHECK(tree_meter(root, 300000, 10u << 20) == 0); /* the root counted 300k ticks, holds 10 MiB */
    CHECK(tree_admit(tb, root, &a, &err) == 0);
    engine_limits lim = {.op_budget = 1000000, .mem_cap_bytes = 100u << 20};
    CHECK(tree_grant(tb, a, 1, &lim, &crossed, &err) == 0);
    CHECK(lim.op_budget == 700000 && lim.mem_cap_bytes == (90u << 20) && lim.deadline_ms == 0);
    engine_limits half = {0};
    CHECK(tree_grant(tb, a, 2, &half, &crossed, &err) == 0 && half.op_budget == 350000);
    tree_leave(a, 500000);
    /* the root takes the child's ticks once; its next report includes them */
    CHECK(tree_meter(root, 300000, 10u << 20) == 500000);
    CHECK(tree_meter(root, 800000, 10u << 20) == 0);
    CHECK(tree_admit(tb, root, &a, &err) == 0);
    lim = (engine_limits){0};
    CHECK(tree_grant(tb, a, 1, &lim, &crossed, &err) == 0 && lim.op_budget == 200000);
    tree_charge(a, 250000); /* a replayed nested run's recorded ticks: past the budget */
    tree_member *b;
    CHECK(tree_admit(tb, a, &b, &err) == 0);
    CHECK(tree_grant(tb, b, 1, &lim, &crossed, &err) == -1 && crossed == LIMIT_BUDGET && err &&
          strstr(err, "CHIDORI_JS_OP_BUDGET"));
    free(err);
    tree_budget_free(tb);
}

TEST(tree_budget_memory_is_summed_over_live_members)
{
    tree_caps c = caps(0, 64u << 20, 0, 8, 64);
    tree_budget *tb = tree_budget_new(&c);
    tree_member *a, *b;
    char *err = NULL;
    engine_limit_kind crossed;
    tree_meter(tree_root(tb), 0, 30u << 20);
    CHECK(tree_admit(tb, tree_root(tb), &a, &err) == 0);
    tree_meter(a, 0, 31u << 20);
    CHECK(tree_admit(tb, a, &b, &err) == 0);
    engine_limits lim = {0};
    CHECK(tree_grant(tb, b, 1, &lim, &crossed, &err) == -1 && crossed == LIMIT_MEMORY && strstr(err, "64 MiB"));
    free(err), err = NULL;
    tree_leave(b, 0);
    tree_leave(a, 0); /* its memory is free again */
    CHECK(tree_admit(tb, tree_root(tb), &a, &err) == 0);
    CHECK(tree_grant(tb, a, 1, &lim, &crossed, &err) == 0 && lim.mem_cap_bytes == (34u << 20));
    tree_budget_free(tb);
}

TEST(tree_budget_deadline_is_the_trees)
{
    tree_caps c = caps(0, 0, 60000, 8, 64);
    tree_budget *tb = tree_budget_new(&c);
    tree_member *a;
    char *err = NULL;
    engine_limit_kind crossed;
    CHECK(tree_admit(tb, tree_root(tb), &a, &err) == 0);
    engine_limits lim = {.deadline_ms = 60000};
    CHECK(tree_grant(tb, a, 1, &lim, &crossed, &err) == 0 && lim.deadline_ms > 0 && lim.deadline_ms <= 60000);
    tree_budget_free(tb);
    c = caps(0, 0, 1, 8, 64);
    tb = tree_budget_new(&c);
    struct timespec ts = {0, 5 * 1000 * 1000};
    nanosleep(&ts, NULL);
    CHECK(tree_admit(tb, tree_root(tb), &a, &err) == 0);
    CHECK(tree_grant(tb, a, 1, &lim, &crossed, &err) == -1 && crossed == LIMIT_DEADLINE &&
          strstr(err, "CHIDORI_JS_DEADLINE_MS"));
    free(err);
    tree_budget_free(tb);
}

static int stops;
static void count_stop(void *ctx) { (*(int *)ctx)++; }

TEST(tree_budget_abort_stops_every_live_member_once)
{
    tree_caps c = caps(0, 0, 0, 8, 64);
    tree_budget *tb = tree_budget_new(&c);
    tree_member *a, *b;
    char *err = NULL;
    stops = 0;
    CHECK(tree_admit(tb, tree_root(tb), &a, &err) == 0 && tree_admit(tb, tree_root(tb), &b, &err) == 0);
    tree_on_stop(a, count_stop, &stops);
    tree_on_stop(b, count_stop, &stops);
    tree_leave(b, 0);
    CHECK(tree_ended(tb) == NULL);
    tree_abort(tb, "first");
    tree_abort(tb, "second");
    CHECK(stops == 1 && tree_ended(tb) && !strcmp(tree_ended(tb), "first"));
    tree_budget_free(tb);
}

/* Many members at once, each metering and leaving on its own thread: every tick is counted once. */
typedef struct {
    tree_budget *tb;
    int ok;
} worker_arg;

static void *member_thread(void *p)
{
    worker_arg *w = p;
    for (int i = 0; i < 200; i++) {
        tree_member *m;
        char *err = NULL;
        if (tree_admit(w->tb, tree_root(w->tb), &m, &err) != 0) {
            free(err);
            continue;
        }
        for (uint64_t t = 1; t <= 10; t++) tree_meter(m, t * 100, 1000);
        tree_leave(m, 1000);
        w->ok++;
    }
    return NULL;
}

TEST(tree_budget_accounts_stay_exact_across_threads)
{
    tree_caps c = caps(1000000000, 0, 0, 8, 1000);
    tree_budget *tb = tree_budget_new(&c);
    pthread_t th[8];
    worker_arg args[8];
    for (int i = 0; i < 8; i++) {
        args[i] = (worker_arg){.tb = tb};
        pthread_create(&th[i], NULL, member_thread, &args[i]);
    }
    int ok = 0;
    for (int i = 0; i < 8; i++) pthread_join(th[i], NULL), ok += args[i].ok;
    CHECK(ok == 1600);
    /* every member charged its 1000 ticks to the root, once */
    CHECK(tree_meter(tree_root(tb), 0, 0) == (uint64_t)ok * 1000);
    tree_budget_free(tb);
}

/* The Call frame's "meter" comes from a worker that may be compromised: only [ticks, heap] of two
 * whole numbers up to 2^53 is a call; anything else fails the frame. A Reply may carry "charge". */
#include "isolate/protocol.h"

static frame_type classify_text(const char *text)
{
    json_error jerr;
    json_t *f = json_parse(text, strlen(text), NULL, &jerr);
    char *err = NULL;
    frame_type t = f ? frame_classify(f, &err) : FRAME_INVALID;
    free(err);
    json_free(f);
    return t;
}

TEST(tree_budget_meter_in_frames_is_checked)
{
    CHECK(classify_text("{\"type\":\"call\",\"op\":\"log\",\"args\":{},\"meter\":[10000,2048]}") == FRAME_CALL);
    CHECK(classify_text("{\"type\":\"call\",\"op\":\"log\",\"args\":{}}") == FRAME_CALL);
    const char *bad[] = {
        "{\"type\":\"call\",\"op\":\"log\",\"args\":{},\"meter\":[1]}",
        "{\"type\":\"call\",\"op\":\"log\",\"args\":{},\"meter\":[1,2,3]}",
        "{\"type\":\"call\",\"op\":\"log\",\"args\":{},\"meter\":[-1,2]}",
        "{\"type\":\"call\",\"op\":\"log\",\"args\":{},\"meter\":[1.5,2]}",
        "{\"type\":\"call\",\"op\":\"log\",\"args\":{},\"meter\":[1e300,2]}",
        "{\"type\":\"call\",\"op\":\"log\",\"args\":{},\"meter\":[\"1\",2]}",
        "{\"type\":\"call\",\"op\":\"log\",\"args\":{},\"meter\":{\"a\":1}}",
        "{\"type\":\"call\",\"op\":\"log\",\"args\":{},\"meter\":null}",
        "{\"type\":\"internal\",\"op\":\"__module_load\",\"args\":{},\"meter\":[1,2]}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) CHECK(classify_text(bad[i]) == FRAME_INVALID);
    CHECK(classify_text("{\"type\":\"reply\",\"ok\":1,\"charge\":5}") == FRAME_REPLY);
}

TEST(tree_budget_admits_at_a_depth_and_checks_the_sum_of_concurrent_members)
{
    tree_caps c = caps(1000000, 64u << 20, 0, 3, 64);
    tree_budget *tb = tree_budget_new(&c);
    tree_member *a, *b, *x;
    char *err = NULL;
    /* an actor's attempt: no parent to charge, its depth said by its spawner's */
    CHECK(tree_admit_at(tb, NULL, 3, &a, &err) == 0 && tree_member_depth(a) == 3);
    CHECK(tree_admit_at(tb, NULL, 4, &x, &err) == -1 && err && strstr(err, "CHIDORI_TREE_MAX_DEPTH=3"));
    free(err), err = NULL;
    CHECK(tree_admit_at(tb, NULL, 1, &b, &err) == 0);
    /* each within 64 MiB, their sum is not */
    CHECK(tree_check(tb) == LIMIT_NONE);
    tree_meter(a, 1000, 40u << 20);
    CHECK(tree_check(tb) == LIMIT_NONE);
    tree_meter(b, 1000, 40u << 20);
    CHECK(tree_check(tb) == LIMIT_MEMORY);
    tree_meter(b, 1000, 1u << 20);
    CHECK(tree_check(tb) == LIMIT_NONE);
    /* ticks: a member with no parent leaves them to the tree's account, still counted */
    tree_leave(a, 600000);
    tree_meter(b, 500000, 1u << 20);
    CHECK(tree_check(tb) == LIMIT_BUDGET);
    tree_budget_free(tb);
}
