// app.js — the dashboard of `chidori serve`: sessions (refreshed), one session's call log live
// over Server-Sent Events, an inbox of pending approvals and inputs, replay and cancel.
//
// Plain JavaScript, no dependencies, served from the binary (ui/ is embedded at build time).
// Everything shown comes from the API and is untrusted (agent input and output): it is only ever
// put into the page as text (textContent), never as HTML. The API key lives in sessionStorage
// (this tab only) and is sent as a bearer header; EventSource cannot send headers, so streams are
// read with fetch() and a small SSE parser.
//
// The session's timeline and the overview of sessions are SVG drawn here (no library): bars are
// placed from each record's `timestamp` (its start: an RFC 3339 time, or milliseconds in records of
// the previous shape) and its duration (`duration_us`, else `duration_ms`), nested agents' calls
// (`parent_seq`) indented under their call_agent; labels go in as SVG text nodes only.

const KEY_STORE = "chidori.apiKey";
const REFRESH_MS = 1500;
const SETTLED = new Set(["completed", "failed", "cancelled", "paused", "awaitingapproval"]);

const $ = (id) => document.getElementById(id);
const state = {
  apiKey: sessionStorage.getItem(KEY_STORE) || "",
  sessions: [],        // newest first
  selected: null,      // session id
  stream: null,        // {id, controller, seen: Set of seq, settledStatus}
  records: new Map(),  // the selected session's call records by seq (for its timeline)
  timelineQueued: false,
  refreshing: false,
  prices: null,        // GET /pricing once connected: [{model, match, input_per_mtok, ...}], or null
};

/* ---- the API ---- */

class ApiError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}

function authHeaders(extra) {
  const h = { ...extra };
  if (state.apiKey) h.authorization = `Bearer ${state.apiKey}`;
  return h;
}

async function api(method, path, body) {
  const headers = authHeaders({ accept: "application/json" });
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = text; }
  if (!res.ok) throw new ApiError(res.status, (data && typeof data.error === "string" && data.error) || `HTTP ${res.status}`);
  return data;
}

const enc = encodeURIComponent;

/* ---- Server-Sent Events over fetch ---- */

// Incremental parser: CRLF/LF/CR line ends, comments, multi-line data, event names.
function sseParser(onEvent) {
  let buffer = "", event = "", data = [], sawCR = false;
  const line = (l) => {
    if (l === "") {
      if (data.length) onEvent(event || "message", data.join("\n"));
      event = ""; data = [];
      return;
    }
    if (l[0] === ":") return;
    const i = l.indexOf(":");
    const field = i < 0 ? l : l.slice(0, i);
    let value = i < 0 ? "" : l.slice(i + 1);
    if (value[0] === " ") value = value.slice(1);
    if (field === "event") event = value;
    else if (field === "data") data.push(value);
  };
  return (text) => {
    if (sawCR && text[0] === "\n") text = text.slice(1);
    sawCR = false;
    buffer += text;
    let start = 0;
    for (let i = 0; i < buffer.length; i++) {
      const c = buffer[i];
      if (c !== "\n" && c !== "\r") continue;
      line(buffer.slice(start, i));
      if (c === "\r") {
        if (i + 1 === buffer.length) sawCR = true;
        else if (buffer[i + 1] === "\n") i++;
      }
      start = i + 1;
    }
    buffer = buffer.slice(start);
  };
}

async function readStream(path, signal, onEvent) {
  const res = await fetch(path, { headers: authHeaders({ accept: "text/event-stream" }), signal });
  if (!res.ok) {
    let msg = `HTTP ${res.status}`;
    try { msg = (await res.json()).error || msg; } catch { /* keep the status */ }
    throw new ApiError(res.status, msg);
  }
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  const feed = sseParser((name, text) => {
    let payload = text;
    try { payload = JSON.parse(text); } catch { /* not JSON */ }
    onEvent(name, payload);
  });
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    feed(decoder.decode(value, { stream: true }));
  }
}

/* ---- small view helpers ---- */

function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "dataset") Object.assign(e.dataset, v);
    else if (k === "className") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(c == null ? "" : String(c)));
  return e;
}

function json(v, space = 2) {
  if (v === undefined || v === null) return "";
  try { return JSON.stringify(v, null, space); } catch { return String(v); }
}

