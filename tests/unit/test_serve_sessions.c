/* test_serve_sessions.c — which sessions `chidori serve` keeps in memory (sessions.c): only those
 * in use. Over an in-memory database of settled sessions (nothing can run: the cap is 0): start-up
 * makes none resident; a lookup loads one, a second lookup shares it, the last release drops it;
 * a stream follower holds its own reference; GET /sessions is built from the store in its order;
 * a damaged row is an error, not a missing session; and threads that look the same session up,
 * view it, follow it and list everything at once, while it is dropped and loaded again, always
 * see it whole and leave nothing resident. */
#define _GNU_SOURCE
#include "unit.h"
#include "serve/sessions.h"
#include "serve/store.h"
#include "util/buf.h"

#include <pthread.h>
#include <stdlib.h>

static void insert(store *st, const char *id, const char *status, int64_t created, const char *run_id)
{
    session_row r = {0};
    char *error = NULL;
    r.id = xstrdup(id);
    snprintf(r.run_id, sizeof r.run_id, "%s", run_id ? run_id : "00000000-0000-4000-8000-000000000000");
    r.status = xstrdup(status);
    r.input = json_object();
    json_object_set(r.input, "who", json_string(id));
    r.output = !strcmp(status, "completed") ? json_string(id) : NULL;
    r.approvals = json_array();
    r.seed = 7;
    r.created_at_ms = created;
    r.call_count = 1;
    bool duplicate;
    if (store_insert_session(st, &r, NULL, &duplicate, &error) < 0) abort();
    const char *rec = "{\"seq\":1,\"function\":\"log\",\"args\":{\"message\":\"hi\"},\"result\":null}";
    if (store_append_record(st, r.id, 1, 1, rec, &error) < 0) abort();
    session_row_clear(&r);
}

static sessions *open_sessions(store **st)
{
    char *error = NULL;
    *st = store_open(":memory:", &error);
    if (!*st) abort();
    insert(*st, "b-second", "completed", 2000, NULL);
    insert(*st, "a-first", "paused", 1000, NULL);
    insert(*st, "c-third", "failed", 3000, NULL);
    sessions_config sc = {.project_root = "/nonexistent", .entry = "agent.js", .state_dir = "/nonexistent",
                          .max_running = 0};
    return sessions_new(&sc, *st);
}

static const char *field(const json_t *view, const char *name) { return json_string_value(json_object_get(view, name)); }

TEST(serve_sessions_are_resident_only_while_held)
{
    store *st;
    sessions *ss = open_sessions(&st);
    char *error = NULL;
    size_t total, rerun;
    CHECK(sessions_load(ss, &total, &rerun, &error) == 0 && total == 3 && rerun == 0);
    CHECK(sessions_resident(ss) == 0);

    session *a = sessions_find(ss, "b-second", &error);
    CHECK(a && !error && sessions_resident(ss) == 1);
    session *b = sessions_find(ss, "b-second", &error);
    CHECK(b == a && sessions_resident(ss) == 1);
    json_t *v = sessions_view(ss, a);
    CHECK_STR(field(v, "status"), "completed");
    CHECK_STR(field(v, "output"), "b-second");
    CHECK(json_number_value(json_object_get(v, "call_count")) == 1);
    json_free(v);
    sessions_release(ss, a);
    CHECK(sessions_resident(ss) == 1);
    sessions_release(ss, b);
    CHECK(sessions_resident(ss) == 0);

    CHECK(sessions_find(ss, "nosuch", &error) == NULL && error == NULL);
    CHECK(sessions_resident(ss) == 0);

    /* a follower keeps it after the handler's reference is gone */
    a = sessions_find(ss, "a-first", &error);
    session_follower f;
    CHECK(sessions_follow(ss, a, &f, &error) == 0);
    sessions_release(ss, a);
    CHECK(sessions_resident(ss) == 1);
    const char *event;
    char *data;
    CHECK(sessions_follow_next(ss, &f, 1000, &event, &data) == 1);
    CHECK_STR(event, "call");
    free(data);
    CHECK(sessions_follow_next(ss, &f, 1000, &event, &data) == 1);
    CHECK_STR(event, "paused");
    free(data);
    CHECK(sessions_follow_next(ss, &f, 1000, &event, &data) == 1);
    CHECK_STR(event, "done");
    CHECK(strstr(data, "\"status\":\"paused\"") != NULL);
    free(data);
    CHECK(sessions_follow_next(ss, &f, 1000, &event, &data) == -1);
    sessions_unfollow(ss, &f);
    CHECK(sessions_resident(ss) == 0);

    /* the list: oldest first, from the store, each view whole; a held session's view is its own */
    a = sessions_find(ss, "c-third", &error);
    json_t *list = sessions_list(ss, &error);
    CHECK(list);
    const json_t *items = json_object_get(list, "sessions");
    CHECK(items && items->u.array.len == 3);
    CHECK_STR(field(items->u.array.items[0], "id"), "a-first");
    CHECK_STR(field(items->u.array.items[1], "id"), "b-second");
    CHECK_STR(field(items->u.array.items[2], "id"), "c-third");
    CHECK_STR(field(items->u.array.items[0], "status"), "paused");
    CHECK_STR(field(items->u.array.items[2], "status"), "failed");
    CHECK_STR(field(json_object_get(items->u.array.items[1], "input"), "who"), "b-second");
    CHECK(items->u.array.items[0]->u.object.len == 16); /* the view, signal pause fields and node included */
    json_free(list);
    sessions_release(ss, a);
    CHECK(sessions_resident(ss) == 0);

    sessions_free(ss);
    store_close(st);
}

