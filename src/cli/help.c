/* help.c — `chidori help [COMMAND]`, `chidori COMMAND --help|-h`, and `chidori completion
 * bash|zsh`: the usage of every command, its options and an example, from one table, and the
 * shell completion scripts built from the same table (so the two cannot drift apart).
 * Trusts nothing: it only prints constant text. docs/cli.md is the long form of this table.
 */
#define _GNU_SOURCE
#include "cli/cli.h"

#include <stdio.h>
#include <string.h>

typedef struct command_help {
    const char *name;
    const char *usage;   /* after "usage: chidori " */
    const char *summary; /* one line */
    const char *options; /* "  --flag VALUE    meaning\n" lines, or NULL */
    const char *example; /* one or more lines */
    const char *words;   /* the options, space-separated, for completion */
    bool hidden;         /* not in the list of `chidori help` */
} command_help;

#define POSTURE                                                                                        \
    "  --untrusted         the untrusted policy profile: read-only workspace, no network, no\n"     \
    "                      writes (docs/policy.md)\n"                                                \
    "  --trusted           the permissive profile (serve's default is untrusted)\n"                 \
    "  --isolate           run the agent in a confined worker process (the default)\n"             \
    "  --no-isolate        run it inside this process\n"

static const command_help COMMANDS[] = {
    {"run", "run FILE [options]", "run an agent, recording every effect; its output is printed as JSON",
     "  -i, --input ITEM    the agent's input: a JSON object, @file.json, key=value or key=@file;\n"
     "                      items merge in order\n"
     "  --answer TEXT       answer the next chidori.input() question (repeatable, in order)\n"
     "  --runs-dir DIR      where the run folder goes (default: .chidori/runs next to the agent,\n"
     "                      or $CHIDORI_STATE_DIR/runs)\n"
     "  -q, --quiet         no live status line on stderr (drawn only when stderr is a terminal)\n"
     "  --stream            the run's events as JSON lines on stdout: each call, each prompt's\n"
     "                      prompt_start/prompt_delta/prompt_end, then done (exit 0 when paused)\n" POSTURE,
     "  chidori run examples/hello.js -i name=Ada\n"
     "  CHIDORI_TEST_LLM_RESPONSE='A brief.' chidori run examples/research.js -i topic=otters\n",
     "-i --input --answer --runs-dir -q --quiet --stream --untrusted --trusted --isolate --no-isolate --help", false},
    {"replay", "replay FILE RUN_ID [options]", "re-run a recorded run with zero live effects; it must end as it did",
     "  --runs-dir DIR      the runs folder the run is in\n"
     "  -q, --quiet         accepted as run takes it (a replay draws no status line)\n" POSTURE,
     "  chidori replay examples/hello.js 0b7c3f1e-5a2d-4c8e-9f10-2b3c4d5e6f70\n",
     "--runs-dir -q --quiet --untrusted --trusted --isolate --no-isolate --help", false},
    {"resume", "resume FILE RUN_ID [--response TEXT | --signal NAME [--payload JSON]] [options]",
     "continue a paused run with an answer or a signal, or an interrupted run from its log",
     "  --response TEXT     the answer to the question the run paused on\n"
     "  --signal NAME       deliver the signal the run waits for (chidori.signal)\n"
     "  --payload JSON      the signal's payload (default null)\n"
     "  --from JSON         who sent it (default null)\n"
     "  --answer TEXT       answer a later chidori.input() question (repeatable)\n"
     "  --runs-dir DIR      the runs folder the run is in\n"
     "  --allow-source-change  resume even though the agent's source changed since the run was\n"
     "                      recorded (the recorded calls must still replay)\n"
     "  -q, --quiet         no live status line on stderr (drawn only when stderr is a terminal)\n"
     "  --stream            the resumed run's events as JSON lines on stdout, as run --stream\n" POSTURE,
     "  chidori resume examples/approval.ts 0b7c3f1e-5a2d-4c8e-9f10-2b3c4d5e6f70 --response yes\n",
     "--response --signal --payload --from --answer --runs-dir --allow-source-change -q --quiet --stream --untrusted --trusted --isolate --no-isolate --help", false},
    {"runs", "runs list [--json] | runs show RUN_ID [--json] [--follow [--timeout S]]",
     "list the recorded runs, or show one run's call log",
     "  list                every run: id, agent, status, start, duration, effects, tokens\n"
     "  show RUN_ID         one run's calls: seq, function, duration, tokens, target, error\n"
     "                      (RUN_ID may be a unique prefix of the id)\n"
     "  --json              machine-readable output (its shape: docs/cli.md)\n"
     "  --follow, -f        show: print calls as they are recorded until the run ends or pauses\n"
     "  --timeout S         --follow: stop after S seconds (default 3600)\n"
     "  --runs-dir DIR      the runs folder (default: the one `chidori run` here would use:\n"
     "                      $CHIDORI_STATE_DIR/runs, else ./.chidori/runs)\n"
     "  CHIDORI_PRICES=FILE a JSON file of dollars per million tokens by model adds a cost\n"
     "  CHIDORI_PRICING=JSON the same inline, by model prefix (the original chidori's form)\n",
     "  chidori runs list\n"
     "  chidori runs show 0b7c3f1e --json\n"
     "  chidori runs show 0b7c3f1e --follow\n",
     "list show --json --follow --timeout --runs-dir --help", false},
    {"branches", "branches RUN_ID [--json] [--runs-dir DIR]",
     "list the branches a run's chidori.branch calls left in its folder",
     "  --json              one line of JSON (default: pretty)\n"
     "  --runs-dir DIR      the runs folder (default: as `chidori runs`)\n",
     "  chidori branches 0b7c3f1e-5a2d-4c8e-9f10-2b3c4d5e6f70\n",
     "--json --runs-dir --help", false},
    {"branch-resume", "branch-resume RUN_ID BRANCH_ID -v TEXT [options]",
     "answer a branch that paused on an input and run it on; only the branch store changes",
     "  -v, --value TEXT    the answer to the question the branch paused on\n"
     "  --runs-dir DIR      the runs folder the run is in\n" POSTURE,
     "  chidori branch-resume 0b7c3f1e-5a2d-4c8e-9f10-2b3c4d5e6f70 0b7c3f1e-5a2d-4c8e-9f10-2b3c4d5e6f70-op2-branch-1 -v yes\n",
     "-v --value --runs-dir --untrusted --trusted --isolate --no-isolate --help", false},
    {"branch-rerun", "branch-rerun RUN_ID BRANCH_ID [options]",
     "run a branch again from its anchor with an empty log; only the branch store changes",
     "  --runs-dir DIR      the runs folder the run is in\n" POSTURE,
     "  chidori branch-rerun 0b7c3f1e-5a2d-4c8e-9f10-2b3c4d5e6f70 0b7c3f1e-5a2d-4c8e-9f10-2b3c4d5e6f70-op2-branch-0\n",
     "--runs-dir --untrusted --trusted --isolate --no-isolate --help", false},
    {"serve", "serve FILE [options]", "durable sessions of the agent over HTTP, and the dashboard at /ui",
     "  --host HOST         the address to listen on (default 127.0.0.1, or $CHIDORI_HOST)\n"
     "  -p, --port PORT     the port (default 8080; 0 picks a free one)\n"
     "  --db URL|PATH       the session database: a postgresql:// URL or a SQLite file (default $CHIDORI_DB_URL,\n"
     "                      else $CHIDORI_DB_PATH, else sessions.sqlite3 in the state folder)\n" POSTURE,
     "  chidori serve examples/hello.js --port 8080\n"
     "  curl -s localhost:8080/sessions -d '{\"input\": {\"name\": \"Ada\"}, \"wait\": true}'\n",
     "--host --port --db --untrusted --trusted --isolate --no-isolate --help", false},
    {"eval", "eval CODE | eval --file FILE", "run a plain script (console.log goes to stdout)",
     "  -f, --file FILE     the script to run\n", "  chidori eval 'console.log(1 + 1)'\n", "--file --help", false},
    {"sandbox", "sandbox", "test this machine's isolation guarantees live, one forbidden act at a time", NULL,
     "  chidori sandbox\n", "--help", false},
    {"model-login", "model-login", "sign in to OpenRouter in a browser and save its key for chidori.prompt",
     NULL,
     "  chidori model-login              # opens the sign-in page; the key goes to ~/.chidori/credentials.json\n"
     "  BROWSER=firefox chidori model-login\n",
     "--help", false},
    {"version", "version", "print the version and build", NULL, "  chidori version\n", "--help", false},
    {"help", "help [COMMAND]", "this help, or a command's", NULL, "  chidori help runs\n", "", false},
    {"completion", "completion bash|zsh", "print a shell completion script",
     NULL,
     "  source <(chidori completion bash)          # bash, in ~/.bashrc\n"
     "  chidori completion zsh > ~/.zfunc/_chidori  # zsh, with ~/.zfunc in $fpath\n",
     "bash zsh", false},
    {"settings", "settings", "print the settings table (tab-separated; docs/settings.md explains it)", NULL,
     "  chidori settings | cut -f1,3\n", "--help", true},
};
#define N_COMMANDS (sizeof COMMANDS / sizeof COMMANDS[0])