function brief(v, max = 160) {
  const s = typeof v === "string" ? v : json(v, 0);
  return s.length > max ? s.slice(0, max) + "…" : s;
}

function statusBadge(status) {
  return el("span", { className: "status", dataset: { status } }, status);
}

function shortId(id) {
  return id.length > 20 ? id.slice(0, 8) + "…" : id;
}

// Today's times as a time of day; older ones with their date.
function when(iso) {
  const d = new Date(iso);
  if (isNaN(d)) return iso || "";
  return d.toDateString() === new Date().toDateString() ? d.toLocaleTimeString() : d.toLocaleString();
}

let messageTimer = null;
function message(text, isError = false) {
  const m = $("message");
  m.textContent = text;
  m.classList.toggle("error", isError);
  m.classList.add("shown");
  clearTimeout(messageTimer);
  messageTimer = setTimeout(() => m.classList.remove("shown"), isError ? 6000 : 2500);
}

function connection(stateName, text) {
  const c = $("conn");
  c.dataset.state = stateName;
  c.textContent = text;
}

/* ---- sessions list and inbox ---- */

async function refresh() {
  if (state.refreshing) return;
  state.refreshing = true;
  try {
    const body = await api("GET", "/sessions");
    const list = Array.isArray(body) ? body : body.sessions || [];
    state.sessions = list.slice().reverse();
    connection("ok", "connected");
    if (state.prices === null) loadPrices();
    renderSessions();
    renderInbox();
    renderOverview();
    followSelected();
  } catch (e) {
    connection("error", e.status === 401 ? "API key needed" : "offline");
    if (e.status !== 401 && !(e instanceof ApiError)) console.warn(e);
  } finally {
    state.refreshing = false;
  }
}

function renderSessions() {
  const tbody = $("sessions");
  tbody.replaceChildren(...state.sessions.map((s) => el("tr", {
    dataset: { id: s.id, status: s.status },
    className: s.id === state.selected ? "selected" : "",
    title: s.id,
    onclick: () => select(s.id),
  }, el("td", {}, el("code", {}, shortId(s.id))), el("td", {}, statusBadge(s.status)),
     el("td", {}, String(s.call_count ?? "")), el("td", {}, s.node || ""), el("td", {}, when(s.created_at)))));
  $("sessions-count").textContent = String(state.sessions.length);
}

// Items are kept (not rebuilt) while their session waits on the same thing, so an answer being
// typed survives the refresh.
function inboxKey(s) {
  if (waitsForSignal(s)) return `${s.id}|signal|${s.pending_seq}|${s.pending_signal_names.join(",")}`;
  return `${s.id}|${s.status}|${s.status === "paused" ? s.pending_prompt : json(s.pending_approval, 0)}`;
}

// Paused on chidori.signal: the view names what it listens for (pending_signal_names).
function waitsForSignal(s) {
  return s.status === "paused" && Array.isArray(s.pending_signal_names) && s.pending_signal_names.length > 0;
}

function renderInbox() {
  const waiting = state.sessions.filter((s) =>
    (s.status === "awaitingapproval" && s.pending_approval) || (s.status === "paused" && s.pending_prompt != null) ||
    waitsForSignal(s));
  const ul = $("inbox");
  const keep = new Map([...ul.children].map((li) => [li.dataset.key, li]));
  const items = waiting.map((s) => keep.get(inboxKey(s)) || inboxItem(s));
  ul.replaceChildren(...items);
  $("inbox-count").textContent = String(items.length);
  $("inbox-empty").hidden = items.length > 0;
}

