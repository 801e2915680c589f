/* main.c — the `chidori` command line: subcommands, flags, banner lines, exit codes.
 *
 * Exit codes: 0 success, 1 the run failed, 2 the command line was wrong.
 * Owns nothing long-lived: each command builds a host and an engine config, runs once, reports.
 */
#define _GNU_SOURCE
#include "cli/input.h"
#include "engine/engine.h"
#include "host/host.h"
#include "util/buf.h"
#include "util/files.h"
#include "util/random.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHIDORI_VERSION "0.1.0"
#define OUTPUT_MAX_BYTES ((size_t)64 << 20)
#define SCRIPT_MAX_BYTES ((size_t)16 << 20)

static const char usage_text[] =
    "usage: chidori <command> [options]\n"
    "\n"
    "commands:\n"
    "  run FILE [-i INPUT]... [--no-isolate]   run an agent; its output is printed as JSON\n"
    "  eval CODE | eval --file FILE            run a plain script (console.log to stdout)\n"
    "  version                                 print the version\n"
    "\n"
    "-i/--input takes a JSON object, @file.json, key=value or key=@file; items merge in order.\n"
    "Limits come from CHIDORI_JS_OP_BUDGET, CHIDORI_JS_MEM_CAP_MB, CHIDORI_JS_DEADLINE_MS and\n"
    "CHIDORI_JS_MAX_ALLOC_MB (see docs/limits.md).\n";

static int usage_error(const char *fmt, const char *arg)
{
    fputs("chidori: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\n\n", stderr);
    fputs(usage_text, stderr);
    return 2;
}

static int64_t realtime_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The values a run's determinism starts from. They are captured here, on the host; a replay
 * will read them back from the run's record instead. CHIDORI_SEED / CHIDORI_CLOCK_START_MS pin
 * them (tests, reproducing a run by hand). */
static int capture_run_start(uint64_t *seed, int64_t *clock_ms, char **error)
{
    const char *s = getenv("CHIDORI_SEED");
    const char *c = getenv("CHIDORI_CLOCK_START_MS");
    char *end;
    *seed = random_u64();
    *clock_ms = realtime_ms();
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

/* Isolation: the flag wins over CHIDORI_ISOLATE. Process isolation is not in this build yet, so
 * asking for it is an error rather than a silent downgrade. */
static int resolve_isolation(int flag, char **error)
{
    const char *env = getenv("CHIDORI_ISOLATE");
    bool want = false;
    if (flag >= 0) want = flag;
    else if (env && *env) {
        if (strcmp(env, "process") == 0) want = true;
        else if (strcmp(env, "off") != 0)
            return *error = xasprintf("CHIDORI_ISOLATE must be `process` or `off`, got `%s`", env), -1;
    }
    if (want) {
        *error = xstrdup("process isolation (--isolate / CHIDORI_ISOLATE=process) is not available in this build "
                         "yet; run with --no-isolate");
        return -1;
    }
    return 0;
}

static void print_failure(const char *error)
{
    fprintf(stderr, "chidori: run failed: %s\n", error);
}

static int cmd_run(int argc, char **argv)
{
    const char *file = NULL;
    int isolate = -1;
    json_t *input = json_object();
    char *error = NULL;
    int rc = 2;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-i") == 0 || strcmp(a, "--input") == 0) {
            if (++i >= argc) {
                rc = usage_error("%s needs a value", a);
                goto out;
            }
            if (input_merge_item(input, argv[i], &error) < 0) {
                fprintf(stderr, "chidori: %s\n", error);
                goto out;
            }
        } else if (strncmp(a, "--input=", 8) == 0) {
            if (input_merge_item(input, a + 8, &error) < 0) {
                fprintf(stderr, "chidori: %s\n", error);
                goto out;
            }
        } else if (strcmp(a, "--isolate") == 0) {
            isolate = 1;
        } else if (strcmp(a, "--no-isolate") == 0) {
            isolate = 0;
        } else if (a[0] == '-' && a[1]) {
            rc = usage_error("unknown option %s", a);
            goto out;
        } else if (!file) {
            file = a;
        } else {
            rc = usage_error("unexpected argument %s", a);
            goto out;
        }
    }
    if (!file) {
        rc = usage_error("%s", "run needs an agent file");
        goto out;
    }
    if (resolve_isolation(isolate, &error) < 0) {
        fprintf(stderr, "chidori: %s\n", error);
        goto out;
    }

    engine_config cfg = {.mode = ENGINE_AGENT};
    if (engine_limits_from_env(&cfg.limits, &error) < 0 ||
        capture_run_start(&cfg.seed, &cfg.clock_start_ms, &error) < 0) {
        fprintf(stderr, "chidori: %s\n", error);
        goto out;
    }

    char *path_copy = xstrdup(file), *base_copy = xstrdup(file);
    char *entry = xasprintf("%s", basename(base_copy));
    host_config hc = {.project_root = dirname(path_copy), .log_out = stderr, .console_out = stderr};
    host *h = host_new(&hc, &error);
    free(path_copy);
    free(base_copy);
    if (!h) {
        fprintf(stderr, "chidori: %s\n", error);
        free(entry);
        rc = 1;
        goto out;
    }

    char run_id[37];
    uuid_v4(run_id);
    fprintf(stderr, "Isolation: off (in-process run; process isolation is not built yet)\n");
    fprintf(stderr, "Run id: %s\n", run_id);

    char *input_text = json_dump(input, JSON_COMPACT, NULL);
    cfg.entry = entry;
    cfg.input_json = input_text;
    cfg.host = h;
    engine_result res;
    engine_run(&cfg, &res);
    rc = 1;
    if (res.status == RUN_COMPLETED) {
        json_limits lim = {OUTPUT_MAX_BYTES, JSON_DEFAULT_MAX_DEPTH};
        json_error jerr;
        json_t *out = json_parse(res.output_json, strlen(res.output_json), &lim, &jerr);
        if (!out) {
            fprintf(stderr, "chidori: run failed: the agent's output cannot be printed: %s\n", jerr.message);
        } else {
            char *pretty = json_dump(out, JSON_PRETTY, NULL);
            puts(pretty);
            free(pretty);
            json_free(out);
            rc = 0;
        }
    } else {
        print_failure(res.error);
    }
    fflush(stdout);
    engine_result_free(&res);
    free(input_text);
    free(entry);
    host_free(h);
