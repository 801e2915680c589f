"""tests/cases_misc.py — issue 23, findings 4, 8 and 10, end to end against real peers:

  * one normalized URL: a `url_prefix` policy cannot be escaped with dot segments in any spelling
    (node:http paths, fetch URLs); what the server saw is what the policy checked and the log holds;
  * `tool_schemas` passes the policy: an MCP server none of whose tools may be used is never
    started, and only allowed tools are offered to the model;
  * guest console output is sanitized on the terminal (escape sequences, a forged `chidori:` line).
"""
import json
import os
import shutil
import tempfile

from cases import chidori
from cases_effects import fake_llm, run_id_of
from cases_http import server, HTTP, PY
from run import ROOT


def records_of(state, rid):
    with open(os.path.join(state, "runs", rid, "records.jsonl")) as f:
        return [json.loads(line) for line in f]


def case_url_prefix_cannot_be_escaped_with_dot_segments(v):
    """Every spelling of /public/../admin is either refused or reaches the server exactly as the
    policy checked it, and the record holds the URL the server saw."""
    proj = tempfile.mkdtemp(prefix="chidori-misc-")
    try:
        shutil.copy(os.path.join(HTTP, "dotdot.js"), os.path.join(proj, "dotdot.js"))
        state = os.path.join(proj, "state")
        with server() as (port, counts):
            b = f"http://127.0.0.1:{port}"
            policy = os.path.join(proj, "policy.json")
            with open(policy, "w") as f:
                json.dump({"rules": [{"target": "http", "decision": "always_allow",
                                      "match_args": {"url_prefix": b + "/public/"}},
                                     {"target": "http", "decision": "always_allow",
                                      "match_args": {"url_prefix": b + "/redirect?"}}],
                           "default": "never_allow", "default_reason": "outside /public/"}, f)
            escapes = ["/public/../admin/secret", "/public/%2e%2e/admin/secret", "/public/%2E./admin/secret",
                       "/public/.%2e/admin/secret", "/public\\..\\admin\\secret", "/public/..\\admin/secret",
                       "/public/./../admin/secret", "/public/x/../../admin/secret"]
            refused = ["/public/..%2fadmin/secret", "/public/%2e%2e%2Fadmin/secret", "/public/..%5cadmin/secret",
                       "/public/..;/admin/secret"]
            allowed = {"/public/./a/../b": "/public/b", "/public/%2e/c": "/public/c", "/public\\d": "/public/d",
                       "/public//e": "/public//e", "/public/%7e%2f": "/public/%7E%2F"}
            reqs = [{"path": p} for p in escapes + refused + list(allowed)]
            reqs += [{"url": b + "/public/../admin/secret"}, {"url": b + "/public/%2e%2e/admin/secret"},
                     {"url": b.upper().replace("HTTP", "http", 1) + "/public/%2E%2E/admin/secret"},
                     # a redirect's target passes the policy in its normalized form too
                     {"url": b + "/redirect?to=/public/../admin/secret"},
                     {"url": b + "/redirect?to=/public/%252e%252e/admin/secret"},
                     {"url": b + "/redirect?to=/public/.%252E\\admin/secret"}]
            env = {"CHIDORI_HTTP_ALLOW_HOSTS": "127.0.0.1", "CHIDORI_POLICY_FILE": policy}
            code, out, err = chidori(v, "run", os.path.join(proj, "dotdot.js"), "-i",
                                     json.dumps({"host": "127.0.0.1", "port": port, "requests": reqs}),
                                     env=env, state=state)
            assert code == 0, f"exit {code}\n{out}\n{err}"
            got = json.loads(out)
            seen = counts()["paths"]
            assert not any("admin" in p for p in seen), f"a request escaped /public/: the server saw {seen}"
            n_esc, n_ref = len(escapes), len(refused)
            for i, g in enumerate(got[:n_esc]):
                assert "policy: `http` denied: outside /public/" in g.get("error", ""), (escapes[i], g)
            for i, g in enumerate(got[n_esc:n_esc + n_ref]):
                assert "dot segment" in g.get("error", ""), (refused[i], g)
            for g in got[n_esc + n_ref:n_esc + n_ref + len(allowed)]:
                assert g.get("status") == 404, got
            for g in got[n_esc + n_ref + len(allowed):-3]:
                assert "policy: `http` denied" in g.get("error", ""), got
            for g in got[-3:]:
                assert "policy: `http` denied: outside /public/ (a redirect to " + b + "/admin/secret)" in g.get("error", ""), got
            assert seen.pop("/redirect") == 3, seen
            assert sorted(seen) == sorted(allowed.values()), f"the server saw {seen}, wanted {sorted(allowed.values())}"
            # the log holds exactly the URLs the server saw (and the normalized form of the refused ones)
            recs = [r for r in records_of(state, run_id_of(err)) if r["function"] == "http"]
            sent = [r["args"]["url"] for r in recs if "result" in r and r["result"] is not None]
            sent = [u for u in sent if "/redirect?" not in u]
            assert sorted(sent) == sorted(b + p for p in allowed.values()), sent
            denied = [r["args"]["url"] for r in recs if r.get("error", "").startswith("policy:")
                      and "/redirect?" not in r["args"]["url"]]
            assert all("/admin/secret" in u and ".." not in u and "%2" not in u.lower() for u in denied), denied
            # and the replay answers all of it from the log
            total = counts()["total"]
            code, out2, err2 = chidori(v, "replay", os.path.join(proj, "dotdot.js"), run_id_of(err), env=env,
                                       state=state)
            assert code == 0 and out2 == out, f"replay: exit {code}\n{out2}\n{err2}"
            assert counts()["total"] == total, "the replay reached the server"
    finally:
        shutil.rmtree(proj)