function inboxItem(s) {
  const li = el("li", { className: "inbox-item", dataset: { id: s.id, key: inboxKey(s), kind: s.status } });
  const head = el("div", {}, el("a", { href: `#${enc(s.id)}`, onclick: (ev) => { ev.preventDefault(); select(s.id); } },
    el("code", {}, shortId(s.id))), " ", statusBadge(s.status));
  li.append(head);
  if (s.status === "awaitingapproval") {
    const a = s.pending_approval;
    li.append(el("div", { className: "what" }, `Approve ${a.target}?`), el("pre", {}, json(a.args)));
    if (a.reason) li.append(el("div", { className: "muted" }, a.reason));
    const allow = el("button", { type: "button", className: "allow" }, "Allow");
    const deny = el("button", { type: "button", className: "deny" }, "Deny");
    const decide = (decision) => async () => {
      allow.disabled = deny.disabled = true;
      try {
        await api("POST", `/sessions/${enc(s.id)}/approve`, { decision, wait: false });
        message(`${decision === "allow" ? "Allowed" : "Denied"} ${a.target}`);
        afterAction(s.id);
      } catch (e) {
        allow.disabled = deny.disabled = false;
        message(e.message, true);
      }
    };
    allow.addEventListener("click", decide("allow"));
    deny.addEventListener("click", decide("deny"));
    li.append(el("div", { className: "actions" }, allow, deny));
  } else if (waitsForSignal(s)) {
    signalForm(s, li);
  } else {
    li.append(el("div", { className: "what" }, s.pending_prompt));
    const input = el("input", { type: "text", className: "answer", placeholder: "Your answer", "aria-label": "answer" });
    const send = el("button", { type: "submit", className: "send" }, "Send");
    const form = el("form", { className: "actions" }, input, send);
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      send.disabled = true;
      try {
        await api("POST", `/sessions/${enc(s.id)}/resume`, { response: input.value, wait: false });
        message("Answer sent");
        afterAction(s.id);
      } catch (e) {
        send.disabled = false;
        message(e.message, true);
      }
    });
    li.append(form);
  }
  return li;
}

// A signal pause: which names it waits for (and until when), and a form that sends one of them
// (POST /sessions/{id}/signal) with a JSON payload.
function signalForm(s, li) {
  const names = s.pending_signal_names;
  const waitsFor = names.length > 1 ? `any of ${names.join(", ")}` : names[0];
  li.append(el("div", { className: "what" }, `Waiting for signal ${waitsFor}`));
  if (s.pending_signal_deadline) li.append(el("div", { className: "muted" }, `times out ${when(s.pending_signal_deadline)}`));
  const name = el("select", { className: "signal-name", "aria-label": "signal name" },
    ...names.map((n) => el("option", { value: n }, n)));
  const payload = el("input", { type: "text", className: "signal-payload", placeholder: "payload (JSON, optional)",
    "aria-label": "signal payload" });
  const send = el("button", { type: "submit", className: "send" }, "Send signal");
  const form = el("form", { className: "actions" }, name, payload, send);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    let value = null;
    if (payload.value.trim()) {
      try {
        value = JSON.parse(payload.value);
      } catch (e) {
        message(`The payload is not JSON: ${e.message}`, true);
        return;
      }
    }
    send.disabled = true;
    try {
      await api("POST", `/sessions/${enc(s.id)}/signal`,
        { name: name.value, payload: value, from: { kind: "human", id: "dashboard" }, wait: false });
      message(`Signal ${name.value} sent`);
      afterAction(s.id);
    } catch (e) {
      send.disabled = false;
      message(e.message, true);
    }
  });
  li.append(form);
}

function afterAction(id) {
  if (state.selected === id) openStream(id);
  refresh();
}

/* ---- one session ---- */

function select(id) {
  state.selected = id;
  if (location.hash !== `#${enc(id)}`) history.replaceState(null, "", `#${enc(id)}`);
  $("detail").hidden = false;
  $("no-detail").hidden = true;
  $("calls").replaceChildren();
  state.records = new Map();
  renderTimeline();
  renderSessions();
  const s = state.sessions.find((x) => x.id === id);
  if (s) renderFacts(s);
  else $("detail-id").textContent = id;
  openStream(id, true);
}

function renderFacts(s) {
  $("detail-id").textContent = s.id;
  $("detail-status").replaceChildren(statusBadge(s.status));
  $("detail-status").dataset.status = s.status;
  $("detail-run").textContent = s.run_id || "";
  $("detail-profile").textContent = s.policy_profile || "(the server's)";
  $("detail-node").textContent = s.node || "(none yet)";
  $("detail-input").textContent = json(s.input);
  $("detail-output").textContent = json(s.output);
  $("detail-error").textContent = s.error || "";
  $("cancel").disabled = !["running", "queued", "paused", "awaitingapproval"].includes(s.status);
  $("replay").disabled = s.status === "running" || s.status === "queued";
}

