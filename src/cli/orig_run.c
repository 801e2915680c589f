/* orig_run.c — the original chidori's run folder, read for replay (see orig_run.h). */
#define _GNU_SOURCE
#include "cli/orig_run.h"
#include "host/calllog.h"
#include "util/buf.h"
#include "util/files.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SMALL_FILE_MAX ((size_t)16 << 20) /* input.json, output.json */

static bool exists(const char *dir, const char *name)
{
    char *p = xasprintf("%s/%s", dir, name);
    bool yes = access(p, F_OK) == 0;
    free(p);
    return yes;
}

bool orig_run_is(const char *dir) { return !exists(dir, "run.json") && exists(dir, "checkpoint.json"); }

#define ORIG_CHECKPOINT_MAX_BYTES ((size_t)64 << 20)

/* dir/name parsed as JSON (within max bytes), or NULL with *error; *missing when the file is not there. */
static json_t *read_json(const char *dir, const char *name, size_t max, bool *missing, char **error)
{
    char *path = xasprintf("%s/%s", dir, name);
    *missing = access(path, F_OK) != 0 && errno == ENOENT;
    json_t *v = NULL;
    if (!*missing) {
        size_t len;
        char *why = NULL;
        char *text = read_regular_file_capped(path, max, &len, &why);
        if (!text) {
            *error = xasprintf("the original chidori's run: %s", why);
            free(why);
        } else {
            json_limits lim = {max, JSON_DEFAULT_MAX_DEPTH, 0};
            json_error jerr;
            v = json_parse(text, len, &lim, &jerr);
            if (!v) *error = xasprintf("the original chidori's run: %s is not JSON (%d:%d: %s)", path, jerr.line, jerr.col, jerr.message);
            free(text);
        }
    }
    free(path);
    return v;
}

int orig_run_read(const char *dir, const char *run_id, const char *key, run_meta *m, json_t **records, char **error)
{
    memset(m, 0, sizeof *m);
    *records = NULL;
    *error = NULL;
    bool missing = false;
    /* parsed whole (a JSON array, not lines), so held to far less than a records.jsonl may be */
    json_t *log = read_json(dir, "checkpoint.json", ORIG_CHECKPOINT_MAX_BYTES, &missing, error);
    if (!log) return -1;
    if (!json_is_array(log)) {
        *error = xasprintf("the original chidori's run: %s/checkpoint.json must be an array of call records", dir);
        json_free(log);
        return -1;
    }
    json_t *input = read_json(dir, "input.json", SMALL_FILE_MAX, &missing, error);
    if (!input && !missing) {
        json_free(log);
        return -1;
    }
    if (input && !json_is_object(input)) json_free(input), input = NULL;
    json_t *output = read_json(dir, "output.json", SMALL_FILE_MAX, &missing, error);
    if (!output) {
        if (missing)
            *error = xasprintf("the original chidori's run in %s has no output.json: only a completed run of the original "
                               "replays here (a failed or paused one has nothing to compare the replay with)", dir);
        json_free(log);
        json_free(input);
        return -1;
    }
    snprintf(m->run_id, sizeof m->run_id, "%s", run_id);
    m->agent = xstrdup(key);
    m->input = input ? input : json_object();
    m->status = xstrdup("completed");
    m->output = output;
    *records = log;
    return 0;
}
