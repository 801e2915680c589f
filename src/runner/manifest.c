/* manifest.c — a run's snapshot manifest, built and compared (see manifest.h).
 *
 * Owns the manifest's shape and the resume check's verdict. Reads the agent's entry file (capped,
 * MANIFEST_SOURCE_MAX_BYTES) to hash it; trusts a recorded manifest for nothing but comparison:
 * a key that is missing or of another type compares as changed.
 */
#define _GNU_SOURCE
#include "runner/manifest.h"
#include "settings/settings.h"
#include "util/rfc3339.h"
#include "util/buf.h"
#include "util/files.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The ABI of this runtime's recordings: a run replays its log from the top (there is no VM image),
 * so quickjs_snapshot is 0; raise typescript_runtime when a recording stops replaying here. */
#define ABI_TYPESCRIPT_RUNTIME 1
#define ABI_QUICKJS_SNAPSHOT 0
#define ABI_ENGINE_FORK "chidori-quickjs"

void manifest_fnv1a64(const void *bytes, size_t n, char out[25])
{
    uint64_t h = 0xcbf29ce484222325ull;
    const unsigned char *p = bytes;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    snprintf(out, 25, "fnv1a64:%016llx", (unsigned long long)h);
}

static void set_seed(json_t *policy, uint64_t seed)
{
    char text[40];
    snprintf(text, sizeof text, "seed:%016llx", (unsigned long long)seed);
    json_object_set(policy, "deterministic_seed", json_string(text));
}

static json_t *iso_time(int64_t ms)
{
    char text[RFC3339_MAX];
    rfc3339_format_ms(ms, text);
    return json_string(text);
}

static const char *or_default(const char *v, const char *def) { return v && *v ? v : def; }

/* The captured surface, under the original's policy names (our values). */
static json_t *policy_of(const surface_settings *s, uint64_t seed)
{
    json_t *p = json_object();
    json_object_set(p, "typescript_imports", json_string("project"));
    json_object_set(p, "date", json_string(or_default(s ? s->date : NULL, "virtual")));
    json_object_set(p, "random", json_string(or_default(s ? s->random : NULL, "seeded")));
    json_object_set(p, "timers", json_string(or_default(s ? s->timers : NULL, "virtual")));
    json_object_set(p, "crypto", json_string(or_default(s ? s->crypto : NULL, "captured")));
    json_object_set(p, "fs", json_string(or_default(s ? s->fs : NULL, "vfs")));
    if (s && s->vfs_seed_sha256[0]) json_object_set(p, "vfs_seed_sha256", json_string(s->vfs_seed_sha256));
    set_seed(p, seed);
    return p;
}

json_t *manifest_build(const manifest_inputs *in, char **error)
{
    char *path = xasprintf("%s/%s", in->project_root, in->entry);
    size_t len = 0;
    char *source = read_file_capped(path, MANIFEST_SOURCE_MAX_BYTES, &len, error);
    free(path);
    if (!source) return NULL;
    char hash[25];
    manifest_fnv1a64(source, len, hash);
    free(source);

    json_t *m = json_object();
    json_object_set(m, "run_id", json_string(in->run_id));
    json_t *abi = json_object();
    json_object_set(abi, "typescript_runtime", json_number(ABI_TYPESCRIPT_RUNTIME));
    json_object_set(abi, "quickjs_snapshot", json_number(ABI_QUICKJS_SNAPSHOT));
    json_object_set(abi, "engine_fork", json_string(ABI_ENGINE_FORK));
    json_object_set(m, "abi", abi);
    json_object_set(m, "snapshot_kind", json_string("replay_log"));
    json_object_set(m, "policy", policy_of(in->surface, in->seed));
    json_t *entry = json_object();
    json_object_set(entry, "path", json_string(in->entry));
    json_object_set(entry, "hash", json_string(hash));
    json_object_set(m, "entry", entry);
    json_object_set(m, "modules", json_array());
    json_t *graph = json_array(), *node = json_object();
    json_object_set(node, "path", json_string(in->entry));
    json_object_set(node, "imports", json_null()); /* not walked yet: see docs/durable-runs.md */
    json_array_push(graph, node);
    json_object_set(m, "module_graph", graph);
    json_object_set(m, "pending", json_null());
    json_object_set(m, "host_promises", json_array());
    json_object_set(m, "branch", json_null());
    json_t *caps = json_object();
    json_object_set(caps, "first_seen", json_object());
    json_object_set(m, "capabilities", caps);
    json_object_set(m, "vfs", json_null());
    const char *model = in->settings ? settings_nonempty(in->settings, "CHIDORI_MODEL") : NULL;
    if (model) json_object_set(m, "default_model", json_string(model));
    const char *pricing = in->settings && settings_given(in->settings, "CHIDORI_PRICING")
                              ? settings_text(in->settings, "CHIDORI_PRICING") : NULL;
    if (pricing) json_object_set(m, "pricing", json_string(pricing));
    json_object_set(m, "call_log_len", json_number(0));
    json_object_set(m, "snapshot_file", json_string("runtime.snapshot"));
    json_object_set(m, "created_at", iso_time(in->created_at_ms));
    return m;
}

