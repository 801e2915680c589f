/* test_module_record.c — what the module loader keeps of a run for its snapshot manifest
 * (host/effects/module_record.h): files and imports, their caps, and how the manifest carries and
 * re-checks them (runner/manifest.h: manifest_set_served, manifest_inputs.recheck). */
#include "unit.h"
#include "host/effects/module_record.h"
#include "runner/manifest.h"
#include "util/buf.h"
#include "util/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* The served lists as a manifest read back from its file or the store has them: parsed values
 * (module_record_json writes them as text, json_raw). */
static json_t *reparsed(json_t *j)
{
    char *text = json_dump(j, JSON_COMPACT, NULL);
    json_error err;
    json_t *back = json_parse(text, strlen(text), NULL, &err);
    free(text);
    json_free(j);
    return back;
}

TEST(module_record_lists_files_and_imports_entry_first)
{
    module_record r;
    module_record_init(&r);
    module_record_file(&r, "agent.js", "E", 1, true);
    module_record_file(&r, "lib.js", "a", 1, false);
    module_record_import(&r, "agent.js", "./lib.js", "lib.js");
    module_record_import(&r, "agent.js", "node:fs", MODULE_RECORD_BUILTINS "fs.js");
    module_record_import(&r, "agent.js", "./lib.js", "lib.js"); /* asked again: listed once */
    module_record_file(&r, "lib.js", "changed", 7, false);      /* served again: the first hash stays */
    module_record_import(&r, "<input>", "./lib.js", "lib.js");  /* not a served file: not listed */
    json_t *j = reparsed(module_record_json(&r));
    CHECK_STR(json_string_value(json_object_get(j, "entry")), "agent.js");
    const json_t *mods = json_object_get(j, "modules"), *graph = json_object_get(j, "module_graph");
    CHECK(mods->u.array.len == 1 && graph->u.array.len == 2);
    char h[25];
    manifest_fnv1a64("a", 1, h);
    CHECK_STR(json_string_value(json_object_get(mods->u.array.items[0], "path")), "lib.js");
    CHECK_STR(json_string_value(json_object_get(mods->u.array.items[0], "hash")), h);
    const json_t *imports = json_object_get(graph->u.array.items[0], "imports");
    CHECK_STR(json_string_value(json_object_get(graph->u.array.items[0], "path")), "agent.js");
    CHECK(imports->u.array.len == 2);
    CHECK_STR(json_string_value(json_object_get(imports->u.array.items[1], "resolved_path")), "/__node_builtins__/fs.js");
    CHECK(!json_object_get(j, "modules_past_cap"));
    json_free(j);
    module_record_free(&r);
}

TEST(module_record_caps_files_and_imports)
{
    module_record r;
    module_record_init(&r);
    module_record_file(&r, "agent.js", "", 0, true);
    char key[64];
    for (int i = 0; i < MODULE_RECORD_MAX_FILES + 10; i++) {
        snprintf(key, sizeof key, "m%d.js", i);
        module_record_file(&r, key, key, strlen(key), false);
    }
    for (int i = 0; i < MODULE_RECORD_MAX_IMPORTS + 5; i++) {
        snprintf(key, sizeof key, "./x%d.js", i);
        module_record_import(&r, "agent.js", key, "m0.js");
    }
    json_t *j = reparsed(module_record_json(&r));
    /* the entry counts among the files kept: MAX - 1 modules listed, 11 past the cap */
    CHECK(json_object_get(j, "modules")->u.array.len == MODULE_RECORD_MAX_FILES - 1);
    const json_t *past = json_object_get(j, "modules_past_cap");
    CHECK(past && json_number_value(json_object_get(past, "modules")) == 11);
    CHECK(json_number_value(json_object_get(past, "imports")) == 5);
    CHECK(strncmp(json_string_value(json_object_get(past, "hash")), "fnv1a64:", 8) == 0);
    json_free(j);
    module_record_free(&r);
}

