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

  export interface PromptOptions {
    system?: string;
    model?: string;
    maxTokens?: number;
    temperature?: number;
    /** "json": the reply is parsed JSON instead of text. */
    format?: "json" | "text";
    /** Tool names (MCP tools, `<server>__<tool>`) and `defineTool` handles the model may call. */
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

  export interface WorkspaceEntry {
    path: string;
    bytes: number;
    /** manifest() only */
    sha256?: string;
    /** manifest() only */
    status?: string;
  }
  export interface WorkspaceWriteResult {
    path: string;
    bytes: number;
    sha256: string;
  }
  /** Files under the workspace root; each action passes the policy as `workspace:<action>`. */
  export interface Workspace {
    list(): Promise<WorkspaceEntry[]>;
    manifest(): Promise<Required<WorkspaceEntry>[]>;
    read(path: string): Promise<string>;
    write(path: string, content: string): Promise<WorkspaceWriteResult>;
    delete(path: string): Promise<boolean>;
    remove(path: string): Promise<boolean>;
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