// A record that arrives live (not in the replay of past ones that opens a stream) is highlighted.
function addCall(rec, live) {
  const row = el("tr", { className: (live ? "fresh" : "") + (rec.error ? " error" : ""), dataset: { seq: String(rec.seq) } },
    el("td", {}, String(rec.seq)), el("td", {}, rec.function),
    el("td", {}, el("pre", {}, brief(rec.args))),
    el("td", {}, el("pre", {}, rec.error ? `error: ${rec.error}` : brief(rec.result))),
    el("td", {}, durationOf(rec) == null ? "" : String(Math.round(durationOf(rec) * 10) / 10)));
  $("calls").append(row);
  state.records.set(rec.seq, rec);
  queueTimeline();
}

// (Re)attaches to the session's event stream. The server replays past records first; those
// already shown (by seq) are skipped, so re-attaching after an approval only adds the new ones.
function openStream(id, fresh = false) {
  if (state.stream) state.stream.controller.abort();
  const seen = fresh || !state.stream || state.stream.id !== id ? new Set() : state.stream.seen;
  const st = { id, controller: new AbortController(), seen, settledStatus: null, opened: performance.now() };
  const reattached = seen.size > 0; // then every record not seen yet is new
  state.stream = st;
  $("stream-state").textContent = "(live)";
  readStream(`/sessions/${enc(id)}/stream`, st.controller.signal, (name, data) => {
    if (state.stream !== st) return;
    if (name === "call" && data && typeof data === "object") {
      if (!st.seen.has(data.seq)) { st.seen.add(data.seq); addCall(data, reattached || performance.now() - st.opened > 400); }
    } else if ((name === "done" || name === "paused" || name === "awaitingapproval") && data && data.id === id) {
      renderFacts(data);
      if (name === "done") st.settledStatus = data.status;
    }
  }).then(() => {
    if (state.stream === st) $("stream-state").textContent = st.settledStatus ? `(${st.settledStatus})` : "(ended)";
  }, (e) => {
    if (e.name === "AbortError" || state.stream !== st) return;
    $("stream-state").textContent = "(disconnected)";
    st.settledStatus = "error";
  });
}

// Called after each refresh: keeps the open session's facts current and re-attaches when a run
// it had seen settle has started again (resumed, approved, or recovered).
function followSelected() {
  const id = state.selected;
  if (!id) return;
  const s = state.sessions.find((x) => x.id === id);
  if (!s) return;
  renderFacts(s);
  const st = state.stream;
  if (st && st.id === id && st.settledStatus && st.settledStatus !== s.status) openStream(id);
}

/* ---- charts (SVG) ---- */

const SVG_NS = "http://www.w3.org/2000/svg";
const KINDS = ["prompt", "tool", "http", "workspace", "input"];

function svg(tag, attrs = {}, ...children) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return e;
}

function kindOf(fn) { return KINDS.includes(fn) ? fn : "other"; }

function ms(n) {
  if (!(n >= 0)) return "";
  return n >= 10000 ? `${(n / 1000).toFixed(1)} s` : n >= 1 ? `${Math.round(n)} ms` : `${n.toFixed(2)} ms`;
}

// A record's start in ms since 1970 (RFC 3339 text, or a number in the previous shape), or null.
function startOf(rec) {
  if (typeof rec.timestamp === "number") return rec.timestamp;
  if (typeof rec.timestamp !== "string") return null;
  const t = Date.parse(rec.timestamp);
  return Number.isFinite(t) ? t : null;
}

// Its duration in ms: `duration_us` (ours, to the microsecond), else `duration_ms`; null if none.
function durationOf(rec) {
  if (typeof rec.duration_us === "number" && rec.duration_us >= 0) return rec.duration_us / 1000;
  return typeof rec.duration_ms === "number" && rec.duration_ms >= 0 ? rec.duration_ms : null;
}