def _offered_tools(request):
    """Tool names in an OpenAI chat request body."""
    return sorted(t["function"]["name"] for t in request["body"].get("tools") or [])


def case_tool_schemas_passes_the_policy_and_starts_no_denied_server(v):
    """Under a policy that denies every tool, prompt(…, {tools}) starts no MCP server and offers
    the model no tool (a line says why); with one tool allowed, only its server starts and only
    its schema (and one allowed for some args) is offered."""
    proj = tempfile.mkdtemp(prefix="chidori-misc-")
    try:
        agent = os.path.join(proj, "prompt_tools_policy.js")
        shutil.copy(os.path.join(ROOT, "tests", "effects", "prompt_tools_policy.js"), agent)
        starts = {name: os.path.join(proj, name + ".starts") for name in ("guarded", "other")}
        mcp = json.dumps({"mcpServers": {name: {"command": PY, "args": [os.path.join(ROOT, "tests/mcp/marker.py"), path]}
                                         for name, path in starts.items()}})

        def started(name):
            if not os.path.exists(starts[name]):
                return 0
            with open(starts[name]) as f:
                return len(f.read().splitlines())

        state = os.path.join(proj, "state")
        deny_all = json.dumps({"rules": [], "default": "never_allow", "default_reason": "no tools here"})
        some = json.dumps({"rules": [{"target": "tool:guarded__read", "decision": "always_allow"},
                                     {"target": "tool:other__write", "decision": "never_allow", "reason": "read-only"},
                                     {"target": "tool:other__read", "decision": "ask_before",
                                      "match_args": {"key": "public"}}],
                           "default": "never_allow", "default_reason": "not listed"})
        script = [{"text": "none", "usage": {"input": 1, "output": 1}}, {"text": "some", "usage": {"input": 1, "output": 1}}]
        with fake_llm(script) as (base, requests):
            env = {"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": base + "/v1", "CHIDORI_MCP_CONFIG": mcp,
                   "CHIDORI_POLICY": deny_all}
            tools = ["guarded__read", "guarded__write", "other__read"]
            code, out, err = chidori(v, "run", agent, "-i", json.dumps({"tools": tools}), env=env, state=state)
            assert code == 0, f"exit {code}\n{out}\n{err}"
            assert started("guarded") == 0 and started("other") == 0, \
                f"an MCP server started under a policy that denies every tool: {started('guarded')}, {started('other')}"
            for t in tools:
                assert f"chidori: policy: `tool:{t}` denied: no tools here; the tool is not offered to the model" in err, err
            assert _offered_tools(requests()["requests"][-1]) == [], requests()["requests"][-1]
            recs = records_of(state, run_id_of(err))
            assert [r["result"] for r in recs if r["function"] == "tool_schemas"] == [[]], recs

            env["CHIDORI_POLICY"] = some
            tools = ["guarded__read", "guarded__write", "other__write", "other__read"]
            code, out, err = chidori(v, "run", agent, "-i", json.dumps({"tools": tools}), env=env, state=state)
            assert code == 0, f"exit {code}\n{out}\n{err}"
            assert started("guarded") == 1 and started("other") == 1, (started("guarded"), started("other"))
            assert _offered_tools(requests()["requests"][-1]) == ["guarded__read", "other__read"], requests()["requests"][-1]
            assert "`tool:guarded__write` denied: not listed; the tool is not offered" in err, err
            assert "`tool:other__write` denied: read-only; the tool is not offered" in err, err
            assert "guarded__read` denied" not in err and "other__read` denied" not in err, err
            # replay answers the schemas from the log: no server starts again
            rid = run_id_of(err)
            code, out2, err2 = chidori(v, "replay", agent, rid, env=env, state=state)
            assert code == 0 and out2 == out, f"replay: exit {code}\n{out2}\n{err2}"
            assert started("guarded") == 1 and started("other") == 1, "the replay started a server"
    finally:
        shutil.rmtree(proj)


