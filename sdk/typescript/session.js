// session.js — what the client hands back: Session, Checkpoint, and the signal outcome test.
//
// A Session is the server's session view, its fields as sent (snake_case: `status`,
// `pending_prompt`, `run_id` …, so JSON.stringify gives the view back), with the original chidori
// SDK's interface on top: camelCase accessors (`pendingPrompt`, `runId`, `callLog`,
// `snapshotManifest` …), `ok`, `checkpoint()` and `replay()`. A Checkpoint is a session's call log
// with its input (and snapshot manifest), serialisable with toJSON / fromJSON. Nothing here talks
// to the network except through the client a Session was made by.

// The client of each session, kept off the object so a Session's own properties are the view only.
const clients = new WeakMap();

// camelCase accessor → [the view's key, what it reads as when the server did not send it]
const FIELDS = {
  callLog: ["call_log", () => []],
  pendingPrompt: ["pending_prompt", () => null],
  pendingSeq: ["pending_seq", () => null],
  pendingDetails: ["pending_details", () => null],
  pendingSignalName: ["pending_signal_name", () => null],
  pendingSignalNames: ["pending_signal_names", () => []],
  pendingSignalDeadline: ["pending_signal_deadline", () => null],
  snapshotManifest: ["snapshot_manifest", () => null],
  runId: ["run_id", () => null],
  pendingApproval: ["pending_approval", () => null],
  policyProfile: ["policy_profile", () => null],
  callCount: ["call_count", () => null],
  createdAt: ["created_at", () => null],
  replayedFrom: ["replayed_from", () => null],
};

export class Session {
  /**
   * The original SDK's positional constructor (a client makes its sessions with fromView):
   * (id, status, input, output, error, callLog, pendingPrompt, client, snapshotManifest,
   *  pendingSignalName, pendingSignalNames, pendingSignalDeadline, pendingDetails, runId)
   */
  constructor(id, status, input, output = null, error = null, callLog = [], pendingPrompt = null, client = null,
              snapshotManifest = null, pendingSignalName = null, pendingSignalNames = [], pendingSignalDeadline = null,
              pendingDetails = null, runId = null) {
    this.id = id;
    this.status = status;
    this.input = input;
    this.output = output;
    this.error = error;
    const rest = { callLog, pendingPrompt, snapshotManifest, pendingSignalName, pendingSignalDeadline, pendingDetails, runId };
    for (const [name, value] of Object.entries(rest)) {
      if (value !== null && value !== undefined && !(Array.isArray(value) && value.length === 0)) this[name] = value;
    }
    if (Array.isArray(pendingSignalNames) && pendingSignalNames.length) this.pendingSignalNames = pendingSignalNames;
    if (client) clients.set(this, client);
  }

  /** A session from the server's view (its fields copied as they are), bound to `client`. */
  static fromView(view, client = null) {
    const s = Object.create(Session.prototype);
    if (view && typeof view === "object") Object.assign(s, view);
    if (client) clients.set(s, client);
    return s;
  }

  /** True when the session completed. */
  get ok() {
    return this.status === "completed";
  }

  /**
   * The session's checkpoint. Its call log and snapshot manifest are fetched from the server
   * (GET /sessions/{id}/checkpoint) unless this session already holds them.
   */
  async checkpoint() {
    const client = clients.get(this);
    if ((this.callLog.length === 0 || this.snapshotManifest === null) && client) {
      const data = await client.getCheckpoint(this.id);
      this.call_log = Array.isArray(data?.call_log) ? data.call_log : [];
      this.snapshot_manifest = data?.snapshot_manifest ?? null;
      if (this.input === undefined) this.input = data?.input ?? null;
    }
    return new Checkpoint(this.id, this.input ?? null, this.callLog, this.snapshotManifest);
  }

  /** A new session replaying this one's call log (client.replay(await this.checkpoint())). */
  async replay(opts = {}) {
    const client = clients.get(this);
    if (!client) throw new Error("Session has no client bound; use client.replay(checkpoint)");
    return client.replay(await this.checkpoint(), opts);
  }
}

for (const [name, [key, fallback]] of Object.entries(FIELDS)) {
  Object.defineProperty(Session.prototype, name, {
    configurable: true,
    enumerable: false,
    get() { return this[key] ?? fallback(); },
    set(value) { this[key] = value; },
  });
}

/** A session's call log with its input and (when the server has one) its snapshot manifest. */
export class Checkpoint {
  constructor(sessionId, input, callLog, snapshotManifest = null) {
    this.sessionId = sessionId;
    this.input = input;
    this.callLog = callLog;
    this.snapshotManifest = snapshotManifest ?? null;
  }

  /** {session_id, input, call_log, snapshot_manifest?}: the original SDK's checkpoint JSON. */
  toJSON() {
    return {
      session_id: this.sessionId,
      input: this.input,
      call_log: this.callLog,
      ...(this.snapshotManifest ? { snapshot_manifest: this.snapshotManifest } : {}),
    };
  }

  static fromJSON(data) {
    if (!data || typeof data !== "object" || !Array.isArray(data.call_log)) {
      throw new TypeError("Checkpoint.fromJSON: expected {session_id, input, call_log: [...]}");
    }
    return new Checkpoint(data.session_id ?? null, data.input ?? null, data.call_log, data.snapshot_manifest ?? null);
  }
}

/** True when client.signal's answer is a queued signal, not a resumed Session. */
export function isSignalQueued(result) {
  const status = result?.status;
  return !(result instanceof Session) && (status === "queued" || status === "delivered_live");
}
