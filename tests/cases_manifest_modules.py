"""tests/cases_manifest_modules.py — the snapshot manifest lists every module a run was served, not
only its entry (docs/durable-runs.md, *What the manifest fingerprints*).

A project of our own: an entry importing a local module, a CommonJS package (that require()s a file
of its own and a Node built-in) and an ES-module package (`type: module`, `exports`). Paused on an
input, the stored manifest (the CLI's runtime.snapshot.json, serve's GET /sessions/{id}/snapshot)
lists each file with the FNV-1a 64 of its bytes and the import graph, the same isolated and
in-process. An edited, or removed, package file is then a source change like an edited entry: the
resume is refused (CLI exit 1, serve 409) with the message of an edited entry and nothing of the
run touched, unless allow_source_change / --allow-source-change lets it through. A stored manifest
that is garbage or too large to read refuses the resume with a clear error, unless the flag is given.

The bug these guard: the manifest was built before the run from the entry file alone, so editing a
package file (or any imported module) while a run waited was never seen by the resume check.
"""
import json
import os
import shutil
import tempfile

from cases import chidori
from cases_serve import Server, create

AGENT = """import { run } from "chidori:agent";
import { twice } from "./lib.js";
import cjs from "cjspkg";
import { shout } from "esmpkg";
import path from "node:path";
run(async (input, chidori) => {
  await chidori.log("asking");
  const answer = await chidori.input("Ship it?");
  return { answer, t: twice(2), c: cjs.add(1, 2), base: cjs.base, s: shout("hi"), b: path.basename("/a/b.txt") };
});
"""

FILES = {
    "agent.js": AGENT,
    "lib.js": "export function twice(x) { return x * 2; }\n",
    "node_modules/cjspkg/package.json": '{"name": "cjspkg", "version": "1.0.0", "main": "index.js"}\n',
    "node_modules/cjspkg/index.js": 'const h = require("./helper");\nconst p = require("path");\n'
                                    'exports.add = (a, b) => h.plus(a, b);\nexports.base = p.basename("/x/y.js");\n',
    "node_modules/cjspkg/helper.js": "module.exports = { plus: (a, b) => a + b };\n",
    "node_modules/esmpkg/package.json": '{"name": "esmpkg", "version": "1.0.0", "type": "module", '
                                        '"exports": {".": "./main.js"}}\n',
    "node_modules/esmpkg/main.js": 'export const shout = (s) => s.toUpperCase() + "!";\n',
}

# every served file but the entry, and what each file's imports resolved to
MODULES = {"lib.js", "node_modules/cjspkg/index.js", "node_modules/cjspkg/helper.js", "node_modules/esmpkg/main.js"}
GRAPH = {
    "agent.js": {"./lib.js": "lib.js", "cjspkg": "node_modules/cjspkg/index.js",
                 "esmpkg": "node_modules/esmpkg/main.js", "node:path": "/__node_builtins__/path.js"},
    "lib.js": {},
    "node_modules/cjspkg/index.js": {"./helper": "node_modules/cjspkg/helper.js", "path": "/__node_builtins__/path.js"},
    "node_modules/cjspkg/helper.js": {},
    "node_modules/esmpkg/main.js": {},
}

OUTPUT = {"answer": "yes", "t": 4, "c": 3, "base": "y.js", "s": "HI!", "b": "b.txt"}

# the refusal of §11, as an edited entry gets it
SOURCE_CHANGED = "the agent source changed since this run was recorded"
OPT_IN = ('edit-and-resume is opt-in — pass --allow-source-change (CLI) or "allow_source_change": true (server) '
          'to replay the recorded calls against the edited code')


def fnv1a64(data):
    h = 0xcbf29ce484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return f"fnv1a64:{h:016x}"


