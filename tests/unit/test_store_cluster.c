/* test_store_cluster.c — leases and fencing in the store (src/serve/store_cluster.c), over an
 * in-memory database: one claim wins, a live lease is not taken, an expired one is (the epoch goes
 * up), and from then on the stale owner's record and its settle are refused while the new owner's
 * go through; a cancel stored by another node wins over the owner's outcome and over a run that
 * starts; queued sessions come oldest first; a late renewal does not revive a released lease. */
#define _GNU_SOURCE
#include "unit.h"
#include "serve/store.h"
#include "serve/store_cluster.h"
#include "util/buf.h"

#include <stdlib.h>
#include <string.h>

static void insert(store *st, const char *id, const char *status, int64_t created)
{
    session_row r = {0};
    char *error = NULL;
    r.id = xstrdup(id);
    snprintf(r.run_id, sizeof r.run_id, "00000000-0000-4000-8000-000000000000");
    r.status = xstrdup(status);
    r.input = json_object();
    r.approvals = json_array();
    r.created_at_ms = created;
    bool duplicate;
    if (store_insert_session(st, &r, NULL, &duplicate, &error) < 0) abort();
    session_row_clear(&r);
}

static char *status_of(store *st, const char *id)
{
    char *error = NULL;
    return store_session_status(st, id, NULL, &error);
}

/* The seq of the call a session waits on, as stored: what start_run compares with the one it
 * checked, so a session that another node resumed and that paused again at a later call is not
 * started from the earlier one. */
TEST(store_cluster_status_says_which_call_a_session_waits_on)
{
    char *error = NULL;
    store *st = store_open(":memory:", &error);
    CHECK(st != NULL);
    insert(st, "w1", "paused", 1);
    uint64_t seq = 99;
    char *status = store_session_status(st, "w1", &seq, &error);
    CHECK(status && !strcmp(status, "paused") && seq == 0); /* no pending call stored */
    free(status);
    session_row r = {0};
    CHECK(store_get_session(st, "w1", &r, &error) == 1);
    json_error jerr;
    r.pending = json_parse("{\"seq\": 7, \"function\": \"signal\"}", 32, NULL, &jerr);
    CHECK(r.pending != NULL && store_update_session(st, &r, &error) == 0);
    status = store_session_status(st, "w1", &seq, &error);
    CHECK(status && !strcmp(status, "paused") && seq == 7);
    free(status);
    json_free(r.pending);
    r.pending = json_parse("{\"seq\": \"7\"}", 12, NULL, &jerr); /* not a number: none */
    CHECK(r.pending != NULL && store_update_session(st, &r, &error) == 0);
    status = store_session_status(st, "w1", &seq, &error);
    CHECK(status && seq == 0);
    free(status);
    CHECK(store_session_status(st, "nobody", &seq, &error) == NULL && seq == 0);
    session_row_clear(&r);
    store_close(st);
}

/* A run starting stores `running` only over the status it checked: a cancel another node stored
 * meanwhile (without the lease) stands. */
TEST(store_cluster_running_is_stored_only_over_the_status_checked)
{
    char *error = NULL;
    store *st = store_open(":memory:", &error);
    CHECK(st != NULL);
    insert(st, "c1", "paused", 1);
    CHECK(store_session_cas(st, "c1", "paused", "cancelled", "cancelled", &error) == 1); /* the other node */
    session_row r = {0};
    CHECK(store_get_session(st, "c1", &r, &error) == 1);
    free(r.status);
    r.status = xstrdup("running");
    CHECK(store_update_session_if(st, &r, "paused", &error) == 0);
    char *status = status_of(st, "c1");
    CHECK(status && !strcmp(status, "cancelled"));
    free(status);
    CHECK(store_update_session_if(st, &r, "cancelled", &error) == 1); /* the status it has: written */
    status = status_of(st, "c1");
    CHECK(status && !strcmp(status, "running"));
    free(status);
    CHECK(store_update_session_if(st, &r, NULL, &error) == 1); /* NULL: whatever it is */
    session_row_clear(&r);
    store_close(st);
}

