/* sandbox_cmd.c — `chidori sandbox`: the guarantee matrix of this machine, measured live.
 *
 * For every forbidden act of the self-test list it starts a real confined worker (the same
 * supervisor and sandbox a run gets), has it try that one act, and prints what stopped it. The
 * first line is the worker's own confinement report. Exit 0 when every act was stopped, 1 when one
 * was not (the machine cannot confine a worker the way the docs say).
 */
#define _GNU_SOURCE
#include "cli/cli.h"
#include "engine/engine.h"
#include "host/host.h"
#include "isolate/isolate.h"
#include "isolate/sandbox_linux.h"
#include "settings/settings.h"
#include "util/buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cmd_sandbox(int argc, char **argv, const settings *set)
{
    if (argc > 0) return cli_usage_error("%s", "sandbox takes no arguments");
    char *error = NULL;
    engine_config cfg = {.mode = ENGINE_SCRIPT, .script = "", .script_len = 0, .script_name = "<sandbox>"};
    engine_limits_from_settings(&cfg.limits, set);
    isolate_options iso;
    isolate_options_from_settings(&iso, set);
    host_config hc = {.project_root = ".", .log_out = stderr, .console_out = stderr, .settings = set};
    host *h = host_new(&hc, &error);
    if (!h) {
        fprintf(stderr, "chidori: %s\n", error);
        free(error);
        return 1;
    }
    int failures = 0;
    for (size_t i = 0; sandbox_selftest_probes[i]; i++) {
        const char *probe = sandbox_selftest_probes[i];
        iso.selftest = probe;
        engine_result res;
        char *banner = NULL;
        supervisor_run(&cfg, h, &iso, &res, i == 0 ? &banner : NULL);
        if (banner) {
            printf("Isolation: %s\n\n%-14s %s\n", banner, "forbidden act", "outcome");
            free(banner);
        }
        const char *verdict;
        char line[320];
        if (res.status == RUN_FAILED) {
            snprintf(line, sizeof line, "stopped: %s", res.error);
            verdict = line;
        } else if (res.output_json && strstr(res.output_json, "NOT BLOCKED")) {
            verdict = "NOT STOPPED";
            failures++;
        } else {
            json_error jerr;
            json_t *o = res.output_json ? json_parse(res.output_json, strlen(res.output_json), NULL, &jerr) : NULL;
            snprintf(line, sizeof line, "stopped: %s", json_string_value(json_object_get(o, "outcome")) ?: "?");
            json_free(o);
            verdict = line;
        }
        printf("%-14s %s\n", probe, verdict);
        engine_result_free(&res);
    }
    host_free(h);
    printf("\n%s\n", failures ? "Some forbidden acts were NOT stopped on this machine." : "Every forbidden act was stopped.");
    return failures ? 1 : 0;
}
