"""tests/cases_core.py — the seam's own rules, end to end (issue 16: effect modules, internal ops).

- A compromised worker cannot reach chidori's own ops (module loads) through the Call frame the
  agent's ops travel in: host_call refuses them; module loads travel in their own Internal frame.
- A policy naming a target no effect module declares is refused, and the error lists the targets
  the modules declare.
"""
import json
import os
import tempfile

from cases import chidori
from run import ROOT

HELLO = os.path.join(ROOT, "examples", "hello.js")


def case_a_forged_module_load_call_frame_is_refused_by_the_host(v):
    """CHIDORI_ISOLATE_SELFTEST=frame_forged_module_load: the worker sends `__module_load` as a Call
    frame (the agent's entry). The parent's host_call refuses it; the worker reports the refusal
    as its outcome, so the run fails with it. Without the refusal the module would be loaded and
    the outcome would carry no such error."""
    code, out, err = chidori(v, "run", "--isolate", HELLO, env={"CHIDORI_ISOLATE_SELFTEST": "frame_forged_module_load"},
                             timeout=20)
    assert code == 1 and out == "", (code, out, err)
    assert "host operation `__module_load` is chidori's own and cannot be called by an agent" in err, err
    assert "export" not in err, "the forged load returned the module's source"


def case_module_loads_work_through_their_own_frame_in_isolated_runs(v):
    """Relative imports still load, isolated (Internal frames) and in process (host_seam's internal
    entry), with the same output; and agent code cannot name the internal op itself."""
    with tempfile.TemporaryDirectory(prefix="chidori-core-") as proj:
        with open(os.path.join(proj, "lib.js"), "w") as f:
            f.write("export const greet = (n) => `hi ${n}`;\n")
        with open(os.path.join(proj, "agent.js"), "w") as f:
            f.write("import { greet } from './lib.js';\n"
                    "export async function agent(input) {\n"
                    "  let refused = null;\n"
                    "  try { await import('./nowhere.js'); } catch (e) { refused = String(e.message); }\n"
                    "  return { text: greet(input.name), refused };\n"
                    "}\n")
        agent = os.path.join(proj, "agent.js")
        runs = [chidori(v, "run", agent, "-i", '{"name": "Ada"}'),
                chidori(v, "run", "--isolate", agent, "-i", '{"name": "Ada"}', timeout=30)]
        for code, out, err in runs:
            assert code == 0, err
            got = json.loads(out)
            assert got["text"] == "hi Ada", got
            assert got["refused"] and "cannot find module `./nowhere.js`" in got["refused"], got
        assert runs[0][1] == runs[1][1], (runs[0][1], runs[1][1])


def case_a_policy_naming_an_unknown_target_lists_the_modules_targets(v):
    """app_data had no op behind it and is gone; a policy naming it (or any unknown target) is a
    usage error on `run` whose message lists the targets the effect modules declare."""
    for target in ("app_data:get", "network"):
        policy = json.dumps({"rules": [{"target": target, "decision": "never_allow"}]})
        code, out, err = chidori(v, "run", HELLO, env={"CHIDORI_POLICY": policy})
        assert code == 2 and out == "", (code, err)
        assert (f'unknown target "{target}" (expected http, workspace:list|read|write|delete|manifest, '
                "tool:<name> or *)") in err, err


def case_the_engine_and_the_host_include_nothing_of_each_other(v):
    """The seam's result codes and call type are src/seam.h's: the engine (untrusted side)
    includes nothing from src/host/, and the host nothing from src/engine/."""
    import re
    include = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
    found = []
    for side, other in (("engine", "host/"), ("host", "engine/")):
        for folder, _, files in os.walk(os.path.join(ROOT, "src", side)):
            for name in files:
                if not name.endswith((".c", ".h")):
                    continue
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as f:
                    for header in include.findall(f.read()):
                        if header.startswith(other):
                            found.append(f"{os.path.relpath(path, ROOT)} includes {header}")
    assert not found, "\n".join(found)
