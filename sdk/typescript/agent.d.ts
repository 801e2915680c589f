// agent.d.ts — types for agent files: the virtual module "chidori:agent" and its `chidori` object,
// as the runtime provides them (src/engine/js/prelude.js is the implementation; docs/effects.md
// the reference). Nothing here runs: it only lets an editor or `tsc` check an agent file.
//
// Use it with a triple-slash reference at the top of an agent,
//   /// <reference path="path/to/sdk/typescript/agent.d.ts" />
// or by listing this file in tsconfig.json's "files"/"include" (or "types" via the package's
// "./agent" export).

declare module "chidori:agent" {
  export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
  export type JsonObject = { [key: string]: JsonValue };

  /** A tool the model may call inside `chidori.prompt(…, {tools})`; runs in the agent. */
  export interface ToolHandle<A = any, R = unknown> {
    readonly __chidoriTool: true;
    readonly name: string;
    readonly description: string;
    readonly parameters: JsonObject;
    readonly run: (args: A, chidori: Chidori) => R | Promise<R>;
  }

  export interface ToolSpec<A = any, R = unknown> {
    name: string;
    description?: string;
    /** JSON Schema of the arguments; default `{type: "object", properties: {}}`. */
    parameters?: JsonObject;
    run(args: A, chidori: Chidori): R | Promise<R>;
  }

  /** The declaration of a file of the legacy `tools/` folder (`export const tool: ToolDefinition`,
   *  beside `export async function run(args, chidori)`): a tool named `name` for `chidori.tool`. It is
   *  read as plain data, so write it as a literal (strings, numbers, booleans, arrays, objects). */
  export interface ToolDefinition {
    name: string;
    description?: string;
    /** A JSON schema of the arguments. */
    parameters?: JsonObject;
  }

  export interface PromptOptions {
    system?: string;
    model?: string;
    maxTokens?: number;
    temperature?: number;
    /** "json": the reply is parsed JSON instead of text. */
    format?: "json" | "text";
    /** Tool names (MCP tools, `<server>__<tool>`, and the `tools/` folder's bare names) and
     *  `defineTool` handles the model may call. */
    tools?: Array<string | ToolHandle>;
    /** Model turns in the tool loop before giving up; default 8. */
    maxTurns?: number;
  }

  export interface InputOptions {
    choices?: string[];
    default?: string;
    details?: JsonValue;
  }

  /** The result of an MCP tool call. */
  export interface ToolResult {
    content: Array<{ type: string; text?: string; [key: string]: unknown }>;
    isError: boolean;
    structuredContent?: JsonValue;
  }

  export interface MemoryOptions {
    namespace?: string;
  }
  export interface MemoryListOptions extends MemoryOptions {
    prefix?: string;
  }
  export interface MemoryEntry {
    key: string;
    value: JsonValue;
  }
  export interface Memory {
    get(key: string, opts?: MemoryOptions): Promise<JsonValue | null>;
    set(key: string, value: JsonValue, opts?: MemoryOptions): Promise<null>;
    delete(key: string, opts?: MemoryOptions): Promise<boolean>;
    list(opts?: MemoryListOptions): Promise<MemoryEntry[]>;
    clear(opts?: MemoryOptions): Promise<null>;
  }

  /** A file as the workspace lists it: from the generation manifest, or found on disk only
   * (sha256, attempt and updatedAt null). */
  export interface WorkspaceEntry {
    path: string;
    status: "complete" | "writing" | "failed";
    sha256: string | null;
    bytes: number;
    language: string;
    attempt: number | null;
    updatedAt: string | null;
  }
  /** `.generation/manifest.json` of the workspace. */
  export interface WorkspaceManifest {
    version: 1;
    manifestVersion: number;
    activeAttempt: number;
    files: { [path: string]: Omit<WorkspaceEntry, "path"> };
    deleted: { [path: string]: { attempt: number | null; reason: string | null } };
  }
  export type WorkspaceWriteResult = WorkspaceEntry & { sha256: string; updatedAt: string };
  /** Files under the workspace root; each action passes the policy as `workspace:<action>`. */
  export interface Workspace {
    list(opts?: { completeOnly?: boolean }): Promise<WorkspaceEntry[]>;
    manifest(): Promise<WorkspaceManifest>;
    read(path: string): Promise<string>;
    /** language: given, else from the extension. The content is never in the call log. */
    write(path: string, content: string, opts?: { language?: string }): Promise<WorkspaceWriteResult>;
    /** Removes the file (if there) and notes the delete in the manifest; null, as in the original. */
    delete(path: string, reason?: string): Promise<null>;
    remove(path: string, reason?: string): Promise<null>;
  }

