"""test_install.py — `pip install ./sdk/python` on a machine that reaches no package index: into a
fresh virtual environment that sees the system's setuptools (Debian's python3-setuptools,
python3-venv and python3-pip; scripts/setup.sh installs them), with --no-index and
--no-build-isolation, then both import names work from outside the source tree."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

SDK = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Debian's interpreter (whose setuptools, venv and pip are apt packages) when there is one
PY = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable


def _run(argv, cwd, env):
    return subprocess.run(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=300)


class InstallTest(unittest.TestCase):
    def test_pip_install_without_an_index(self):
        with tempfile.TemporaryDirectory(prefix="chidori-sdk-install-") as tmp:
            src = os.path.join(tmp, "src")  # a copy: the build writes build/ and *.egg-info next to it
            shutil.copytree(SDK, src, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
            env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "PYTHON"))}
            env.update(PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_CACHE_DIR="1",
                       HOME=tmp, PIP_CONFIG_FILE=os.devnull)
            venv = os.path.join(tmp, "venv")
            r = _run([PY, "-m", "venv", "--system-site-packages", venv], tmp, env)
            self.assertEqual(r.returncode, 0, f"{PY} -m venv failed (apt-get install python3-venv):\n{r.stderr}")
            py = os.path.join(venv, "bin", "python")
            r = _run([py, "-c", "import setuptools"], tmp, env)
            self.assertEqual(r.returncode, 0, f"no setuptools for {PY} (apt-get install python3-setuptools):\n{r.stderr}")
            r = _run([py, "-m", "pip", "install", "--no-index", "--no-build-isolation", src], tmp, env)
            self.assertEqual(r.returncode, 0, f"pip install failed:\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}")
            check = ("import chidori, chidori_sdk, chidori.client, os\n"
                     "assert chidori.AgentClient is chidori_sdk.AgentClient is chidori.client.AgentClient\n"
                     "assert chidori.Checkpoint and chidori.Session and chidori.AgentClientError\n"
                     "assert os.path.exists(os.path.join(os.path.dirname(chidori.__file__), 'py.typed'))\n"
                     "print(chidori.__file__)\n")
            r = _run([py, "-c", check], tmp, env)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertTrue(r.stdout.strip().startswith(venv), r.stdout)  # the installed copy, not the tree


if __name__ == "__main__":
    unittest.main()
