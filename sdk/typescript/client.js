// client.js — AgentClient: a small HTTP client for `chidori serve` (the session API).
//
// Uses the global fetch of Node >= 18 (or any runtime that has one) and nothing else. What it
// owns: building requests (bearer auth, JSON bodies), timeouts, the retry rule, mapping failures
// to the typed errors of errors.js, and reading Server-Sent Events streams into typed events.
// It trusts the server only to speak HTTP: bodies that are not JSON come back as text and error
// messages are taken from {"error": "..."} when present.
//
// Retry rule: a request is sent again (with exponential backoff) only when sending it twice cannot
// do anything twice — a GET (on a connection failure, a timeout, or a 429/502/503/504 answer), or
// any request whose connection was refused before a byte of it was sent. A POST that reached the
// server is never sent again: starting, resuming or approving a session twice is not harmless.

import { ChidoriError, ConnectionError, HttpError, TimeoutError } from "./errors.js";
import { Checkpoint, Session } from "./session.js";
import { SseParser, typedEvent } from "./sse.js";

export const SETTLED_STATUSES = Object.freeze(["completed", "failed", "cancelled", "paused", "awaitingapproval"]);
const SETTLED = new Set(SETTLED_STATUSES);
const RETRY_STATUSES = new Set([429, 502, 503, 504]);
// Error codes meaning the connection never opened, so nothing of the request was sent.
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "EADDRNOTAVAIL"]);
const MAX_BACKOFF_MS = 5000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// `wait: false` is passed on (the server then answers at once); otherwise the server's default
// (answer once settled) holds and nothing is sent.
const waitField = (opts) => (opts.wait === false ? { wait: false } : {});

// Every `code` on an error, its causes and (for AggregateError) its members.
function errorCodes(err, seen = new Set()) {
  const codes = [];
  while (err && typeof err === "object" && !seen.has(err)) {
    seen.add(err);
    if (typeof err.code === "string") codes.push(err.code);
    if (Array.isArray(err.errors)) for (const e of err.errors) codes.push(...errorCodes(e, seen));
    err = err.cause;
  }
  return codes;
}

function retryAfterMs(res) {
  const h = res.headers.get("retry-after");
  if (!h) return null;
  const secs = Number(h);
  if (Number.isFinite(secs) && secs >= 0) return secs * 1000;
  const at = Date.parse(h);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : null;
}

// A view without `input` (a server that leaves it out) gets the input the client sent.
function withInput(view, input) {
  if (view && typeof view === "object" && !Array.isArray(view) && !("input" in view)) view.input = input;
  return view;
}

function parseBody(text) {
  if (text === "") return null;
  try { return JSON.parse(text); } catch { return text; }
}

export class AgentClient {
  /**
   * @param {string} [baseUrl] the server, e.g. "http://127.0.0.1:8080"
   * @param {{apiKey?: string, timeoutMs?: number, retries?: number, retryDelayMs?: number,
   *          headers?: Record<string, string>, fetch?: typeof fetch}} [options]
   */
  constructor(baseUrl = "http://127.0.0.1:8080", options = {}) {
    if (typeof baseUrl !== "string" || !/^https?:\/\//i.test(baseUrl)) {
      throw new TypeError("AgentClient: baseUrl must be an http:// or https:// URL");
    }
    this.baseUrl = baseUrl.replace(/\/+$/, "");
    this.apiKey = options.apiKey ?? null;
    this.timeoutMs = options.timeoutMs ?? 300000;
    this.retries = Math.max(0, options.retries ?? 2);
    this.retryDelayMs = options.retryDelayMs ?? 250;
    this.extraHeaders = { ...(options.headers ?? {}) };
    this.fetchImpl = options.fetch ?? globalThis.fetch;
    if (typeof this.fetchImpl !== "function") throw new TypeError("AgentClient: no global fetch (Node >= 18 is required)");
  }

  /* ---- the API ---- */

  /** GET /health (no auth needed by the server). */
  health() {
    return this.request("GET", "/health");
  }