TEST(store_cluster_leases_fence_a_stale_owner)
{
    char *error = NULL;
    store *st = store_open(":memory:", &error);
    CHECK(st != NULL);
    insert(st, "s1", "running", 1000);
    cluster_node a = {"node-a", "host", 1}, b = {"node-b", "host", 2};
    int64_t ea = 0, eb = 0, now = 100000, lease = 1000;
    CHECK(store_lease_claim(st, "s1", &a, now, lease, -1, &ea, &error) == 1 && ea == 1);
    CHECK(store_lease_claim(st, "s1", &b, now + 10, lease, -1, &eb, &error) == 0); /* live: not taken */
    CHECK(store_append_record_fenced(st, "s1", 1, 1, "{\"seq\":1}", &a, ea, &error) == 0);
    CHECK(store_lease_renew(st, "s1", &a, ea, now + 500 + lease, &error) == 1);
    /* a's lease ends unrenewed: b takes it over, the epoch goes up */
    CHECK(store_lease_claim(st, "s1", &b, now + 500 + lease + 1, lease, -1, &eb, &error) == 1 && eb == 2);
    char *owner = store_lease_owner(st, "s1");
    CHECK_STR(owner, "node-b");
    free(owner);
    /* a is stale: its record, its renewal and its settle are refused, nothing written */
    CHECK(store_append_record_fenced(st, "s1", 2, 2, "{\"seq\":2,\"from\":\"a\"}", &a, ea, &error) == -2);
    CHECK(store_lease_renew(st, "s1", &a, ea, now + 5000, &error) == 0);
    session_row r = {0};
    r.id = (char *)"s1";
    r.status = (char *)"failed";
    r.error = (char *)"stale";
    r.approvals = json_array();
    /* (with the manifest its run's end made: dropped with the rest) */
    json_error jerr;
    json_t *ma = json_parse("{\"modules\":[\"a.js\"]}", 20, NULL, &jerr), *got = NULL;
    CHECK(ma != NULL);
    CHECK(store_settle_fenced(st, &r, &a, ea, true, ma, &error) == -2);
    char *status = status_of(st, "s1");
    CHECK_STR(status, "running");
    free(status);
    CHECK(store_get_manifest(st, "s1", &got, &error) == 0 && got == NULL);
    store_log_stats stats;
    CHECK(store_record_stats(st, "s1", &stats, &error) == 0 && stats.records == 1);
    /* b writes seq 2 itself; a second write of a seq is refused by the key whatever the lease */
    CHECK(store_append_record_fenced(st, "s1", 2, 2, "{\"seq\":2,\"from\":\"b\"}", &b, eb, &error) == 0);
    CHECK(store_append_record_fenced(st, "s1", 2, 3, "{\"seq\":2}", &b, eb, &error) == -1);
    free(error), error = NULL;
    /* a cancel stored by another node wins over b's outcome; b's cancelled settle goes through and
     * releases the lease (anyone may claim it at once) */
    CHECK(store_session_cas(st, "s1", "running", "cancelled", "cancelled", &error) == 1);
    r.status = (char *)"completed";
    CHECK(store_settle_fenced(st, &r, &b, eb, true, ma, &error) == -3);
    CHECK(store_get_manifest(st, "s1", &got, &error) == 0 && got == NULL); /* nothing written */
    r.status = (char *)"cancelled";
    r.error = (char *)"cancelled";
    CHECK(store_settle_fenced(st, &r, &b, eb, true, ma, &error) == 0);
    status = status_of(st, "s1");
    CHECK_STR(status, "cancelled");
    free(status);
    /* the settle that went through stored the manifest in its transaction */
    CHECK(store_get_manifest(st, "s1", &got, &error) == 1 && got && json_equal(got, ma));
    json_free(got);
    json_free(ma);
    /* a renewal that read the run as live just before it settled comes too late: it does not bring
     * the released lease back (else every other node would wait a lease for a settled session) */
    CHECK(store_lease_renew(st, "s1", &b, eb, now + 2 + lease, &error) == 0);
    CHECK(store_lease_claim(st, "s1", &a, now + 1, lease, -1, &ea, &error) == 1 && ea == 3);
    json_free(r.approvals);
    store_close(st);
}

