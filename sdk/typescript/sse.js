// sse.js — a Server-Sent Events parser (the text/event-stream format), incremental and
// independent of any transport.
//
// Follows the format's rules: lines end in CRLF, LF or CR (a CR at the end of one chunk and an LF
// at the start of the next are one line end); a line starting with ":" is a comment (keep-alives);
// "field: value" loses one leading space; `data` lines accumulate joined by "\n"; `event` names
// the event (default "message"); `id` sets the last event id (ignored if it contains NUL);
// `retry` takes digits only; a blank line dispatches, and an event without data is dropped. A
// leading byte-order mark is skipped. The server is trusted only to send text: nothing here
// evaluates what it parses.

export class SseParser {
  constructor() {
    this.decoder = new TextDecoder("utf-8");
    this.buffer = "";
    this.sawCR = false; // the previous chunk ended in CR: an LF starting this one is the same line end
    this.started = false;
    this.reset();
    this.lastEventId = "";
    this.retry = null;
  }

  reset() {
    this.eventType = "";
    this.data = [];
  }

  /** Feeds bytes (Uint8Array) or text; returns the events completed by it. */
  push(chunk) {
    const text = typeof chunk === "string" ? chunk : this.decoder.decode(chunk, { stream: true });
    return this.pushText(text);
  }

  /** Ends the stream: a trailing event without its blank line is discarded, as the format says. */
  end() {
    const rest = this.decoder.decode();
    const events = rest ? this.pushText(rest) : [];
    this.buffer = "";
    this.reset();
    return events;
  }

  pushText(text) {
    if (!this.started && text.length) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (this.sawCR && text.startsWith("\n")) text = text.slice(1);
    this.sawCR = false;
    this.buffer += text;
    const events = [];
    let start = 0;
    for (;;) {
      let i = start;
      const n = this.buffer.length;
      while (i < n) {
        const c = this.buffer.charCodeAt(i);
        if (c === 10 || c === 13) break;
        i++;
      }
      if (i >= n) break;
      const line = this.buffer.slice(start, i);
      if (this.buffer.charCodeAt(i) === 13) {
        if (i + 1 < n) start = this.buffer.charCodeAt(i + 1) === 10 ? i + 2 : i + 1;
        else { start = i + 1; this.sawCR = true; }
      } else {
        start = i + 1;
      }
      const ev = this.line(line);
      if (ev) events.push(ev);
    }
    this.buffer = this.buffer.slice(start);
    return events;
  }

  line(line) {
    if (line === "") {
      if (this.data.length === 0) { this.reset(); return null; }
      const ev = { event: this.eventType || "message", data: this.data.join("\n"), id: this.lastEventId };
      this.reset();
      return ev;
    }
    if (line.charCodeAt(0) === 58 /* ":" */) return null;
    const colon = line.indexOf(":");
    let field = line, value = "";
    if (colon >= 0) {
      field = line.slice(0, colon);
      value = line.slice(colon + 1);
      if (value.charCodeAt(0) === 32) value = value.slice(1);
    }
    switch (field) {
      case "event": this.eventType = value; break;
      case "data": this.data.push(value); break;
      case "id": if (!value.includes("\0")) this.lastEventId = value; break;
      case "retry": if (/^[0-9]+$/.test(value)) this.retry = Number(value); break;
      default: break; // unknown fields are ignored
    }
    return null;
  }
}

/**
 * Turns a raw SSE message {event, data, id} into the client's typed event. `data` is parsed as
 * JSON when it is JSON, and kept as text otherwise.
 */
export function typedEvent(msg) {
  let data = msg.data;
  try { data = JSON.parse(msg.data); } catch { /* not JSON: keep the text */ }
  const ev = { type: msg.event, data };
  if (msg.id) ev.id = msg.id;
  const obj = data !== null && typeof data === "object" ? data : null;
  switch (msg.event) {
    case "call":
      ev.record = data;
      break;
    case "prompt_delta":
      ev.delta = obj ? (typeof obj.delta === "string" ? obj.delta : "") : String(data);
      break;
    case "paused":
    case "awaitingapproval":
    case "done":
      if (obj && typeof obj.status === "string") ev.status = obj.status;
      break;
    default:
      break;
  }
  // The payload's own fields are on the event too, as the original SDK's events had them
  // (`done.output`, `done.error`, `paused.pending_seq` …); `id` is the SSE id when the server sent
  // one, else the payload's (a session's id).
  if (obj && !Array.isArray(obj) && msg.event !== "call") {
    for (const [k, v] of Object.entries(obj)) if (!Object.hasOwn(ev, k) && k !== "__proto__") ev[k] = v;
  }
  return ev;
}
