"""tests/pgserver.py — a throwaway PostgreSQL 15 cluster for the tests of `chidori serve --db`.

One cluster per test run, started at the first call of database() (or url()) and stopped when the
process exits: initdb in a temporary folder, the server listening on a Unix socket in that folder
only (no TCP port), fsync off (a test cluster needs no durability across power loss), trust
authentication on that socket. Each test asks for a database of its own (CREATE DATABASE), so
tests never see each other's rows.

initdb and postgres refuse to run as root: as root, the cluster is run as the unprivileged user
`nobody` (its folder is given to it); as any other user, as that user. The binaries are Debian's
postgresql-15 package's, in /usr/lib/postgresql/15/bin (scripts/setup.sh installs it), not
whatever a PATH happens to hold.

unavailable() says why no cluster can be started here (None when one can), for a test's Skip.
"""
import atexit
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
import threading

PG_BIN = "/usr/lib/postgresql/15/bin"
USER = "chidori"  # the cluster's superuser (trust authentication on its private socket)
PSQL_ENV = {"PATH": "/usr/bin:/bin", "LC_ALL": "C"}

_lock = threading.Lock()
_cluster = None
_failed = None
_names = itertools.count(1)


def unavailable():
    for tool in ("initdb", "pg_ctl", "postgres", "psql"):
        if not os.access(os.path.join(PG_BIN, tool), os.X_OK):
            return f"PostgreSQL 15 is not installed ({PG_BIN}/{tool} is missing; scripts/setup.sh installs postgresql-15)"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("nobody")
        except KeyError:
            return "running as root and there is no user `nobody` to run PostgreSQL as"
    return _failed


class Cluster:
    def __init__(self):
        # in /tmp, not $TMPDIR: `nobody` must reach it, and a socket's path has at most 107 bytes
        self.dir = tempfile.mkdtemp(prefix="chidori-pg-", dir="/tmp" if os.path.isdir("/tmp") else None)
        self.data = os.path.join(self.dir, "data")
        self.log = os.path.join(self.dir, "server.log")
        self.as_user = {}
        if os.geteuid() == 0:
            nobody = pwd.getpwnam("nobody")
            os.chown(self.dir, nobody.pw_uid, nobody.pw_gid)
            self.as_user = {"user": nobody.pw_uid, "group": nobody.pw_gid, "extra_groups": []}
        os.chmod(self.dir, 0o700)

    def _run(self, argv, timeout=120):
        p = subprocess.run(argv, cwd=self.dir, capture_output=True, text=True, timeout=timeout,
                           env={"PATH": "/usr/bin:/bin", "LC_ALL": "C"}, **self.as_user)
        if p.returncode != 0:
            raise RuntimeError(f"{os.path.basename(argv[0])} failed ({p.returncode}):\n{p.stdout}{p.stderr}")
        return p.stdout

    def start(self):
        self._run([os.path.join(PG_BIN, "initdb"), "-D", self.data, "-U", USER, "--auth=trust", "-E", "UTF8",
                   "--locale=C", "--no-sync"])
        opts = (f"-k {self.dir} -c listen_addresses='' -c fsync=off -c synchronous_commit=off"
                " -c full_page_writes=off -c max_connections=300 -c shared_buffers=32MB")
        try:
            self._run([os.path.join(PG_BIN, "pg_ctl"), "-D", self.data, "-l", self.log, "-o", opts, "-w", "-t", "60",
                       "start"])
        except RuntimeError as e:
            raise RuntimeError(f"{e}\n{self.server_log()}")
        return self

    def server_log(self):
        try:
            with open(self.log) as f:
                return f.read()[-4000:]
        except OSError:
            return ""

    def url(self, dbname):
        return f"postgresql://{USER}@/{dbname}?host={self.dir}"

    def _psql(self, dbname, *extra):
        """psql's command line for dbname, as the cluster's superuser: unaligned, no headers, stop
        at the first error."""
        return [os.path.join(PG_BIN, "psql"), "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1",
                "-h", self.dir, "-U", USER, "-d", dbname, *extra]

    def psql(self, dbname, sql):
        """Run sql in dbname (as the cluster's superuser); returns its output, unaligned, no headers."""
        p = subprocess.run(self._psql(dbname, "-c", sql), capture_output=True, text=True, timeout=60, env=PSQL_ENV)
        if p.returncode != 0:
            raise RuntimeError(f"psql failed: {p.stderr}")
        return p.stdout

    def session(self, dbname):
        """A psql of its own, left open: the caller writes statements to its stdin (a transaction it
        holds open, say) and reads their output from its stdout; it kills it when done."""
        return subprocess.Popen(self._psql(dbname), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                env=PSQL_ENV)

    def rows(self, dbname, sql):
        """sql's rows as lists of strings (a NULL reads as ""), whatever the values hold."""
        p = subprocess.run(self._psql(dbname, "-F", "\x1f", "-R", "\x1e", "-c", sql), capture_output=True, text=True,
                           timeout=60, env=PSQL_ENV)
        if p.returncode != 0:
            raise RuntimeError(f"psql failed: {p.stderr}")
        out = p.stdout[:-1] if p.stdout.endswith("\n") else p.stdout
        return [r.split("\x1f") for r in out.split("\x1e") if r]

    def stop(self):
        try:
            self._run([os.path.join(PG_BIN, "pg_ctl"), "-D", self.data, "-m", "immediate", "-w", "stop"], timeout=60)
        except Exception:
            pass
        shutil.rmtree(self.dir, ignore_errors=True)


def cluster():
    """The run's cluster, started on first use (RuntimeError when it cannot start)."""
    global _cluster, _failed
    with _lock:
        if _cluster is None:
            if _failed:
                raise RuntimeError(_failed)
            c = Cluster()
            try:
                c.start()
            except Exception as e:
                _failed = f"the throwaway PostgreSQL cluster did not start: {e}"
                c.stop()
                raise RuntimeError(_failed)
            _cluster = c
            atexit.register(c.stop)
        return _cluster


def database():
    """A new, empty database of its own: (its URL, its name)."""
    c = cluster()
    name = f"t{os.getpid()}_{next(_names)}"
    c.psql("postgres", f"CREATE DATABASE {name}")
    return c.url(name), name


def psql(dbname, sql):
    return cluster().psql(dbname, sql)


def rows(dbname, sql):
    return cluster().rows(dbname, sql)


def session(dbname):
    return cluster().session(dbname)
