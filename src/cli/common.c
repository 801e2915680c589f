/* common.c — command-line pieces shared by the commands: the usage error, the posture flags. */
#define _GNU_SOURCE
#include "cli/cli.h"
#include "util/buf.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *cli_program = "chidori"; /* main() sets argv[0] */

int cli_usage_error(const char *fmt, const char *arg)
{
    fputs("chidori: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\n\n", stderr);
    cli_print_overview(stderr);
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
