"""tests/cases_surface.py — CHIDORI_TS_*: the policy of each non-deterministic source.

Each source has a captured default; the alternatives change what the agent sees; "host" is refused
for every one of them with a message saying why; the choice is recorded in run.json, so a replay
made without the variable sees what the run saw.
"""
import json
import os
import tempfile

from cases import chidori

SOURCES_AGENT = """
export default async () => {
  const t0 = Date.now();
  await new Promise((r) => setTimeout(r, 1000));
  return { dateMoved: Date.now() - t0, random: [Math.random(), Math.random()] };
};
"""


def _agent(tmp):
    path = os.path.join(tmp, "sources.js")
    with open(path, "w") as f:
        f.write(SOURCES_AGENT)
    return path


def _run(v, agent, state, extra):
    env = {"CHIDORI_STATE_DIR": state}
    env.update(extra)
    code, out, err = chidori(v, "run", agent, env=env)
    assert code == 0, err
    return json.loads(out), err


def case_ts_host_mode_is_refused_for_every_source(v):
    hello = os.path.join(os.path.dirname(__file__), "..", "examples", "hello.js")
    for var, words in [("CHIDORI_TS_DATE", "a host clock does not exist"),
                       ("CHIDORI_TS_RANDOM", "host randomness for Math.random does not exist"),
                       ("CHIDORI_TS_TIMERS", "a host timer mode does not exist"),
                       ("CHIDORI_TS_CRYPTO", "an uncaptured crypto mode does not exist"),
                       ("CHIDORI_TS_FS", "a host filesystem mode does not exist")]:
        code, out, err = chidori(v, "run", hello, env={var: "host"})
        assert code == 2 and f"{var}=host: {words}" in err, (var, code, err)
        assert out == "", out
        code, out, err = chidori(v, "run", hello, env={var: "bogus"})
        assert code == 2 and f"{var} must be one of" in err, (var, code, err)
        code, out, err = chidori(v, "eval", "1", env={var: "host"})
        assert code == 2 and f"{var}=host" in err, (var, code, err)


def case_ts_date_frozen_and_random_fixed_change_what_the_agent_sees(v):
    with tempfile.TemporaryDirectory() as tmp:
        agent, state = _agent(tmp), os.path.join(tmp, "state")
        seeded_a, _ = _run(v, agent, state, {"CHIDORI_SEED": "1"})
        seeded_b, _ = _run(v, agent, state, {"CHIDORI_SEED": "2"})
        assert seeded_a["dateMoved"] == 1000, seeded_a
        assert seeded_a["random"] != seeded_b["random"], "seeded Math.random ignores the run's seed"
        fixed_a, _ = _run(v, agent, state, {"CHIDORI_SEED": "1", "CHIDORI_TS_RANDOM": "fixed"})
        fixed_b, _ = _run(v, agent, state, {"CHIDORI_SEED": "2", "CHIDORI_TS_RANDOM": "fixed"})
        assert fixed_a["random"] == fixed_b["random"], "fixed Math.random depends on the run's seed"
        assert fixed_a["random"] != seeded_a["random"]
        frozen, _ = _run(v, agent, state, {"CHIDORI_TS_DATE": "frozen", "CHIDORI_ISOLATE": "off"})
        assert frozen["dateMoved"] == 0, frozen
        frozen_iso, _ = _run(v, agent, state, {"CHIDORI_TS_DATE": "frozen", "CHIDORI_ISOLATE": "process"})
        assert frozen_iso["dateMoved"] == 0, "the worker did not get the frozen clock: %r" % frozen_iso


def case_ts_choices_are_recorded_and_replayed(v):
    with tempfile.TemporaryDirectory() as tmp:
        agent, state = _agent(tmp), os.path.join(tmp, "state")
        out, err = _run(v, agent, state, {"CHIDORI_TS_DATE": "frozen", "CHIDORI_TS_RANDOM": "fixed"})
        run_id = [l[8:] for l in err.splitlines() if l.startswith("Run id: ")][0]
        with open(os.path.join(state, "runs", run_id, "run.json")) as f:
            meta = json.load(f)
        assert meta["surface"] == {"date": "frozen", "random": "fixed", "timers": "virtual", "crypto": "captured",
                                   "fs": "vfs"}, meta["surface"]
        code, rout, rerr = chidori(v, "replay", agent, run_id, env={"CHIDORI_STATE_DIR": state})
        assert code == 0, rerr
        assert json.loads(rout) == out, (rout, out)