  /** A content block of a provider message, in the original chidori's tagged form. */
  export type ContentBlock =
    | { type: "text"; text: string }
    | { type: "tool_use"; id: string; name: string; input: JsonValue }
    | { type: "tool_result"; tool_use_id: string; content: string; is_error: boolean };
  /** One model turn as an object: what `respond()` gives and a tool-loop turn records. */
  export interface LlmResponseJson {
    content: string;
    blocks: ContentBlock[];
    toolCalls: Array<{ id: string; name: string; input: JsonValue }>;
    stopReason: string;
    inputTokens: number;
    outputTokens: number;
    cacheCreationTokens: number;
    cacheReadTokens: number;
  }
  /** The prompt-cache posture: false off; true, absent or "5m" five minutes; "1h" an hour. */
  export type CachePosture = boolean | "5m" | "1h" | { ttl: "5m" | "1h" } | null;
  export interface ContextPromptOptions {
    model?: string;
    maxTokens?: number;
    temperature?: number;
    /** Appended to the context's system texts for this call. */
    system?: string;
    /** Registry tool names added to the context's for this call. */
    tools?: string[];
    cache?: CachePosture;
    /** ctx.prompt()'s tool loop: at most this many model turns (default 10). */
    maxTurns?: number;
    /** The stream label of the call (prompt events, the record's `type`). */
    type?: string;
  }
  export interface DigestOptions {
    model?: string;
    maxTokens?: number;
    temperature?: number;
    cache?: CachePosture;
  }
  export interface CompactOptions {
    /** Turns kept verbatim (default 2). */
    keepTurns?: number;
    /** When the context's estimateTokens() is at most this, nothing is done. */
    budgetTokens?: number;
    /** The summarizer's system prompt. */
    instructions?: string;
    model?: string;
    maxTokens?: number;
    cache?: CachePosture;
    /** The breakpoint placed after the summary (default "5m"). */
    ttl?: "5m" | "1h";
  }
  /** An immutable prompt context: every builder returns a new context sharing the receiver. */
  export interface Context {
    system(text: string): Context;
    tools(list: Array<string | ToolHandle<any, any>>): Context;
    doc(label: string, text: string): Context;
    user(text: string): Context;
    assistant(text: string): Context;
    toolResult(id: string, content: string, isError?: boolean): Context;
    cacheBreakpoint(ttl?: "5m" | "1h"): Context;
    /** One `prompt` record, or one per turn of the tool loop when the context has tools. */
    prompt(opts?: ContextPromptOptions): Promise<{ text: string; context: Context }>;
    /** One model turn; the caller runs any tool it asks for. */
    respond(opts?: ContextPromptOptions): Promise<{ response: LlmResponseJson; context: Context }>;
    /** Old turns folded into one summary (one `prompt` record), or this context unchanged. */
    compact(opts?: CompactOptions): Promise<Context>;
    /** Synchronous: the request digest (hex SHA-256), as the original chidori computes it. */
    digest(opts?: DigestOptions): string;
    /** Synchronous: ceil(characters / 4) of the segments' texts and messages. */
    estimateTokens(): number;
  }
  export interface ConversationOptions {
    system?: string;
    tools?: Array<string | ToolHandle<any, any>>;
    model?: string;
    maxTokens?: number;
    temperature?: number;
    cache?: CachePosture;
    /** The breakpoint after the system/tools head (default "5m"). */
    cacheTtl?: "5m" | "1h";
    /** The default stream label of a turn (default "final"). */
    type?: string;
    /** Compact the context before every turn. */
    compact?: CompactOptions;
    /** say()'s loop over defineTool handles: at most this many model turns (default 8). */
    maxTurns?: number;
  }
  export interface ConversationTurn {
    role: "user" | "assistant";
    text: string;
  }
  export interface ConversationLoopOptions {
    prompt?: string | ((turn: number) => string);
    inputOptions?: InputOptions;
    /** Words that end the loop, any case (default ["exit", "quit"]). */
    exit?: string | string[];
    maxTurns?: number;
    /** Blank answers are skipped unless this is false. */
    skipEmpty?: boolean;
    turn?: ContextPromptOptions;
    onReply?(reply: string, message: string): void | Promise<void>;
    until?(message: string, reply: string): boolean;
  }
  export interface Conversation {
    readonly context: Context;
    /** Assistant turns so far. */
    readonly length: number;
    history(): ConversationTurn[];
    say(message: unknown, perTurn?: ContextPromptOptions): Promise<string>;
    respond(message: unknown, perTurn?: ContextPromptOptions): Promise<LlmResponseJson>;
    /** Reads each message with input(); returns history(). */
    loop(opts?: ConversationLoopOptions): Promise<ConversationTurn[]>;
  }

