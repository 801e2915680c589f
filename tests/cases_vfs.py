"""tests/cases_vfs.py — node:fs on the in-memory VFS, end to end (docs/vfs.md).

Recording and replay, isolated vs in-process, nothing reaching the real disk, `..` clamped at `/`,
the VFS surviving pause and resume, seeds (CHIDORI_VFS_SEED) and the settings that are refused.
Fixture agents live in tests/node/.
"""
import hashlib
import json
import os
import shutil
import tempfile

from cases import chidori
from run import ROOT, run_process, sanitizer_report

NODE = os.path.join(ROOT, "tests", "node")
PINNED = {"CHIDORI_SEED": "7", "CHIDORI_CLOCK_START_MS": "1700000000000"}
PROBES = ("chidori-vfs-probe.txt", "chidori-vfs-escape.txt")


def run_id_of(err):
    for line in err.splitlines():
        if line.startswith("Run id: "):
            return line[8:].strip()
    raise AssertionError("no Run id line:\n" + err)


def project(*names, agents=None):
    """A temporary project folder holding copies of tests/node/<name> (and extra agents given as
    {name: source})."""
    tmp = tempfile.mkdtemp(prefix="chidori-vfs-")
    for n in names:
        shutil.copy(os.path.join(NODE, n), os.path.join(tmp, n))
    for n, text in (agents or {}).items():
        with open(os.path.join(tmp, n), "w") as f:
            f.write(text)
    return tmp


def tree(folder):
    """Every path under folder with its size and mtime: what a stray write would change."""
    found = {}
    for base, dirs, files in os.walk(folder):
        for n in dirs + files:
            p = os.path.join(base, n)
            st = os.lstat(p)
            found[os.path.relpath(p, folder)] = (st.st_size, st.st_mtime_ns)
    return found


def run_in(v, cwd, *args, env=None):
    """chidori with a chosen working folder (cases.chidori always uses the repository)."""
    code, out, err, secs, timed_out = run_process([v.chidori, *args], v.env(env or {}), 30 * v.slow, cwd=cwd)
    assert not timed_out, f"chidori {' '.join(args)} timed out"
    assert not sanitizer_report(err), "sanitizer report:\n" + err[-3000:]
    return code, out, err


def case_vfs_agent_records_replays_identically_isolated_or_not_and_touches_no_disk(v):
    """fs_basics.js (write, append, mkdir -p, readdir, stat, rename, rm -r, ENOENT/EEXIST/EISDIR/
    ENOTEMPTY) prints the same bytes isolated and in-process, each replay prints them again, and
    neither the project, the working folder nor the real / gains a file."""
    proj = project("fs_basics.js")
    cwd = tempfile.mkdtemp(prefix="chidori-vfs-cwd-")
    state = tempfile.mkdtemp(prefix="chidori-vfs-state-")
    agent = os.path.join(proj, "fs_basics.js")
    before_proj, before_cwd = tree(proj), tree(cwd)
    env = dict(PINNED, CHIDORI_STATE_DIR=state)
    outs = []
    for flags in ([], ["--no-isolate"]):
        code, out, err = run_in(v, cwd, "run", agent, *flags, env=env)
        assert code == 0, f"run {flags}: exit {code}\n{err}"
        rid = run_id_of(err)
        code, again, err = run_in(v, cwd, "replay", agent, rid, *flags, env={"CHIDORI_STATE_DIR": state})
        assert code == 0, f"replay {flags}: exit {code}\n{err}"
        assert again == out, f"replay {flags} printed\n{again}\nthe run printed\n{out}"
        records = os.path.join(state, "runs", rid, "records.jsonl")
        if os.path.exists(records):
            with open(records) as f:
                assert '"fs"' not in f.read(), "fs calls were written to the call log"
        outs.append(out)
    assert outs[0] == outs[1], f"isolated and in-process runs differ:\n{outs[0]}\n{outs[1]}"
    with open(os.path.join(NODE, "fs_basics.expected.json")) as f:
        assert outs[0] == f.read(), outs[0]
    got = json.loads(outs[0])
    assert got["errors"]["ENOENT"][0] == "ENOENT" and got["errors"]["EEXIST"][0] == "EEXIST", got["errors"]
    assert got["errors"]["EISDIR"][0] == "EISDIR" and got["errors"]["ENOTEMPTY"][0] == "ENOTEMPTY", got["errors"]
    assert tree(proj) == before_proj, "the project folder changed"
    assert tree(cwd) == before_cwd, "the working folder changed"
    for name in PROBES:
        for folder in ("/", cwd, proj, ROOT, tempfile.gettempdir()):
            assert not os.path.exists(os.path.join(folder, name)), f"{name} reached the real disk in {folder}"
    for folder in (proj, cwd, state):
        shutil.rmtree(folder)


