"""tests/cases_otel.py — OpenTelemetry traces (docs/observability.md), end to end.

A loopback OTLP/HTTP collector written here (http.server) receives chidori's export; every body it
gets is checked and decoded by tests/otel/decode.js with the OpenTelemetry protobuf definitions
(opentelemetry-proto as published on npm, loaded by protobufjs): a body that does not verify, or
that does not survive fromObject/toObject unchanged (an unknown field, a wrong type), fails. The
cases then assert on span names, parentage and attributes for a run with a prompt (the fake
provider, with token usage), an MCP tool call, a fetch, a failing fetch and a nested agent; that
a collector that is down or slow changes no run's output and adds a bounded time; that replays
export nothing unless CHIDORI_OTEL_REPLAY=1; that serve continues a caller's `traceparent`.
"""
import contextlib
import json
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cases import chidori, Skip
from cases_effects import fake_llm, run_id_of, PY
from run import ROOT

OTEL_DIR = os.path.join(ROOT, "tests", "otel")
DECODER = os.path.join(OTEL_DIR, "decode.js")


class Collector:
    """An OTLP/HTTP receiver on loopback: POST /v1/traces bodies are kept (JSON); GET /hello answers
    `hello` (the agent's fetch). delay: seconds to sleep before answering each POST."""

    def __init__(self, delay=0.0):
        self.bodies, self.headers, self.paths = [], [], []
        self.lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                n = int(self.headers.get("Content-Length", "0"))
                raw = self.rfile.read(n)
                with outer.lock:
                    outer.paths.append(self.path)
                    outer.headers.append({k.lower(): v for k, v in self.headers.items()})
                    outer.bodies.append(json.loads(raw))
                if delay:
                    time.sleep(delay)
                try:
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", "2")
                    self.end_headers()
                    self.wfile.write(b"{}")
                except OSError:
                    pass  # the exporter gave up waiting

            def do_GET(self):
                self.send_response_only(200)  # no Date header: the records of two runs compare equal
                self.send_header("Content-Type", "text/plain")
                self.send_header("Content-Length", "5")
                self.end_headers()
                self.wfile.write(b"hello")

            def log_message(self, *a):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()

    def decoded(self):
        with self.lock:
            bodies = list(self.bodies)
        return decode(bodies)


def need_decoder():
    if not shutil.which("node"):
        raise Skip("node is not installed: the OTLP decoder cannot run (scripts/test-deps.sh)")
    if not os.path.isdir(os.path.join(OTEL_DIR, "node_modules", "@opentelemetry", "otlp-transformer")):
        raise Skip("tests/otel/node_modules is missing: run scripts/test-deps.sh")