static const command_help *find(const char *name)
{
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (!strcmp(COMMANDS[i].name, name)) return &COMMANDS[i];
    return NULL;
}

void cli_print_overview(FILE *out)
{
    fputs("usage: chidori <command> [options]\n\ncommands:\n", out);
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (!COMMANDS[i].hidden) fprintf(out, "  %-12s %s\n", COMMANDS[i].name, COMMANDS[i].summary);
    fputs("\n`chidori help COMMAND` or `chidori COMMAND --help` shows a command's options and an example;\n"
          "docs/cli.md is the full reference.\n"
          "Exit codes: 0 completed, 1 failed, 2 wrong command line, 3 paused (waiting for input).\n"
          "Settings come from CHIDORI_* variables (docs/settings.md).\n",
          out);
}

bool cli_has_help(const char *name) { return find(name) != NULL; }

int cli_print_command_help(const char *name)
{
    const command_help *c = find(name);
    if (!c) return cli_usage_error("no help for `%s`: not a command", name);
    printf("usage: chidori %s\n\n%s\n", c->usage, c->summary);
    if (c->options) printf("\noptions:\n%s", c->options);
    printf("\nexample:\n%s", c->example);
    return 0;
}

int cmd_help(int argc, char **argv)
{
    if (argc == 0) {
        cli_print_overview(stdout);
        return 0;
    }
    if (argc > 1) return cli_usage_error("%s", "help takes one command");
    return cli_print_command_help(argv[0]);
}

