/* cli.h — pieces shared by the command-line files (main.c, run.c). */
#ifndef CHIDORI_CLI_H
#define CHIDORI_CLI_H

#include <stdbool.h>
#include <stdint.h>

extern const char cli_usage_text[];

/* Prints the message and the usage text; returns 2 (the exit code for a wrong command line). */
int cli_usage_error(const char *fmt, const char *arg);
/* The seed and clock start a run's determinism starts from (CHIDORI_SEED / CHIDORI_CLOCK_START_MS
 * pin them). 0, or -1 with *error. */
int cli_capture_run_start(uint64_t *seed, int64_t *clock_ms, char **error);
/* --isolate / --no-isolate (flag: 1/0, -1 unset) and CHIDORI_ISOLATE: 1 isolated, 0 in-process,
 * -1 with *error. */
int cli_resolve_isolation(int flag, char **error);

/* --untrusted, --trusted, --isolate, --no-isolate (the run's policy and isolation posture, the
 * same for run/replay/resume and serve): true when `a` is one of them and was recorded. */
bool cli_posture_flag(const char *a, bool *untrusted, bool *trusted, int *isolate);

/* getenv with the signature policy_select wants. */
const char *cli_getenv(const char *name);

int cmd_run(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_resume(int argc, char **argv);
int cmd_sandbox(int argc, char **argv);
int cmd_serve(int argc, char **argv); /* src/serve/serve.c */

#endif