  /**
   * POST /sessions: starts a session and returns it (a Session: the view, plus the original
   * SDK's accessors). The server answers once the run has settled (completed, failed, cancelled,
   * paused, awaitingapproval); `wait: true` also polls a session that is still running until it
   * settles; `wait: false` asks the server to answer at once (status "running"). resume,
   * approve and replay take the same option.
   */
  async run(input, opts = {}) {
    const body = this.sessionBody(input, opts);
    const session = await this.request("POST", "/sessions", { ...body, ...waitField(opts) });
    return this.settled(withInput(session, body.input), opts);
  }

  /** POST /sessions/stream: starts a session and yields its events until `done`. */
  stream(input, opts = {}) {
    return this.events("POST", "/sessions/stream", this.sessionBody(input, opts), opts);
  }

  /** GET /sessions/{id}/stream: the session's past events, then live ones until `done`. */
  attach(id, opts = {}) {
    return this.events("GET", `/sessions/${this.idPath(id)}/stream`, undefined, opts);
  }

  /** POST /sessions/{id}/resume: answers the pending input of a paused session. */
  async resume(id, response, opts = {}) {
    const session = await this.request("POST", `/sessions/${this.idPath(id)}/resume`, { response, ...waitField(opts) });
    return this.settled(session, opts);
  }

  /** POST /sessions/{id}/approve: settles a pending approval with "allow" or "deny". */
  async approve(id, decision = "allow", opts = {}) {
    if (decision !== "allow" && decision !== "deny") throw new TypeError('approve: decision must be "allow" or "deny"');
    const session = await this.request("POST", `/sessions/${this.idPath(id)}/approve`, { decision, ...waitField(opts) });
    return this.settled(session, opts);
  }

  /**
   * POST /sessions/{id}/signal {name, payload, from}: the resumed Session when the run waited on
   * that name, else the queued signal {id, status: "queued" | "delivered_live", name,
   * delivery_seq} (tell them apart with isSignalQueued). A server without the signal route
   * answers 404 (HttpError).
   */
  async signal(id, delivery) {
    if (!delivery || typeof delivery.name !== "string") throw new TypeError("signal: expected {name, payload?, from?}");
    const { status, body } = await this.requestWithStatus("POST", `/sessions/${this.idPath(id)}/signal`, {
      name: delivery.name, payload: delivery.payload ?? null, from: delivery.from ?? null,
    });
    const state = body && typeof body === "object" ? body.status : undefined;
    if (status === 202 || state === "queued" || state === "delivered_live") return body;
    return this.asSession(body);
  }

  /** POST /sessions/{id}/cancel. */
  async cancel(id) {
    return this.asSession(await this.request("POST", `/sessions/${this.idPath(id)}/cancel`, {}));
  }

  /**
   * A new session replaying a recorded one.
   * replay(checkpoint): POST /sessions {input, replay_from: checkpoint.callLog} (a Checkpoint, or
   * its JSON): recorded calls answer from the log, calls past its end run live.
   * replay(id): POST /sessions/{id}/replay, the stored session's input and log again.
   */
  async replay(source, opts = {}) {
    if (typeof source === "string") {
      const session = await this.request("POST", `/sessions/${this.idPath(source)}/replay`, waitField(opts));
      return this.settled(session, opts);
    }
    const callLog = source?.callLog ?? source?.call_log;
    if (!Array.isArray(callLog)) throw new TypeError("replay: expected a session id or a checkpoint with a call log");
    const input = source.input === undefined || source.input === null ? {} : source.input;
    const session = await this.request("POST", "/sessions", { input, replay_from: callLog, ...waitField(opts) });
    return this.settled(withInput(session, input), opts);
  }

  /** GET /sessions/{id}. */
  async getSession(id) {
    return this.asSession(await this.request("GET", `/sessions/${this.idPath(id)}`));
  }

  /** GET /sessions: the sessions (whether the server wraps the array in {sessions} or not). */
  async listSessions() {
    const body = await this.request("GET", "/sessions");
    const list = Array.isArray(body) ? body : body && Array.isArray(body.sessions) ? body.sessions : null;
    if (!list) throw new ChidoriError("GET /sessions: unexpected answer (no sessions array)");
    return list.map((v) => this.asSession(v));
  }

