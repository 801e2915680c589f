/* test_manifest.c — the snapshot manifest's hash, its comparison on resume, and the reading of a
 * replay divergence (runner/manifest.h). */
#include "unit.h"
#include "runner/manifest.h"
#include "util/buf.h"
#include "util/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

TEST(manifest_fnv1a64_known_values)
{
    char h[25];
    manifest_fnv1a64("", 0, h);
    CHECK_STR(h, "fnv1a64:cbf29ce484222325"); /* the offset basis */
    manifest_fnv1a64("a", 1, h);
    CHECK_STR(h, "fnv1a64:af63dc4c8601ec8c");
    manifest_fnv1a64("foobar", 6, h);
    CHECK_STR(h, "fnv1a64:85944171f73967e8");
}

static json_t *build(const char *dir, const char *source)
{
    char *path = xasprintf("%s/agent.js", dir);
    FILE *f = fopen(path, "w");
    fputs(source, f);
    fclose(f);
    free(path);
    manifest_inputs in = {.run_id = "r", .project_root = dir, .entry = "agent.js", .seed = 7, .created_at_ms = 0};
    char *error = NULL;
    json_t *m = manifest_build(&in, &error);
    free(error);
    return m;
}

TEST(manifest_compare_source_abi_and_policy)
{
    char dir[] = "/tmp/chidori-manifest-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    json_t *a = build(dir, "one"), *same = build(dir, "one"), *edited = build(dir, "two");
    CHECK(a && same && edited);
    char *why = NULL;
    CHECK(manifest_compare(a, same, false, &why) == MANIFEST_SAME && why == NULL);
    CHECK(manifest_compare(a, edited, false, &why) == MANIFEST_SOURCE_CHANGED);
    CHECK(why && strstr(why, "allow-source-change") && strstr(why, "agent.js"));
    free(why);
    CHECK(manifest_compare(a, edited, true, &why) == MANIFEST_SAME && why && strstr(why, "source changed"));
    free(why);
    /* a changed ABI or surface refuses even when a source change is allowed */
    json_t *abi = json_copy(a);
    json_object_set(json_object_get(abi, "abi"), "typescript_runtime", json_number(99));
    CHECK(manifest_compare(abi, same, true, &why) == MANIFEST_INCOMPATIBLE && strstr(why, "ABI mismatch"));
    free(why);
    json_t *pol = json_copy(a);
    json_object_set(json_object_get(pol, "policy"), "date", json_string("frozen"));
    CHECK(manifest_compare(pol, same, true, &why) == MANIFEST_INCOMPATIBLE && strstr(why, "policy mismatch"));
    free(why);
    /* a recorded manifest of any other shape compares as changed, never as the same */
    json_t *junk = json_array();
    CHECK(manifest_compare(junk, same, true, &why) == MANIFEST_INCOMPATIBLE);
    free(why);
    json_free(junk);
    json_free(abi);
    json_free(pol);
    json_free(a);
    json_free(same);
    json_free(edited);
    char *path = xasprintf("%s/agent.js", dir);
    unlink(path);
    free(path);
    rmdir(dir);
}

TEST(manifest_shared_part_round_trips)
{
    char dir[] = "/tmp/chidori-manifest-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    json_t *m = build(dir, "source");
    CHECK(m != NULL);
    json_t *shared = manifest_shared_part(m);
    CHECK(!json_object_get(shared, "run_id") && !json_object_get(shared, "created_at"));
    CHECK(!json_object_get(json_object_get(shared, "policy"), "deterministic_seed"));
    CHECK(json_object_get(shared, "entry") && json_object_get(shared, "snapshot_file"));
    json_t *back = manifest_from_shared(shared, "r", 7, 0);
    CHECK(json_equal(json_object_get(back, "policy"), json_object_get(m, "policy")));
    CHECK(json_equal(json_object_get(back, "entry"), json_object_get(m, "entry")));
    CHECK_STR(json_string_value(json_object_get(back, "run_id")), "r");
    char *why = NULL;
    CHECK(manifest_compare(back, m, false, &why) == MANIFEST_SAME);
    free(why);
    json_free(back);
    json_free(shared);
    json_free(m);
    char *path = xasprintf("%s/agent.js", dir);
    unlink(path);
    free(path);
    rmdir(dir);
}

TEST(manifest_refused_before_reads_the_seams_outcome_not_the_text)
{
    runner_outcome o = {.status = RUNNER_FAILED, .diverged_at = 2};
    CHECK(manifest_refused_before(&o, 2) && manifest_refused_before(&o, 3));
    CHECK(!manifest_refused_before(&o, 1)); /* diverged past the call the run waited on */
    o.live_calls = 1;
    CHECK(!manifest_refused_before(&o, 3)); /* a call went past the log: something ran */
    o.live_calls = 0, o.cancelled = true;
    CHECK(!manifest_refused_before(&o, 3));
    /* the error's text says nothing: an agent can write "divergence at seq 1" itself */
    runner_outcome forged = {.status = RUNNER_FAILED, .error = "divergence at seq 1: the log has `x`"};
    CHECK(!manifest_refused_before(&forged, 3));
    runner_outcome done = {.status = RUNNER_COMPLETED, .diverged_at = 1};
    CHECK(!manifest_refused_before(&done, 3));
}
