"""tests/cases_progress.py — the live progress line of `chidori run` / `resume` (docs/cli.md).

chidori runs with its stderr on a pseudo-terminal (os.openpty) while an agent makes slow real
calls: a prompt to providers/fake_llm.py (which answers after a delay, with token usage), a fetch
of tests/http/server.py's /slow, a workspace write, a console line between them. What the
terminal received is replayed through a tiny terminal model (CR, newline, overwriting) so the
test can say what a person sees at the end: the banner, the console line and the paused prompt
each whole on their own line, and no status text left over. The status lines themselves are read
from the raw bytes (each drawn after a CR); the line uses no escape sequence at all (chidori
writes none on a terminal), so none may appear. With stderr on a pipe no CR may appear; with
--quiet no status text.

Content only: each slow call lasts 800 ms and the line is redrawn five times a second, so a
status line naming it is drawn on any machine; no duration is asserted.
"""
import fcntl
import json
import os
import re
import shutil
import struct
import subprocess
import tempfile
import termios
import threading

from cases_effects import fake_llm, run_id_of
from cases_http import server as http_server
from run import run_process, sanitizer_report

AGENT = """export default async (input, chidori) => {
  const a = await chidori.prompt("first question", { model: "m-1" });
  console.log("between the calls");
  const r = await fetch(input.base + "/slow?ms=800");
  await chidori.workspace.write("out.md", a);
  if (input.ask) {
    const ans = await chidori.input("Ship it?");
    const b = await chidori.prompt("second question", { model: "m-1" });
    return { a, b, ans };
  }
  return { a, status: r.status };
};
"""

SCRIPT = [{"text": "one", "model": "m-1", "usage": {"input": 11, "output": 7}, "delayMs": 800},
          {"text": "two", "model": "m-1", "usage": {"input": 5, "output": 3}, "delayMs": 800}]

STATUS = re.compile(r"\r([^\r\n]+)")


def status_lines(raw):
    """The status lines drawn (without the spaces that cover a longer line drawn before)."""
    return [s.rstrip(" ") for s in STATUS.findall(raw) if " · " in s]


def screen(raw):
    """What a terminal shows after raw: lines of text (CR and newline interpreted, each other
    character written over what is at the cursor; an escape would be kept as text), trailing
    spaces dropped."""
    lines, cur, col, i = [], [], 0, 0
    while i < len(raw):
        c = raw[i]
        if c == "\r":
            col = 0
        elif c == "\n":
            lines.append("".join(cur))
            cur, col = [], 0
        else:
            if col < len(cur):
                cur[col] = c
            else:
                cur.append(c)
            col += 1
        i += 1
    if cur:
        lines.append("".join(cur))
    return [line.rstrip(" ") for line in lines]


