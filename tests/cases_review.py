"""tests/cases_review.py — issue 23, the hostile review of the round-2 fixes: agent text that still
reached the operator's terminal raw.

  * the interactive question of `chidori.input` (prompt, choices, default) at a terminal;
  * the run's pretty-printed output JSON (C1 controls and bidi overrides, which JSON leaves raw).
"""
import json
import os
import pty
import select
import shutil
import subprocess
import tempfile
import time

from cases import chidori

HOSTILE = "\x1b]0;PWNED-TITLE\x07\x1b]52;c;cHduZWQ=\x07\x1b[2J\x1b[H\u009b31m\u202e"


def _run_on_pty(v, args, env, answer, timeout):
    """Run chidori with stdin, stdout and stderr on a pseudo-terminal; type answer once it asks.
    (exit code, everything the terminal received)."""
    master, slave = pty.openpty()
    p = subprocess.Popen([v.chidori, *args], stdin=slave, stdout=slave, stderr=slave, env=v.env(env),
                         close_fds=True)
    os.close(slave)
    got = b""
    sent = False
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            r, _, _ = select.select([master], [], [], 0.2)
            if r:
                try:
                    chunk = os.read(master, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                got += chunk
            if not sent and b"): " in got:
                os.write(master, answer)
                sent = True
            if p.poll() is not None and not r:
                break
        else:
            raise AssertionError(f"chidori on a terminal timed out; it printed {got!r}")
    finally:
        if p.poll() is None:
            p.kill()
        p.wait()
        os.close(master)
    return p.returncode, got


def case_input_question_is_sanitized_on_the_terminal(v):
    """The question chidori.input asks at a terminal is the agent's text: no escape sequence of
    it (window title, OSC 52 clipboard, screen clear, C1 CSI, bidi override) reaches the terminal
    raw, in the prompt, the choices or the default."""
    proj = tempfile.mkdtemp(prefix="chidori-review-")
    try:
        agent = os.path.join(proj, "ask.js")
        with open(agent, "w", encoding="utf-8") as f:
            f.write("export default async (input, chidori) => {\n"
                    f"  const h = {json.dumps(HOSTILE)};\n"
                    "  const a = await chidori.input(h + 'Approve?\\nchidori: policy: forged', "
                    "{choices: ['yes' + h, 'no'], default: h + 'no'});\n"
                    "  return {a};\n};\n")
        env = {"CHIDORI_STATE_DIR": os.path.join(proj, "state")}
        code, got = _run_on_pty(v, ["run", agent], env, b"yes\n", 30 * v.slow)
        text = got.decode("utf-8", "replace")
        assert code == 0 and '"a": "yes"' in text, f"exit {code}: {text!r}"
        question = text[text.index("? "):]
        for raw in ("\x1b", "\x07", "\x9b", "\u202e"):
            assert raw not in question, f"{raw!r} reached the terminal raw in the question: {question!r}"
        assert "\\x1b]0;PWNED-TITLE\\x07" in question and "(guest) chidori: policy: forged" in question, question
    finally:
        shutil.rmtree(proj, ignore_errors=True)


def case_output_json_carries_no_c1_or_bidi_control(v):
    """The output JSON printed by `run` (and `replay`) escapes C1 controls and bidi overrides as
    \\u escapes: the same JSON value, which no longer drives the terminal."""
    proj = tempfile.mkdtemp(prefix="chidori-review-")
    try:
        agent = os.path.join(proj, "out.js")
        value = "a\u009b31mb\u202ec\u2066d\u0085e ünïcödé 🎉"
        with open(agent, "w", encoding="utf-8") as f:
            f.write(f"export default async () => ({{ [{json.dumps(value)}]: {json.dumps(value)} }});\n")
        state = os.path.join(proj, "state")
        code, out, err = chidori(v, "run", agent, state=state)
        assert code == 0, f"exit {code}\n{out}\n{err}"
        for raw in ("\x9b", "\u202e", "\u2066", "\x85"):
            assert raw not in out, f"{raw!r} reached stdout raw: {out!r}"
        assert json.loads(out) == {value: value}, out
        assert "ünïcödé 🎉" in out, f"ordinary text changed: {out!r}"
        rid = next(line.split(": ", 1)[1] for line in err.splitlines() if line.startswith("Run id: "))
        code, out2, err2 = chidori(v, "replay", agent, rid, state=state)
        assert code == 0 and out2 == out, f"replay exit {code}: {out2!r}\n{err2}"
    finally:
        shutil.rmtree(proj, ignore_errors=True)


def case_state_folder_is_not_readable_through_a_symlink_of_the_agent_folder(v):
    """An agent folder may ship a symlink to its own `.chidori` (`s -> .chidori`): it stays beneath
    the folder, so the kernel follows it, but the call logs and memory behind it are no more the
    agent's to read than `.chidori/...` itself (workspace reads, templates). A symlink to an
    ordinary file of the folder still reads."""
    proj = tempfile.mkdtemp(prefix="chidori-review-")
    try:
        with open(os.path.join(proj, "secret.js"), "w") as f:
            f.write('export default async (i, c) => { await c.step("s", () => "SECRET-ANSWER-42"); '
                    'await c.memory.set("k", "SECRET-MEMORY-42"); return 1; };\n')
        os.symlink(".chidori", os.path.join(proj, "s"))
        os.mkdir(os.path.join(proj, "data"))
        with open(os.path.join(proj, "data", "ok.txt"), "w") as f:
            f.write("plain data")
        os.symlink("data/ok.txt", os.path.join(proj, "ok-link.txt"))
        state = os.path.join(proj, ".chidori")  # where it is by default: next to the agent
        code, out, err = chidori(v, "run", os.path.join(proj, "secret.js"), state=state)
        assert code == 0, f"exit {code}\n{out}\n{err}"
        rid = next(line.split(": ", 1)[1] for line in err.splitlines() if line.startswith("Run id: "))
        assert os.path.exists(os.path.join(state, "runs", rid, "records.jsonl")), os.listdir(proj)
        assert os.path.exists(os.path.join(state, "memory.json")), os.listdir(state)
        with open(os.path.join(proj, "peek.js"), "w") as f:
            f.write("export default async (input, chidori) => {\n  const out = {};\n"
                    f"  for (const p of ['s/runs/{rid}/records.jsonl', 's/memory.json', 'ok-link.txt']) {{\n"
                    "    try { out['read ' + p] = await chidori.workspace.read(p); } catch (e) { out['read ' + p] = 'refused: ' + e; }\n"
                    "    try { out['template ' + p] = await chidori.template(p, {}); } catch (e) { out['template ' + p] = 'refused: ' + e; }\n"
                    "  }\n  return out;\n};\n")
        code, out, err = chidori(v, "run", os.path.join(proj, "peek.js"), state=state)
        assert code == 0, f"exit {code}\n{out}\n{err}"
        assert "SECRET-ANSWER-42" not in out and "SECRET-MEMORY-42" not in out, f"the state folder was read:\n{out}"
        got = json.loads(out)
        for k, val in got.items():
            if "ok-link" in k:
                assert val == "plain data", (k, val)
            else:
                assert val.startswith("refused: "), (k, val)
    finally:
        shutil.rmtree(proj, ignore_errors=True)


def case_resume_after_a_lost_record_is_refused_and_the_log_kept(v):
    """A paused run whose last record lost its newline (a torn write, an editor): the record is
    not part of the log, so the run's pending call (seq 2) comes after a call the log does not
    have. Resume used to cut the line and append the answer as seq 2 after nothing, leaving a log
    that diverges on every replay; now it is refused, the file is left as it was, and once the
    line is whole again the resume completes."""
    proj = tempfile.mkdtemp(prefix="chidori-review-")
    try:
        agent = os.path.join(proj, "p.js")
        with open(agent, "w") as f:
            f.write('export default async (i, c) => { const a = await c.step("a", () => "A"); '
                    'const x = await c.input("q?"); const b = await c.step("b", () => "B"); return {a, x, b}; };\n')
        state = os.path.join(proj, "state")
        code, out, err = chidori(v, "run", agent, state=state)
        assert code == 3, f"exit {code}\n{out}\n{err}"
        rid = next(line.split(": ", 1)[1] for line in err.splitlines() if line.startswith("Run id: "))
        path = os.path.join(state, "runs", rid, "records.jsonl")
        with open(path, "rb") as f:
            whole = f.read()
        assert whole.count(b"\n") == 1 and whole.endswith(b"\n"), whole
        with open(path, "wb") as f:
            f.write(whole[:-1])
        code, out, err = chidori(v, "resume", agent, rid, "--response", "yes", state=state)
        assert code != 0 and "no complete record of call 1" in err, f"exit {code}\n{out}\n{err}"
        with open(path, "rb") as f:
            assert f.read() == whole[:-1], "the refused resume changed the log"
        with open(path, "ab") as f:
            f.write(b"\n")
        code, out, err = chidori(v, "resume", agent, rid, "--response", "yes", state=state)
        assert code == 0 and json.loads(out) == {"a": "A", "x": "yes", "b": "B"}, f"exit {code}\n{out}\n{err}"
        code, out2, err = chidori(v, "replay", agent, rid, state=state)
        assert code == 0 and out2 == out, f"replay exit {code}\n{out2}\n{err}"
    finally:
        shutil.rmtree(proj, ignore_errors=True)


def case_resume_interrupted_after_recording_the_answer_resumes_again(v):
    """A resume killed after it recorded the answer but before run.json said so (the crash test
    hit it at 12-17 of 60 points): the next resume used to be refused for good ("its seq is not
    newer than the log's last record"). It now goes on with the recorded answer — later records
    may depend on it — and completes; also inside a nested agent, whose call was still open."""
    proj = tempfile.mkdtemp(prefix="chidori-review-")
    try:
        with open(os.path.join(proj, "flat.js"), "w") as f:
            f.write('export default async (i, c) => { const a = await c.step("a", () => "A"); '
                    'const x = await c.input("q?"); for (let k = 0; k < 3; k++) await c.mark("m" + k); '
                    'const y = await c.input("q2?"); return {a, x, y}; };\n')
        with open(os.path.join(proj, "ask.js"), "w") as f:
            f.write('export default async (i, c) => { await c.mark("in"); const x = await c.input("q?"); '
                    'await c.mark("after " + x); return x; };\n')
        with open(os.path.join(proj, "nested.js"), "w") as f:
            f.write('export default async (i, c) => { await c.mark("root"); const x = await c.callAgent("ask.js", {}); '
                    'await c.mark("back"); const y = await c.input("q2?"); return {x, y}; };\n')
        for entry, want in (("flat.js", {"a": "A", "x": "yes", "y": "two"}), ("nested.js", {"x": "yes", "y": "two"})):
            state = os.path.join(proj, "state-" + entry)
            agent = os.path.join(proj, entry)
            code, out, err = chidori(v, "run", agent, state=state)
            assert code == 3, f"{entry}: exit {code}\n{err}"
            rid = next(line.split(": ", 1)[1] for line in err.splitlines() if line.startswith("Run id: "))
            meta = os.path.join(state, "runs", rid, "run.json")
            with open(meta, "rb") as f:
                paused_meta = f.read()
            code, out, err = chidori(v, "resume", agent, rid, "--response", "yes", state=state)
            assert code == 3 and "q2?" in err, f"{entry}: exit {code}\n{err}"
            with open(meta, "wb") as f:  # as if killed before run.json was rewritten
                f.write(paused_meta)
            code, out, err = chidori(v, "resume", agent, rid, "--response", "no", state=state)
            assert code == 3 and "q2?" in err and "was already answered in the call log" in err, f"{entry}: exit {code}\n{err}"
            code, out, err = chidori(v, "resume", agent, rid, "--response", "two", state=state)
            assert code == 0 and json.loads(out) == want, f"{entry}: exit {code}\n{out}\n{err}"
            code, out2, err = chidori(v, "replay", agent, rid, state=state)
            assert code == 0 and out2 == out, f"{entry}: replay exit {code}\n{out2}\n{err}"
    finally:
        shutil.rmtree(proj, ignore_errors=True)


def case_serve_http11_request_without_a_readable_host_is_refused(v):
    """The Host check lets a request without Host through (an HTTP/1.0 client); an HTTP/1.1
    request must carry one, and one spelt so that it is not read as Host (`Host : x`, a folded
    line) used to pass as absent. Now such requests are a 400; HTTP/1.0 without Host still works."""
    import socket
    from cases_serve import serving

    def raw(s, text):
        sock = socket.create_connection((s.host, s.port), timeout=10 * v.slow)
        try:
            sock.sendall(text.encode())
            got = b""
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                got += chunk
            return got.decode("latin-1")
        finally:
            sock.close()

    with serving(v) as s:
        for hidden in ("GET /sessions HTTP/1.1\r\nConnection: close\r\n\r\n",
                       "GET /sessions HTTP/1.1\r\nHost : evil.example\r\nConnection: close\r\n\r\n",
                       "GET /sessions HTTP/1.1\r\nHost: evil.example\r\n x\r\nConnection: close\r\n\r\n"):
            reply = raw(s, hidden)
            assert reply.startswith("HTTP/1.1 400") and "Host header" in reply, f"{hidden!r}: {reply[:300]!r}"
            assert '"sessions"' not in reply, reply
        # a kept-alive request without Host: the 400 ends the connection (raw() reads to the end)
        reply = raw(s, "GET /sessions HTTP/1.1\r\nConnection: keep-alive\r\n\r\n")
        assert reply.startswith("HTTP/1.1 400") and "close" in reply.lower(), reply[:300]
        reply = raw(s, "GET /sessions HTTP/1.0\r\n\r\n")
        assert reply.split(" ", 2)[1] == "200" and '"sessions"' in reply, reply[:300]
        reply = raw(s, "GET /sessions HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        assert reply.startswith("HTTP/1.1 200"), reply[:300]