static void put(const char *dir, const char *name, const char *text)
{
    char *path = xasprintf("%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    free(path);
}

static json_t *built(const char *dir, const json_t *recheck)
{
    manifest_inputs in = {.run_id = "r", .project_root = dir, .entry = "agent.js", .recheck = recheck};
    char *error = NULL;
    json_t *m = manifest_build(&in, &error);
    free(error);
    return m;
}

TEST(manifest_rechecks_the_served_modules)
{
    char dir[] = "/tmp/chidori-modrec-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    put(dir, "agent.js", "entry");
    put(dir, "lib.js", "one");
    module_record r;
    module_record_init(&r);
    module_record_file(&r, "agent.js", "entry", 5, true);
    module_record_file(&r, "lib.js", "one", 3, false);
    json_t *served = module_record_json(&r);
    module_record_free(&r);
    json_t *rec = built(dir, NULL);
    CHECK(rec && json_object_get(rec, "modules")->u.array.len == 0);
    manifest_set_served(rec, served);
    rec = reparsed(rec); /* as written and read back */
    CHECK(json_object_get(rec, "modules")->u.array.len == 1);
    char *why = NULL;
    json_t *now = built(dir, rec);
    CHECK(manifest_compare(rec, now, false, &why) == MANIFEST_SAME && !why);
    json_free(now);
    put(dir, "lib.js", "two"); /* an edited module: a source change */
    now = built(dir, rec);
    CHECK(manifest_compare(rec, now, false, &why) == MANIFEST_SOURCE_CHANGED);
    CHECK(why && strstr(why, "module lib.js") && strstr(why, "allow-source-change"));
    free(why);
    CHECK(manifest_compare(rec, now, true, &why) == MANIFEST_SAME && why);
    free(why);
    json_free(now);
    char *path = xasprintf("%s/lib.js", dir);
    unlink(path); /* a module gone: "missing" */
    now = built(dir, rec);
    CHECK(manifest_compare(rec, now, false, &why) == MANIFEST_SOURCE_CHANGED && strstr(why, "now missing"));
    free(why);
    json_free(now);
    /* a module replaced by a symlink leading out of the project is not followed: "missing" */
    char *outside = xasprintf("%s.outside", dir);
    FILE *o = fopen(outside, "w");
    fputs("one", o); /* the recorded bytes, out of reach */
    fclose(o);
    CHECK(symlink(outside, path) == 0);
    now = built(dir, rec);
    CHECK(manifest_compare(rec, now, false, &why) == MANIFEST_SOURCE_CHANGED && strstr(why, "now missing"));
    free(why);
    json_free(now);
    unlink(path);
    unlink(outside);
    free(outside);
    /* a path that leads out of the project is never opened: it reads as changed */
    json_t *forged = json_copy(rec);
    json_object_set(json_object_get(forged, "modules")->u.array.items[0], "path", json_string("../etc/passwd"));
    now = built(dir, forged);
    CHECK(manifest_compare(forged, now, false, &why) == MANIFEST_SOURCE_CHANGED && strstr(why, "unchecked"));
    free(why);
    json_free(now);
    /* modules of another shape than a list: changed; an older manifest with none: not compared */
    json_object_set(forged, "modules", json_string("x"));
    now = built(dir, forged);
    CHECK(manifest_compare(forged, now, false, &why) == MANIFEST_SOURCE_CHANGED);
    free(why);
    json_free(now);
    json_t *old = built(dir, NULL);
    put(dir, "lib.js", "three");
    now = built(dir, old);
    CHECK(manifest_compare(old, now, false, &why) == MANIFEST_SAME && !why);
    json_free(now);
    json_free(old);
    json_free(forged);
    json_free(rec);
    json_free(served);
    unlink(path);
    free(path);
    path = xasprintf("%s/agent.js", dir);
    unlink(path);
    free(path);
    rmdir(dir);
}

/* The lists as values, built here from what the test served (the form the manifest had before
 * module_record_json wrote them as text): the reference the written bytes are compared with. */
typedef struct served_file {
    const char *key;
    const char *bytes;
    const char *imports[4][2]; /* {specifier, resolved (NULL: null)}, up to a NULL specifier */
} served_file;

static json_t *reference_node(const served_file *f)
{
    json_t *node = json_object(), *imports = json_array();
    json_object_set(node, "path", json_string(f->key));
    for (size_t i = 0; i < 4 && f->imports[i][0]; i++) {
        json_t *e = json_object();
        json_object_set(e, "specifier", json_string(f->imports[i][0]));
        json_object_set(e, "resolved_path", f->imports[i][1] ? json_string(f->imports[i][1]) : json_null());
        json_array_push(imports, e);
    }
    json_object_set(node, "imports", imports);
    return node;
}

/* files[0..n) in load order; entry: the index of the entry, or -1 */
static json_t *reference_served(const served_file *files, size_t n, int entry)
{
    json_t *o = json_object(), *modules = json_array(), *graph = json_array();
    json_object_set(o, "entry", entry >= 0 ? json_string(files[entry].key) : json_null());
    if (entry >= 0) json_array_push(graph, reference_node(&files[entry]));
    for (size_t i = 0; i < n; i++) {
        if ((int)i == entry) continue;
        char h[25];
        manifest_fnv1a64(files[i].bytes, strlen(files[i].bytes), h);
        json_t *m = json_object();
        json_object_set(m, "path", json_string(files[i].key));
        json_object_set(m, "hash", json_string(h));
        json_array_push(modules, m);
        json_array_push(graph, reference_node(&files[i]));
    }
    json_object_set(o, "modules", modules);
    json_object_set(o, "module_graph", graph);
    return o;
}

static void record_all(module_record *r, const served_file *files, size_t n, int entry)
{
    for (size_t i = 0; i < n; i++)
        module_record_file(r, files[i].key, files[i].bytes, strlen(files[i].bytes), (int)i == entry);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < 4 && files[i].imports[j][0]; j++)
            module_record_import(r, files[i].key, files[i].imports[j][0], files[i].imports[j][1]);
}

