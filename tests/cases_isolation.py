"""tests/cases_isolation.py — the worker process (--isolate) against the in-process engine.

An isolated run must print the same bytes and write the same call log (but for durations and
timestamps) as the in-process run; the parent must map a worker's end to a precise error.
"""
import json
import os
import shutil
import tempfile
import time

from cases import Skip, chidori
from cases_effects import run_id_of
from run import ROOT, parse_fixture

AGENTS = os.path.join(ROOT, "tests", "agents")
PINNED = {"CHIDORI_SEED": "7", "CHIDORI_CLOCK_START_MS": "1700000000000"}


def records_without_timing(state, rid):
    with open(os.path.join(state, "runs", rid, "records.jsonl")) as f:
        out = []
        for line in f:
            r = json.loads(line)
            r.pop("duration_ms", None)
            r.pop("duration_us", None)  # the duration to the microsecond (ours, beside the original's keys)
            r.pop("timestamp", None)
            out.append(r)
        return out


def case_isolated_runs_match_in_process_runs_byte_for_byte(v):
    compared = 0
    for name in sorted(os.listdir(AGENTS)):
        if not name.endswith((".js", ".ts")):
            continue
        keys = parse_fixture(os.path.join(AGENTS, name))
        if keys.get("mode", ["run"])[-1] != "run":
            continue
        env = dict(PINNED)
        env.update(dict(kv.split("=", 1) for kv in keys.get("env", [])))
        args = []
        for item in keys.get("input", []):
            args += ["-i", item]
        results = {}
        for mode in ("--no-isolate", "--isolate"):
            state = tempfile.mkdtemp(prefix="chidori-iso-")
            env["CHIDORI_WORKSPACE_ROOT"] = state
            code, out, err = chidori(v, "run", mode, os.path.join(AGENTS, name), *args, env=env, state=state)
            records = records_without_timing(state, run_id_of(err)) if "Run id: " in err else None
            failure = [l for l in err.splitlines() if l.startswith("chidori: run failed")]
            results[mode] = (code, out, failure, records)
            shutil.rmtree(state)
        a, b = results["--no-isolate"], results["--isolate"]
        assert a == b, f"{name}: in-process {a!r}\n  isolated {b!r}"
        compared += 1
    assert compared >= 20, f"only {compared} fixtures compared"


def case_the_parent_kills_a_worker_at_the_isolation_deadline(v):
    with tempfile.TemporaryDirectory() as d:
        agent = os.path.join(d, "spin.js")
        with open(agent, "w") as f:
            f.write("export default async () => { for (;;) {} };\n")
        code, out, err = chidori(v, "run", "--isolate", agent,
                                 env={"CHIDORI_JS_OP_BUDGET": "0", "CHIDORI_ISOLATE_DEADLINE_MS": "300"})
        assert code == 1 and "isolation deadline exceeded" in err and "300 ms" in err, err


def case_the_worker_cpu_rlimit_is_mapped(v):
    with tempfile.TemporaryDirectory() as d:
        agent = os.path.join(d, "spin.js")
        with open(agent, "w") as f:
            f.write("export default async () => { for (;;) {} };\n")
        code, out, err = chidori(v, "run", "--isolate", agent,
                                 env={"CHIDORI_JS_OP_BUDGET": "0", "CHIDORI_ISOLATE_CPU_SECS": "1"})
        assert code == 1 and "CPU limit exceeded" in err, err


def case_isolated_pause_resume_and_replay(v):
    with tempfile.TemporaryDirectory() as state:
        agent = os.path.join(ROOT, "tests", "effects", "prompt_tool_input.js")
        # no provider: the prompt fails, the error is recorded; the input pauses
        hello = os.path.join(ROOT, "examples", "approval.ts")
        code, out, err = chidori(v, "run", "--isolate", hello, state=state, env=PINNED)
        assert code == 3, err
        rid = run_id_of(err)
        code, out, err = chidori(v, "resume", "--isolate", hello, rid, "--response", "yes", state=state, env=PINNED)
        assert code == 0 and json.loads(out)["approved"] is True, err
        code, out2, err = chidori(v, "replay", "--isolate", hello, rid, state=state, env=PINNED)
        assert code == 0 and out2 == out, err