  /** GET /sessions/{id}/checkpoint: the session's call log, as the server sends it. */
  getCheckpoint(id) {
    return this.request("GET", `/sessions/${this.idPath(id)}/checkpoint`);
  }

  /** GET /sessions/{id}/snapshot: the run's snapshot manifest (metadata only). */
  async getSnapshotManifest(id) {
    const body = await this.request("GET", `/sessions/${this.idPath(id)}/snapshot`);
    if (!body || typeof body !== "object" || !("snapshot_manifest" in body)) {
      throw new ChidoriError(`GET /sessions/${id}/snapshot: unexpected answer (no snapshot_manifest)`);
    }
    return body.snapshot_manifest;
  }

  /** Polls GET /sessions/{id} until its status is settled; TimeoutError after `waitTimeoutMs`. */
  async waitFor(id, opts = {}) {
    const limit = opts.waitTimeoutMs ?? this.timeoutMs;
    const deadline = limit > 0 ? Date.now() + limit : Infinity;
    let delay = 25;
    for (;;) {
      const session = await this.getSession(id);
      if (SETTLED.has(session.status)) return session;
      if (Date.now() + delay > deadline) throw new TimeoutError(`session ${id} still ${session.status} after ${limit} ms`);
      await sleep(delay);
      delay = Math.min(delay * 2, 500);
    }
  }

  /** A Checkpoint from a session id (GET /sessions/{id}/checkpoint). */
  async checkpoint(id) {
    const data = await this.getCheckpoint(id);
    return new Checkpoint(id, data?.input ?? null, Array.isArray(data?.call_log) ? data.call_log : [], data?.snapshot_manifest ?? null);
  }

  /* ---- plumbing ---- */

  asSession(view) {
    return view && typeof view === "object" && !Array.isArray(view) ? Session.fromView(view, this) : view;
  }

  // The answer of a POST that started a run: the session, or (wait: true) the settled one.
  async settled(session, opts) {
    if (opts.wait && session && !SETTLED.has(session.status)) return this.waitFor(session.id, opts);
    return this.asSession(session);
  }

  sessionBody(input, opts) {
    const body = { input: input === undefined ? {} : input };
    if (opts.policyProfile !== undefined) body.policy_profile = opts.policyProfile;
    if (opts.sessionId !== undefined) body.session_id = opts.sessionId;
    return body;
  }

  idPath(id) {
    if (typeof id !== "string" || id === "") throw new TypeError("a session id must be a non-empty string");
    return encodeURIComponent(id);
  }

  headers(hasBody, accept) {
    // headers given to the constructor come last: an explicit Authorization there wins over apiKey
    const h = { accept };
    if (hasBody) h["content-type"] = "application/json";
    if (this.apiKey && !Object.keys(this.extraHeaders).some((k) => k.toLowerCase() === "authorization")) {
      h.authorization = `Bearer ${this.apiKey}`;
    }
    return { ...h, ...this.extraHeaders };
  }

  backoff(attempt) {
    const base = this.retryDelayMs * 2 ** attempt;
    return Math.min(MAX_BACKOFF_MS, base + Math.random() * base * 0.25);
  }

  // Maps a fetch rejection to TimeoutError / ConnectionError; `notSent` says whether the
  // connection never opened (the only failure after which a POST may be sent again).
  mapFailure(err, what, timedOut, timeoutMs = this.timeoutMs) {
    if (err instanceof ChidoriError) return err;
    const [method, path] = what.split(" ");
    if (timedOut) {
      const t = new TimeoutError(`${what}: no answer within ${timeoutMs} ms`, { cause: err });
      Object.assign(t, { method, path, timeoutMs });
      return t;
    }
    const codes = errorCodes(err);
    const e = new ConnectionError(`${what}: ${codes[0] ?? err?.cause?.message ?? err?.message ?? "connection failed"}`, { cause: err });
    Object.assign(e, { method, path });
    e.notSent = codes.some((c) => NOT_SENT_CODES.has(c));
    return e;
  }

