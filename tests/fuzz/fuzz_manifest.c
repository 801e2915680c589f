/* fuzz_manifest.c — a stored snapshot manifest as the resume check reads it (runner/manifest.h):
 * any JSON as the recorded manifest, re-checked against a small project (its modules hashed again,
 * paths that lead out refused unopened), compared, and taken as what a run was served
 * (manifest_set_served). Properties: no crash, no leak, and a verdict for every input. */
#include "runner/manifest.h"
#include "util/buf.h"
#include "util/json.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *project(void)
{
    static char dir[] = "/tmp/chidori-fuzz-manifest-XXXXXX";
    static bool made;
    if (!made && mkdtemp(dir)) {
        made = true;
        char *path = xasprintf("%s/agent.js", dir);
        FILE *f = fopen(path, "w");
        if (f) fputs("export default 1;\n", f), fclose(f);
        free(path);
        path = xasprintf("%s/lib.js", dir);
        f = fopen(path, "w");
        if (f) fputs("export const x = 2;\n", f), fclose(f);
        free(path);
    }
    return dir;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_error err;
    json_limits lim = {1 << 20, 64, 0};
    json_t *recorded = json_parse((const char *)data, size, &lim, &err);
    if (!recorded) return 0;
    manifest_inputs in = {.run_id = "r", .project_root = project(), .entry = "agent.js", .recheck = recorded};
    char *error = NULL;
    json_t *now = manifest_build(&in, &error);
    free(error);
    if (now) {
        char *why = NULL;
        manifest_verdict v = manifest_compare(recorded, now, false, &why);
        if (v != MANIFEST_SAME && !why) abort(); /* a refusal always says why */
        free(why);
        manifest_set_served(now, recorded);
        json_free(now);
    }
    json_free(recorded);
    return 0;
}
