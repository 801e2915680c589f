/* main.c — the `chidori` command line: subcommands, flags, banner lines, exit codes.
 *
 * Exit codes: 0 success, 1 the run failed, 2 the command line was wrong.
 * Owns nothing long-lived: each command builds a host and an engine config, runs once, reports.
 * The edge: the environment is read here, once (settings_from_environ), and nowhere below.
 */
#define _GNU_SOURCE
#include "cli/cli.h"
#include "runner/runner.h"
#include "runner/start.h"
#include "runner/surface.h"
#include "settings/settings.h"
#include "telemetry/otel.h"
#include "engine/arena.h"
#include "engine/engine.h"
#include "host/host.h"
#include "isolate/isolate.h"
#include "isolate/protocol.h"
#include "isolate/spawn.h"
#include "util/buf.h"
#include "util/files.h"
#include "util/heap_pages.h"
#include "util/random.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CHIDORI_VERSION "0.1.0"
#define SCRIPT_MAX_BYTES ((size_t)16 << 20)

static int cmd_eval(int argc, char **argv, const settings *set)
{
    const char *file = NULL, *code = NULL;
    char *error = NULL;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--file") == 0 || strcmp(argv[i], "-f") == 0) {
            if (++i >= argc) return cli_usage_error("%s needs a file", argv[i - 1]);
            file = argv[i];
        } else if (argv[i][0] == '-' && argv[i][1] && !code) {
            return cli_usage_error("unknown option %s", argv[i]);
        } else if (!code && !file) {
            code = argv[i];
        } else {
            return cli_usage_error("unexpected argument %s", argv[i]);
        }
    }
    if (!!file == !!code) return cli_usage_error("%s", "eval needs CODE or --file FILE");

    engine_config cfg = {.mode = ENGINE_SCRIPT};
    surface_settings surf = {0};
    engine_limits_from_settings(&cfg.limits, set);
    run_start_capture(set, &cfg.seed, &cfg.clock_start_ms);
    if (surface_from_settings(&surf, set, &error) < 0 || surface_check_seed(&surf, &error) < 0) {
        fprintf(stderr, "chidori: %s\n", error);
        free(error);
        surface_settings_clear(&surf);
        return 2;
    }
    surface_apply_to_engine(&surf, &cfg);
    char *source;
    size_t len;
    char *root, *entry = NULL;
    if (file) {
        source = read_file_capped(file, SCRIPT_MAX_BYTES, &len, &error);
        if (!source) {
            fprintf(stderr, "chidori: %s\n", error);
            free(error);
            surface_settings_clear(&surf);
            return 1;
        }
        /* The file's folder is the project root and the file is its entry, named relative to that
         * root as `chidori run` names it: import('./y.js') from dir/x.js resolves beside x.js. */
        if (runner_split_agent(file, &root, &entry, &error) < 0) {
            fprintf(stderr, "chidori: %s\n", error);
            free(error);
            free(source);
            surface_settings_clear(&surf);
            return 1;
        }
    } else {
        source = xstrdup(code);
        len = strlen(code);
        root = xstrdup(".");
    }
    host_config hc = {.project_root = root, .log_out = stderr, .console_out = stdout, .settings = set,
                      .vfs_seed = surf.vfs_seed, .vfs_max_bytes = surf.vfs_max_bytes,
                      .vfs_clock_ms = cfg.clock_start_ms, .fs_disabled = !strcmp(surf.fs, "none")};
    host *h = host_new(&hc, &error);
    free(root);
    surface_settings_clear(&surf);
    if (!h) {
        fprintf(stderr, "chidori: %s\n", error);
        free(error);
        free(source);
        return 1;
    }
    cfg.script = source;
    cfg.script_len = len;
    cfg.script_name = entry ? entry : "<eval>";
    cfg.seam = host_seam(h);
    cfg.exit_after = true; /* the command ends with this run */
    /* no worker: the backstop watches this process (eval performs no effect, so the wall too) */
    isolate_inproc_backstop_arm(&cfg.limits, true, ISOLATE_INPROC_HOST_SLACK_MS);
    engine_result res;
    engine_run(&cfg, &res);
    int rc = res.status == RUN_COMPLETED ? 0 : 1;
    fflush(stdout);
    if (rc) {
        fputs("chidori: run failed: ", stderr);
        write_for_terminal(stderr, res.error, strlen(res.error));
        fputc('\n', stderr);
    }
    engine_result_free(&res);
    host_free(h);
    free(source);
    free(entry);
    return rc;
}