def case_a_hostile_worker_fails_its_run_and_the_parent_carries_on(v):
    """A compromised worker (test-only CHIDORI_ISOLATE_SELFTEST=frame_*) breaks the protocol in
    each way we know; every run fails with a precise error, never a hang or a parent crash."""
    hello = os.path.join(ROOT, "examples", "hello.js")
    expected = {
        "frame_huge_prefix": "frame of 4294967295 bytes exceeds the 64 MiB limit",
        "frame_over_cap": "frame of 67108865 bytes exceeds the 64 MiB limit",
        "frame_garbage": "bad frame",
        "frame_truncated": "timed out mid-frame (got 3 of 100 bytes)",
        "frame_unknown_op": "unknown host operation `no_such_op`",
        "frame_wrong_order": "the worker sent a frame out of order",
        "frame_forged_done": "done \"outcome\" is not an object",
        "frame_huge_output": "the worker's output is over the 16 MiB an agent may return",
        "frame_crash": "engine crashed: SIGSEGV",
    }
    for mode, words in expected.items():
        env = {"CHIDORI_ISOLATE_SELFTEST": mode}
        if mode == "frame_crash":  # a sanitizer build must let the worker die of the signal
            env["ASAN_OPTIONS"] = "handle_segv=0:detect_leaks=0"
        code, out, err = chidori(v, "run", "--isolate", hello, env=env, timeout=20)
        assert code == 1 and words in err and out == "", f"{mode}: exit {code}\n{err}"
    # A worker that sends its outcome and then does not exit is killed after a short grace: the run
    # has its outcome, and the parent does not wait on the worker.
    started = time.time()
    code, out, err = chidori(v, "run", "--isolate", hello, env={"CHIDORI_ISOLATE_SELFTEST": "frame_done_then_linger"},
                             timeout=20)
    assert code == 0 and json.loads(out) == "lingered", (code, out, err)
    assert time.time() - started < 5 * v.slow, time.time() - started


# Probes (src/isolate/sandbox_selftest.c) the seccomp filter kills, with the syscall it names, and
# probes that are refused, with the outcome the worker reports.
KILLED_PROBES = {"socket": "socket", "connect_unix": "socket", "open_passwd": "openat", "write_file": "openat",
                 "execve": "execve", "ptrace": "ptrace", "fork_bomb": "clone", "mount": "mount",
                 "unshare": "unshare", "keyctl": "keyctl", "bpf": "bpf"}
REFUSED_PROBES = {"io_uring": "blocked (ENOSYS)"}


def case_every_forbidden_act_of_a_confined_worker_is_stopped(v):
    """CHIDORI_ISOLATE_SELFTEST=<probe>: a confined worker tries one forbidden act in C; each is
    killed by the seccomp filter (and named) or refused, never performed."""
    hello = os.path.join(ROOT, "examples", "hello.js")
    for probe, syscall in KILLED_PROBES.items():
        code, out, err = chidori(v, "run", "--isolate", hello, env={"CHIDORI_ISOLATE_SELFTEST": probe})
        assert code == 1 and f"sandbox violation: blocked syscall {syscall}" in err and out == "", \
            f"{probe}: exit {code}\n{err}"
    for probe, outcome in REFUSED_PROBES.items():
        code, out, err = chidori(v, "run", "--isolate", hello, env={"CHIDORI_ISOLATE_SELFTEST": probe})
        assert code == 0 and json.loads(out) == {"probe": probe, "outcome": outcome}, (code, out, err)


def case_chidori_sandbox_prints_a_matrix_where_everything_is_stopped(v):
    code, out, err = chidori(v, "sandbox", timeout=60)
    assert code == 0, (code, out, err)
    assert "Every forbidden act was stopped." in out, out
    rows = [l for l in out.splitlines() if l.split(" ", 1)[0] in
            ("socket", "connect_unix", "open_passwd", "write_file", "execve", "ptrace", "fork_bomb", "mount",
             "unshare", "io_uring", "keyctl", "bpf", "x32", "int80", "getcwd")]
    assert len(rows) == 15 and all("stopped:" in r for r in rows), out