CONSOLE_HOSTILE = ("\x1b]0;title\x07", "\x1b]52;c;cHduZWQ=\x07", "\x1b[2J", "\x1b[1A", "\x9b31m", "\u202e", "\u2066",
                   "\x08", "\x00", "\x7f")


def case_console_output_is_sanitized_on_the_terminal(v):
    """Guest console output carries no raw escape sequence or control to stdout (eval) or stderr
    (run), ordinary text — UTF-8, emoji, tabs, CRLF — comes out byte for byte, and a forged
    `chidori: policy:` line is marked as the guest's."""
    plain = "tab\there, ünïcödé, 中文, עברית, emoji 🎉👩‍💻, CRLF\r"
    code_lines = [f"console.log({json.dumps(s)});" for s in CONSOLE_HOSTILE]
    code_lines += [f"console.log({json.dumps(plain)});", "console.error('chidori: policy: `http` denied: forged');",
                   "console.error('Run 0a8bed24-5009-46f9-91a0-0b51e7085145 paused, waiting for input: forged');",
                   "console.error('? forged question');",
                   "console.log('x\\rchidori: policy: overwritten');", "1"]
    code, out, err = chidori(v, "eval", "\n".join(code_lines))
    assert code == 0, f"exit {code}\n{out}\n{err}"
    for raw in ("\x1b", "\x07", "\x9b", "\u202e", "\u2066", "\x08", "\x00", "\x7f", "\rchidori"):
        assert raw not in out and raw not in err, f"{raw!r} reached the terminal raw:\n{out!r}\n{err!r}"
    assert plain + "\n" in out, f"ordinary text changed: {out!r}"
    assert "\\x1b]0;title\\x07" in out and "\\u{009b}31m" in out and "\\u{202e}" in out, out
    assert "(guest) chidori: policy: `http` denied: forged" in err, err
    assert not any(line.startswith("chidori: policy") for line in err.splitlines()), err
    assert "(guest) Run 0a8bed24-5009-46f9-91a0-0b51e7085145 paused" in err and "(guest) ? forged question" in err, err
    # the same under `run` (console to stderr), isolated
    proj = tempfile.mkdtemp(prefix="chidori-misc-")
    try:
        agent = os.path.join(proj, "a.js")
        with open(agent, "w", encoding="utf-8") as f:
            f.write("export default async (input, chidori) => {\n  " + "\n  ".join(code_lines[:-1]) +
                    "\n  await chidori.log('line\\nchidori: policy: `tool:x` denied');"
                    "\n  try { await chidori.tool('evil\\x1b]0;t\\x07\\u202e__x', {}); } catch (e) {}"
                    "\n  return 1;\n};\n")
        code, out, err = chidori(v, "run", agent, env={"CHIDORI_POLICY_PROFILE": "untrusted"})
        assert code == 0, f"exit {code}\n{out}\n{err}"
        for raw in ("\x1b", "\x07", "\x9b", "\u202e", "\x08", "\x00", "\x7f"):
            assert raw not in err, f"{raw!r} reached stderr raw:\n{err!r}"
        assert plain + "\n" in err, f"ordinary text changed: {err!r}"
        assert "(guest) chidori: policy: `http` denied: forged" in err, err
        assert "[log] line\n(guest) chidori: policy: `tool:x` denied" in err, err
        assert "chidori: policy: `tool:evil\\x1b]0;t\\x07\\u{202e}__x` denied" in err, err
    finally:
        shutil.rmtree(proj)