/* The commands that run something: each gets the settings, read once from the environment before
 * anything else happens (a bad value: exit 2, nothing started, nothing written). */
static const struct {
    const char *name;
    int (*fn)(int argc, char **argv, const settings *s);
    /* runs one agent and exits: its heap is asked for in huge pages (heap_pages.h); run, replay and
     * resume ask themselves (cli/run.c, step_setup), once an isolated run's worker is under way */
    bool one_run;
} RUNNING[] = {
    {"run", cmd_run, false}, {"replay", cmd_replay, false}, {"resume", cmd_resume, false}, {"eval", cmd_eval, true},
    {"sandbox", cmd_sandbox, false}, {"serve", cmd_serve, false}, {"runs", cmd_runs, false},
    {"branches", cmd_branches, false}, {"branch-resume", cmd_branch_resume, true},
    {"branch-rerun", cmd_branch_rerun, true}, {"model-login", cmd_model_login, false},
};

/* `--help` or `-h` among a command's arguments, and not the value of an option that takes one
 * (`-i --help` is an input). */
static bool asks_help(int argc, char **argv)
{
    static const char *const takes_value[] = {"-i", "--input", "--answer", "--runs-dir", "--response", "--host",
                                              "--port", "--db", "-p", "--file", "-f", "--timeout", "-v", "--value"};
    for (int i = 2; i < argc; i++) {
        bool is_value = false;
        for (size_t k = 0; k < sizeof takes_value / sizeof takes_value[0]; k++)
            if (!strcmp(argv[i - 1], takes_value[k])) is_value = i > 2;
        if (!is_value && (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))) return true;
    }
    return false;
}

int main(int argc, char **argv)
{
    frame_ignore_sigpipe(); /* a worker or MCP server that dies is an error, not our death */
    if (argc > 0 && argv[0] && argv[0][0]) cli_program = argv[0];
    if (argc < 2) return cli_usage_error("%s", "no command given");
    const char *cmd = argv[1];
    if (strcmp(cmd, "__run-worker") == 0) return worker_main(); /* hidden: the isolated child */
    /* help before anything else: it reads no settings, so it works whatever the environment holds */
    if (cli_has_help(cmd) && strcmp(cmd, "help") != 0 && strcmp(cmd, "completion") != 0 && asks_help(argc, argv))
        return cli_print_command_help(cmd);
    if (strcmp(cmd, "completion") == 0) return cmd_completion(argc - 2, argv + 2);
    for (size_t i = 0; i < sizeof RUNNING / sizeof RUNNING[0]; i++) {
        if (strcmp(cmd, RUNNING[i].name) != 0) continue;
        if (RUNNING[i].one_run) {
            heap_prefer_huge_pages();
            arena_prefer_huge_pages();
        }
        arena_keep_pages(); /* a released set-up block is zeroed and kept mapped (arena.h); not in a worker */
        char *error = NULL;
        settings *s = settings_from_environ(environ, &error);
        if (!s) {
            fprintf(stderr, "chidori: %s (docs/settings.md lists every setting)\n", error);
            free(error);
            return 2;
        }
        /* traces, when an OTLP endpoint is set (docs/observability.md): exported from this
         * process only, never from a worker */
        if (otel_start(s, &error) != 0) {
            fprintf(stderr, "chidori: %s (docs/observability.md)\n", error);
            free(error);
            settings_free(s);
            return 2;
        }
        int rc = RUNNING[i].fn(argc - 2, argv + 2, s);
        otel_shutdown();
        settings_free(s);
        return rc;
    }
    if (strcmp(cmd, "settings") == 0) return cmd_settings(argc - 2, argv + 2); /* hidden: the table */
    if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
        const char *worker = spawn_worker_binary();
        printf("chidori %s (%s)\nbuild %s\nworker %s\n", CHIDORI_VERSION, engine_name(), chidori_build_id,
               worker ? worker : "(this binary: chidori __run-worker)");
        return 0;
    }
    if (strcmp(cmd, "help") == 0) return cmd_help(argc - 2, argv + 2);
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) return cmd_help(0, NULL);
    return cli_usage_error("unknown command `%s`", cmd);
}
