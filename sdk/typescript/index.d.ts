// index.d.ts — types of the chidori client (hand-written; the code is index.js and its imports).

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export type SessionStatus = "running" | "completed" | "failed" | "cancelled" | "paused" | "awaitingapproval";
export declare const SETTLED_STATUSES: readonly SessionStatus[];

export interface PendingApproval {
  target: string;
  args: JsonValue;
  reason: string | null;
}

/** The fields of a session view, as the server sends them. */
export interface SessionView {
  id: string;
  run_id: string;
  status: SessionStatus;
  input: JsonValue;
  output: JsonValue | null;
  error: string | null;
  call_count: number;
  pending_prompt: string | null;
  pending_approval: PendingApproval | null;
  policy_profile: string | null;
  created_at: string;
  [extra: string]: unknown;
}

/**
 * One session: the server's view (its fields as sent, snake_case), with the original chidori SDK's
 * interface on top (camelCase accessors, `ok`, `checkpoint()`, `replay()`).
 */
export declare class Session implements SessionView {
  /** The original SDK's positional constructor; a client makes its sessions with fromView. */
  constructor(id: string, status: SessionStatus, input: JsonValue, output?: JsonValue | null, error?: string | null,
              callLog?: CallRecord[], pendingPrompt?: string | null, client?: AgentClient | null,
              snapshotManifest?: SnapshotManifest | null, pendingSignalName?: string | null,
              pendingSignalNames?: string[], pendingSignalDeadline?: string | null, pendingDetails?: string | null,
              runId?: string | null);
  static fromView(view: JsonObject, client?: AgentClient | null): Session;
  id: string;
  run_id: string;
  status: SessionStatus;
  input: JsonValue;
  output: JsonValue | null;
  error: string | null;
  call_count: number;
  pending_prompt: string | null;
  pending_approval: PendingApproval | null;
  policy_profile: string | null;
  created_at: string;
  [extra: string]: unknown;
  /** status === "completed" */
  readonly ok: boolean;
  callLog: CallRecord[];
  pendingPrompt: string | null;
  pendingSeq: number | null;
  pendingDetails: string | null;
  pendingSignalName: string | null;
  pendingSignalNames: string[];
  pendingSignalDeadline: string | null;
  snapshotManifest: SnapshotManifest | null;
  runId: string | null;
  pendingApproval: PendingApproval | null;
  policyProfile: string | null;
  callCount: number | null;
  createdAt: string | null;
  replayedFrom: string | null;
  /** Its checkpoint; the call log and manifest are fetched unless this session holds them. */
  checkpoint(): Promise<Checkpoint>;
  /** A new session replaying this one's call log. */
  replay(opts?: WaitOptions): Promise<Session>;
}

/** One call record of a session's durable log. */
export interface CallRecord {
  seq: number;
  parent_seq?: number;
  function: string;
  args: JsonValue;
  result: JsonValue;
  duration_ms: number;
  /** When the call was made (the run's virtual clock). */
  timestamp: number | string;
  error?: string;
  [extra: string]: unknown;
}

/** The snapshot manifest of a run (metadata only; the snapshot bytes stay on the server). */
export interface SnapshotManifest {
  run_id: string;
  abi: { engine_fork: string; [extra: string]: unknown };
  policy: { [key: string]: JsonValue };
  entry?: { path: string; hash: string };
  modules?: Array<{ path: string; hash: string }>;
  call_log_len?: number;
  snapshot_file: string;
  created_at?: string;
  [extra: string]: unknown;
}

/** GET /sessions/{id}/checkpoint, as the server sends it. */
export interface CheckpointData {
  id: string;
  run_id: string;
  status: SessionStatus;
  input: JsonValue;
  call_log: CallRecord[];
  snapshot_manifest?: SnapshotManifest | null;
  [extra: string]: unknown;
}

/** A session's call log with its input: what replay(checkpoint) sends back as replay_from. */
export declare class Checkpoint {
  constructor(sessionId: string | null, input: JsonValue, callLog: CallRecord[], snapshotManifest?: SnapshotManifest | null);
  readonly sessionId: string | null;
  readonly input: JsonValue;
  readonly callLog: CallRecord[];
  readonly snapshotManifest: SnapshotManifest | null;
  toJSON(): { session_id: string | null; input: JsonValue; call_log: CallRecord[]; snapshot_manifest?: SnapshotManifest };
  static fromJSON(data: { session_id?: string | null; input?: JsonValue; call_log: CallRecord[]; snapshot_manifest?: SnapshotManifest | null }): Checkpoint;
}

/** client.signal's answer when the signal did not resolve a pause at once. */
export interface SignalQueued {
  id: string;
  status: "queued" | "delivered_live";
  name: string;
  delivery_seq: number;
}
export interface SignalDelivery {
  name: string;
  payload?: JsonValue;
  from?: JsonValue;
}
export declare function isSignalQueued(result: Session | SignalQueued): result is SignalQueued;