def project():
    folder = tempfile.mkdtemp(prefix="chidori-manifest-modules-")
    for name, text in FILES.items():
        path = os.path.join(folder, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    return folder


def write(folder, name, text):
    with open(os.path.join(folder, name), "w") as f:
        f.write(text)


def hash_of(folder, name):
    with open(os.path.join(folder, name), "rb") as f:
        return fnv1a64(f.read())


def check_lists_the_project(m, folder):
    """m lists each served file with its present hash, and the graph of their imports."""
    assert m["entry"] == {"path": "agent.js", "hash": hash_of(folder, "agent.js")}, m["entry"]
    got = {e["path"]: e["hash"] for e in m["modules"]}
    assert set(got) == MODULES and len(m["modules"]) == len(MODULES), m["modules"]
    for name in MODULES:
        assert got[name] == hash_of(folder, name), (name, got[name])
    assert m["module_graph"][0]["path"] == "agent.js", m["module_graph"]
    graph = {n["path"]: {i["specifier"]: i["resolved_path"] for i in n["imports"]} for n in m["module_graph"]}
    assert graph == GRAPH, json.dumps(m["module_graph"], indent=1)
    assert "modules_past_cap" not in m, m


def cli_manifest(state, rid):
    with open(os.path.join(state, "runs", rid, "runtime.snapshot.json")) as f:
        return json.load(f)


def run_folder_state(state, rid):
    folder = os.path.join(state, "runs", rid)
    with open(os.path.join(folder, "records.jsonl"), "rb") as f:
        records = f.read()
    with open(os.path.join(folder, "run.json")) as f:
        meta = json.load(f)
    return records, meta


def paused_run(v, mode, folder, state):
    """A new run of the project's agent, paused on its input: its run id."""
    before = set(os.listdir(os.path.join(state, "runs"))) if os.path.isdir(os.path.join(state, "runs")) else set()
    code, out, err = chidori(v, "run", mode, os.path.join(folder, "agent.js"), state=state)
    assert code == 3, (code, out, err)
    new = set(os.listdir(os.path.join(state, "runs"))) - before
    assert len(new) == 1, new
    return new.pop()


def case_manifest_modules_cli_lists_every_file_the_same_isolated_and_in_process(v):
    folder = project()
    try:
        got = {}
        for mode in ("--isolate", "--no-isolate"):
            state = os.path.join(folder, "state" + mode)
            rid = paused_run(v, mode, folder, state)
            m = cli_manifest(state, rid)
            check_lists_the_project(m, folder)
            got[mode] = {k: m[k] for k in ("entry", "modules", "module_graph")}
            # answered, the run reloads the same files: the manifest lists the same
            code, out, err = chidori(v, "resume", mode, os.path.join(folder, "agent.js"), rid, "--response", "yes",
                                     state=state)
            assert code == 0 and json.loads(out) == OUTPUT, (mode, code, out, err)
            check_lists_the_project(cli_manifest(state, rid), folder)
        assert got["--isolate"] == got["--no-isolate"], got
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def case_manifest_modules_cli_edited_package_file_refused_unless_allowed(v):
    folder = project()
    agent = os.path.join(folder, "agent.js")
    try:
        for mode in ("--isolate", "--no-isolate"):
            state = os.path.join(folder, "state" + mode)
            rid = paused_run(v, mode, folder, state)
            before = run_folder_state(state, rid)
            recorded = cli_manifest(state, rid)
            # an edited ES-module package file, an edited file a CommonJS package require()s, a removed one
            edits = [("node_modules/esmpkg/main.js", 'export const shout = (s) => s + "?";\n'),
                     ("node_modules/cjspkg/helper.js", "module.exports = { plus: (a, b) => a - b };\n"),
                     ("lib.js", None)]
            for name, text in edits:
                if text is None:
                    os.rename(os.path.join(folder, name), os.path.join(folder, name + ".away"))
                else:
                    write(folder, name, text)
                code, out, err = chidori(v, "resume", mode, agent, rid, "--response", "yes", state=state)
                assert code == 1 and SOURCE_CHANGED in err and OPT_IN in err, (mode, name, code, out, err)
                assert f"module {name}:" in err, (mode, name, err)
                assert ("now missing" in err) == (text is None), err
                assert run_folder_state(state, rid) == before, "a refused resume changed the run"
                assert cli_manifest(state, rid) == recorded, "a refused resume changed the manifest"
                if text is None:
                    os.rename(os.path.join(folder, name + ".away"), os.path.join(folder, name))
                else:
                    write(folder, name, FILES[name])
            # every file as recorded again: the resume goes on
            code, out, err = chidori(v, "resume", mode, agent, rid, "--response", "yes", state=state)
            assert code == 0 and json.loads(out) == OUTPUT, (mode, code, out, err)

            # a package file edited past the recorded calls, with the flag: a warning, the edit runs,
            # and the manifest lists the file as it is now
            rid = paused_run(v, mode, folder, state)
            write(folder, "node_modules/cjspkg/helper.js", "module.exports = { plus: (a, b) => a * 10 + b };\n")
            try:
                code, out, err = chidori(v, "resume", mode, agent, rid, "--response", "yes", "--allow-source-change",
                                         state=state)
                assert code == 0 and json.loads(out)["c"] == 12, (mode, code, out, err)
                assert "against an edited agent" in err and "module node_modules/cjspkg/helper.js" in err, err
                check_lists_the_project(cli_manifest(state, rid), folder)
            finally:
                write(folder, "node_modules/cjspkg/helper.js", FILES["node_modules/cjspkg/helper.js"])
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def case_manifest_modules_cli_garbage_or_oversized_manifest_is_a_clear_error(v):
    folder = project()
    agent = os.path.join(folder, "agent.js")
    state = os.path.join(folder, "state")
    try:
        rid = paused_run(v, "--isolate", folder, state)
        path = os.path.join(state, "runs", rid, "runtime.snapshot.json")
        before = run_folder_state(state, rid)
        cases = [(b'{"entry": garbage', "is not a snapshot manifest"),
                 (b'["a list"]', "is not a snapshot manifest (not a JSON object)"),
                 (b"{" + b" " * (17 << 20) + b"}", "cannot be read")]
        for body, what in cases:
            with open(path, "wb") as f:
                f.write(body)
            code, out, err = chidori(v, "resume", agent, rid, "--response", "yes", state=state)
            assert code == 1 and what in err and "--allow-source-change" in err, (what, code, out, err[-2000:])
            assert "cannot be resumed" in err and "runtime.snapshot.json" in err, err[-2000:]
            assert run_folder_state(state, rid) == before, "a refused resume changed the run"
        # with the flag: resumed without the check, and a new manifest written
        code, out, err = chidori(v, "resume", agent, rid, "--response", "yes", "--allow-source-change", state=state)
        assert code == 0 and json.loads(out) == OUTPUT, (code, out, err[-2000:])
        assert "without checking the agent's source" in err, err[-2000:]
        check_lists_the_project(cli_manifest(state, rid), folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def serve_project(v, mode):
    folder = project()
    s = Server(v, mode, "--trusted", folder=folder, agent=os.path.join(folder, "agent.js")).start()
    return s, folder


def serve_refused_then_allowed(v, mode):
    s, folder = serve_project(v, mode)
    try:
        view = create(s, {"input": {}})
        assert view["status"] == "paused", view
        sid = view["id"]
        status, _, got = s.request("GET", f"/sessions/{sid}/snapshot")
        assert status == 200, (status, got)
        check_lists_the_project(got["snapshot_manifest"], folder)
        status, _, cp = s.request("GET", f"/sessions/{sid}/checkpoint")
        assert status == 200 and cp["snapshot_manifest"] == got["snapshot_manifest"], cp
        log_before = cp["call_log"]

        # an unchanged resume goes on (a second session, same files)
        other = create(s, {"input": {}})["id"]
        status, _, done = s.request("POST", f"/sessions/{other}/resume", {"response": "yes"})
        assert status == 200 and done["status"] == "completed" and done["output"] == OUTPUT, (status, done)

        name = "node_modules/esmpkg/main.js"
        write(folder, name, 'export const shout = (s) => s.toLowerCase() + "?";\n')
        status, _, got = s.request("POST", f"/sessions/{sid}/resume", {"response": "yes"})
        assert status == 409 and SOURCE_CHANGED in got["error"] and OPT_IN in got["error"], (status, got)
        assert f"module {name}:" in got["error"], got
        now = s.request("GET", f"/sessions/{sid}")[2]
        assert now["status"] == "paused" and now["call_count"] == 1, now
        assert s.request("GET", f"/sessions/{sid}/checkpoint")[2]["call_log"] == log_before

        status, _, done = s.request("POST", f"/sessions/{sid}/resume", {"response": "yes", "allow_source_change": True})
        assert status == 200 and done["status"] == "completed" and done["output"]["s"] == "hi?", (status, done)
        m = s.request("GET", f"/sessions/{sid}/snapshot")[2]["snapshot_manifest"]
        check_lists_the_project(m, folder)  # the edited file's hash now
        s.stop()
        return {k: m[k] for k in ("modules", "module_graph")}
    finally:
        s.cleanup()
        shutil.rmtree(folder, ignore_errors=True)


def case_manifest_modules_serve_edited_package_409_unless_allowed(v):
    isolated = serve_refused_then_allowed(v, "--isolate")
    in_process = serve_refused_then_allowed(v, "--no-isolate")
    assert [e["path"] for e in isolated["modules"]] == [e["path"] for e in in_process["modules"]], (isolated, in_process)
    assert isolated["module_graph"] == in_process["module_graph"], (isolated, in_process)


def case_manifest_modules_serve_garbage_stored_manifest_is_a_clear_409(v):
    """A session whose stored manifest is not JSON (a damaged database): the resume is a 409 saying
    so and what to do; with allow_source_change it goes on, and a new manifest is stored."""
    import sqlite3
    s, folder = serve_project(v, "--isolate")
    try:
        sid = create(s, {"input": {}})["id"]
        s.stop()
        db = sqlite3.connect(os.path.join(folder, "state", "sessions.sqlite3"))
        with db:
            db.execute("UPDATE manifests SET body = '{\"entry\": garbage ' || id")
        db.close()
        s = Server(v, "--isolate", "--trusted", folder=folder, agent=os.path.join(folder, "agent.js")).start()
        status, _, got = s.request("POST", f"/sessions/{sid}/resume", {"response": "yes"})
        assert status == 409 and "stored snapshot manifest" in got["error"], (status, got)
        assert '"allow_source_change": true' in got["error"], got
        assert s.request("GET", f"/sessions/{sid}")[2]["status"] == "paused"
        status, _, done = s.request("POST", f"/sessions/{sid}/resume", {"response": "yes", "allow_source_change": True})
        assert status == 200 and done["status"] == "completed" and done["output"] == OUTPUT, (status, done)
        check_lists_the_project(s.request("GET", f"/sessions/{sid}/snapshot")[2]["snapshot_manifest"], folder)
        s.stop()
    finally:
        s.cleanup()
        shutil.rmtree(folder, ignore_errors=True)


def case_manifest_modules_serve_reused_text_follows_edited_files(v):
    """The server reuses a new session's manifest text while the entry hashes the same, and what a
    run's served modules made of it (sessions.c, manifest_or_warn and record_served): each
    session's stored manifest still lists the files as they were when it ran, an edited module or
    entry included, and the same bytes as one built afresh."""
    s, folder = serve_project(v, "--no-isolate")
    per_run = ("run_id", "created_at", "policy", "pending", "call_log_len")

    def shared(sid):
        m = s.request("GET", f"/sessions/{sid}/snapshot")[2]["snapshot_manifest"]
        check_lists_the_project(m, folder)
        return {k: m[k] for k in m if k not in per_run}

    try:
        first = shared(create(s, {"input": {}})["id"])
        again = shared(create(s, {"input": {}})["id"])  # the reused text, both ends
        assert again == first, (again, first)
        write(folder, "lib.js", "export function twice(x) { return x + x; }\n")  # a module: the entry hashes the same
        edited = shared(create(s, {"input": {}})["id"])
        assert edited != first and edited["entry"] == first["entry"], edited
        write(folder, "agent.js", AGENT + "// edited\n")  # the entry itself
        entry_edited = shared(create(s, {"input": {}})["id"])
        assert entry_edited["entry"] != first["entry"], entry_edited
        s.stop()
        # the stored bodies: one per distinct manifest (before and after each run), as a fresh
        # server (no reused text) stores them
        import sqlite3
        db = sqlite3.connect(os.path.join(folder, "state", "sessions.sqlite3"))
        bodies = [r[0] for r in db.execute("SELECT body FROM manifests ORDER BY id")]
        db.close()
        s = Server(v, "--no-isolate", "--trusted", folder=folder, agent=os.path.join(folder, "agent.js")).start()
        fresh = shared(create(s, {"input": {}})["id"])
        assert fresh == entry_edited, (fresh, entry_edited)
        s.stop()
        db = sqlite3.connect(os.path.join(folder, "state", "sessions.sqlite3"))
        after = [r[0] for r in db.execute("SELECT body FROM manifests ORDER BY id")]
        db.close()
        assert after == bodies, (len(after), len(bodies))  # nothing new: the same bytes again
    finally:
        s.cleanup()
        shutil.rmtree(folder, ignore_errors=True)