// What a call acted on, for its label (as `chidori runs show` names it, roughly).
function targetOf(rec) {
  const a = rec.args && typeof rec.args === "object" ? rec.args : {};
  // a prompt's reply: its other keys under `response` (the original's shape), or the whole result
  const reply = rec.response && typeof rec.response === "object" ? rec.response : rec.result;
  const r = reply && typeof reply === "object" ? reply : {};
  const pick = (...vs) => vs.find((v) => typeof v === "string" && v) || "";
  switch (rec.function) {
    case "prompt": return pick(r.model, a.model);
    case "http": {
      let host = "";
      try { host = new URL(a.url).host; } catch { /* not a URL */ }
      return `${pick(a.method) || "GET"} ${host}`;
    }
    case "workspace": case "memory": case "fs": return `${pick(a.action, a.op)} ${pick(a.path, a.args && a.args.path, a.key)}`.trim();
    case "call_agent": return pick(a.path);
    case "input": return pick(a.prompt);
    default: return pick(a.name, a.label, a.message, a.path, a.template);
  }
}

function usageOf(rec) {
  if (rec.function !== "prompt") return null;
  const n = (v) => (typeof v === "number" && v >= 0 ? v : 0);
  const t = rec.token_usage;
  if (t && typeof t === "object")
    return { input: n(t.input_tokens), output: n(t.output_tokens),
      cacheRead: n(t.cache_read_tokens), cacheWrite: n(t.cache_creation_tokens) };
  const u = rec.result && typeof rec.result === "object" ? rec.result.usage : null; // the previous shape
  if (!u || typeof u !== "object") return null;
  return { input: n(u.inputTokens), output: n(u.outputTokens),
    cacheRead: n(u.cacheReadTokens), cacheWrite: n(u.cacheCreationTokens) };
}

// The model that answered (our `response` key; `result.model` in the previous shape), else the one asked.
function modelOf(rec) {
  const str = (v) => (typeof v === "string" && v ? v : "");
  const o = (v) => (v && typeof v === "object" ? v : {});
  return str(o(rec.response).model) || str(o(rec.result).model) || str(o(rec.args).model);
}

// The server's price table (CHIDORI_PRICES, CHIDORI_PRICING), fetched once; [] when it has none.
async function loadPrices() {
  state.prices = [];
  try {
    const body = await api("GET", "/pricing");
    state.prices = body && Array.isArray(body.prices) ? body.prices : [];
  } catch (e) {
    // a server without prices answers 404: none; anything else (a key not yet given): try again
    state.prices = e instanceof ApiError && e.status !== 401 ? [] : null;
    return;
  }
  if (state.prices.length) queueTimeline();
}

// Dollars for one prompt, as the server's table prices it (lookup order: exact names, then the
// longest prefix), or null when no row names its model.
function costOf(rec, usage) {
  const model = modelOf(rec);
  const row = (state.prices || []).find((p) => (p.match === "prefix" ? model.startsWith(p.model) : model === p.model));
  if (!row) return null;
  const inPrice = row.input_per_mtok;
  return (usage.input * inPrice + usage.output * row.output_per_mtok +
    usage.cacheWrite * inPrice * row.cache_write_multiplier + usage.cacheRead * inPrice * row.cache_read_multiplier) / 1e6;
}

const dollars = (v) => `$${v < 0.01 ? v.toFixed(6) : v.toFixed(4)}`;

function queueTimeline() {
  if (state.timelineQueued) return;
  state.timelineQueued = true;
  requestAnimationFrame(() => { state.timelineQueued = false; renderTimeline(); });
}

