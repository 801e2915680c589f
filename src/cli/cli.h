/* cli.h — pieces shared by the command-line files (main.c, run.c). */
#ifndef CHIDORI_CLI_H
#define CHIDORI_CLI_H

#include <stdbool.h>
#include <stdint.h>

#include <stdio.h>

/* help.c: the list of commands (`chidori help`), a command's help (`chidori help CMD`, `CMD
 * --help`: 0, or 2 for an unknown command), and `chidori completion bash|zsh`. */
void cli_print_overview(FILE *out);
bool cli_has_help(const char *name);
int cli_print_command_help(const char *name);
int cmd_help(int argc, char **argv);
int cmd_completion(int argc, char **argv);
/* The program as it was invoked (argv[0]), for the hints that name a command to run. */
extern const char *cli_program;

/* Prints the message and the usage text; returns 2 (the exit code for a wrong command line). */
int cli_usage_error(const char *fmt, const char *arg);

/* --untrusted, --trusted, --isolate, --no-isolate (the run's policy and isolation posture, the
 * same for run/replay/resume and serve): true when `a` is one of them and was recorded. */
/* v as JSON on stdout (pretty or compact), then a newline, with C1 and bidi controls written as
 * \u escapes (util/termtext.h): the same JSON value, safe on a terminal. */
struct json_t;
void cli_print_json(const struct json_t *v, bool pretty);

bool cli_posture_flag(const char *a, bool *untrusted, bool *trusted, int *isolate);

/* The commands that run something get the settings main.c read from the environment once, before
 * anything else (settings.h): no code below reads the environment. */
struct settings;
int cmd_run(int argc, char **argv, const struct settings *s);
int cmd_replay(int argc, char **argv, const struct settings *s);
int cmd_resume(int argc, char **argv, const struct settings *s);
int cmd_sandbox(int argc, char **argv, const struct settings *s);
int cmd_serve(int argc, char **argv, const struct settings *s); /* serve_cmd.c */
int cmd_runs(int argc, char **argv, const struct settings *s);  /* runs_cmd.c */
/* branch_cmd.c: the branch store of a run's chidori.branch calls */
int cmd_branches(int argc, char **argv, const struct settings *s);
int cmd_branch_resume(int argc, char **argv, const struct settings *s);
int cmd_branch_rerun(int argc, char **argv, const struct settings *s);
/* model_login.c: `chidori model-login`, the OpenRouter sign-in in a browser (docs/cli.md) */
int cmd_model_login(int argc, char **argv, const struct settings *s);
/* `chidori settings`: the settings table, one tab-separated row per variable (docs/settings.md). */
int cmd_settings(int argc, char **argv);

#endif