def case_vfs_dotdot_is_clamped_at_root(v):
    """`/../../etc/passwd` is the VFS's /etc/passwd (ENOENT), even though the host has one; a seeded
    /etc/passwd is what such a path reads."""
    assert os.path.exists("/etc/passwd"), "this check needs a host /etc/passwd"
    src = ('import fs from "node:fs";\n'
           'export async function agent() {\n'
           '  const r = (p) => { try { return fs.readFileSync(p, "utf8"); } catch (e) { return e.code; } };\n'
           '  return [r("/../../etc/passwd"), r("../../../../etc/passwd"), r("etc/../../etc/passwd"),\n'
           '          fs.realpathSync("/../.."), fs.readdirSync("/..")];\n'
           '}\n')
    proj = project(agents={"dotdot.js": src})
    code, out, err = chidori(v, "run", os.path.join(proj, "dotdot.js"))
    assert code == 0, err
    assert json.loads(out) == ["ENOENT", "ENOENT", "ENOENT", "/", []], out
    seed = os.path.join(proj, "seed.json")
    with open(seed, "w") as f:
        json.dump({"/etc/passwd": "root:x:0:0:the VFS's own\n"}, f)
    code, out, err = chidori(v, "run", os.path.join(proj, "dotdot.js"), env={"CHIDORI_VFS_SEED": seed})
    assert code == 0, err
    got = json.loads(out)
    assert got[:3] == ["root:x:0:0:the VFS's own\n"] * 3 and got[4] == ["etc"], got
    shutil.rmtree(proj)


PAUSE_AGENT = """import fs from "node:fs";
export async function agent(input, chidori) {
  fs.mkdirSync("/notes", { recursive: true });
  fs.writeFileSync("/notes/draft.txt", "written before the pause");
  const answer = await chidori.input("Go on?");
  fs.appendFileSync("/notes/draft.txt", " | answer: " + answer);
  return { draft: fs.readFileSync("/notes/draft.txt", "utf8"), listing: fs.readdirSync("/notes") };
}
"""


def case_vfs_survives_pause_and_resume(v):
    """A file written before `chidori.input` pauses the run (exit 3) is there after
    `chidori resume --response`, and the resumed run replays identically."""
    proj = project(agents={"pause.js": PAUSE_AGENT})
    state = os.path.join(proj, "state")
    agent = os.path.join(proj, "pause.js")
    code, out, err = chidori(v, "run", agent, state=state)
    assert code == 3, f"wanted paused (3), got {code}: {err}"
    assert "paused, waiting for input: Go on?" in err, err
    rid = run_id_of(err)
    code, out, err = chidori(v, "resume", agent, rid, "--response", "yes", state=state)
    assert code == 0, f"resume: exit {code}\n{err}"
    got = json.loads(out)
    assert got == {"draft": "written before the pause | answer: yes", "listing": ["draft.txt"]}, got
    code, again, err = chidori(v, "replay", agent, rid, state=state)
    assert code == 0 and again == out, f"replay after resume: exit {code}\n{again}\n{err}"
    assert not os.path.exists(os.path.join(proj, "notes")), "the VFS reached the project folder"
    shutil.rmtree(proj)


STEP_AGENT = """import fs from "node:fs";
export async function agent(input, chidori) {
  fs.writeFileSync("/log.txt", "start\\n");
  const a = await chidori.step("writes", async () => {
    const inner = await chidori.step("pure", async () => 40);
    fs.appendFileSync("/log.txt", "inside the step\\n");
    return inner + 1;
  });
  const b = await chidori.step("reads", async () => fs.readFileSync("/log.txt", "utf8").length);
  const answer = await chidori.input("Go on?");
  const c = await chidori.step("after the pause", async () => { fs.appendFileSync("/log.txt", answer + "\\n"); return 3; });
  return { a, b, c, log: fs.readFileSync("/log.txt", "utf8") };
}
"""


