/* prelude.js — the JavaScript half of the engine, run once per run before any agent code.
 *
 * Evaluated as a script whose value is a function; the engine calls it with `natives`, an object
 * of C functions that is never reachable from guest code (it lives only in this closure). It
 * installs the guest globals (console, virtual-time timers, queueMicrotask), builds the
 * `chidori` effect object and the `chidori:agent` exports, and returns the internals the engine
 * drives (start the entrypoint, fire timers).
 *
 * Everything the prelude needs from the language is captured up front, so guest code that
 * replaces JSON.stringify or Promise later cannot change how effects are marshalled. The host
 * re-validates every argument anyway: this file is a convenience, not a trust boundary.
 */
(function (natives) {
  "use strict";
  const hostCall = natives.host;
  const clockNow = natives.now;
  const clockAdvanceTo = natives.advanceTo;

  const JSONStringify = JSON.stringify;
  const JSONParse = JSON.parse;
  const ObjectFreeze = Object.freeze;
  const ObjectDefineProperty = Object.defineProperty;
  const ObjectKeys = Object.keys;
  const ObjectGetPrototypeOf = Object.getPrototypeOf;
  const ArrayIsArray = Array.isArray;
  const PromiseCtor = Promise;
  const PromiseResolve = (v) => PromiseCtor.resolve(v);
  const PromiseReject = (e) => PromiseCtor.reject(e);
  const PromiseThen = (p, f, r) => PromiseCtor.prototype.then.call(p, f, r);
  const ReflectApply = Reflect.apply;
  const StringCtor = String;
  const ErrorCtor = Error;
  const TypeErrorCtor = TypeError;
  const MathMax = Math.max;
  const FunctionToString = (f) => Function.prototype.toString.call(f);
  const ErrorIsError = (e) => e instanceof ErrorCtor;

  /* ---- the seam ---- */

  // Synchronous host call: args are marshalled as JSON; the host's reply comes back parsed.
  function callSync(op, args) {
    return hostCall(op, JSONStringify(args));
  }

  // Every chidori.* effect returns a Promise, settled with the host's result or error.
  function effect(op, args) {
    try {
      return PromiseResolve(callSync(op, args));
    } catch (e) {
      return PromiseReject(e);
    }
  }

  /* ---- console ---- */

  function inspect(value, depth, seen) {
    switch (typeof value) {
      case "string": return depth === 0 ? value : JSONStringify(value);
      case "number": return value === 0 && 1 / value < 0 ? "-0" : StringCtor(value);
      case "bigint": return StringCtor(value) + "n";
      case "undefined": return "undefined";
      case "boolean": return StringCtor(value);
      case "symbol": return value.toString();
      case "function": return "[Function: " + (value.name || "anonymous") + "]";
    }
    if (value === null) return "null";
    if (seen.includes(value)) return "[Circular]";
    if (ErrorIsError(value)) {
      const stack = value.stack ? "\n" + StringCtor(value.stack).replace(/\n$/, "") : "";
      return StringCtor(value) + stack;
    }
    if (depth > 4) return ArrayIsArray(value) ? "[Array]" : "[Object]";
    seen.push(value);
    let out;
    if (ArrayIsArray(value)) {
      const items = [];
      for (let i = 0; i < value.length && i < 100; i++) items.push(inspect(value[i], depth + 1, seen));
      if (value.length > 100) items.push("... " + (value.length - 100) + " more items");
      out = items.length ? "[ " + items.join(", ") + " ]" : "[]";
    } else if (value instanceof Map) {
      const items = [];
      for (const [k, v] of value) items.push(inspect(k, depth + 1, seen) + " => " + inspect(v, depth + 1, seen));
      out = "Map(" + value.size + ") {" + (items.length ? " " + items.join(", ") + " " : "") + "}";
    } else if (value instanceof Set) {
      const items = [];
      for (const v of value) items.push(inspect(v, depth + 1, seen));
      out = "Set(" + value.size + ") {" + (items.length ? " " + items.join(", ") + " " : "") + "}";
    } else if (value instanceof Date) {
      out = isNaN(value.getTime()) ? "Invalid Date" : value.toISOString();
    } else if (value instanceof RegExp) {
      out = StringCtor(value);
    } else if (value instanceof PromiseCtor) {
      out = "Promise { <opaque> }";
    } else {
      const keys = ObjectKeys(value);
      const items = [];
      for (const k of keys) {
        const key = /^[A-Za-z_$][\w$]*$/.test(k) ? k : JSONStringify(k);
        items.push(key + ": " + inspect(value[k], depth + 1, seen));
      }
      const proto = ObjectGetPrototypeOf(value);
      const name = proto === null ? "[Object: null prototype] " : "";
      out = items.length ? name + "{ " + items.join(", ") + " }" : name + "{}";
    }
    seen.pop();
    return out;
  }

  function format(args) {
    let s = "";
    for (let i = 0; i < args.length; i++) {
      if (i) s += " ";
      s += inspect(args[i], 0, []);
    }
    return s;
  }

  function consoleMethod(level) {
    return function (...args) {
      callSync("console", { level, text: format(args) });
    };
  }

  const console = {
    log: consoleMethod("log"),
    info: consoleMethod("info"),
    debug: consoleMethod("debug"),
    warn: consoleMethod("warn"),
    error: consoleMethod("error"),
    trace: consoleMethod("trace"),
  };

  /* ---- timers on virtual time ----
   * Nothing sleeps: when no job is left, the engine fires the earliest timer and the clock jumps
   * to its deadline. Order is (deadline, id), so a run's timer order is a pure function of the
   * program and replays identically. */

  const timers = new Map(); // id -> {id, at, fn, args, interval}
  let nextTimerId = 1;

  function addTimer(fn, ms, args, repeat) {
    if (typeof fn !== "function") throw new TypeErrorCtor("timer callback must be a function");
    let delay = +ms;
    if (!(delay >= 1)) delay = 1; // NaN, negative and 0 all mean 1 ms, as in browsers and Node
    if (delay > 2147483647) delay = 1;
    const id = nextTimerId++;
    timers.set(id, { id, at: clockNow() + delay, fn, args, interval: repeat ? delay : 0 });
    return id;
  }

  function clearTimer(id) {
    timers.delete(+id);
  }

  function fireNextTimer() {
    let next = null;
    for (const t of timers.values()) {
      if (next === null || t.at < next.at || (t.at === next.at && t.id < next.id)) next = t;
    }
    if (next === null) return false;
    clockAdvanceTo(next.at);
    if (next.interval) next.at = MathMax(next.at, clockNow()) + next.interval;
    else timers.delete(next.id);
    ReflectApply(next.fn, undefined, next.args);
    return true;
  }

  function queueMicrotask(fn) {
    if (typeof fn !== "function") throw new TypeErrorCtor("queueMicrotask: callback must be a function");
    PromiseThen(PromiseResolve(), () => fn());
  }

  /* ---- the chidori object ---- */

  function messageOf(message) {
    return typeof message === "string" ? message : inspect(message, 0, []);
  }

  const chidori = ObjectFreeze({
    log(message, fields) {
      const args = { message: messageOf(message) };
      if (fields !== undefined) args.fields = fields;
      return effect("log", args);
    },
  });

  /* ---- chidori:agent ---- */

  let registered = null;

  function run(handler, options) {
    if (typeof handler !== "function") throw new TypeErrorCtor("run(handler): handler must be a function");
    if (registered !== null) throw new ErrorCtor("run() was called more than once");
    registered = { handler, options };
  }

  function defineTool(spec) {
    if (spec === null || typeof spec !== "object") throw new TypeErrorCtor("defineTool: expected an object");
    if (typeof spec.name !== "string" || !spec.name) throw new TypeErrorCtor("defineTool: `name` must be a non-empty string");
    if (typeof spec.run !== "function") throw new TypeErrorCtor("defineTool: `run` must be a function");
    return ObjectFreeze({
      __chidoriTool: true,
      name: spec.name,
      description: typeof spec.description === "string" ? spec.description : "",
      parameters: spec.parameters || { type: "object", properties: {} },
      run: spec.run,
    });
  }

  // Picks the entrypoint: run(handler) first, then `export async function agent`, then the
  // default export.
  function pickHandler(ns) {
    if (registered !== null) return registered.handler;
    if (ns && typeof ns.agent === "function") return ns.agent;
    if (ns && typeof ns.default === "function") return ns.default;
    throw new ErrorCtor(
      "no entrypoint: call run(handler) from \"chidori:agent\", or export an `agent` function or a default function");
  }

  // Runs the handler and resolves with the output as compact JSON text.
  function start(ns, inputJson) {
    const running = PromiseThen(PromiseResolve(), () => {
      const handler = pickHandler(ns);
      const input = JSONParse(inputJson);
      return handler(input, chidori);
    });
    return PromiseThen(running, (output) => {
      let text;
      try {
        text = JSONStringify(output === undefined ? null : output);
      } catch (e) {
        throw new TypeErrorCtor("the agent's output is not JSON-compatible: " + (e && e.message));
      }
      if (text === undefined) throw new TypeErrorCtor("the agent's output is not JSON-compatible (" + typeof output + ")");
      return text;
    });
  }

  /* ---- guest globals ---- */

  function defineGlobal(name, value) {
    ObjectDefineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
  }

  defineGlobal("console", console);
  defineGlobal("setTimeout", (fn, ms, ...args) => addTimer(fn, ms, args, false));
  defineGlobal("setInterval", (fn, ms, ...args) => addTimer(fn, ms, args, true));
  defineGlobal("clearTimeout", clearTimer);
  defineGlobal("clearInterval", clearTimer);
  defineGlobal("queueMicrotask", queueMicrotask);

  return ObjectFreeze({
    agentExports: ObjectFreeze({ chidori, run, defineTool }),
    start,
    fireNextTimer,
    hasTimers: () => timers.size > 0,
  });
})