// One row per call, in start order: a label (indented by nesting) and a bar from its start for
// its duration, on one time axis from the first start to the last end.
function renderTimeline() {
  const box = $("timeline");
  const recs = [...state.records.values()].filter((r) => r && typeof r.seq === "number");
  if (!recs.length) {
    box.replaceChildren(el("p", { className: "muted" }, "No calls yet."));
    $("timeline-summary").textContent = "";
    return;
  }
  const bySeq = new Map(recs.map((r) => [r.seq, r]));
  const depthOf = (r) => {
    let d = 0;
    for (let p = bySeq.get(r.parent_seq); p && d < 32; p = bySeq.get(p.parent_seq)) d++;
    if (r.parent_seq != null && !bySeq.has(r.parent_seq)) d++; // its call_agent is still running
    return d;
  };
  const durOf = (r) => durationOf(r) ?? 0;
  const known = recs.filter((r) => startOf(r) != null);
  const t0 = known.length ? Math.min(...known.map(startOf)) : 0;
  const t1 = known.length ? Math.max(...known.map((r) => startOf(r) + durOf(r))) : 1;
  const span = Math.max(t1 - t0, 1);
  recs.sort((a, b) => (startOf(a) ?? t1) - (startOf(b) ?? t1) || depthOf(a) - depthOf(b) || a.seq - b.seq);

  const LABEL = 210, ROW = 18, AXIS = 16, RIGHT = 12, INDENT = 14;
  const width = Math.max(box.clientWidth || 0, 560);
  const plot = width - LABEL - RIGHT;
  const x = (t) => LABEL + ((t - t0) / span) * plot;
  const root = svg("svg", { width, height: recs.length * ROW + AXIS + 4, class: "tl-chart", role: "img",
    "aria-label": `timeline of ${recs.length} calls` });
  for (const f of [0, 0.25, 0.5, 0.75, 1]) {
    const gx = LABEL + f * plot;
    root.append(svg("line", { class: "tl-grid", x1: gx, x2: gx, y1: 0, y2: recs.length * ROW }),
      svg("text", { class: "tl-axis", x: gx, y: recs.length * ROW + AXIS - 4, "text-anchor": f === 0 ? "start" : f === 1 ? "end" : "middle" },
        ms(f * span)));
  }
  let tokensIn = 0, tokensOut = 0, withUsage = 0, cost = 0, priced = 0;
  recs.forEach((r, i) => {
    const depth = depthOf(r), kind = kindOf(r.function), y = i * ROW;
    const usage = usageOf(r);
    const price = usage ? costOf(r, usage) : null;
    if (usage) { tokensIn += usage.input; tokensOut += usage.output; withUsage++; }
    if (price !== null) { cost += price; priced++; }
    const target = brief(targetOf(r), 40);
    const g = svg("g", { class: "tl-row", "data-seq": r.seq, "data-depth": depth, "data-kind": kind });
    for (let d = 1; d <= depth; d++)
      g.append(svg("line", { class: "tl-guide", x1: 4 + d * INDENT - 8, x2: 4 + d * INDENT - 8, y1: y, y2: y + ROW }));
    g.append(svg("text", { class: "tl-label", x: 4 + depth * INDENT, y: y + ROW - 5, "data-depth": depth },
      `${r.seq} ${r.function}${target ? " " + target : ""}`));
    const start = startOf(r) ?? t1;
    const bar = svg("rect", {
      class: `tl-bar kind-${kind}${r.error ? " error" : ""}`, x: x(start).toFixed(1), y: y + 3,
      width: Math.max(2, (durOf(r) / span) * plot).toFixed(1), height: ROW - 6,
      "data-seq": r.seq, "data-kind": kind, "data-depth": depth,
    });
    const tip = [`#${r.seq} ${r.function}${target ? " " + target : ""}`, `${ms(durOf(r))}, at +${ms(start - t0)}`];
    if (usage) tip.push(`tokens ${usage.input} in / ${usage.output} out${price !== null ? `, ${dollars(price)}` : ""}`);
    if (r.error) tip.push(`error: ${brief(r.error, 200)}`);
    bar.append(svg("title", {}, tip.join("\n")));
    g.append(bar);
    root.append(g);
  });
  const legend = el("div", { className: "tl-legend" },
    ...[...KINDS, "other"].map((k) => el("span", {}, el("span", { className: `swatch kind-${k}` }), k)));
  box.replaceChildren(root, legend);
  const tokens = withUsage ? ` · tokens ${tokensIn} in / ${tokensOut} out` : "";
  // a cost when the server has prices; "+" when some prompts had none
  const costText = priced ? ` · ${dollars(cost)}${priced < withUsage ? "+" : ""}` : "";
  const summary = $("timeline-summary");
  summary.textContent = `(${recs.length} calls over ${ms(span)}${tokens}${costText})`;
  summary.dataset.tokensIn = String(tokensIn);
  summary.dataset.tokensOut = String(tokensOut);
  if (priced) summary.dataset.cost = String(cost); else delete summary.dataset.cost;
}

// Sessions by status over time: the span from the first to the last creation in twelve buckets,
// one stacked bar per bucket, a segment per status (each session in its creation's bucket, in its
// status now).
const STATUSES = ["completed", "failed", "cancelled", "running", "paused", "awaitingapproval"];