  export type TryCallResult<T> = { ok: true; value: T } | { ok: false; error: string };
  export interface Util {
    /** Results in order; at most `concurrency` tasks (thunks, promises or values) in flight. */
    parallel<T>(tasks: Array<T | Promise<T> | (() => T | Promise<T>)>, opts?: { concurrency?: number }): Promise<T[]>;
    /** Calls fn until it succeeds, at most `attempts` times (default 3); the last error is thrown. */
    retry<T>(fn: (attempt: number) => T | Promise<T>, opts?: { attempts?: number }): Promise<T>;
    /** Never throws. */
    tryCall<T>(fn: () => T | Promise<T>): Promise<TryCallResult<T>>;
  }

  /** Who sent a signal: opaque JSON, by convention {kind: "human" | "agent" | "external", id, runId?}. */
  export type SignalSender = JsonValue;
  /** What chidori.signal resolves to: a delivered signal, or (timedOut) the timeout's sentinel,
   * whose name is the one awaited, or null for a list of names. */
  export interface Signal<T = JsonValue> {
    name: string | null;
    payload: T | null;
    from: SignalSender | null;
    timedOut?: true;
  }
  export interface SignalOptions {
    /** Resolve with the timeout sentinel after this many ms (a positive whole number; else no deadline). */
    timeoutMs?: number;
  }

  /** The effect object: every method is a host call, recorded in the run's call log. */
  /** One variant of chidori.branch: a module of the agent's folder, its input ({} by default). */
export interface BranchVariant {
    label?: string;
    source: string;
    input?: JsonValue;
}
export interface BranchOptions {
    /** How many variants run at once (1 by default, at most the number of variants). */
    concurrency?: number;
}
export type BranchOutcome =
    | { label: string; branchId: string; status: "completed"; output: JsonValue }
    | { label: string; branchId: string; status: "paused"; pendingPrompt: string }
    | { label: string; branchId: string; status: "failed"; error: string };

