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
    json_t *j = module_record_json(&r);
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
    json_t *j = module_record_json(&r);
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