def decode(bodies):
    p = subprocess.run(["node", DECODER], input=json.dumps(bodies), capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, "the export does not decode with the OpenTelemetry definitions:\n" + p.stderr[-3000:]
    return json.loads(p.stdout)


@contextlib.contextmanager
def collector(delay=0.0):
    c = Collector(delay)
    try:
        yield c
    finally:
        c.close()


def closed_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def project():
    tmp = tempfile.mkdtemp(prefix="chidori-otel-")
    for n in ("agent.js", "child.js"):
        shutil.copy(os.path.join(OTEL_DIR, n), os.path.join(tmp, n))
    return tmp


SCRIPT = [{"text": "hello", "model": "gpt-4o-mini-2024-07-18", "stopReason": "stop", "usage": {"input": 11, "output": 7}},
          {"text": "bye", "model": "gpt-4o-mini-2024-07-18", "usage": {"input": 20, "output": 5}}]


def run_env(base, proj, fetch_base, mcp_log="mcp.log"):
    mcp = json.dumps({"mcpServers": {"counter": {"command": PY, "args": [os.path.join(ROOT, "tests/mcp/counter.py"),
                                                                         os.path.join(proj, mcp_log)]}}})
    return {"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": base + "/v1", "CHIDORI_MCP_CONFIG": mcp,
            "CHIDORI_HTTP_ALLOW_HOSTS": "127.0.0.1", "CHIDORI_SEED": "7", "CHIDORI_CLOCK_START_MS": "1700000000000"}


def by_name(spans, name):
    found = [s for s in spans if s["name"] == name]
    assert found, f"no span named {name!r} in {[s['name'] for s in spans]}"
    return found


def case_otel_spans_of_a_run_decode_with_the_official_definitions(v):
    """prompt, MCP tool, fetch, a failing fetch and a nested agent: every span in one trace, the
    run span the root, the nested agent's prompt under its call_agent span; GenAI attributes and
    token counts; headers and resource attributes from the OTEL_* variables."""
    need_decoder()
    proj = project()
    state = os.path.join(proj, "state")
    with collector() as col, fake_llm(SCRIPT) as (base, _):
        env = run_env(base, proj, col.url)
        env.update({"OTEL_EXPORTER_OTLP_ENDPOINT": col.url + "/",
                    "OTEL_EXPORTER_OTLP_HEADERS": "x-team=ml%20ops, authorization=Bearer%20t0k",
                    "OTEL_SERVICE_NAME": "otel-case", "OTEL_RESOURCE_ATTRIBUTES": "deployment.environment=test,team=agents"})
        code, out, err = chidori(v, "run", os.path.join(proj, "agent.js"), "-i", json.dumps({"url": col.url}),
                                 env=env, state=state)
        assert code == 0, err
        rid = run_id_of(err)
        result = json.loads(out)
        assert result["status"] == 200 and result["body"] == "hello" and result["child"]["reply"] == "bye", result
        assert col.paths and all(p == "/v1/traces" for p in col.paths), col.paths
        assert col.headers[0].get("x-team") == "ml ops" and col.headers[0].get("authorization") == "Bearer t0k", col.headers[0]
        assert col.headers[0].get("content-type") == "application/json", col.headers[0]
        got = col.decoded()
    res = got["resources"][0]
    assert res["service.name"] == "otel-case" and res["deployment.environment"] == "test" and res["team"] == "agents", res
    spans = got["spans"]
    assert len({s["traceId"] for s in spans}) == 1, "spans of one run in several traces"
    assert len({s["spanId"] for s in spans}) == len(spans), "a span id used twice"
    run = by_name(spans, "invoke_agent agent.js")
    assert len(run) == 1 and run[0]["parentSpanId"] is None, run
    run = run[0]
    assert run["attributes"]["gen_ai.operation.name"] == "invoke_agent" and run["attributes"]["gen_ai.agent.name"] == "agent.js"
    for s in spans:
        assert s["attributes"].get("chidori.run_id") == rid, s
        assert int(s["end"]) >= int(s["start"]) > 0, s
    chats = by_name(spans, "chat gpt-4o-mini")
    assert len(chats) == 2, chats
    first, second = sorted(chats, key=lambda s: s["attributes"]["chidori.seq"])
    assert first["parentSpanId"] == run["spanId"] and first["kind"] == 3, first
    a = first["attributes"]
    assert a["gen_ai.operation.name"] == "chat" and a["gen_ai.provider.name"] == "openai", a
    assert a["gen_ai.request.model"] == "gpt-4o-mini" and a["gen_ai.response.model"] == "gpt-4o-mini-2024-07-18", a
    assert a["gen_ai.usage.input_tokens"] == 11 and a["gen_ai.usage.output_tokens"] == 7, a
    assert a["gen_ai.response.finish_reasons"] == ["stop"], a
    assert a["chidori.seq"] == 1, a
    assert second["attributes"]["gen_ai.usage.input_tokens"] == 20 and second["attributes"]["gen_ai.usage.output_tokens"] == 5
    assert "Say hello" not in json.dumps(spans), "prompt text was exported"
    tool = by_name(spans, "execute_tool counter__count")[0]
    assert tool["parentSpanId"] == run["spanId"], tool
    assert tool["attributes"]["gen_ai.operation.name"] == "execute_tool" and tool["attributes"]["gen_ai.tool.name"] == "counter__count"
    mcp = by_name(spans, "tools/call count")[0]  # the MCP client span, the tool as its server names it
    assert mcp["parentSpanId"] == tool["spanId"] and mcp["kind"] == 3, (mcp, tool)
    assert mcp["attributes"]["mcp.method.name"] == "tools/call" and mcp["attributes"]["gen_ai.tool.name"] == "count", mcp
    assert mcp["attributes"]["chidori.mcp.server"] == "counter", mcp
    assert '"n": 5' not in json.dumps(tool) and '"n":5' not in json.dumps(tool), "tool arguments were exported"
    gets = sorted(by_name(spans, "GET"), key=lambda s: s["attributes"]["chidori.seq"])
    assert len(gets) == 2, gets
    ok, bad = gets
    assert ok["parentSpanId"] == run["spanId"] and ok["kind"] == 3, ok
    h = ok["attributes"]
    assert h["http.request.method"] == "GET" and h["url.full"] == col.url + "/hello", h
    assert h["server.address"] == "127.0.0.1" and h["server.port"] == col.port and h["http.response.status_code"] == 200, h
    assert ok["status"]["code"] == 0, ok
    assert bad["status"]["code"] == 2 and bad["attributes"].get("error.type"), bad
    nested = by_name(spans, "invoke_agent child.js")[0]
    assert nested["parentSpanId"] == run["spanId"], nested
    assert nested["attributes"]["gen_ai.operation.name"] == "invoke_agent" and nested["attributes"]["gen_ai.agent.name"] == "child.js"
    assert second["parentSpanId"] == nested["spanId"], ("the nested agent's prompt is not under its call_agent span", second, nested)
    shutil.rmtree(proj)


def timed_run(v, proj, env, state):
    t0 = time.monotonic()
    code, out, err = chidori(v, "run", os.path.join(proj, "agent.js"), "-i", json.dumps({"url": env["_FETCH"]}),
                             env={k: x for k, x in env.items() if k != "_FETCH"}, state=state)
    return code, out, err, time.monotonic() - t0


def case_otel_collector_down_or_slow_changes_no_output_and_costs_bounded_time(v):
    """The same run (pinned seed and clock) without tracing, with a collector that is down (a
    closed port) and with one that sleeps 5 s per request: the same exit and output, and at most a
    generous bound more time; the run's records are the same too (ids come from getrandom, not the
    run's seeded RNG)."""
    need_decoder()
    proj = project()
    with collector() as fetcher:
        results = {}
        for label in ("none", "down", "slow"):
            state = os.path.join(proj, "state-" + label)
            with fake_llm(SCRIPT) as (base, _), contextlib.ExitStack() as stack:
                env = run_env(base, proj, fetcher.url, "mcp-" + label + ".log")
                env["_FETCH"] = fetcher.url
                if label == "down":
                    env["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] = f"http://127.0.0.1:{closed_port()}/v1/traces"
                elif label == "slow":
                    slow = stack.enter_context(collector(delay=5.0))
                    env["OTEL_EXPORTER_OTLP_ENDPOINT"] = slow.url
                code, out, err, secs = timed_run(v, proj, env, state)
                if label == "slow":
                    assert slow.bodies, "the slow collector got nothing: the test proves nothing"
            assert code == 0, f"{label}: {err}"
            if label != "none":  # the cost is a counter, said once on stderr
                assert "chidori: traces: 1 export to" in err and "failed" in err, f"{label}: {err}"
            rid = run_id_of(err)
            with open(os.path.join(state, "runs", rid, "records.jsonl")) as f:
                recs = [json.loads(line) for line in f]
            shape = [(r["seq"], r["function"], r.get("args"), r.get("result"), r.get("error")) for r in recs]
            results[label] = (out, shape, secs)
    base_out, base_shape, base_secs = results["none"]
    for label in ("down", "slow"):
        out, shape, secs = results[label]
        assert out == base_out, f"{label}: the output changed:\n{out}\n{base_out}"
        diff = [(a, b) for a, b in zip(shape, base_shape) if a != b]
        assert shape == base_shape, f"{label}: the records changed: {str(diff)[:1500]}"
        bound = base_secs + 3.0 * v.slow
        assert secs < bound, f"{label}: the run took {secs:.2f}s, more than {bound:.2f}s (the run without tracing: {base_secs:.2f}s)"
    shutil.rmtree(proj)


def case_otel_replay_exports_nothing_unless_asked(v):
    """A replay sends no span; with CHIDORI_OTEL_REPLAY=1 it sends the run span and the replayed
    calls, marked chidori.replayed; with OTEL_TRACES_EXPORTER=none a live run sends nothing."""
    need_decoder()
    proj = project()
    state = os.path.join(proj, "state")
    agent = os.path.join(proj, "agent.js")
    with collector() as col, fake_llm(SCRIPT) as (base, _):
        env = run_env(base, proj, col.url)
        env["OTEL_EXPORTER_OTLP_ENDPOINT"] = col.url
        code, out, err = chidori(v, "run", agent, "-i", json.dumps({"url": col.url}), env=env, state=state)
        assert code == 0, err
        rid = run_id_of(err)
        live_spans = col.decoded()["spans"]
        live = {(x["name"], x["attributes"]["chidori.seq"]) for x in live_spans}
        assert len(live) == 8, live
        n = len(col.bodies)
        code, out2, err = chidori(v, "replay", agent, rid, env=env, state=state)
        assert code == 0 and out2 == out, err
        assert len(col.bodies) == n, f"a replay exported {len(col.bodies) - n} bodies without CHIDORI_OTEL_REPLAY"
        code, out3, err = chidori(v, "replay", agent, rid, env=dict(env, CHIDORI_OTEL_REPLAY="1"), state=state)
        assert code == 0 and out3 == out, err
        with col.lock:
            again = decode(col.bodies[n:])["spans"]
        # every top-level call again (a nested agent's record answers for it: its own calls are not
        # made again), and the run span
        replayed = {(x["name"], x["attributes"]["chidori.seq"]) for x in again}
        assert replayed <= live and ("invoke_agent agent.js", 0) in replayed and any(n == "invoke_agent child.js" for n, _ in replayed), replayed
        assert len(replayed) >= 7, replayed
        calls = [s for s in again if s["attributes"]["chidori.seq"] != 0]
        assert calls and all(s["attributes"].get("chidori.replayed") is True for s in calls), calls
        n = len(col.bodies)
        code, _, err = chidori(v, "run", agent, "-i", json.dumps({"url": col.url}),
                               env=dict(env, OTEL_TRACES_EXPORTER="none"), state=state)
        assert len(col.bodies) == n, "OTEL_TRACES_EXPORTER=none still exported"
    shutil.rmtree(proj)


def case_otel_bad_headers_variable_is_a_usage_error(v):
    """A malformed OTEL_EXPORTER_OTLP_HEADERS or endpoint stops the command with exit 2 naming the
    variable, before a run exists."""
    code, out, err = chidori(v, "eval", "1", env={"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:9",
                                                  "OTEL_EXPORTER_OTLP_HEADERS": "novalue"})
    assert code == 2 and "OTEL_EXPORTER_OTLP_HEADERS" in err and "key=value" in err, (code, err)
    code, out, err = chidori(v, "eval", "1", env={"OTEL_EXPORTER_OTLP_ENDPOINT": "ftp://127.0.0.1:9"})
    assert code == 2 and "OTEL_EXPORTER_OTLP_ENDPOINT" in err, (code, err)


def case_otel_serve_continues_the_callers_traceparent(v):
    """POST /sessions with a W3C traceparent: the session's run span is its child in its trace; a
    malformed one is ignored (a trace of its own). A session that pauses and is resumed by a
    replay (parking off) has both runs in the caller's trace; a parked run that goes on is one run,
    one span, in the caller's trace."""
    need_decoder()
    from cases_serve import Server
    tid, parent = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
    with collector() as col:
        s = Server(v, env={"OTEL_EXPORTER_OTLP_ENDPOINT": col.url, "CHIDORI_SERVE_PARK_MS": "0"})
        try:
            s.start()
            st, _, view = s.request("POST", "/sessions", {"input": {"mode": "greet"}},
                                    headers={"traceparent": f"00-{tid}-{parent}-01"})
            assert st == 201 and view["status"] == "completed", (st, view)
            st, _, view2 = s.request("POST", "/sessions", {"input": {"mode": "greet"}},
                                     headers={"traceparent": f"00-{tid.upper()}-{parent}-01"})
            assert st == 201 and view2["status"] == "completed", (st, view2)
            # a session that pauses and is resumed: both of its runs in the caller's trace
            tid3, parent3 = "0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331"
            st, _, view3 = s.request("POST", "/sessions", {"input": {"mode": "input"}},
                                     headers={"traceparent": f"00-{tid3}-{parent3}-01"})
            assert st == 201 and view3["status"] == "paused", (st, view3)
            st, _, done = s.request("POST", f"/sessions/{view3['id']}/resume", {"response": "yes"})
            assert st == 200 and done["status"] == "completed", (st, done)
            s.stop()
        finally:
            s.cleanup()
        spans = col.decoded()["spans"]
    runs = [x for x in spans if x["name"].startswith("invoke_agent") and x["attributes"]["chidori.seq"] == 0]
    mine = [x for x in runs if x["attributes"]["chidori.run_id"] == view["run_id"]]
    other = [x for x in runs if x["attributes"]["chidori.run_id"] == view2["run_id"]]
    assert len(mine) == 1 and len(other) == 1, runs
    assert mine[0]["traceId"] == tid and mine[0]["parentSpanId"] == parent, mine
    calls = [x for x in spans if x["traceId"] == tid and x is not mine[0]]
    assert calls and all(x["parentSpanId"] == mine[0]["spanId"] for x in calls), calls
    assert other[0]["traceId"] != tid and other[0]["parentSpanId"] is None, ("a malformed traceparent was used", other)
    resumed = [x for x in runs if x["attributes"]["chidori.run_id"] == view3["run_id"]]
    assert len(resumed) == 2 and all(x["traceId"] == tid3 and x["parentSpanId"] == parent3 for x in resumed), resumed
    answered = [x for x in spans if x["name"] == "mark" and x["traceId"] == tid3]
    assert answered, "the resumed run's calls are not in the caller's trace"
    # parked (the default): the run that paused goes on; its one span and its calls in the trace
    tid4, parent4 = "5af7651916cd43dd8448eb211c80319d", "c7ad6b7169203332"
    with collector() as col:
        s = Server(v, env={"OTEL_EXPORTER_OTLP_ENDPOINT": col.url})
        try:
            s.start()
            st, _, view4 = s.request("POST", "/sessions", {"input": {"mode": "input"}},
                                     headers={"traceparent": f"00-{tid4}-{parent4}-01"})
            assert st == 201 and view4["status"] == "paused", (st, view4)
            st, _, done = s.request("POST", f"/sessions/{view4['id']}/resume", {"response": "yes"})
            assert st == 200 and done["status"] == "completed", (st, done)
            s.stop()
        finally:
            s.cleanup()
        spans = col.decoded()["spans"]
    runs = [x for x in spans if x["name"].startswith("invoke_agent") and x["attributes"]["chidori.seq"] == 0
            and x["attributes"]["chidori.run_id"] == view4["run_id"]]
    assert len(runs) == 1 and runs[0]["traceId"] == tid4 and runs[0]["parentSpanId"] == parent4, runs
    answered = [x for x in spans if x["name"] == "mark" and x["traceId"] == tid4]
    assert answered and all(x["parentSpanId"] == runs[0]["spanId"] for x in answered), answered


def case_otel_tool_errors_set_the_span_status(v):
    """A tool answering isError:true: its execute_tool span and its MCP span have status ERROR and
    error.type=tool_error; a call the server fails (a JSON-RPC error) is ERROR with another type."""
    need_decoder()
    proj = tempfile.mkdtemp(prefix="chidori-otel-")
    shutil.copy(os.path.join(OTEL_DIR, "tool_errors.js"), os.path.join(proj, "tool_errors.js"))
    mcp = json.dumps({"mcpServers": {"req": {"command": PY, "args": [os.path.join(ROOT, "tests/mcp/requests.py")]}}})
    with collector() as col:
        code, out, err = chidori(v, "run", os.path.join(proj, "tool_errors.js"), state=os.path.join(proj, "state"),
                                 env={"CHIDORI_MCP_CONFIG": mcp, "OTEL_EXPORTER_OTLP_ENDPOINT": col.url})
        assert code == 0 and json.loads(out) == {"isError": True, "thrown": True}, (code, out, err)
        spans = col.decoded()["spans"]
    for name in ("execute_tool req__fails", "tools/call fails"):
        s = by_name(spans, name)[0]
        assert s["status"]["code"] == 2 and s["attributes"].get("error.type") == "tool_error", s
    for name in ("execute_tool req__rpcerror", "tools/call rpcerror"):
        s = by_name(spans, name)[0]
        assert s["status"]["code"] == 2 and s["attributes"].get("error.type") not in (None, "tool_error"), s
        assert "bad arguments" in s["status"]["message"], s
    run = by_name(spans, "invoke_agent tool_errors.js")[0]
    assert run["status"]["code"] == 0, run
    shutil.rmtree(proj)