def case_vfs_writes_inside_steps_replay_and_resume(v):
    """A chidori.step whose fn changes the VFS is not answered from the log on replay (its fn runs
    again, so the file is there); steps that only read still are. Across a pause and resume too."""
    proj = project(agents={"steps.js": STEP_AGENT})
    state = os.path.join(proj, "state")
    agent = os.path.join(proj, "steps.js")
    code, out, err = chidori(v, "run", agent, state=state)
    assert code == 3, f"wanted paused (3), got {code}: {err}"
    rid = run_id_of(err)
    code, out, err = chidori(v, "resume", agent, rid, "--response", "yes", state=state)
    assert code == 0, f"resume: exit {code}\n{err}"
    want = {"a": 41, "b": 22, "c": 3, "log": "start\ninside the step\nyes\n"}
    assert json.loads(out) == want, out
    code, again, err = chidori(v, "replay", agent, rid, state=state)
    assert code == 0 and again == out, f"replay: exit {code}\n{again}\n{err}"
    with open(os.path.join(state, "runs", rid, "records.jsonl")) as f:
        records = sorted((json.loads(line) for line in f), key=lambda r: r["seq"])
    names = [r["function"] + (":" + r["args"]["name"] if r["function"] == "step" else "") for r in records]
    assert names == ["step:pure", "mark", "step:writes", "step:reads", "input", "mark", "step:after the pause"], names
    shutil.rmtree(proj)