interface EventBase {
  /** The event's `id:` field when the server sent one; else the payload's `id` (a session's). */
  id?: string;
  /** The payload's other fields, also on the event (`done.output`, `paused.pending_prompt` …). */
  [field: string]: unknown;
}
export interface CallEvent extends EventBase { type: "call"; data: CallRecord; record: CallRecord }
export interface PromptDeltaEvent extends EventBase { type: "prompt_delta"; data: JsonValue; delta: string }
export interface PausedEvent extends EventBase { type: "paused"; data: JsonValue; status?: string }
export interface AwaitingApprovalEvent extends EventBase { type: "awaitingapproval"; data: JsonValue; status?: string }
export interface DoneEvent extends EventBase { type: "done"; data: JsonValue; status?: string }
/** An event name this client does not know; passed through as parsed. */
export interface OtherEvent extends EventBase { type: string; data: JsonValue }
export type StreamEvent = CallEvent | PromptDeltaEvent | PausedEvent | AwaitingApprovalEvent | DoneEvent | OtherEvent;

export interface ClientOptions {
  /** Sent as `Authorization: Bearer <apiKey>` (the server's CHIDORI_API_KEY). */
  apiKey?: string;
  /** Per request; on streams, the longest silence allowed. Default 300000. */
  timeoutMs?: number;
  /** Extra attempts for retryable failures (GETs; connections refused before sending). Default 2. */
  retries?: number;
  /** First backoff delay, doubled per attempt. Default 250. */
  retryDelayMs?: number;
  headers?: Record<string, string>;
  /** A fetch implementation to use instead of the global one. */
  fetch?: (url: string, init?: any) => Promise<any>;
}

export interface RunOptions {
  /** A built-in policy profile for this session (stricter-wins over the server's policy). */
  policyProfile?: "permissive" | "untrusted" | "supervised" | (string & {});
  sessionId?: string;
  /**
   * Unset: the server answers once the run settles. true: also poll a session still running
   * until it settles. false: the server answers at once (status "running").
   */
  wait?: boolean;
  /** How long `wait` may poll; default timeoutMs. */
  waitTimeoutMs?: number;
}

export interface WaitOptions {
  wait?: boolean;
  waitTimeoutMs?: number;
}

export interface StreamOptions {
  policyProfile?: RunOptions["policyProfile"];
  sessionId?: string;
  /** Idle timeout of this stream; default the client's timeoutMs. */
  timeoutMs?: number;
}

export declare class AgentClient {
  constructor(baseUrl?: string, options?: ClientOptions);
  readonly baseUrl: string;
  health(): Promise<{ status: string; [extra: string]: unknown }>;
  run(input?: JsonValue, opts?: RunOptions): Promise<Session>;
  stream(input?: JsonValue, opts?: StreamOptions): AsyncGenerator<StreamEvent, void, undefined>;
  attach(id: string, opts?: { timeoutMs?: number }): AsyncGenerator<StreamEvent, void, undefined>;
  resume(id: string, response: string, opts?: WaitOptions): Promise<Session>;
  approve(id: string, decision?: "allow" | "deny", opts?: WaitOptions): Promise<Session>;
  cancel(id: string): Promise<JsonObject>;
  /** replay(id): the server's replay of a stored session. replay(checkpoint): a new session
   * whose recorded calls answer from the checkpoint's log (replay_from). */
  replay(source: string | Checkpoint | { input?: JsonValue; call_log: CallRecord[] }, opts?: WaitOptions): Promise<Session>;
  signal(id: string, delivery: SignalDelivery): Promise<Session | SignalQueued>;
  getSession(id: string): Promise<Session>;
  listSessions(): Promise<Session[]>;
  getCheckpoint(id: string): Promise<CheckpointData>;
  /** A Checkpoint object from a session id. */
  checkpoint(id: string): Promise<Checkpoint>;
  getSnapshotManifest(id: string): Promise<SnapshotManifest>;
  waitFor(id: string, opts?: { waitTimeoutMs?: number }): Promise<Session>;
}

export declare class ChidoriError extends Error {}
/** The original SDK's name for ChidoriError. */
export declare const AgentClientError: typeof ChidoriError;
export type AgentClientError = ChidoriError;
export declare class HttpError extends ChidoriError {
  readonly status: number;
  /** The parsed answer (JSON, or text when it was not JSON). */
  readonly body: unknown;
  /** The server's {"error": "..."} message, or null (also `detail`). */
  readonly error: string | null;
  readonly detail: string | null;
  readonly method: string | null;
  readonly path: string | null;
  /** Seconds from a Retry-After header, or null. */
  readonly retryAfter: number | null;
}
export declare class TimeoutError extends ChidoriError {
  readonly method?: string;
  readonly path?: string;
  readonly timeoutMs?: number;
}
export declare class ConnectionError extends ChidoriError {
  /** True when the connection never opened (nothing of the request was sent). */
  readonly notSent?: boolean;
  readonly method?: string;
  readonly path?: string;
}

export interface SseMessage { event: string; data: string; id: string }
export declare class SseParser {
  lastEventId: string;
  retry: number | null;
  push(chunk: Uint8Array | string): SseMessage[];
  end(): SseMessage[];
}
export declare function typedEvent(msg: SseMessage): StreamEvent;

/** Inert outside the runtime (every access throws): an agent imports these from "chidori:agent". */
export declare const chidori: { readonly [name: string]: never };
export declare function run(...args: unknown[]): never;