def run_on_pty(v, args, cwd, env, timeout=60):
    """chidori with stderr on a pseudo-terminal (120 columns), stdout on a pipe, stdin empty.
    (exit code, stdout, everything the terminal received)."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    p = subprocess.Popen([v.chidori, *args], cwd=cwd, env=v.env(env), stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    chunks = []

    def drain():
        while True:
            try:
                d = os.read(master, 65536)
            except OSError:  # EIO: every writer closed the terminal
                return
            if not d:
                return
            chunks.append(d)
    t = threading.Thread(target=drain, daemon=True)
    t.start()
    try:
        out, _ = p.communicate(timeout=timeout * v.slow)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        raise AssertionError(f"chidori {' '.join(args)} timed out")
    t.join(timeout=10 * v.slow)
    os.close(master)
    raw = b"".join(chunks).decode("utf-8", "replace")
    assert not sanitizer_report(raw), "sanitizer report:\n" + raw[-3000:]
    return p.returncode, out.decode(), raw


def project():
    proj = tempfile.mkdtemp(prefix="chidori-progress-")
    with open(os.path.join(proj, "main.js"), "w") as f:
        f.write(AGENT)
    return proj


def peers_env(base):
    return {"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": base + "/v1", "CHIDORI_HTTP_ALLOW_HOSTS": "127.0.0.1",
            "CHIDORI_STATE_DIR": ""}


def env_for(proj, base):
    env = peers_env(base)
    env["CHIDORI_STATE_DIR"] = os.path.join(proj, ".chidori")
    return env


def case_progress_line_on_a_terminal_names_each_effect_and_is_cleared(v):
    proj = project()
    try:
        with fake_llm(SCRIPT) as (base, _), http_server() as (port, _):
            env = env_for(proj, base)
            code, out, raw = run_on_pty(v, ["run", "main.js", "-i", json.dumps({"base": f"http://127.0.0.1:{port}"})],
                                        proj, env)
        assert code == 0, (code, out, raw[-2000:])
        assert json.loads(out) == {"a": "one", "status": 200}, out
        shown = status_lines(raw)
        assert any(s.startswith("prompt m-1 · ") for s in shown), f"no status line for the prompt:\n{raw!r}"
        assert any(s.startswith(f"http GET 127.0.0.1:{port} · ") for s in shown), f"no status for the fetch:\n{raw!r}"
        # tokens so far: after the prompt, the fetch's line counts its usage
        assert any(s.startswith("http GET") and "tokens 11 in / 7 out" in s for s in shown), shown
        assert all(re.search(r" · \d+\.\ds · tokens \d+ in / \d+ out$", s) for s in shown), shown
        assert "\x1b" not in raw, f"an escape sequence reached the terminal: {raw!r}"
        # what a person sees at the end: each line whole, no status left over
        lines = screen(raw)
        assert not any("tokens" in line or "·" in line for line in lines), lines
        assert "between the calls" in lines, f"the console line is not a line of its own: {lines}"
        assert any(line.startswith("Run id: ") for line in lines), lines
    finally:
        shutil.rmtree(proj, ignore_errors=True)


def case_progress_line_clears_for_the_paused_prompt_and_shows_on_resume(v):
    proj = project()
    try:
        with fake_llm(SCRIPT) as (base, _), http_server() as (port, _):
            env = env_for(proj, base)
            inp = json.dumps({"base": f"http://127.0.0.1:{port}", "ask": True})
            code, out, raw = run_on_pty(v, ["run", "main.js", "-i", inp], proj, env)
            assert code == 3, (code, out, raw[-2000:])
            lines = screen(raw)
            rid = run_id_of("\n".join(lines))
            assert f"Run {rid} paused, waiting for input: Ship it?" in lines, lines
            assert not any("tokens" in line for line in lines), lines
            code, out, raw = run_on_pty(v, ["resume", "main.js", rid, "--response", "yes"], proj, env)
        assert code == 0, (code, out, raw[-2000:])
        assert json.loads(out) == {"a": "one", "b": "two", "ans": "yes"}, out
        shown = status_lines(raw)
        # the resume replays the first calls (nothing live, nothing shown), then the second prompt is live
        assert any(s.startswith("prompt m-1 · ") for s in shown), f"no status line on resume:\n{raw!r}"
        assert not any(s.startswith("http ") for s in shown), shown
        assert not any("tokens" in line for line in screen(raw)), screen(raw)
    finally:
        shutil.rmtree(proj, ignore_errors=True)


def case_progress_line_absent_off_a_terminal_and_with_quiet(v):
    proj = project()
    try:
        with fake_llm(SCRIPT[:1] * 3) as (base, _), http_server() as (port, _):
            env = env_for(proj, base)
            inp = json.dumps({"base": f"http://127.0.0.1:{port}"})
            # stderr on a pipe
            code, out, err, _, timed_out = run_process([v.chidori, "run", "main.js", "-i", inp], v.env(env),
                                                       60 * v.slow, cwd=proj)
            assert not timed_out and code == 0, (code, err)
            assert "\r" not in err and "\x1b" not in err and "tokens" not in err, repr(err)
            assert "between the calls" in err, err
            # a terminal, with --quiet (and -q)
            for flag in ("--quiet", "-q"):
                code, out, raw = run_on_pty(v, ["run", "main.js", "-i", inp, flag], proj, env)
                assert code == 0, (flag, code, out, raw[-2000:])
                assert "\x1b" not in raw and "tokens" not in raw and " · " not in raw, (flag, repr(raw))
                assert "between the calls" in screen(raw), raw
    finally:
        shutil.rmtree(proj, ignore_errors=True)


def case_progress_quiet_is_accepted_by_replay(v):
    proj = project()
    try:
        with fake_llm(SCRIPT[:1]) as (base, _), http_server() as (port, _):
            env = env_for(proj, base)
            inp = json.dumps({"base": f"http://127.0.0.1:{port}"})
            code, out, err, _, _ = run_process([v.chidori, "run", "main.js", "-i", inp, "--quiet"], v.env(env),
                                               60 * v.slow, cwd=proj)
            assert code == 0, err
            rid = run_id_of(err)
        code, out, raw = run_on_pty(v, ["replay", "main.js", rid, "--quiet"], proj, env)
        assert code == 0, (code, raw[-2000:])
        assert "tokens" not in raw and " · " not in raw, repr(raw)
        assert "chidori: replay matched" in raw, raw
    finally:
        shutil.rmtree(proj, ignore_errors=True)
