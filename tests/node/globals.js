//! stdout-file: globals.out
// The Web/Node globals are lazy: readable without an import, defined by the first read, and the
// very objects the built-in modules export; node:x and bare x are one module.
import { Buffer as NodeBuffer } from "node:buffer";
import * as bufferBare from "buffer";
import * as bufferNode from "node:buffer";
import events from "events";
import EventEmitterNode, { EventEmitter } from "node:events";
import path from "path";
import posix from "path/posix";
import assert from "assert";
import strict from "assert/strict";
import util from "node:util";
import types from "util/types";

const LAZY = ["Buffer", "TextEncoder", "TextDecoder", "atob", "btoa", "structuredClone", "AbortController", "AbortSignal",
  "Event", "EventTarget"];

export async function agent() {
  const kind = (n) => {
    const d = Object.getOwnPropertyDescriptor(globalThis, n);
    return d ? (d.get ? "lazy" : "value") + (d.enumerable ? ",enumerable" : "") : "missing";
  };
  const before = Object.fromEntries(LAZY.map((n) => [n, kind(n)]));
  globalThis.atob = "replaced before the first read";
  const types_ = Object.fromEntries(LAZY.map((n) => [n, typeof globalThis[n]]));
  const after = Object.fromEntries(LAZY.map((n) => [n, kind(n)]));
  return {
    before, types: types_, after,
    enumerableGlobals: Object.keys(globalThis).filter((k) => LAZY.includes(k)),
    sameObjects: {
      buffer: Buffer === NodeBuffer && bufferBare.Buffer === Buffer && bufferBare.default === bufferNode.default,
      events: events === EventEmitterNode && EventEmitter === events,
      eventTarget: events.EventTarget === EventTarget && events.Event === Event,
      path: posix === path && path.posix === path,
      assert: strict === assert.strict && strict.strict === strict,
      util: types === util.types && util.TextEncoder === TextEncoder && util.TextDecoder === TextDecoder,
      btoa: bufferNode.btoa === btoa,
    },
    work: [Buffer.from("hi").toString("base64"), btoa("hi"), new TextDecoder().decode(new TextEncoder().encode("é")),
      structuredClone({ a: [1] }).a[0], new AbortController().signal.aborted],
  };
}
