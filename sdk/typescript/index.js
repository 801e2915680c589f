// index.js — the package's entry: the client, its sessions and checkpoints, its errors and the SSE parser.
export { AgentClient, SETTLED_STATUSES } from "./client.js";
export { Session, Checkpoint, isSignalQueued } from "./session.js";
export { AgentClientError, ChidoriError, HttpError, TimeoutError, ConnectionError } from "./errors.js";
export { SseParser, typedEvent } from "./sse.js";
export { chidori, run } from "./authoring.js";
