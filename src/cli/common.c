/* common.c — command-line pieces shared by the commands: usage, the captured run start, the
 * isolation choice. */
#define _GNU_SOURCE
#include "cli/cli.h"
#include "util/clock.h"
#include "util/buf.h"
#include "util/random.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char cli_usage_text[] =
    "usage: chidori <command> [options]\n"
    "\n"
    "commands:\n"
    "  run FILE [-i INPUT]... [--answer TEXT]... [--runs-dir DIR] [--untrusted|--trusted]\n"
    "          [--no-isolate]\n"
    "                                          run an agent, recording every effect; its output is\n"
    "                                          printed as JSON\n"
    "  replay FILE RUN_ID [--runs-dir DIR]     re-run a recorded run with zero live effects\n"
    "  resume FILE RUN_ID [--response TEXT]    answer a paused run's input and continue, or\n"
    "                                          continue an interrupted run from its log\n"
    "  serve FILE [--host H] [--port P] [--untrusted|--trusted] [--no-isolate]\n"
    "                                          durable sessions of the agent over HTTP\n"
    "                                          (docs/http-api.md)\n"
    "  eval CODE | eval --file FILE            run a plain script (console.log to stdout)\n"
    "  sandbox                                 the isolation guarantees of this machine, tested live\n"
    "  version                                 print the version\n"
    "\n"
    "-i/--input takes a JSON object, @file.json, key=value or key=@file; items merge in order.\n"
    "Exit codes: 0 completed, 1 failed, 2 wrong command line, 3 paused (waiting for input).\n"
    "Limits come from CHIDORI_JS_OP_BUDGET, CHIDORI_JS_MEM_CAP_MB, CHIDORI_JS_DEADLINE_MS and\n"
    "CHIDORI_JS_MAX_ALLOC_MB; a run's call log is capped by CHIDORI_LOG_MAX_RECORDS and\n"
    "CHIDORI_LOG_MAX_BYTES (see docs/limits.md).\n";

int cli_usage_error(const char *fmt, const char *arg)
{
    fputs("chidori: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\n\n", stderr);
    fputs(cli_usage_text, stderr);
    return 2;
}


/* The values a run's determinism starts from. They are captured here, on the host; a replay
 * will read them back from the run's record instead. CHIDORI_SEED / CHIDORI_CLOCK_START_MS pin
 * them (tests, reproducing a run by hand). */
int cli_capture_run_start(uint64_t *seed, int64_t *clock_ms, char **error)
{
    const char *s = getenv("CHIDORI_SEED");
    const char *c = getenv("CHIDORI_CLOCK_START_MS");
    char *end;
    *seed = random_u64();
    *clock_ms = clock_realtime_ms();
    if (s && *s) {
        errno = 0;
        *seed = strtoull(s, &end, 10);
        if (*end || errno || *s == '-') return *error = xasprintf("CHIDORI_SEED must be an unsigned integer"), -1;
    }
    if (c && *c) {
        errno = 0;
        long long v = strtoll(c, &end, 10);
        if (*end || errno || v < 0 || v > 8640000000000000LL)
            return *error = xasprintf("CHIDORI_CLOCK_START_MS must be milliseconds since 1970"), -1;
        *clock_ms = v;
    }
    return 0;
}

/* Isolation: the flag wins over CHIDORI_ISOLATE. Returns 1 for a confined worker process per run
 * (the CLI's default), 0 for in-process, -1 with *error for a bad CHIDORI_ISOLATE. */
int cli_resolve_isolation(int flag, char **error)
{
    const char *env = getenv("CHIDORI_ISOLATE");
    if (flag >= 0) return flag;
    if (env && *env) {
        if (strcmp(env, "process") == 0) return 1;
        if (strcmp(env, "off") != 0)
            return *error = xasprintf("CHIDORI_ISOLATE must be `process` or `off`, got `%s`", env), -1;
        return 0;
    }
    return 1;
}

const char *cli_getenv(const char *name) { return getenv(name); }

bool cli_posture_flag(const char *a, bool *untrusted, bool *trusted, int *isolate)
{
    if (!strcmp(a, "--untrusted")) *untrusted = true;
    else if (!strcmp(a, "--trusted")) *trusted = true;
    else if (!strcmp(a, "--isolate")) *isolate = 1;
    else if (!strcmp(a, "--no-isolate")) *isolate = 0;
    else return false;
    return true;
}