def case_serve_session_log_is_sanitized(v):
    """The same sanitizer holds in `serve`'s session log lines (the server's stderr)."""
    from cases_serve import Server, create
    s = Server(v, agent=os.path.join(ROOT, "tests", "effects", "console_hostile.js")).start()
    try:
        view = create(s, {"input": {}})
        assert view["status"] == "completed", view
        sid = view["id"]
        s.stop()
    finally:
        s.cleanup()
    err = s.stderr()
    for raw in ("\x1b", "\x07", "\u202e"):
        assert raw not in err, f"{raw!r} reached the server's stderr raw:\n{err!r}"
    assert f"[session {sid}] title \\x1b]0;pwned\\x07 clip \\x1b]52;c;cHduZWQ=\\x07 \\u{{202e}}evil\n" in err, err
    assert f"[session {sid}] (guest) chidori: policy: `http` denied: forged\n" in err, err
    assert f"[session {sid}] [log] hello\n[session {sid}] (guest) [session fake] chidori: forged \\x1b[2J\n" in err, err


def case_http_log_recorded_before_normalization_still_replays(v):
    """A call log written before URLs had one normalized form holds the URL as the agent spelled it;
    replaying it must still answer from the log (zero requests), not report a divergence."""
    proj = tempfile.mkdtemp(prefix="chidori-misc-")
    try:
        shutil.copy(os.path.join(HTTP, "dotdot.js"), os.path.join(proj, "dotdot.js"))
        state = os.path.join(proj, "state")
        with server() as (port, counts):
            b = f"http://127.0.0.1:{port}"
            raw = b + "/public/./a/../b"  # node:http sends a path as written: so did the old log
            env = {"CHIDORI_HTTP_ALLOW_HOSTS": "127.0.0.1"}
            code, out, err = chidori(v, "run", os.path.join(proj, "dotdot.js"), "-i",
                                     json.dumps({"host": "127.0.0.1", "port": port, "requests": [{"path": "/public/./a/../b"}]}),
                                     env=env, state=state)
            assert code == 0, f"exit {code}\n{out}\n{err}"
            rid = run_id_of(err)
            path = os.path.join(state, "runs", rid, "records.jsonl")
            recs = records_of(state, rid)
            http = [r for r in recs if r["function"] == "http"]
            assert len(http) == 1 and http[0]["args"]["url"] == b + "/public/b", http
            http[0]["args"]["url"] = raw  # the old shape: the URL as the agent wrote it
            with open(path, "w") as f:
                f.write("".join(json.dumps(r) + "\n" for r in recs))
            total = counts()["total"]
            code, out2, err2 = chidori(v, "replay", os.path.join(proj, "dotdot.js"), rid, env=env, state=state)
            assert code == 0 and out2 == out, f"replay: exit {code}\n{out2}\n{err2}"
            assert counts()["total"] == total, "the replay reached the server"
    finally:
        shutil.rmtree(proj)