static bool same_dump(const json_t *a, const json_t *b, int flags)
{
    char *x = json_dump(a, flags, NULL), *y = json_dump(b, flags, NULL);
    bool same = !strcmp(x, y);
    if (!same) fprintf(stderr, "  written:   %.300s\n  reference: %.300s\n", x, y);
    free(x);
    free(y);
    return same;
}

/* The served lists are written as text at once (json_raw); the manifest a run writes and a server
 * stores must be the bytes the values made before: entry first or not, no entry, no imports, a
 * null resolution, keys that need escapes, the past-cap summary added and taken away again. */
TEST(module_record_text_is_the_bytes_of_the_value_form)
{
    static const served_file files[] = {
        {"pre.js", "p", {{"./q\"uote.js", "q\"uote.js"}}}, /* loaded before the entry */
        {"agent.js", "entry", {{"./pre.js", "pre.js"}, {"node:fs", MODULE_RECORD_BUILTINS "fs.js"}, {"gone", NULL}}},
        {"q\"uote.js", "q", {{"./back\\slash\n\t\x01.js", "back\\slash\n\t\x01.js"}}},
        {"back\\slash\n\t\x01.js", "b", {{"./\xc3\xa9t\xc3\xa9/\xf0\x9f\x98\x80.js", "\xc3\xa9t\xc3\xa9/\xf0\x9f\x98\x80.js"}}},
        {"\xc3\xa9t\xc3\xa9/\xf0\x9f\x98\x80.js", "u", {{"./\x7f\xed\xa0\x80</script>\u2028.js", NULL}}},
        {"leaf.js", "", {{NULL}}},
    };
    size_t n = sizeof files / sizeof files[0];
    for (int entry = -1; entry <= 1; entry++) {
        module_record r;
        module_record_init(&r);
        record_all(&r, files, n, entry);
        json_t *written = module_record_json(&r), *reference = reference_served(files, n, entry);
        CHECK(json_is_raw(json_object_get(written, "modules")) && json_is_raw(json_object_get(written, "module_graph")));
        CHECK(same_dump(written, reference, JSON_COMPACT));
        CHECK(same_dump(written, reference, JSON_PRETTY));
        CHECK(json_equal(written, reference) && json_equal(reference, written));
        json_t *copy = json_copy(written);
        CHECK(json_equal(copy, written) && same_dump(copy, reference, JSON_COMPACT));
        json_free(copy);
        json_free(written);
        json_free(reference);
        module_record_free(&r);
    }

    /* in a whole manifest: with the served lists, then past the loader's caps, then under them again */
    char dir[] = "/tmp/chidori-modrec-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    put(dir, "agent.js", "entry");
    module_record r;
    module_record_init(&r);
    record_all(&r, files, n, 1);
    char key[64];
    for (int i = 0; i < MODULE_RECORD_MAX_FILES + 3; i++) { /* past the cap: summarized */
        snprintf(key, sizeof key, "node_modules/p/m%d.js", i);
        module_record_file(&r, key, key, strlen(key), false);
    }
    json_t *capped = module_record_json(&r);
    module_record_free(&r);
    CHECK(json_object_get(capped, "modules_past_cap") != NULL);
    json_t *capped_ref = reparsed(json_copy(capped)); /* parsed: the value form of the same lists */
    CHECK(json_is_array(json_object_get(capped_ref, "modules")));
    module_record_init(&r);
    record_all(&r, files, n, 1);
    json_t *plain = module_record_json(&r), *plain_ref = reference_served(files, n, 1);
    module_record_free(&r);

    json_t *a = built(dir, NULL), *b = built(dir, NULL);
    json_object_set(b, "created_at", json_copy(json_object_get(a, "created_at")));
    manifest_set_served(a, capped);
    manifest_set_served(b, capped_ref);
    CHECK(json_is_raw(json_object_get(a, "modules")));
    CHECK(same_dump(a, b, JSON_COMPACT) && same_dump(a, b, JSON_PRETTY));
    manifest_set_served(a, plain); /* the cap an earlier stretch reached is taken away */
    manifest_set_served(b, plain_ref);
    CHECK(!json_object_get(a, "modules_past_cap"));
    CHECK(same_dump(a, b, JSON_COMPACT));
    json_t *shared_a = manifest_shared_part(a), *shared_b = manifest_shared_part(b);
    CHECK(same_dump(shared_a, shared_b, JSON_COMPACT) && json_equal(shared_a, shared_b));
    json_free(shared_a);
    json_free(shared_b);
    json_free(a);
    json_free(b);
    json_free(capped);
    json_free(capped_ref);
    json_free(plain);
    json_free(plain_ref);
    char *path = xasprintf("%s/agent.js", dir);
    unlink(path);
    free(path);
    rmdir(dir);
}
