/* serve.c — `chidori serve [--trusted|--untrusted] [--isolate|--no-isolate] [--host H]
 * [--port P] AGENT`: durable sessions of one agent over HTTP (docs/http-api.md). The command line
 * and the settings are read by src/cli/ (serve_cmd.c, main.c); this file starts from them.
 *
 * Start-up, in order: the policy (the `serve` surface: untrusted unless
 * --trusted or a configured policy; a broken configuration fails closed to untrusted); the
 * limits (the engine's, and the caps on a session's stored log) and isolation options; the listening socket (a non-loopback address without
 * CHIDORI_API_KEY is refused); the session database; the `Isolation:` line (a confined worker is
 * started once and reports its layers) and the `Policy:` line; the stored sessions (those that
 * were running are re-run); then the HTTP server and `Listening on http://H:P`.
 *
 * SIGINT / SIGTERM stop it: no new runs, streams end, running runs are stopped and stay
 * `running` in the database, so the next server re-runs them.
 */
#define _GNU_SOURCE
#include "serve/serve.h"
#include "host/host.h"
#include "host/policy.h"
#include "isolate/isolate.h"
#include "isolate/forkserver.h"
#include "runner/runner.h"
#include "runner/start.h"
#include "settings/settings.h"
#include "serve/store.h"
#include "util/buf.h"
#include "util/page_cost.h"

#include <errno.h>
#include <sys/resource.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define DRAIN_MS 10000

/* The `Isolation:` line: one confined worker is started and reports the layers it applied, so
 * the banner states what this machine really gives the sessions. */
static int isolation_banner(bool isolated, const char *folder, const settings *set, const isolate_options *iso,
                            const engine_limits *limits, char **error)
{
    if (!isolated) {
        fprintf(stderr, "Isolation: off (sessions run in-process; --isolate runs each in a worker process)\n");
        return 0;
    }
    host_config hc = {.project_root = folder, .log_out = stderr, .console_out = stderr, .settings = set};
    host *h = host_new(&hc, error);
    if (!h) return -1;
    engine_config cfg = {.mode = ENGINE_SCRIPT, .script = "", .script_name = "<isolation probe>", .limits = *limits};
    engine_result res;
    char *banner = NULL;
    supervisor_run(&cfg, h, iso, &res, &banner);
    int rc = 0;
    if (!banner) { /* a worker that reported its layers confined itself: that is all the probe asks */
        *error = xasprintf("cannot start an isolated worker: %s", res.error ? res.error : "?");
        rc = -1;
    }
    free(banner);
    engine_result_free(&res);
    host_free(h);
    return rc;
}

/* Where a fork server's workers get their engine (CHIDORI_SERVE_FORKSERVER_ENGINE): a copy of the
 * one the fork server prepared, or one each builds (and a warm worker builds before its session).
 * "auto" measures what a first write to a page costs here: copying the prepared engine is a
 * copy-on-write fault per page its run writes, and where each fault traps to a hypervisor that
 * costs more than building anew into one huge page (docs/http-api.md, "Warm workers"). */
static uint64_t fs_engine_choose(const settings *set, isolate_options *iso)
{
    const char *word = settings_word(set, "CHIDORI_SERVE_FORKSERVER_ENGINE");
    uint64_t ns = 0;
    if (!strcmp(word, "auto")) {
        ns = page_first_write_ns();
        iso->forkserver_own_engine = ns > PAGE_COST_COSTLY_NS;
    } else {
        iso->forkserver_own_engine = !strcmp(word, "own");
    }
    return ns;
}

static void fs_engine_banner(const isolate_options *iso, uint64_t ns)
{
    fprintf(stderr, "Fork server: %s", iso->forkserver_own_engine ? "each worker builds its engine" : "workers copy its prepared engine");
    if (ns) fprintf(stderr, " (a first write to a page costs %.1f us here)", (double)ns / 1000.0);
    fputc('\n', stderr);
}

/* A server holds per running session its worker's pipes and pidfd, per connection a socket, and
 * keeps cgroup slots between runs: more than a default soft limit of 1024 allows at full load.
 * The soft limit is raised towards the hard one (what any process may do). */
static void raise_descriptor_limit(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0) return;
    rlim_t want = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > 65536 ? 65536 : rl.rlim_max;
    if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < want) {
        rl.rlim_cur = want;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}

