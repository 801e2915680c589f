// index.js — the package's entry: the client, its errors and the SSE parser.
export { AgentClient, SETTLED_STATUSES } from "./client.js";
export { ChidoriError, HttpError, TimeoutError, ConnectionError } from "./errors.js";
export { SseParser, typedEvent } from "./sse.js";