def case_when_the_parent_dies_the_worker_is_gone(v):
    """PR_SET_PDEATHSIG: kill -9 the chidori process mid-run; its worker (and the worker's
    pid-namespace child) must not outlive it."""
    import signal
    import subprocess
    import time
    with tempfile.TemporaryDirectory() as d:
        agent = os.path.join(d, "spin.js")
        with open(agent, "w") as f:
            f.write("export default async () => { for (;;) {} };\n")
        env = v.env({"CHIDORI_JS_OP_BUDGET": "0", "CHIDORI_STATE_DIR": d})
        p = subprocess.Popen([v.chidori, "run", agent], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            descendants = []
            for _ in range(100):  # wait for the worker and its child to exist
                time.sleep(0.05)
                out = subprocess.run(["ps", "-e", "-o", "pid=,ppid="], capture_output=True, text=True).stdout
                tree = [tuple(map(int, l.split())) for l in out.splitlines() if l.strip()]
                kids = {pid for pid, ppid in tree if ppid == p.pid}
                grandkids = {pid for pid, ppid in tree if ppid in kids}
                descendants = kids | grandkids
                if len(descendants) >= 2:
                    break
            assert descendants, "no worker process appeared"
            os.kill(p.pid, signal.SIGKILL)
            p.wait(timeout=10)
            for _ in range(100):
                alive = [pid for pid in descendants if os.path.exists(f"/proc/{pid}") and
                         open(f"/proc/{pid}/stat").read().split()[2] != "Z"]
                if not alive:
                    break
                time.sleep(0.05)
            assert not alive, f"workers outlived their parent: {alive}"
            # the killed supervisor's cgroup slots were let go with it (their flock), emptied
            # with its workers, and serve the next runs
            code, _, err = chidori(v, "run", os.path.join(ROOT, "examples", "hello.js"))
            assert code == 0, err
            for ctrl in ("memory", "pids"):
                base = f"/sys/fs/cgroup/{ctrl}/chidori"
                if os.path.isdir(base):
                    held = {n: cgroup_procs(os.path.join(base, n)) for n in os.listdir(base) if n.startswith("slot-")}
                    left = {n: procs & set(descendants) for n, procs in held.items() if procs & set(descendants)}
                    assert not left, f"the killed run's workers are still in {base}: {left}"
        finally:
            if p.poll() is None:
                p.kill()


def cgroup_procs(d):
    """The pids in the cgroup directory d (empty when it is gone)."""
    try:
        with open(os.path.join(d, "cgroup.procs")) as f:
            return {int(x) for x in f.read().split()}
    except OSError:
        return set()


FORKSERVER_NAME = "chidori-forksrv"  # a server's fork server (src/isolate/forkserver.c): no worker


def worker_tree(pid):
    """[(worker pid, [its children])]: the processes whose parent is pid (the confined workers),
    each with its own children (the pid-namespace child that runs the engine, when there is one).
    A server's fork server is its child too, and no worker: it is left out."""
    tree, names = {}, {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        names[int(name)] = stat[stat.index("(") + 1:stat.rindex(")")]
        if fields[0] != "Z":
            tree.setdefault(int(fields[1]), []).append(int(name))
    return [(w, tree.get(w, [])) for w in tree.get(pid, []) if names.get(w) != FORKSERVER_NAME]


def kill_the_worker_of_a_run(v, pick, sig, env=None, ignored=False):
    """Starts `chidori run` of an agent that spins forever, waits for its worker (and the worker's
    pid-namespace child, when it has one rather than being pid 1 of its own), sends sig to the
    process pick() chooses from them, and returns what the run said. With ignored, sig must change
    nothing (the run still spins 0.5 s later), and SIGKILL then ends the worker."""
    import signal
    import subprocess
    import time
    with tempfile.TemporaryDirectory() as d:
        agent = os.path.join(d, "spin.js")
        with open(agent, "w") as f:
            f.write("export default async (input, chidori) => { await chidori.log('spinning'); for (;;) {} };\n")
        env = v.env({"CHIDORI_JS_OP_BUDGET": "0", "CHIDORI_STATE_DIR": d, **(env or {})})
        p = subprocess.Popen([v.chidori, "run", agent], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
        try:
            target = None
            deadline = time.monotonic() + 20 * v.slow
            while target is None and time.monotonic() < deadline:
                time.sleep(0.05)
                workers = worker_tree(p.pid)
                if workers and (workers[0][1] or nspid(workers[0][0])[-1:] == ["1"] or
                                time.monotonic() > deadline - 15 * v.slow):
                    target = pick(workers[0])
            assert target, "no worker process appeared"
            time.sleep(0.2)  # well into the spin
            os.kill(target, sig)
            if ignored:
                time.sleep(0.5)
                assert p.poll() is None, f"signal {sig} ended the run: {p.communicate()}"
                os.kill(target, signal.SIGKILL)
            out, err = p.communicate(timeout=20 * v.slow)
            return p.returncode, out, err
        finally:
            if p.poll() is None:
                p.kill()
                p.communicate()


def case_a_worker_killed_from_outside_fails_its_run_precisely(v):
    """kill -9 of a running worker, from outside chidori: of the worker process, and of the
    engine inside its pid namespace. The run fails with exit 1 and names the signal and that
    chidori did not send it (a SIGKILL is no crash); nothing hangs."""
    import signal
    words = "engine killed: SIGKILL from outside chidori (an operator, or the system's OOM killer)"
    # (without a pid namespace there is no engine child: then the worker is killed twice over)
    for what, pick in (("the worker", lambda w: w[0]), ("the engine in its pid namespace", lambda w: (w[1] or w)[0])):
        code, out, err = kill_the_worker_of_a_run(v, pick, signal.SIGKILL)
        assert code == 1 and out == "" and f"chidori: run failed: {words}" in err, f"{what}: exit {code}\n{err}"


def case_a_worker_killed_by_sigsegv_from_outside_is_a_crash(v):
    """SIGSEGV sent to a worker process whose default action ends it, as a real fault would (one
    without a pid namespace: CHIDORI_ISOLATE_SKIP=pidns): the run fails with `engine crashed:
    SIGSEGV`. A worker that is pid 1 of its pid namespace (the default) takes no signal from
    outside but SIGKILL and SIGSTOP, as the kernel has it for any namespace's init: the SIGSEGV
    changes nothing, and the SIGKILL after it reads as a kill. (A fault inside the engine itself is
    frame_crash, in case_a_hostile_worker_fails_its_run_and_the_parent_carries_on.)"""
    import signal
    # a sanitizer build must let the worker die of the signal
    segv = {"ASAN_OPTIONS": "handle_segv=0:detect_leaks=0"}
    code, out, err = kill_the_worker_of_a_run(v, lambda w: w[0], signal.SIGSEGV,
                                              env={**segv, "CHIDORI_ISOLATE_SKIP": "pidns"})
    assert code == 1 and out == "" and "chidori: run failed: engine crashed: SIGSEGV" in err, f"exit {code}\n{err}"
    code, out, err = kill_the_worker_of_a_run(v, lambda w: w[0], signal.SIGSEGV, env=segv, ignored=True)
    words = "engine killed: SIGKILL from outside chidori"
    assert code == 1 and out == "" and f"chidori: run failed: {words}" in err, f"exit {code}\n{err}"


def nspid(pid):
    """The NSpid line of a process's status: its pid in each pid namespace it is in, outermost
    first (["4242", "1"]: pid 1 of a namespace of its own); [] once it is gone."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("NSpid:"):
                    return line.split()[1:]
    except OSError:
        pass
    return []


def own_user_namespace(pid):
    try:
        return os.readlink(f"/proc/{pid}/ns/user") != os.readlink("/proc/self/ns/user")
    except OSError:
        return False


class spinning_runs:
    """Two isolated runs of an agent that spins for ever, in the folder d, until the block ends;
    entered: {run pid: (worker, the process that runs the engine)} once each worker is confined
    (pid 1 of a pid namespace of its own, cloned into it by chidori, in a user namespace of its
    own; or, where chidori could not clone it into one, the worker and its pid-namespace child)."""

    def __init__(self, v, d, env=None):
        self.v, self.d, self.env = v, d, env or {}

    def __enter__(self):
        import subprocess
        import time
        v, d = self.v, self.d
        agent = os.path.join(d, "spin.js")
        with open(agent, "w") as f:
            f.write("export default async () => { for (;;) {} };\n")
        env = v.env({"CHIDORI_JS_OP_BUDGET": "0", "CHIDORI_JS_MEM_CAP_MB": "100", "CHIDORI_STATE_DIR": d, **self.env})
        errs = [open(os.path.join(d, f"err{i}"), "w+") for i in range(2)]
        self.runs = [subprocess.Popen([v.chidori, "run", agent], env=env, stdout=subprocess.DEVNULL,
                                      stderr=errs[i]) for i in range(2)]
        found = {}
        for _ in range(200):
            time.sleep(0.05)
            out = subprocess.run(["ps", "-e", "-o", "pid=,ppid="], capture_output=True, text=True).stdout
            tree = [tuple(map(int, l.split())) for l in out.splitlines() if l.strip()]
            for p in self.runs:
                workers = [pid for pid, ppid in tree if ppid == p.pid]
                children = [pid for pid, ppid in tree if ppid in workers]
                if workers and nspid(workers[0])[-1:] == ["1"] and nspid(workers[0])[:1] == [str(workers[0])] \
                        and own_user_namespace(workers[0]):
                    found[p.pid] = (workers[0], workers[0])
                elif workers and children:
                    found[p.pid] = (workers[0], children[0])
            if len(found) == 2:
                return found
        for e in errs:
            e.seek(0)
        self.__exit__(None, None, None)
        raise AssertionError(f"no worker in a pid namespace of its own appeared for each run: {found} "
                             f"{[p.poll() for p in self.runs]} {[e.read()[-400:] for e in errs]}")

    def __exit__(self, *exc):
        for p in self.runs:
            p.kill()
            p.wait(timeout=10)


def case_the_worker_and_its_pid_namespace_child_run_inside_the_runs_cgroup(v):
    """The cgroup layer holds the process that runs the agent: while two runs spin at once, each
    worker (pid 1 of a pid namespace of its own, or, where chidori could not clone it into one,
    the worker and its pid-namespace child) is in a memory and a pids cgroup slot of its own (held
    by that run alone), with the limits set; and in a network namespace of its own."""
    if os.geteuid() != 0 or not os.path.isdir("/sys/fs/cgroup/memory"):
        raise Skip("needs root and a v1 memory controller (this machine's cgroup layer)")
    with tempfile.TemporaryDirectory() as d, spinning_runs(v, d) as found:
        for ctrl in ("memory", "pids"):
            base = f"/sys/fs/cgroup/{ctrl}/chidori"
            slots = [os.path.join(base, n) for n in os.listdir(base) if n.startswith("slot-")]
            used = []
            for worker, child in found.values():
                holding = [s for s in slots if worker in cgroup_procs(s)]
                assert len(holding) == 1, f"{ctrl}: the worker {worker} is in {holding}"
                procs = cgroup_procs(holding[0])
                assert {worker, child} == procs, f"{ctrl}: {holding[0]} holds {procs}, not just {{worker, child}}"
                used.append(holding[0])
                if ctrl == "memory":
                    with open(os.path.join(holding[0], "memory.limit_in_bytes")) as f:
                        limit = int(f.read())
                    assert 100 << 20 < limit < 4 << 30, limit  # the engine's ceiling plus room
                else:
                    with open(os.path.join(holding[0], "pids.max")) as f:
                        assert f.read().strip() == "8"
            assert used[0] != used[1], f"{ctrl}: two runs share {used[0]}"
        # and each run's worker is in an empty network namespace of its own, not the host's
        nets = [os.readlink(f"/proc/{child}/ns/net") for _, child in found.values()]
        assert nets[0] != nets[1] and os.readlink("/proc/self/ns/net") not in nets, nets
        for _, child in found.values():
            devices = [l.split(":")[0].strip() for l in open(f"/proc/{child}/net/dev").read().splitlines()[2:]]
            assert devices == ["lo"], devices


def mount_namespace_owner(pid):
    """The inode of the user namespace that owns the process's mount namespace (NS_GET_USERNS)."""
    import fcntl
    fd = os.open(f"/proc/{pid}/ns/mnt", os.O_RDONLY)
    try:
        owner = fcntl.ioctl(fd, 0xB701)  # NS_GET_USERNS: a descriptor of the owning namespace
        try:
            return os.fstat(owner).st_ino
        finally:
            os.close(owner)
    finally:
        os.close(fd)


def case_a_root_runs_worker_joins_the_empty_read_only_mount_namespace_its_parent_made(v):
    """Run as root, chidori makes each run's mount namespace itself while the worker execs
    (src/isolate/parent_mntns.c), and the worker joins it: while two runs spin, each worker sees
    one mount and nothing else, an empty read-only tmpfs at /; the two namespaces differ from
    each other and from the host's; and each belongs to the initial user namespace, not to the
    worker's own (in which a namespace the worker made would be, and where it could mount). With
    CHIDORI_ISOLATE_SKIP=mountns no such namespace is made or joined."""
    from cases import Skip
    if os.geteuid() != 0:
        raise Skip("the parent makes the mount namespace only when it runs as root")
    host_user = os.stat("/proc/self/ns/user").st_ino
    with tempfile.TemporaryDirectory() as d, spinning_runs(v, d) as found:
        mnts = []
        for _, child in found.values():
            with open(f"/proc/{child}/mountinfo") as f:
                mounts = [l.split() for l in f.read().splitlines()]
            assert len(mounts) == 1, mounts
            fields = mounts[0]
            after = fields[fields.index("-") + 1:]
            assert fields[4] == "/" and "ro" in fields[5].split(",") and after[:2] == ["tmpfs", "chidori-empty"], fields
            mnts.append(os.readlink(f"/proc/{child}/ns/mnt"))
            own_user = os.stat(f"/proc/{child}/ns/user").st_ino
            assert own_user != host_user, "the worker is in the host's user namespace"
            assert mount_namespace_owner(child) == host_user, \
                f"the mount namespace of {child} belongs to user namespace {mount_namespace_owner(child)}, " \
                f"not the host's ({host_user}): the worker made it"
        assert mnts[0] != mnts[1] and os.readlink("/proc/self/ns/mnt") not in mnts, mnts
    with tempfile.TemporaryDirectory() as d, spinning_runs(v, d, {"CHIDORI_ISOLATE_SKIP": "mountns"}) as found:
        for _, child in found.values():
            assert os.readlink(f"/proc/{child}/ns/mnt") == os.readlink("/proc/self/ns/mnt"), \
                "a mount namespace was made although the layer was left out"


def case_a_root_run_in_a_chroot_never_joins_a_mount_namespace_whose_root_is_the_hosts(v):
    """Run as root in a chroot whose folder is a mount point (as arch-chroot and schroot make), the
    parent's thread that makes the worker's mount namespace acts on the chroot's mount and leaves
    the host's whole tree at the namespace's root, where a process joining it lands: a worker that
    joined it left the chroot and saw every host file. The parent now joins what it made and hands
    it over only if it lands in an empty read-only root (src/isolate/parent_mntns.c), and the
    worker checks again. With Landlock and seccomp left out, the worker's attempt to open
    /etc/passwd, which the host has and the chroot lacks, finds nothing."""
    import subprocess
    from cases import Skip
    if os.geteuid() != 0:
        raise Skip("a chroot and a bind mount need root")
    tools = [t for t in ("unshare", "chroot", "mount", "ldd") if not shutil.which(t)]
    if tools:
        raise Skip(f"missing {', '.join(tools)}")
    with tempfile.TemporaryDirectory() as jail:
        binaries = [v.chidori]
        worker = os.path.join(os.path.dirname(v.chidori), "chidori-worker")
        if os.path.exists(worker):
            binaries.append(worker)
        os.makedirs(os.path.join(jail, "bin"))
        for b in binaries:
            shutil.copy2(b, os.path.join(jail, "bin"))
            # the shared libraries it needs, each where the dynamic loader looks for it
            for line in subprocess.run(["ldd", b], capture_output=True, text=True).stdout.splitlines():
                parts = line.split()
                lib = parts[2] if "=>" in parts and len(parts) > 2 else parts[0]
                if lib.startswith("/") and os.path.exists(lib):
                    os.makedirs(jail + os.path.dirname(lib), exist_ok=True)
                    shutil.copy2(lib, jail + lib)
        for d in ("proc", "state", "tmp"):
            os.makedirs(os.path.join(jail, d))
        os.chmod(jail, 0o755)  # the worker, uid 65534 by then, may look into it (and find no /etc)
        with open(os.path.join(jail, "hello.js"), "w") as f:
            f.write("export default async () => 'hello';\n")
        assert not os.path.exists(os.path.join(jail, "etc", "passwd")) and os.path.exists("/etc/passwd")
        script = (f"mount --make-rprivate / && mount --bind {jail} {jail} && mount -t proc proc {jail}/proc && "
                  f"exec chroot {jail} /bin/chidori run /hello.js")
        env = v.env({"CHIDORI_ISOLATE_SELFTEST": "open_passwd", "CHIDORI_ISOLATE_SKIP": "landlock,seccomp",
                     "CHIDORI_STATE_DIR": "/state"})
        r = subprocess.run(["unshare", "-m", "sh", "-c", script], env=env, capture_output=True, text=True,
                           timeout=60 * v.slow)
        assert "probe open_passwd:" in r.stderr, f"the probe did not run (exit {r.returncode}): {r.stderr[-1500:]}"
        assert "probe open_passwd: blocked (ENOENT)" in r.stderr, \
            f"the worker found the host's /etc/passwd from inside the chroot: {r.stderr[-1500:]}"


def case_the_worker_binary_is_found_next_to_chidori_and_must_be_of_its_build(v):
    """A release build runs its workers as chidori-worker (linked statically) when that file lies
    next to chidori, and as `chidori __run-worker` otherwise (a sanitizer build always); a
    chidori-worker from another build refuses to serve and the run fails saying so."""
    import subprocess
    hello = os.path.join(ROOT, "examples", "hello.js")
    version = subprocess.run([v.chidori, "--version"], capture_output=True, text=True, env=v.env()).stdout
    build = version.split("build ", 1)[1].split()[0]
    beside = os.path.join(v.dir, "chidori-worker")
    if v.sanitized:
        assert not os.path.exists(beside) and "worker (this binary" in version, version
        return
    assert f"worker {beside}" in version, version
    with tempfile.TemporaryDirectory() as d:
        alone = os.path.join(d, "alone")
        os.mkdir(alone)
        shutil.copy(v.chidori, alone)
        out = subprocess.run([os.path.join(alone, "chidori"), "--version"], capture_output=True, text=True).stdout
        assert "worker (this binary" in out, out
        code, out, err = chidori(v, "run", "--isolate", hello, exe=os.path.join(alone, "chidori"))
        assert code == 0 and json.loads(out)["greeting"] == "Hello, world!", (code, out, err)

        other = os.path.join(d, "other")
        os.mkdir(other)
        shutil.copy(v.chidori, other)
        data = open(beside, "rb").read()
        assert data.count(build.encode()) == 1, "the build id is not in chidori-worker once"
        forged = build[:-1] + ("0" if build[-1] != "0" else "1")
        with open(os.path.join(other, "chidori-worker"), "wb") as f:
            f.write(data.replace(build.encode(), forged.encode()))
        os.chmod(os.path.join(other, "chidori-worker"), 0o755)
        # A child another thread of the test runner forked while the file above was open for
        # writing holds that descriptor until its own exec; exec'ing the file meanwhile fails
        # (ETXTBSY) and chidori falls back to running itself as the worker (same build: the run
        # succeeds), which once made this case fail under -j2. Such a child execs within moments.
        time.sleep(0.5)
        code, out, err = chidori(v, "run", "--isolate", hello, exe=os.path.join(other, "chidori"))
        assert code == 1 and out == "" and f"this worker (build {forged}) is not from the build of chidori" in err, \
            (code, out, err)


def case_the_worker_binary_enters_by_copying_the_pages_its_start_up_relocates(v):
    """chidori-worker's entry point is tools/worker_entry.c's worker_entry, which has the kernel
    copy the pages the static-pie start-up is about to relocate in one call (MADV_POPULATE_WRITE)
    before it jumps to the C library's _start. Checked twice: the ELF entry of chidori-worker is
    worker_entry, and worker-entry-check (linked the same way, with three pages in .data.rel.ro
    that no relocation or read touches) finds them private copies at main."""
    import struct
    import subprocess
    if v.sanitized:
        return  # a sanitizer build has no chidori-worker: it always runs itself
    worker = os.path.join(v.dir, "chidori-worker")
    with open(worker, "rb") as f:
        header = f.read(64)
    assert header[:4] == b"\x7fELF" and header[4] == 2, "chidori-worker is not a 64-bit ELF file"
    entry = struct.unpack_from("<Q", header, 24)[0]
    symbols = subprocess.run(["nm", "--defined-only", worker], capture_output=True, text=True)
    if "no symbols" in symbols.stderr:
        raise Skip("chidori-worker is stripped: its entry point cannot be named")
    at = [int(line.split()[0], 16) for line in symbols.stdout.splitlines() if line.split()[-1:] == ["worker_entry"]]
    assert at == [entry], f"chidori-worker enters at {entry:#x}, worker_entry is at {[hex(a) for a in at]}"
    r = subprocess.run([os.path.join(v.dir, "worker-entry-check")], capture_output=True, text=True, timeout=30)
    if r.returncode == 77:
        raise Skip(r.stdout.strip())  # the worker faults the pages in one by one, as before
    assert r.returncode == 0 and "probe pages copied before main: 3 of 3" in r.stdout, (r.returncode, r.stdout, r.stderr)
    assert "covering the probe" in r.stdout, r.stdout


def case_a_worker_binary_that_cannot_be_run_is_said(v):
    """When chidori-worker lies next to chidori but cannot be exec'd (here it is open for writing,
    as while a package manager replaces it: ETXTBSY), chidori runs itself as the worker, which
    works (the same build) but starts slower: stderr says so, once, so an operator can see why.
    With the file free again, nothing is said."""
    if v.sanitized:
        return  # a sanitizer build has no chidori-worker: it always runs itself
    hello = os.path.join(ROOT, "examples", "hello.js")
    with tempfile.TemporaryDirectory() as d:
        for name in ("chidori", "chidori-worker"):
            shutil.copy(os.path.join(v.dir, name), d)
        worker = os.path.join(d, "chidori-worker")
        with open(worker, "r+b"):
            code, out, err = chidori(v, "run", "--isolate", hello, exe=os.path.join(d, "chidori"))
        assert code == 0 and json.loads(out)["greeting"] == "Hello, world!", (code, out, err)
        said = f"the worker binary {worker} could not be run (Text file busy); this binary runs as the worker"
        assert err.count(said) == 1, err
        time.sleep(0.5)  # a child another thread forked while the file was open execs within moments
        code, out, err = chidori(v, "run", "--isolate", hello, exe=os.path.join(d, "chidori"))
        assert code == 0 and "could not be run" not in err, (code, out, err)


def case_a_worker_refuses_to_run_when_its_handoff_did_not_all_arrive(v):
    """The first Init says how many descriptors the parent sent on the worker's handoff socket (its
    network namespace, its cgroup slot); a worker that received fewer refuses to run, so it can
    never run outside its cgroup. Here the worker is started by hand, with no handoff socket."""
    import struct
    import subprocess
    version = subprocess.run([v.chidori, "--version"], capture_output=True, text=True, env=v.env()).stdout
    build = version.split("build ", 1)[1].split()[0]

    def first_frame(handed):
        init = {"type": "init", "warm": True, "build": build, "handed": handed,
                "sandbox": {"require": False, "cpu_secs": "0", "fsize_bytes": "0", "skip": ""}}
        body = json.dumps(init).encode()
        return struct.pack("<I", len(body)) + body

    def first_answer(handed):
        p = subprocess.run([v.chidori, "__run-worker"], input=first_frame(handed), capture_output=True,
                           timeout=30 * v.slow, env=v.env())
        assert len(p.stdout) >= 4, (p.returncode, p.stderr[-400:])
        n = struct.unpack("<I", p.stdout[:4])[0]
        return json.loads(p.stdout[4:4 + n])

    refused = first_answer(2)
    assert refused.get("type") == "done", refused
    assert "0 descriptors came on the handoff socket, its parent sent 2" in refused["outcome"].get("error", ""), refused
    # the same Init saying nothing was sent: the worker goes on to confine itself and report
    went_on = first_answer(0)
    assert went_on.get("type") == "isolation" and isinstance(went_on.get("report"), dict), went_on


def isolation_line(err):
    return next((l for l in err.splitlines() if l.startswith("Isolation: ")), "")


def case_the_isolation_line_names_the_cgroup_slot_or_why_there_is_none(v):
    """The parent claims the worker's cgroup slot and hands it over, so the parent adds it to the
    worker's own report of its layers: `cgroup v1` (or v2) among them when the worker has a slot,
    `skipped: cgroup (why)` when it has none: left out by CHIDORI_ISOLATE_SKIP, or not to be had
    (a rootless run, here as nobody: no hierarchy it may write). It used to say nothing of it."""
    import subprocess
    # in /tmp itself: nobody must reach it (the suite's own temporary folder is private)
    with tempfile.TemporaryDirectory(dir="/tmp") as d:
        os.chmod(d, 0o755)
        agent = os.path.join(d, "agent.js")
        with open(agent, "w") as f:
            f.write("export default async () => 1;\n")
        code, _, err = chidori(v, "run", agent, env={"CHIDORI_ISOLATE_SKIP": "cgroup"})
        line = isolation_line(err)
        assert code == 0 and line.endswith("rlimits); skipped: cgroup (disabled)"), err
        code, _, err = chidori(v, "run", agent)
        line = isolation_line(err)
        if os.geteuid() == 0 and os.path.isdir("/sys/fs/cgroup/memory"):
            assert code == 0 and (line.endswith(", cgroup v1)") or line.endswith(", cgroup v2)")), err
        else:
            assert code == 0 and "skipped: cgroup (" in line, err
        if os.geteuid() != 0:
            return
        # nobody: the binaries copied where it may run them (the build folder may not be open to it)
        bindir = os.path.join(d, "bin")
        os.mkdir(bindir, 0o755)
        for name in ("chidori", "chidori-worker"):
            src = os.path.join(os.path.dirname(v.chidori), name)
            if os.path.exists(src):
                shutil.copy2(src, os.path.join(bindir, name))
        state = os.path.join(d, "state")
        os.mkdir(state)
        os.chown(state, 65534, 65534)

        def become_nobody():
            os.setgroups([])
            os.setgid(65534)
            os.setuid(65534)
        env = v.env({"CHIDORI_STATE_DIR": state, "HOME": state})
        p = subprocess.run([os.path.join(bindir, "chidori"), "run", agent], env=env, cwd=d,
                           preexec_fn=become_nobody, capture_output=True, text=True, timeout=60 * v.slow)
        line = isolation_line(p.stderr)
        assert p.returncode == 0 and "; skipped: cgroup (" in line and "cgroup v" not in line.split(";")[0], p.stderr