TEST(store_cluster_queue_is_oldest_first_and_claimed_once)
{
    char *error = NULL;
    store *st = store_open(":memory:", &error);
    CHECK(st != NULL);
    insert(st, "q-late", "queued", 3000);
    insert(st, "q-early", "queued", 1000);
    insert(st, "done", "completed", 500);
    cluster_node a = {"node-a", "host-1", 101}, b = {"node-b", "host-1", 102};
    char **ids;
    int64_t *epochs;
    size_t n;
    CHECK(store_queued_claim(st, &a, 5000, 1000, 1, &ids, &epochs, &n, &error) == 0 && n == 1);
    CHECK_STR(ids[0], "q-early");
    CHECK(epochs[0] == 1);
    free(ids[0]);
    free(ids);
    free(epochs);
    /* claimed: running, with a's lease (b cannot take it while the lease lives) */
    char *st1 = status_of(st, "q-early");
    CHECK_STR(st1, "running");
    free(st1);
    int64_t eb = 0;
    CHECK(store_lease_claim(st, "q-early", &b, 5001, 1000, -1, &eb, &error) == 0);
    /* a second claim takes the next one only; a third finds none */
    CHECK(store_queued_claim(st, &b, 5002, 1000, 8, &ids, &epochs, &n, &error) == 0 && n == 1);
    CHECK_STR(ids[0], "q-late");
    free(ids[0]);
    free(ids);
    free(epochs);
    CHECK(store_queued_claim(st, &a, 5003, 1000, 8, &ids, &epochs, &n, &error) == 0 && n == 0);
    free(ids);
    free(epochs);
    store_close(st);
}

/* A session that runs at once is stored with its lease claimed, in one transaction: stored, it is
 * leased to this node (epoch 1); when the claim fails, nothing of it is stored. */
TEST(store_cluster_new_session_is_stored_with_its_lease)
{
    char *error = NULL;
    store *st = store_open(":memory:", &error);
    CHECK(st != NULL);
    cluster_node a = {"node-a", "host", 1}, b = {"node-b", "host", 2};
    session_row r = {0};
    r.id = (char *)"n1";
    snprintf(r.run_id, sizeof r.run_id, "00000000-0000-4000-8000-000000000000");
    r.status = (char *)"running";
    r.input = json_object();
    r.approvals = json_array();
    r.created_at_ms = 1000;
    store_claim claim = {"n1", &a, 100000, 1000, 0};
    store_tx_step step = {store_claim_step, &claim};
    bool duplicate = false;
    CHECK(store_insert_session_with(st, &r, NULL, NULL, NULL, &step, &duplicate, &error) == 0);
    CHECK(claim.epoch == 1);
    char *owner = store_lease_owner(st, "n1"), *status = status_of(st, "n1");
    CHECK_STR(owner, "node-a");
    CHECK_STR(status, "running");
    free(owner), free(status);
    /* b cannot take the live lease */
    int64_t eb = 0;
    CHECK(store_lease_claim(st, "n1", &b, 100010, 1000, -1, &eb, &error) == 0);
    /* a lease held elsewhere for an id being stored (contrived: never for a fresh id): rolled back */
    CHECK(store_lease_claim(st, "n2", &b, 100000, 1000, -1, &eb, &error) == 1);
    r.id = (char *)"n2";
    store_claim claim2 = {"n2", &a, 100010, 1000, 0};
    step.arg = &claim2;
    CHECK(store_insert_session_with(st, &r, NULL, NULL, NULL, &step, &duplicate, &error) == -1 && !duplicate);
    CHECK(error && strstr(error, "held by another node"));
    free(error), error = NULL;
    status = status_of(st, "n2");
    CHECK(status == NULL);
    free(error), error = NULL;
    json_free(r.input);
    json_free(r.approvals);
    store_close(st);
}