json_t *manifest_view(const json_t *m, uint64_t call_log_len, const json_t *pending, bool awaiting_approval)
{
    json_t *v = json_copy(m);
    json_object_set(v, "call_log_len", json_number((double)call_log_len));
    const json_t *seq = json_object_get(pending, "seq");
    if (pending && seq) {
        const char *fn = json_string_value(json_object_get(pending, "function"));
        json_t *p = json_object();
        json_object_set(p, "id", json_copy(seq));
        json_object_set(p, "seq", json_copy(seq));
        /* the original's kinds: a fan-in (signal_any) is a `signal` pause too */
        json_object_set(p, "kind", json_string(awaiting_approval ? "policy_approval"
                                               : fn && !strcmp(fn, "signal_any") ? "signal"
                                               : fn ? fn : "input"));
        if (fn) json_object_set(p, "function", json_string(fn));
        const json_t *args = json_object_get(pending, "args");
        json_object_set(p, "args", args ? json_copy(args) : json_object());
        json_object_set(p, "created_at", json_copy(json_object_get(m, "created_at")) ?: json_null());
        json_object_set(v, "pending", p);
    }
    return v;
}

static const char *text_at(const json_t *m, const char *key, const char *sub)
{
    const json_t *v = json_object_get(m, key);
    return json_string_value(sub ? json_object_get(v, sub) : v);
}

/* Does part `key` of the two manifests differ (or the recorded one lack it)? Then *why is `form`
 * with the recorded and the current values as compact JSON. */
static bool part_differs(const json_t *recorded, const json_t *now, const char *key, const char *form, char **why)
{
    const json_t *was = json_object_get(recorded, key), *is = json_object_get(now, key);
    if (was && json_equal(was, is)) return false;
    char *a = was ? json_dump(was, JSON_COMPACT, NULL) : xstrdup("none");
    char *b = json_dump(is, JSON_COMPACT, NULL);
    *why = xasprintf(form, a, b);
    free(a);
    free(b);
    return true;
}

manifest_verdict manifest_compare(const json_t *recorded, const json_t *now, bool allow, char **why)
{
    *why = NULL;
    if (part_differs(recorded, now, "abi",
                     "runtime snapshot ABI mismatch: the run was recorded under %s, this runtime is %s; it cannot be "
                     "resumed here (POST /sessions with replay_from, or a new run, starts it again)",
                     why) ||
        part_differs(recorded, now, "policy",
                     "runtime snapshot policy mismatch: the run was recorded with %s and would resume with %s; set the "
                     "CHIDORI_TS_* and CHIDORI_VFS_* settings back to the recorded values to resume it",
                     why))
        return MANIFEST_INCOMPATIBLE;
    const char *path_was = text_at(recorded, "entry", "path"), *hash_was = text_at(recorded, "entry", "hash");
    const char *path_now = text_at(now, "entry", "path"), *hash_now = text_at(now, "entry", "hash");
    bool same = path_was && hash_was && path_now && hash_now && !strcmp(path_was, path_now) &&
                !strcmp(hash_was, hash_now);
    if (same) return MANIFEST_SAME;
    char *what = xasprintf("the agent source changed since this run was recorded (%s: %s, now %s)",
                           path_was ? path_was : "the entry", hash_was ? hash_was : "no hash", hash_now ? hash_now : "none");
    if (allow) {
        *why = what;
        return MANIFEST_SAME;
    }
    *why = xasprintf("%s; edit-and-resume is opt-in — pass --allow-source-change (CLI) or \"allow_source_change\": "
                     "true (server) to replay the recorded calls against the edited code, or put the recorded source "
                     "back", what);
    free(what);
    return MANIFEST_SOURCE_CHANGED;
}

bool manifest_refused_before(const runner_outcome *out, uint64_t frontier)
{
    return out->status == RUNNER_FAILED && !out->cancelled && out->diverged_at >= 1 && out->diverged_at <= frontier &&
           out->live_calls == 0;
}

/* A copy of object o without the keys named (NULL-terminated). */
static json_t *without(const json_t *o, const char *const *keys)
{
    json_t *c = json_object();
    for (size_t i = 0; json_is_object(o) && i < o->u.object.len; i++) {
        const char *k = o->u.object.items[i].key;
        bool drop = false;
        for (size_t j = 0; keys[j] && !drop; j++) drop = !strcmp(k, keys[j]);
        if (!drop) json_object_set(c, k, json_copy(o->u.object.items[i].value));
    }
    return c;
}

json_t *manifest_shared_part(const json_t *m)
{
    static const char *const per_run[] = {"run_id", "created_at", "call_log_len", "pending", "policy", NULL};
    static const char *const per_run_policy[] = {"deterministic_seed", NULL};
    json_t *shared = without(m, per_run);
    json_object_set(shared, "policy", without(json_object_get(m, "policy"), per_run_policy));
    return shared;
}

json_t *manifest_from_shared(const json_t *shared, const char *run_id, uint64_t seed, int64_t created_at_ms)
{
    json_t *m = json_object();
    json_object_set(m, "run_id", json_string(run_id));
    for (size_t i = 0; json_is_object(shared) && i < shared->u.object.len; i++)
        json_object_set(m, shared->u.object.items[i].key, json_copy(shared->u.object.items[i].value));
    json_t *policy = json_object_get(m, "policy");
    if (json_is_object(policy)) set_seed(policy, seed);
    json_object_set(m, "pending", json_null());
    json_object_set(m, "call_log_len", json_number(0));
    json_object_set(m, "created_at", iso_time(created_at_ms));
    return m;
}