  // One request with the retry rule; resolves with the parsed body of a 2xx answer.
  async request(method, path, body) {
    return (await this.requestWithStatus(method, path, body)).body;
  }

  // The same, with the answer's status: {status, body}.
  async requestWithStatus(method, path, body) {
    const idempotent = method === "GET" || method === "HEAD";
    const what = `${method} ${path}`;
    for (let attempt = 0; ; attempt++) {
      const controller = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => { timedOut = true; controller.abort(); }, this.timeoutMs);
      let res, text;
      try {
        res = await this.fetchImpl(this.baseUrl + path, {
          method,
          headers: this.headers(body !== undefined, "application/json"),
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: controller.signal,
        });
        text = await res.text();
      } catch (err) {
        const e = this.mapFailure(err, what, timedOut, this.timeoutMs);
        if (attempt < this.retries && (idempotent || e.notSent)) {
          await sleep(this.backoff(attempt));
          continue;
        }
        throw e;
      } finally {
        clearTimeout(timer);
      }
      const parsed = parseBody(text);
      if (res.ok) return { status: res.status, body: parsed };
      const wait = retryAfterMs(res);
      const e = new HttpError(res.status, parsed, { method, path, retryAfter: wait === null ? null : wait / 1000 });
      if (idempotent && RETRY_STATUSES.has(res.status) && attempt < this.retries) {
        await sleep(Math.min(MAX_BACKOFF_MS, Math.max(this.backoff(attempt), wait ?? 0)));
        continue;
      }
      throw e;
    }
  }

  // Opens an SSE stream (retrying the opening only, under the same rule as request) and yields
  // typed events until `done`. The stream's timeout is an idle timeout: keep-alive comments
  // count as activity. Leaving the loop early closes the connection.
  async *events(method, path, body, opts = {}) {
    const idempotent = method === "GET";
    const what = `${method} ${path}`;
    const idleMs = opts.timeoutMs ?? this.timeoutMs;
    let controller, res, timer, timedOut = false;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => { timedOut = true; controller.abort(); }, idleMs);
    };
    for (let attempt = 0; ; attempt++) {
      controller = new AbortController();
      timedOut = false;
      arm();
      try {
        res = await this.fetchImpl(this.baseUrl + path, {
          method,
          headers: this.headers(body !== undefined, "text/event-stream"),
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: controller.signal,
        });
      } catch (err) {
        clearTimeout(timer);
        const e = this.mapFailure(err, what, timedOut, idleMs);
        if (attempt < this.retries && (idempotent || e.notSent)) {
          await sleep(this.backoff(attempt));
          continue;
        }
        throw e;
      }
      if (res.ok) break;
      let text = "";
      try { text = await res.text(); } catch { /* the status says enough */ }
      clearTimeout(timer);
      const wait = retryAfterMs(res);
      const e = new HttpError(res.status, parseBody(text), { method, path, retryAfter: wait === null ? null : wait / 1000 });
      if (idempotent && RETRY_STATUSES.has(res.status) && attempt < this.retries) {
        await sleep(Math.min(MAX_BACKOFF_MS, Math.max(this.backoff(attempt), wait ?? 0)));
        continue;
      }
      throw e;
    }

    const parser = new SseParser();
    const reader = res.body.getReader();
    let finished = false;
    try {
      for (;;) {
        let chunk;
        try {
          chunk = await reader.read();
        } catch (err) {
          throw this.mapFailure(err, what, timedOut, idleMs);
        }
        if (chunk.done) break;
        arm();
        for (const msg of parser.push(chunk.value)) {
          const ev = typedEvent(msg);
          yield ev;
          if (ev.type === "done") { finished = true; return; }
        }
      }
      for (const msg of parser.end()) {
        const ev = typedEvent(msg);
        yield ev;
        if (ev.type === "done") { finished = true; return; }
      }
      throw new ConnectionError(`${what}: the event stream ended before its done event`);
    } finally {
      // Done, failed or abandoned by the caller: close the connection either way.
      clearTimeout(timer);
      if (!finished) reader.cancel().catch(() => {});
      controller.abort();
    }
  }
}
