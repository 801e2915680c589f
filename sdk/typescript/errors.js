// errors.js — the typed errors the client throws. Owns nothing else.
//
// Every failure of a request surfaces as one of three classes, all subclasses of ChidoriError
// (exported as AgentClientError too, the original SDK's name):
//   HttpError        the server answered with a status outside 2xx (status, parsed body, and the
//                    server's {"error": "..."} message when there is one)
//   TimeoutError     no answer (or, on a stream, no bytes) within timeoutMs
//   ConnectionError  the server could not be reached, or the connection broke mid-answer

export class ChidoriError extends Error {
  constructor(message, options) {
    super(message, options);
    this.name = "ChidoriError";
  }
}

export class HttpError extends ChidoriError {
  constructor(status, body, { method, path, retryAfter } = {}) {
    const serverMessage = body && typeof body === "object" && typeof body.error === "string" ? body.error : null;
    const text = serverMessage ?? (typeof body === "string" && body ? body.slice(0, 200) : `HTTP ${status}`);
    super(method && path ? `${method} ${path}: ${status} ${text}` : `${status} ${text}`);
    this.name = "HttpError";
    this.status = status;
    this.body = body;
    this.error = serverMessage;
    this.detail = serverMessage; // the original SDK's name for it
    this.method = method ?? null;
    this.path = path ?? null;
    this.retryAfter = retryAfter ?? null;
  }
}

export class TimeoutError extends ChidoriError {
  constructor(message, options) {
    super(message, options);
    this.name = "TimeoutError";
  }
}

export class ConnectionError extends ChidoriError {
  constructor(message, options) {
    super(message, options);
    this.name = "ConnectionError";
  }
}

/** The original chidori SDK's name for the base class. */
export const AgentClientError = ChidoriError;