int serve_run(const serve_options *opts, const settings *set)
{
    serve_options o = *opts;
    int code;

    /* Every thread started from here on (runs, connections) leaves these to sigwait below. */
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_signals, NULL);
    raise_descriptor_limit();

    char *error = NULL, *folder = NULL, *key = NULL, *state_dir = NULL, *db_path = NULL, *address = NULL, *node_default = NULL;
    run_setup rs = {0};
    sessions_config sc = {0};
    server srv = {0};
    store *st = NULL;
    http_server *http = NULL;
    worker_pool *pool = NULL;
    forkserver *fs = NULL;
    uint64_t page_ns = 0; /* what fs_engine_choose measured (0: it did not) */
    int listen_fd = -1;
    code = 2;

    /* the settings were read and checked before this command started (main.c): each session reads
     * them from here */
    sc.settings = set;
    /* the policy (the `serve` surface fails closed: never an error), the limits, the caps on a run's
     * log (in a session, the session's whole log: each run loads it all), isolation, the surface */
    int setup = run_setup_from_settings(&rs, set, POLICY_SURFACE_SERVE, o.untrusted, o.trusted, o.isolate, &error);
    if (rs.policy.warning) fprintf(stderr, "chidori serve: %s\n", rs.policy.warning);
    if (setup < 0 || surface_check_seed(&rs.surface, &error) < 0) goto fail;
    if (prices_load(set, &srv.prices, &error) < 0) goto fail;
    sc.limits = rs.limits;
    sc.log_caps = rs.log_caps;
    sc.surface = rs.surface; /* a copy: rs keeps owning the seed */
    sc.isolated = rs.isolated;
    sc.iso = rs.iso;
    if (sc.isolated) {
        /* one empty network namespace for every worker of this server (see shared_netns.c) */
        sc.iso.shared_netns = isolate_netns_open();
        sc.iso.has_shared_netns = sc.iso.shared_netns >= 0;
    }
    sc.max_running = (int)settings_u64(set, "CHIDORI_MAX_CONCURRENT_SESSIONS");
    sc.acquire_timeout_ms = (int)settings_u64(set, "CHIDORI_ACQUIRE_TIMEOUT_MS");
    sc.park_ms = (int64_t)settings_u64(set, "CHIDORI_SERVE_PARK_MS");
    sc.park_max = (int)settings_u64(set, "CHIDORI_SERVE_PARK_MAX");
    /* this node among the servers sharing the database (docs/scaling.md) */
    sc.lease_ms = (int64_t)settings_u64(set, "CHIDORI_LEASE_MS");
    sc.notified_poll_ms = (int)settings_u64(set, "CHIDORI_CLUSTER_POLL_MS");
    const char *node_id = settings_nonempty(set, "CHIDORI_NODE_ID");
    char host[256] = "localhost";
    if (gethostname(host, sizeof host - 1) != 0) snprintf(host, sizeof host, "localhost");
    host[sizeof host - 1] = 0;
    node_default = node_id ? NULL : xasprintf("%s-%d", host, (int)getpid());
    sc.node_id = node_id ? node_id : node_default;
    /* confined workers kept ready for new runs (0: none) */
    int warm = (int)settings_u64(set, "CHIDORI_SERVE_WARM_WORKERS");
    /* workers one fork server forks before a fresh one replaces it (0: FORKSERVER_MAX_FORKS) */
    int max_forks = (int)settings_u64(set, "CHIDORI_SERVE_FORKSERVER_FORKS");
    if (auth_from_settings(&srv.auth, set, &error) < 0) goto fail;
    /* the names the server answers to (auth.h): loopback ones, --host, CHIDORI_ALLOWED_HOSTS */
    if (auth_hosts_from_settings(&srv.auth, set, o.host, &error) < 0) goto fail;
    /* the HTTP transport's limits (httpd.h): threads of its event loop, connections in all and
     * from one address, how long a silent connection is kept, and how long a request's headers may take */
    http_settings hs = {
        .threads = (int)settings_u64(set, "CHIDORI_SERVE_HTTP_THREADS"),
        .max_connections = (int)settings_u64(set, "CHIDORI_SERVE_MAX_CONNECTIONS"),
        .max_per_client = (int)settings_u64(set, "CHIDORI_SERVE_MAX_CONNECTIONS_PER_CLIENT"),
        .idle_timeout_s = (int)settings_u64(set, "CHIDORI_SERVE_IDLE_TIMEOUT"),
        .header_timeout_s = (int)settings_u64(set, "CHIDORI_SERVE_HEADER_TIMEOUT"),
    };

    code = 1;
    struct stat sb;
    if (stat(o.file, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        error = xasprintf("cannot serve %s: %s", o.file, errno ? strerror(errno) : "not a regular file");
        goto fail;
    }
    if (runner_split_agent(o.file, &folder, &key, &error) < 0) goto fail;

    /* Without a key, only this machine may reach the server. */
    int lrc = http_listen(o.host, o.port, !auth_required(&srv.auth), &listen_fd, &error);
    if (lrc < 0) {
        if (lrc == -2) code = 2;
        goto fail;
    }

    state_dir = run_start_state_dir(set, folder);
    /* the session database (docs/storage.md): --db, else CHIDORI_DB_URL (PostgreSQL), else
     * CHIDORI_DB_PATH, else a SQLite file in the state folder */
    const char *env_db = o.db ? o.db : settings_nonempty(set, "CHIDORI_DB_URL");
    if (!env_db) env_db = settings_nonempty(set, "CHIDORI_DB_PATH");
    db_path = env_db ? xstrdup(env_db) : xasprintf("%s/sessions.sqlite3", state_dir);
    st = store_open(db_path, &error);
    if (!st) goto fail;
    free(db_path);
    db_path = xstrdup(store_describe(st)); /* as it may be printed: a URL without its password */

    /* Workers forked from one confined process rather than exec'd one by one (forkserver.h);
     * CHIDORI_SERVE_FORKSERVER=0 turns that off (a benchmark's comparison, a debugging aid). */
    if (sc.isolated && settings_flag(set, "CHIDORI_SERVE_FORKSERVER")) {
        page_ns = fs_engine_choose(set, &sc.iso);
        sc.iso.forkserver = fs = forkserver_open(&sc.iso, max_forks);
    }
    if (isolation_banner(sc.isolated, folder, set, &sc.iso, &sc.limits, &error) < 0) goto fail;
    if (fs) fs_engine_banner(&sc.iso, page_ns);
    fprintf(stderr, "Policy: %s\n", rs.policy.description);
    char *hosts = auth_hosts_describe(&srv.auth);
    fprintf(stderr, "Hosts: %s\n", hosts);
    free(hosts);
    /* a session's response does not wait for its worker's exit; the workers that outlive their
     * answered sessions so are no more than the sessions that may run at once */
    sc.iso.end_in_background = sc.max_running;
    if (sc.isolated && warm > 0) {
        pool = worker_pool_start(warm, &sc.iso, &sc.limits);
        sc.iso.pool = pool;
        fprintf(stderr, "Warm workers: %d (confined before they are needed, each used once)\n", warm);
    }

    sc.project_root = folder;
    sc.entry = key;
    sc.state_dir = state_dir;
    sc.policy = rs.policy.policy;
    srv.ss = sessions_new(&sc, st);
    const char *no_parking = sessions_parking(srv.ss);
    if (no_parking) fprintf(stderr, "Parked runs: %s\n", no_parking);
    else
        fprintf(stderr, "Parked runs: up to %d, for %lld ms each (a resume or an approval then goes on without "
                        "replaying)\n", sc.park_max, (long long)sc.park_ms);
    size_t total = 0, rerun = 0;
    if (sessions_load(srv.ss, &total, &rerun, &error) < 0) goto fail;
    fprintf(stderr, "Sessions: %zu in %s%s", total, db_path, rerun ? "" : "\n");
    if (rerun) fprintf(stderr, " (%zu were running when the server stopped: re-running them)\n", rerun);

    http = http_start(listen_fd, &hs, router_handle, &srv, &error);
    if (!http) goto fail;
    address = http_bound_address(listen_fd);
    fprintf(stderr, "Listening on http://%s\n", address);
    fprintf(stderr, "Dashboard: http://%s/ui\n", address);
    fflush(stderr);

    int sig = 0;
    while (sigwait(&stop_signals, &sig) != 0) {
    }
    fprintf(stderr, "chidori serve: stopping (signal %d); running sessions continue on the next start\n", sig);
    sessions_stop(srv.ss);
    http_stop(http);
    bool idle = sessions_drain(srv.ss, DRAIN_MS);
    code = 0;
    if (!idle) {
        /* a run that would not stop (an in-process computation): the process ends under it */
        fflush(stderr);
        _exit(0);
    }
    goto done;

fail:
    fprintf(stderr, "chidori: %s\n", error);
    if (srv.ss) {
        sessions_stop(srv.ss);
        if (!sessions_drain(srv.ss, DRAIN_MS)) _exit(code);
    }
done:
    free(error);
    worker_pool_stop(pool); /* after the runs: its workers die with its thread */
    forkserver_close(fs);   /* the same */
    if (srv.ss) sessions_free(srv.ss);
    if (sc.iso.has_shared_netns) close(sc.iso.shared_netns);
    store_close(st);
    if (!http && listen_fd >= 0) close(listen_fd); /* once started, the daemon closes it */
    auth_clear(&srv.auth);
    prices_clear(&srv.prices);
    run_setup_clear(&rs);
    free(folder);
    free(key);
    free(state_dir);
    free(db_path);
    free(address);
    free(node_default);
    return code;
}