/* ---------- completion ---------- */

static void command_names(FILE *out)
{
    for (size_t i = 0, first = 1; i < N_COMMANDS; i++)
        if (!COMMANDS[i].hidden) fprintf(out, first ? "%s" : " %s", COMMANDS[i].name), first = 0;
}

static void print_bash(void)
{
    fputs("# bash completion for chidori (chidori completion bash)\n"
          "_chidori() {\n"
          "    local cur prev cmd\n"
          "    cur=\"${COMP_WORDS[COMP_CWORD]}\"\n"
          "    prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n"
          "    cmd=\"${COMP_WORDS[1]}\"\n"
          "    if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
          "        COMPREPLY=( $(compgen -W \"",
          stdout);
    command_names(stdout);
    fputs("\" -- \"$cur\") )\n"
          "        return 0\n"
          "    fi\n"
          "    case \"$prev\" in\n"
          "        --runs-dir) COMPREPLY=( $(compgen -d -- \"$cur\") ); return 0 ;;\n"
          "        -f|--file) COMPREPLY=( $(compgen -f -- \"$cur\") ); return 0 ;;\n"
          "        -i|--input|--answer|--response|--host|-p|--port|--db|--timeout) COMPREPLY=(); return 0 ;;\n"
          "        help) COMPREPLY=( $(compgen -W \"",
          stdout);
    command_names(stdout);
    fputs("\" -- \"$cur\") ); return 0 ;;\n"
          "    esac\n"
          "    local words=\"\"\n"
          "    case \"$cmd\" in\n",
          stdout);
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (!COMMANDS[i].hidden && COMMANDS[i].words[0])
            printf("        %s) words=\"%s\" ;;\n", COMMANDS[i].name, COMMANDS[i].words);
    fputs("    esac\n"
          "    if [[ \"$cur\" == -* || \"$cmd\" == runs || \"$cmd\" == completion ]]; then\n"
          "        COMPREPLY=( $(compgen -W \"$words\" -- \"$cur\") )\n"
          "    else\n"
          "        COMPREPLY=( $(compgen -f -- \"$cur\") )\n"
          "    fi\n"
          "    return 0\n"
          "}\n"
          "complete -o filenames -F _chidori chidori\n",
          stdout);
}

static void print_zsh(void)
{
    fputs("#compdef chidori\n"
          "# zsh completion for chidori (chidori completion zsh > a folder of $fpath, as _chidori)\n"
          "_chidori() {\n"
          "    local -a commands\n"
          "    commands=(\n",
          stdout);
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (!COMMANDS[i].hidden) printf("        '%s:%s'\n", COMMANDS[i].name, COMMANDS[i].summary);
    fputs("    )\n"
          "    if (( CURRENT == 2 )); then\n"
          "        _describe 'command' commands\n"
          "        return\n"
          "    fi\n"
          "    local -a opts\n"
          "    case ${words[2]} in\n",
          stdout);
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (!COMMANDS[i].hidden && COMMANDS[i].words[0])
            printf("        %s) opts=(%s) ;;\n", COMMANDS[i].name, COMMANDS[i].words);
    fputs("    esac\n"
          "    if [[ ${words[CURRENT]} == -* || ${words[2]} == (runs|completion|help) ]]; then\n"
          "        [[ ${words[2]} == help ]] && opts=(${commands%%:*})\n"
          "        compadd -a opts\n"
          "    else\n"
          "        _files\n"
          "    fi\n"
          "}\n"
          "if [[ $zsh_eval_context[-1] == loadautofunc ]]; then _chidori \"$@\"; else compdef _chidori chidori; fi\n",
          stdout);
}

int cmd_completion(int argc, char **argv)
{
    if (argc != 1) return cli_usage_error("%s", "completion needs a shell: bash or zsh");
    if (!strcmp(argv[0], "bash")) print_bash();
    else if (!strcmp(argv[0], "zsh")) print_zsh();
    else return cli_usage_error("no completion for `%s`: bash or zsh", argv[0]);
    return 0;
}
