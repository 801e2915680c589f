/* fuzz_replay_from.c — the `replay_from` field of POST /sessions: a request body's bytes, parsed as
 * request.c parses them (1 MiB, depth 64), then its `replay_from` value (or the whole value when it
 * is not an object) checked by replay_from_check, as api.c does before a session is created.
 * Properties: no crash, hang or leak; a refusal always says why; an accepted log is an array
 * whose records a fresh call log loads again (the check and the run's load agree). */
#include "serve/replay_from.h"
#include "util/json.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_error err;
    json_limits lim = {1 << 20, 64, 0};
    json_t *body = json_parse((const char *)data, size, &lim, &err);
    if (!body) return 0;
    const json_t *v = json_is_object(body) ? json_object_get(body, "replay_from") : body;
    if (v) {
        calllog_caps caps = {1000, 1 << 20};
        char *error = NULL;
        if (replay_from_check(v, &caps, &error) == 0) {
            if (error || !json_is_array(v)) abort();
            calllog *log = calllog_new();
            char *again = NULL;
            if (calllog_load_records(log, v, "again", &again) != 0) abort();
            calllog_free(log);
        } else if (!error || !*error) {
            abort();
        }
        free(error);
    }
    json_free(body);
    return 0;
}
