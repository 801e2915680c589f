/* common.c — command-line pieces shared by the commands: the usage error, the posture flags. */
#define _GNU_SOURCE
#include "cli/cli.h"
#include "util/buf.h"
#include "util/json.h"
#include "util/termtext.h"

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

void cli_print_json(const json_t *v, bool pretty)
{
    size_t len;
    char *text = json_dump(v, pretty ? JSON_PRETTY : JSON_COMPACT, &len);
    buf shown = {0};
    term_json_escape(&shown, text, len);
    buf_putc(&shown, '\n');
    fwrite(shown.data, 1, shown.len, stdout);
    fflush(stdout);
    buf_free(&shown);
    free(text);
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