TEST(serve_sessions_a_damaged_row_is_an_error_not_a_missing_session)
{
    store *st;
    sessions *ss = open_sessions(&st);
    insert(st, "broken", "completed", 4000, "not-a-run-id");
    char *error = NULL;
    CHECK(sessions_find(ss, "broken", &error) == NULL);
    CHECK(error && strstr(error, "session broken in the database has a bad run id"));
    free(error);
    error = NULL;
    CHECK(sessions_list(ss, &error) == NULL && error && strstr(error, "broken"));
    free(error);
    CHECK(sessions_resident(ss) == 0);
    sessions_free(ss);
    store_close(st);
}

typedef struct hammer {
    sessions *ss;
    int id, bad;
} hammer;

static void *hammer_thread(void *arg)
{
    hammer *h = arg;
    char *error = NULL;
    for (int i = 0; i < 1500; i++) {
        const char *id = (i + h->id) % 3 == 0 ? "a-first" : "b-second";
        session *s = sessions_find(h->ss, id, &error);
        if (!s) {
            h->bad++;
            free(error);
            continue;
        }
        json_t *v = sessions_view(h->ss, s);
        if (strcmp(field(v, "id"), id) != 0) h->bad++;
        json_free(v);
        if (i % 4 == h->id % 4) {
            session_follower f;
            if (sessions_follow(h->ss, s, &f, &error) < 0) {
                h->bad++;
                free(error);
            } else {
                sessions_release(h->ss, s), s = NULL; /* the stream outlives the handler */
                const char *event;
                char *data;
                int events = 0;
                while (sessions_follow_next(h->ss, &f, 1000, &event, &data) == 1) {
                    events++;
                    free(data);
                }
                if (events != (strcmp(id, "a-first") ? 2 : 3)) h->bad++;
                sessions_unfollow(h->ss, &f);
            }
        }
        if (i % 50 == 0) {
            json_t *list = sessions_list(h->ss, &error);
            if (!list || json_object_get(list, "sessions")->u.array.len != 3) h->bad++;
            json_free(list);
        }
        sessions_release(h->ss, s);
    }
    return NULL;
}

TEST(serve_sessions_concurrent_lookups_while_dropped_and_loaded_again)
{
    store *st;
    sessions *ss = open_sessions(&st);
    hammer hs[6];
    pthread_t t[6];
    for (int i = 0; i < 6; i++) {
        hs[i] = (hammer){ss, i, 0};
        pthread_create(&t[i], NULL, hammer_thread, &hs[i]);
    }
    int bad = 0;
    for (int i = 0; i < 6; i++) {
        pthread_join(t[i], NULL);
        bad += hs[i].bad;
    }
    CHECK(bad == 0);
    CHECK(sessions_resident(ss) == 0);
    sessions_free(ss);
    store_close(st);
}
