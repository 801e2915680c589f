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

/** What the server returns for one session. */
export interface Session {
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

/** One call record of a session's durable log. */
export interface CallRecord {
  seq: number;
  parent_seq?: number;
  function: string;
  args: JsonValue;
  result: JsonValue;
  duration_ms: number;
  /** Milliseconds since the epoch (the run's virtual clock). */
  timestamp: number;
  error?: string;
  [extra: string]: unknown;
}

/** GET /sessions/{id}/checkpoint. */
export interface Checkpoint {
  id: string;
  run_id: string;
  status: SessionStatus;
  input: JsonValue;
  call_log: CallRecord[];
  [extra: string]: unknown;
}

interface EventBase {
  /** The event's `id:` field, when the server sent one. */
  id?: string;
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
  replay(id: string, opts?: WaitOptions): Promise<Session>;
  getSession(id: string): Promise<Session>;
  listSessions(): Promise<Session[]>;
  getCheckpoint(id: string): Promise<Checkpoint>;
  waitFor(id: string, opts?: { waitTimeoutMs?: number }): Promise<Session>;
}

export declare class ChidoriError extends Error {}
export declare class HttpError extends ChidoriError {
  readonly status: number;
  /** The parsed answer (JSON, or text when it was not JSON). */
  readonly body: unknown;
  /** The server's {"error": "..."} message, or null. */
  readonly error: string | null;
  /** Seconds from a Retry-After header, or null. */
  readonly retryAfter: number | null;
}
export declare class TimeoutError extends ChidoriError {}
export declare class ConnectionError extends ChidoriError {
  /** True when the connection never opened (nothing of the request was sent). */
  readonly notSent?: boolean;
}

export interface SseMessage { event: string; data: string; id: string }
export declare class SseParser {
  lastEventId: string;
  retry: number | null;
  push(chunk: Uint8Array | string): SseMessage[];
  end(): SseMessage[];
}
export declare function typedEvent(msg: SseMessage): StreamEvent;
