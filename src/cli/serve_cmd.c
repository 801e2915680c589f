/* serve_cmd.c — `chidori serve`'s command line: --host, --port, --db, the posture flags and the agent
 * file, turned into serve_options for src/serve/serve.c, which runs the server. Usage errors exit 2
 * here, before anything starts. */
#define _GNU_SOURCE
#include "cli/cli.h"
#include "serve/serve.h"
#include "settings/settings.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int parse_port(const char *text, int *port)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || *end || !*text || v < 0 || v > 65535) return -1;
    *port = (int)v;
    return 0;
}

static int parse_options(int argc, char **argv, const settings *set, serve_options *o)
{
    const char *env_host = settings_nonempty(set, "CHIDORI_HOST");
    o->host = env_host ? env_host : "127.0.0.1";
    o->port = 8080;
    o->isolate = -1;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--host") || !strcmp(a, "--port") || !strcmp(a, "-p") || !strcmp(a, "--db")) {
            if (++i >= argc) return cli_usage_error("%s needs a value", a);
            if (!strcmp(a, "--host")) o->host = argv[i];
            else if (!strcmp(a, "--db")) {
                if (!*argv[i]) return cli_usage_error("%s", "--db needs a postgresql:// URL or a SQLite file path");
                o->db = argv[i];
            }
            else if (parse_port(argv[i], &o->port) < 0) return cli_usage_error("%s needs a port (0-65535)", a);
        } else if (cli_posture_flag(a, &o->untrusted, &o->trusted, &o->isolate)) {
            continue;
        } else if (a[0] == '-' && a[1]) {
            return cli_usage_error("unknown option %s", a);
        } else if (!o->file) {
            o->file = a;
        } else {
            return cli_usage_error("unexpected argument %s", a);
        }
    }
    if (o->untrusted && o->trusted) return cli_usage_error("%s", "--untrusted and --trusted cannot be used together");
    if (!o->file) return cli_usage_error("%s", "serve needs an agent file");
    return 0;
}

int cmd_serve(int argc, char **argv, const settings *set)
{
    serve_options o = {0};
    int code = parse_options(argc, argv, set, &o);
    if (code) return code;
    return serve_run(&o, set);
}