def case_vfs_seed_fills_the_tree_and_binds_replay(v):
    """CHIDORI_VFS_SEED seeds text, base64 and directories; run.json records the seed's SHA-256;
    a replay with the same seed agrees, and one with no seed or another seed is refused."""
    proj = project("fs_basics.js", agents={"seeded.js": (
        'import fs from "node:fs";\n'
        'export async function agent() {\n'
        '  return { motd: fs.readFileSync("/etc/motd", "utf8"), bin: Array.from(fs.readFileSync("/data/bin.dat")),\n'
        '    empty: fs.readdirSync("/empty"), root: fs.readdirSync("/"), mode: fs.statSync("/run.sh").mode & 0o777 };\n'
        '}\n')})
    state = os.path.join(proj, "state")
    seed = os.path.join(proj, "seed.json")
    doc = {"/etc/motd": "hello from the seed\n", "/data/bin.dat": {"base64": "AAEC/w=="}, "/empty/": None,
           "/run.sh": {"text": "echo hi\n", "mode": 0o755}}
    with open(seed, "w") as f:
        json.dump(doc, f)
    agent = os.path.join(proj, "seeded.js")
    code, out, err = chidori(v, "run", agent, env={"CHIDORI_VFS_SEED": seed}, state=state)
    assert code == 0, err
    assert json.loads(out) == {"motd": "hello from the seed\n", "bin": [0, 1, 2, 255], "empty": [],
                               "root": ["data", "empty", "etc", "run.sh"], "mode": 0o755}, out
    rid = run_id_of(err)
    with open(os.path.join(state, "runs", rid, "run.json")) as f:
        meta = json.load(f)
    with open(seed, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    assert meta["vfs"] == {"max_bytes": 64 << 20, "seed_sha256": digest}, meta.get("vfs")
    assert meta["surface"]["fs"] == "vfs", meta.get("surface")
    code, again, err = chidori(v, "replay", agent, rid, env={"CHIDORI_VFS_SEED": seed}, state=state)
    assert code == 0 and again == out, f"replay with the seed: exit {code}\n{err}"
    code, again, err = chidori(v, "replay", agent, rid, state=state)
    assert code == 2 and again == "", f"replay without the seed: exit {code}"
    assert f"started from a VFS seed (SHA-256 {digest}); set CHIDORI_VFS_SEED" in err, err
    other = os.path.join(proj, "other.json")
    with open(other, "w") as f:
        json.dump(dict(doc, **{"/etc/motd": "edited"}), f)
    code, again, err = chidori(v, "replay", agent, rid, env={"CHIDORI_VFS_SEED": other}, state=state)
    assert code == 2 and again == "", f"replay with another seed: exit {code}"
    assert "is not the seed run" in err and "a replay must start from the same files" in err, err
    # and the other way round: a run without a seed does not replay against one
    code, out, err = chidori(v, "run", os.path.join(proj, "fs_basics.js"), state=state)
    assert code == 0, err
    rid = run_id_of(err)
    code, again, err = chidori(v, "replay", os.path.join(proj, "fs_basics.js"), rid,
                               env={"CHIDORI_VFS_SEED": seed}, state=state)
    assert code == 2 and "started with an empty VFS, but CHIDORI_VFS_SEED is set" in err, (code, err)
    shutil.rmtree(proj)


def case_vfs_bad_settings_are_clear_errors_before_the_run(v):
    """A malformed, faulty, missing or oversized seed, a seed over the size cap, CHIDORI_TS_FS=host
    or another unknown value, and a bad CHIDORI_VFS_MAX_BYTES stop chidori with exit 2 before the
    agent runs (no output, no run folder)."""
    proj = project("fs_basics.js")
    agent = os.path.join(proj, "fs_basics.js")
    files = {
        "malformed.json": '{"/a": "x",',
        "not_object.json": '["/a"]',
        "bad_entry.json": '{"/a": 42}',
        "bad_base64.json": '{"/a": {"base64": "***"}}',
        "relative.json": '{"a.txt": "x"}',
        "file_and_dir.json": '{"/a": "x", "/a/b": "y"}',
        "two_bytes.json": '{"/a": "xy"}',
    }
    for name, text in files.items():
        with open(os.path.join(proj, name), "w") as f:
            f.write(text)
    big = os.path.join(proj, "big.json")
    with open(big, "w") as f:
        f.write('{"/big": "' + "x" * (16 << 20) + '"}')
    cases = [
        ({"CHIDORI_VFS_SEED": os.path.join(proj, "malformed.json")}, "is not valid JSON"),
        ({"CHIDORI_VFS_SEED": os.path.join(proj, "not_object.json")}, "must be a JSON object"),
        ({"CHIDORI_VFS_SEED": os.path.join(proj, "bad_entry.json")}, "entry `/a`: the value must be"),
        ({"CHIDORI_VFS_SEED": os.path.join(proj, "bad_base64.json")}, "entry `/a`: `base64` is not valid base64"),
        ({"CHIDORI_VFS_SEED": os.path.join(proj, "relative.json")}, "must be absolute"),
        ({"CHIDORI_VFS_SEED": os.path.join(proj, "file_and_dir.json")}, "entry `/a/b`: not a directory"),
        ({"CHIDORI_VFS_SEED": os.path.join(proj, "missing.json")}, "CHIDORI_VFS_SEED: cannot read"),
        ({"CHIDORI_VFS_SEED": big}, "larger than the 16777216-byte limit"),
        ({"CHIDORI_VFS_SEED": os.path.join(proj, "two_bytes.json"), "CHIDORI_VFS_MAX_BYTES": "1"},
         "larger than the VFS may hold"),
        ({"CHIDORI_TS_FS": "host"},
         "CHIDORI_TS_FS=host: a host filesystem mode does not exist; chidori.workspace is the audited way to real files"),
        ({"CHIDORI_TS_FS": "disk"}, "CHIDORI_TS_FS must be one of `vfs`, `none`, got `disk`"),
        ({"CHIDORI_VFS_MAX_BYTES": "0"}, "CHIDORI_VFS_MAX_BYTES must be a number of bytes"),
        ({"CHIDORI_VFS_MAX_BYTES": "12k"}, "CHIDORI_VFS_MAX_BYTES must be a number of bytes"),
        ({"CHIDORI_VFS_MAX_BYTES": str((1 << 30) + 1)}, "CHIDORI_VFS_MAX_BYTES must be a number of bytes"),
    ]
    for env, words in cases:
        state = tempfile.mkdtemp(prefix="chidori-vfs-state-")
        code, out, err = chidori(v, "run", agent, env=env, state=state)
        assert code == 2, f"{env}: exit {code}\n{err}"
        assert words in err, f"{env}: stderr lacks {words!r}:\n{err}"
        assert out == "" and not os.path.exists(os.path.join(state, "runs")), f"{env}: the run started"
        shutil.rmtree(state)
    code, out, err = chidori(v, "eval", "1", env={"CHIDORI_TS_FS": "host"})
    assert code == 2 and "CHIDORI_TS_FS=host: a host filesystem mode does not exist" in err, (code, err)
    shutil.rmtree(proj)


def case_vfs_settings_are_recorded_and_replay_uses_them(v):
    """CHIDORI_TS_FS and CHIDORI_VFS_MAX_BYTES are recorded in run.json; a replay without them in
    the environment behaves as the run did. A nested agent's own VFS replays too."""
    proj = project("fs_disabled.js", "fs_enospc.js", "fs_nested.js", "_fs_nested_child.js")
    state = os.path.join(proj, "state")
    for name, env, key, want in [("fs_disabled.js", {"CHIDORI_TS_FS": "none"}, "surface", {"fs": "none"}),
                                 ("fs_enospc.js", {"CHIDORI_VFS_MAX_BYTES": "1000"}, "vfs", {"max_bytes": 1000}),
                                 ("fs_nested.js", {}, "surface", {"fs": "vfs"})]:
        agent = os.path.join(proj, name)
        code, out, err = chidori(v, "run", agent, env=env, state=state)
        assert code == 0, f"{name}: {err}"
        rid = run_id_of(err)
        with open(os.path.join(state, "runs", rid, "run.json")) as f:
            recorded = json.load(f)[key]
            assert all(recorded.get(k) == w for k, w in want.items()), f"{name}: run.json lacks {key} {want}: {recorded}"
        code, again, err = chidori(v, "replay", agent, rid, state=state)
        assert code == 0 and again == out, f"{name}: replay without the settings: exit {code}\n{again}\n{err}"
    shutil.rmtree(proj)
