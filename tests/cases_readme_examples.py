"""tests/cases_readme_examples.py — the README's `chidori serve` examples, run as written.

The fenced ```sh blocks of README.md that start a server (`build/chidori serve`) are taken from
the README itself, together with the agent of its first ```ts block (saved as agent.ts, as the
README says), and run by bash in a fresh folder, one block after the other, the way a person
would type them. Only what a machine needs differs from the text: the binary is the variant's,
the ports are free ones (a block without --port gets one), and after a server is started in the
background the script waits until it answers, as a person reading its start-up lines does. Each
curl's answer is checked against the `# → …` line under it in the README (each `"key":value`
piece of it must appear; "..." stands for the rest), and then against what the example promises.
"""
import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import tempfile

from cases import Skip
from run import ROOT, sanitizer_report

README = os.path.join(ROOT, "README.md")
MARK = "@@readme-example-output@@"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def readme_blocks():
    with open(README) as f:
        text = f.read()
    agent = re.findall(r"```ts\n(.*?)```", text, re.S)[0]
    blocks = [b for b in re.findall(r"```sh\n(.*?)```", text, re.S) if re.search(r"^build/chidori serve .*&$", b, re.M)]
    return agent, blocks


def script_for(v, blocks):
    """One bash script running the blocks; (script, expectations: the `# →` text under each curl)."""
    out = ["set -u", "PIDS=", "trap 'kill $PIDS 2>/dev/null; wait' EXIT"]
    expects = []
    ports = {}
    for block in blocks:
        lines = block.splitlines()
        for i, line in enumerate(lines):
            m = re.search(r"--port (\d+)", line)
            if line.startswith("build/chidori serve"):
                readme_port = m.group(1) if m else "8080"
                ports.setdefault(readme_port, free_port())
                if not m:
                    line = line.replace("build/chidori serve", "build/chidori serve --port 8080", 1)
            for readme_port, port in ports.items():
                line = line.replace(f"localhost:{readme_port}", f"localhost:{port}")
                line = line.replace(f"--port {readme_port}", f"--port {port}")
            line = line.replace("build/chidori", shlex.quote(v.chidori))
            out.append(line)
            if line.rstrip().endswith("&"):
                port = re.search(r"--port (\d+)", line).group(1)
                out.append('PIDS="$PIDS $!"')
                out.append(f"for _ in $(seq 600); do curl -s -o /dev/null localhost:{port}/ui && break; sleep 0.1; done")
            if line.startswith("curl "):
                out.append(f"echo; echo {MARK}")
                nxt = lines[i + 1] if i + 1 < len(lines) else ""
                expects.append(nxt[len("# → "):] if nxt.startswith("# → ") else None)
    return "\n".join(out) + "\n", expects


def case_readme_serve_examples_work_as_written(v):
    if not shutil.which("curl") or not shutil.which("bash"):
        raise Skip("the README's examples use bash and curl, and one of them is not installed")
    agent, blocks = readme_blocks()
    assert len(blocks) >= 2, "the README's serve examples are gone (update this test with them)"
    folder = tempfile.mkdtemp(prefix="chidori-readme-")
    try:
        with open(os.path.join(folder, "agent.ts"), "w") as f:
            f.write(agent)
        script, expects = script_for(v, blocks)
        env = v.env({})
        env.pop("CHIDORI_STATE_DIR", None)
        # its own session, so that the servers go with bash if the test gives up on it
        p = subprocess.Popen(["bash", "-c", script], cwd=folder, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, start_new_session=True)
        try:
            stdout, stderr = p.communicate(timeout=120 * v.slow)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, 9)
            p.communicate()
            raise AssertionError("the README's serve examples did not finish in time")
        p.stdout, p.stderr = stdout, stderr
        assert not sanitizer_report(p.stderr), "sanitizer report:\n" + p.stderr[-3000:]
        outputs = [o.strip() for o in p.stdout.split(MARK)][:-1]
        assert p.returncode == 0 and len(outputs) == len(expects), (p.returncode, p.stdout, p.stderr[-3000:])
        for got, want in zip(outputs, expects):
            for piece in re.split(r",(?=\")|\.\.\.", want or ""):
                assert piece.strip(" ,{}") in got, f"README promises {want!r}, the server answered {got}"
        # what the examples promise, beyond the README's comments
        paused, resumed, stream, waiting, approved = outputs[:5]
        assert json.loads(paused)["status"] == "paused", paused
        assert json.loads(resumed)["output"] == {"greeting": "Hello, Ada!", "approved": True}, resumed
        assert "event: call" in stream and "event: done" in stream, stream
        view = json.loads(waiting)
        assert view["status"] == "awaitingapproval" and view["pending_approval"]["target"] == "workspace:write", view
        assert json.loads(approved)["output"] == {"written": True}, approved
        with open(os.path.join(folder, "notes", "hello.txt")) as f:
            assert f.read() == "Hello, Ada!"
    finally:
        shutil.rmtree(folder, ignore_errors=True)