out:
    free(error);
    json_free(input);
    return rc;
}

static int cmd_eval(int argc, char **argv)
{
    const char *file = NULL, *code = NULL;
    char *error = NULL;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--file") == 0 || strcmp(argv[i], "-f") == 0) {
            if (++i >= argc) return usage_error("%s needs a file", argv[i - 1]);
            file = argv[i];
        } else if (argv[i][0] == '-' && argv[i][1] && !code) {
            return usage_error("unknown option %s", argv[i]);
        } else if (!code && !file) {
            code = argv[i];
        } else {
            return usage_error("unexpected argument %s", argv[i]);
        }
    }
    if (!!file == !!code) return usage_error("%s", "eval needs CODE or --file FILE");

    engine_config cfg = {.mode = ENGINE_SCRIPT};
    if (engine_limits_from_env(&cfg.limits, &error) < 0 ||
        capture_run_start(&cfg.seed, &cfg.clock_start_ms, &error) < 0) {
        fprintf(stderr, "chidori: %s\n", error);
        free(error);
        return 2;
    }
    char *source;
    size_t len;
    char *root;
    if (file) {
        source = read_file_capped(file, SCRIPT_MAX_BYTES, &len, &error);
        if (!source) {
            fprintf(stderr, "chidori: %s\n", error);
            free(error);
            return 1;
        }
        char *copy = xstrdup(file);
        root = xstrdup(dirname(copy));
        free(copy);
    } else {
        source = xstrdup(code);
        len = strlen(code);
        root = xstrdup(".");
    }
    host_config hc = {.project_root = root, .log_out = stderr, .console_out = stdout};
    host *h = host_new(&hc, &error);
    free(root);
    if (!h) {
        fprintf(stderr, "chidori: %s\n", error);
        free(error);
        free(source);
        return 1;
    }
    cfg.script = source;
    cfg.script_len = len;
    cfg.script_name = file ? file : "<eval>";
    cfg.host = h;
    engine_result res;
    engine_run(&cfg, &res);
    int rc = res.status == RUN_COMPLETED ? 0 : 1;
    fflush(stdout);
    if (rc) print_failure(res.error);
    engine_result_free(&res);
    host_free(h);
    free(source);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) return usage_error("%s", "no command given");
    const char *cmd = argv[1];
    if (strcmp(cmd, "run") == 0) return cmd_run(argc - 2, argv + 2);
    if (strcmp(cmd, "eval") == 0) return cmd_eval(argc - 2, argv + 2);
    if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
        printf("chidori %s (QuickJS 2025-04-26)\n", CHIDORI_VERSION);
        return 0;
    }
    if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        fputs(usage_text, stdout);
        return 0;
    }
    return usage_error("unknown command `%s`", cmd);
}