function renderOverview() {
  const box = $("overview");
  const times = state.sessions.map((s) => ({ t: Date.parse(s.created_at), status: s.status })).filter((s) => !isNaN(s.t));
  if (!times.length) {
    box.replaceChildren(el("p", { className: "muted" }, "No sessions yet."));
    return;
  }
  const BUCKETS = 12, W = 380, H = 90, AXIS = 14, GAP = 3;
  const t0 = Math.min(...times.map((s) => s.t));
  const t1 = Math.max(...times.map((s) => s.t));
  const size = Math.max(t1 - t0 + 1, 60000) / BUCKETS;
  const counts = Array.from({ length: BUCKETS }, () => ({}));
  for (const s of times) {
    const b = Math.min(BUCKETS - 1, Math.floor((s.t - t0) / size));
    counts[b][s.status] = (counts[b][s.status] || 0) + 1;
  }
  const totals = counts.map((c) => Object.values(c).reduce((a, n) => a + n, 0));
  const top = Math.max(...totals, 1);
  const bw = W / BUCKETS;
  const root = svg("svg", { width: W, height: H + AXIS, class: "ov-chart", role: "img", "aria-label": "sessions by status over time" });
  const order = [...STATUSES, ...new Set(times.map((s) => s.status).filter((x) => !STATUSES.includes(x)))];
  counts.forEach((c, b) => {
    let y = H;
    for (const status of order) {
      const n = c[status];
      if (!n) continue;
      const h = (n / top) * (H - 4);
      y -= h;
      const from = new Date(t0 + b * size), to = new Date(t0 + (b + 1) * size);
      root.append(svg("rect", { class: "ov-bar", x: (b * bw + GAP / 2).toFixed(1), y: y.toFixed(1), width: (bw - GAP).toFixed(1),
        height: h.toFixed(1), "data-status": status, "data-bucket": b, "data-count": n },
        svg("title", {}, `${n} ${status}, created ${from.toLocaleTimeString()}–${to.toLocaleTimeString()}`)));
    }
  });
  root.append(svg("text", { class: "ov-axis", x: 0, y: H + AXIS - 3 }, new Date(t0).toLocaleTimeString()),
    svg("text", { class: "ov-axis", x: W, y: H + AXIS - 3, "text-anchor": "end" }, new Date(t0 + BUCKETS * size).toLocaleTimeString()));
  const seen = order.filter((st) => times.some((s) => s.status === st));
  const legend = el("div", { className: "ov-legend" },
    ...seen.map((st) => el("span", {}, el("span", { className: "swatch", dataset: { status: st } }),
      `${st} ${times.filter((s) => s.status === st).length}`)));
  box.replaceChildren(root, legend);
}

/* ---- wiring ---- */

function init() {
  $("api-key").value = state.apiKey;
  $("key-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    state.apiKey = $("api-key").value.trim();
    if (state.apiKey) sessionStorage.setItem(KEY_STORE, state.apiKey);
    else sessionStorage.removeItem(KEY_STORE);
    message(state.apiKey ? "Key set for this tab" : "Key cleared");
    refresh();
    if (state.selected) openStream(state.selected, true);
  });
  $("replay").addEventListener("click", async () => {
    try {
      const copy = await api("POST", `/sessions/${enc(state.selected)}/replay`, { wait: false });
      message("Replaying as a new session");
      await refresh();
      select(copy.id);
    } catch (e) { message(e.message, true); }
  });
  $("cancel").addEventListener("click", async () => {
    try {
      await api("POST", `/sessions/${enc(state.selected)}/cancel`, {});
      message("Cancelled");
      afterAction(state.selected);
    } catch (e) { message(e.message, true); }
  });
  $("new-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    let input;
    try { input = JSON.parse($("new-input").value || "{}"); } catch (e) { return message(`Input is not JSON: ${e.message}`, true); }
    const body = { input, wait: false };
    if ($("new-profile").value) body.policy_profile = $("new-profile").value;
    try {
      const s = await api("POST", "/sessions", body);
      await refresh();
      select(s.id);
    } catch (e) { message(e.message, true); }
  });
  const fromHash = decodeURIComponent(location.hash.slice(1));
  refresh().then(() => { if (fromHash) select(fromHash); });
  setInterval(refresh, REFRESH_MS);
}

init();
