/* common.c — command-line pieces shared by the commands: usage, the posture flags. */
#define _GNU_SOURCE
#include "cli/cli.h"
#include "util/buf.h"

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

bool cli_posture_flag(const char *a, bool *untrusted, bool *trusted, int *isolate)
{
    if (!strcmp(a, "--untrusted")) *untrusted = true;
    else if (!strcmp(a, "--trusted")) *trusted = true;
    else if (!strcmp(a, "--isolate")) *isolate = 1;
    else if (!strcmp(a, "--no-isolate")) *isolate = 0;
    else return false;
    return true;
}