  /** chidori.actors (docs/effects.md#actors): options of a spawn. */
  export interface SpawnActorOptions {
    /** A registered name (not "", "parent" or actor-*). */
    name?: string;
    /** What a failure does: settle (never, the default), run again from nothing (clean), or replay
     * what worked and run the failed call again (resume). */
    restart?: "never" | "clean" | "resume";
    maxRestarts?: number;
    backoffMs?: number;
    idleTimeoutMs?: number;
  }
  export interface ActorMessage {
    name: string;
    payload: JsonValue;
    from: JsonValue;
    timedOut?: true;
  }
  export interface ActorOutcome {
    pid: string;
    status: "running" | "completed" | "failed" | "paused" | "stopped";
    output?: JsonValue;
    error?: string;
    pendingPrompt?: string;
    restarts: number;
  }
  export interface ActorStatus {
    pid: string;
    status: "running" | "waiting" | "completed" | "failed" | "paused" | "stopped" | "unknown";
    restarts?: number;
    mailbox?: number;
    waitingFor?: string[];
  }
  export interface ActorHandle {
    readonly pid: string;
    readonly name: string | null;
    send(name: string, payload?: JsonValue): Promise<{ delivered: boolean }>;
    join(opts?: { timeoutMs?: number }): Promise<ActorOutcome>;
    stop(opts?: { timeoutMs?: number }): Promise<ActorOutcome>;
    status(): Promise<ActorStatus>;
  }
  export type ActorTarget = string | ActorHandle;
  export interface Actors {
    spawn(source: string, input?: JsonValue, opts?: SpawnActorOptions): Promise<ActorHandle>;
    /** to: a pid, a registered name, a handle, or "parent" (the spawner). */
    send(to: ActorTarget, name: string, payload?: JsonValue): Promise<{ delivered: boolean }>;
    join(target: ActorTarget, opts?: { timeoutMs?: number }): Promise<ActorOutcome>;
    stop(target: ActorTarget, opts?: { timeoutMs?: number }): Promise<ActorOutcome>;
    status(target: ActorTarget): Promise<ActorStatus>;
    lookup(name: string): Promise<ActorHandle | null>;
  }

export interface Chidori {
    /** One LLM call per model turn; with `format: "json"` the reply is parsed. */
    prompt(text: unknown, opts: PromptOptions & { format: "json" }): Promise<JsonValue>;
    prompt(text: unknown, opts?: PromptOptions): Promise<string>;
    /** An MCP tool by name (gated as `tool:<name>`). */
    tool(name: string, args?: JsonObject): Promise<ToolResult>;
    /** Jinja-style rendering of a string, or of a file of the agent's folder named by a one-line string. */
    template(textOrPath: string, vars?: JsonObject): Promise<string>;
    log(message: unknown, fields?: JsonValue): Promise<null>;
    mark(label: string, data?: JsonValue): Promise<null>;
    /** The same as `mark`. */
    checkpoint(label: string, data?: JsonValue): Promise<null>;
    /** A durable value: on replay the recorded value answers and `fn` does not run. */
    step<T extends JsonValue | void>(name: string, fn: () => T | Promise<T>): Promise<T>;
    /** A human's answer; pauses the run when nobody can answer now. */
    input(prompt: unknown, opts?: InputOptions): Promise<string>;
    /** Wait for a signal of this name (or any of these names), sent to the run from outside
     * (POST /sessions/{id}/signal, `chidori resume --signal`); one queued already answers at once. */
    signal<T = JsonValue>(name: string | string[], opts?: SignalOptions): Promise<Signal<T>>;
    /** A queued signal of this name, or null; never waits. */
    pollSignal<T = JsonValue>(name: string): Promise<Signal<T> | null>;
    /** Wait ms (a signal named "__chidori.alarm__" wakes it early); resolves with the timeout sentinel. */
    alarm(ms: number): Promise<Signal<null>>;
    readonly memory: Memory;
    readonly workspace: Workspace;
    /** A nested run of another agent file of the folder. */
    callAgent(path: string, input?: JsonValue): Promise<JsonValue>;
    /** Fork into sub-runs of other agent files of the folder, each from a copy of this run's VFS and
     * its own input; one recorded call (docs/effects.md#branch). */
    branch(variants: BranchVariant[], options?: BranchOptions): Promise<BranchOutcome[]>;
    /** Supervised actors that talk by messages (docs/effects.md#actors). */
    readonly actors: Actors;
    /** The earliest message of these names: an actor's own mailbox, or what actors sent the run. */
    receive(names: string | string[], opts?: { timeoutMs?: number }): Promise<ActorMessage>;
    /** Always refused: there are no nested code sandboxes. */
    execJs(source: string): Promise<never>;
    execPython(source: string): Promise<never>;
    execWasm(source: string): Promise<never>;
    readonly util: Util;
    defineTool<A = any, R = unknown>(spec: ToolSpec<A, R>): ToolHandle<A, R>;
    /** An immutable prompt context (built in the agent; prompt/respond/compact are `prompt` calls). */
    context(seed?: { system?: string; tools?: Array<string | ToolHandle<any, any>> }): Context;
    /** A chat over one context: say, respond, and an input()-driven loop. */
    conversation(options?: ConversationOptions): Conversation;
  }

  export type Handler<I = any, O = unknown> = (input: I, chidori: Chidori) => O | Promise<O>;

  /** A Standard Schema (zod, valibot, arktype …): its `validate` decides, and its `value`
   * replaces the input. */
  export interface StandardSchemaLike {
    readonly "~standard": {
      validate(value: unknown):
        | { value?: unknown; issues?: ReadonlyArray<{ message: string; path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> }> }
        | Promise<{ value?: unknown; issues?: ReadonlyArray<{ message: string; path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> }> }>;
      [extra: string]: unknown;
    };
  }

  export interface RunOptions {
    /** Checked before the handler starts (before any effect): a JSON Schema (type, const, enum,
     * required, properties, additionalProperties: false, items, min/maxItems, min/maxLength,
     * pattern, minimum, maximum) or a Standard Schema. A mismatch fails the run with
     * `InputValidationError: invalid input:` and every issue: `chidori run` exits 2,
     * `POST /sessions` answers 400. */
    inputSchema?: JsonObject | boolean | StandardSchemaLike | null;
  }

  export const chidori: Chidori;
  /** Registers the agent's entrypoint (call it once, at top level). */
  export function run<I = any, O = unknown>(handler: Handler<I, O>, options?: RunOptions): void;
  export function defineTool<A = any, R = unknown>(spec: ToolSpec<A, R>): ToolHandle<A, R>;
}
