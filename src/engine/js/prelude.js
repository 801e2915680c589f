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
  const loadBuiltinFile = natives.loadBuiltin;
  const unavailableMember = natives.unavailableMember;
  const enqueueMicrotask = natives.enqueueMicrotask;

  const JSONStringify = JSON.stringify;
  const JSONParse = JSON.parse;
  const ObjectFreeze = Object.freeze;
  const ObjectDefineProperty = Object.defineProperty;
  const ObjectKeys = Object.keys;
  const ObjectGetPrototypeOf = Object.getPrototypeOf;
  const ObjectHasOwn = Object.hasOwn;
  const ReflectApply = Reflect.apply;
  const ObjectCreate = Object.create;
  const StringPrototypeSlice = String.prototype.slice;
  const StringSlice = (s, a, b) => ReflectApply(StringPrototypeSlice, s, [a, b]);
  const StringPrototypeIncludes = String.prototype.includes;
  const StringIncludes = (s, x) => ReflectApply(StringPrototypeIncludes, s, [x]);
  const StringPrototypeRepeat = String.prototype.repeat;
  const StringRepeat = (s, n) => ReflectApply(StringPrototypeRepeat, s, [n]);
  const RegExpPrototypeReplace = RegExp.prototype[Symbol.replace];
  const RegExpReplace = (re, s, by) => ReflectApply(RegExpPrototypeReplace, re, [s, by]);
  const ArrayIsArray = Array.isArray;
  const PromiseCtor = Promise;
  const PromiseResolve = (v) => PromiseCtor.resolve(v);
  const PromiseReject = (e) => PromiseCtor.reject(e);
  const PromiseThen = (p, f, r) => PromiseCtor.prototype.then.call(p, f, r);
  const StringCtor = String;
  const ErrorCtor = Error;
  const TypeErrorCtor = TypeError;
  const MathMax = Math.max;
  const FunctionToString = (f) => Function.prototype.toString.call(f);
  const RegExpCtor = RegExp;
  const RegExpTest = (re, s) => ReflectApply(RegExp.prototype.test, re, [s]);
  const NumberIsInteger = Number.isInteger;

  /* ---- the seam ---- */

  // Synchronous host call: args are marshalled as JSON; the host's reply comes back parsed.
  function callSync(op, args) {
    return hostCall(op, JSONStringify(args));
  }

  // Every chidori.* effect returns a Promise, settled with the host's result or error.
  function effect(op, args) {
    let text;
    try {
      text = JSONStringify(args);
    } catch (e) {
      return PromiseReject(new TypeErrorCtor(op + ": arguments are not JSON-serializable: " + messageOfError(e)));
    }
    try {
      return PromiseResolve(hostCall(op, text));
    } catch (e) {
      return PromiseReject(e);
    }
  }

  function messageOfError(e) {
    if (e !== null && typeof e === "object" && typeof e.message === "string") return e.message;
    try { return StringCtor(e); } catch (_) { return "(an unprintable error)"; }
  }

  // A value that must be JSON (stored, recorded): reject early with a clear cause.
  function requireJson(what, value) {
    let text;
    try {
      text = JSONStringify(value);
    } catch (e) {
      throw new TypeErrorCtor(what + " is not JSON-serializable: " + messageOfError(e));
    }
    if (text === undefined) throw new TypeErrorCtor(what + " is not JSON-serializable (" + typeof value + ")");
  }

  function optionsObject(what, opts) {
    if (opts === undefined || opts === null) return {};
    if (typeof opts !== "object") throw new TypeErrorCtor(what + ": options must be an object");
    return opts;
  }

  /* ---- console ---- */

  // Console text is node:util's format (placeholders, then inspect with its depth limit for
  // what remains), so console.log prints what Node prints. util is loaded on the first call.
  let utilModule = null;
  function nodeUtil() {
    if (utilModule === null) utilModule = requireBuiltin("util");
    return utilModule;
  }

  // Primitives print the same through util.format when no placeholder can apply (a first string
  // without "%", or a first argument that is not a string): strings as they are, the rest as
  // inspect writes them. That is most console lines, and it spares a run that only logs text
  // from loading node:util.
  function plain(v) {
    switch (typeof v) {
      case "string": return v;
      case "number": return v === 0 && 1 / v < 0 ? "-0" : StringCtor(v);
      case "boolean": case "undefined": return StringCtor(v);
      case "bigint": return StringCtor(v) + "n";
      default: return v === null ? "null" : undefined;
    }
  }
  function format(args) {
    if (!(typeof args[0] === "string" && StringIncludes(args[0], "%"))) {
      let s = "";
      for (let i = 0; i < args.length; i++) {
        const p = plain(args[i]);
        if (p === undefined) return ReflectApply(nodeUtil().format, undefined, args);
        s += i ? " " + p : p;
      }
      return s;
    }
    return ReflectApply(nodeUtil().format, undefined, args);
  }

  // console.group's indentation: prefixed to every line of every entry, stdout and stderr.
  let groupIndent = "";
  function consoleWrite(level, text) {
    if (groupIndent.length !== 0) {
      if (StringIncludes(text, "\n")) text = RegExpReplace(/\n/g, text, "\n" + groupIndent);
      text = groupIndent + text;
    }
    callSync("console", { level, text });
  }

  function consoleMethod(level) {
    return function (...args) {
      consoleWrite(level, format(args));
    };
  }

  const console = {
    log: consoleMethod("log"),
    info: consoleMethod("info"),
    debug: consoleMethod("debug"),
    warn: consoleMethod("warn"),
    error: consoleMethod("error"),
    // to stderr: "Trace: <message>" and the stack from the caller on, as Node prints it
    trace: function trace(...args) {
      const err = { name: "Trace", message: format(args) };
      captureStackTrace(err, trace);
      console.error(err.stack);
    },
  };
  // The other methods (count, time*, group*, table, assert, dir, dirxml) live in
  // node/internal_console.js, loaded on the first call of any of them.
  const consoleEnv = {
    write: consoleWrite,
    format,
    now: () => clockNow(),
    indent(delta) {
      groupIndent = delta > 0 ? groupIndent + StringRepeat(" ", delta) : StringSlice(groupIndent, 0, MathMax(0, groupIndent.length + delta));
    },
  };
  const LAZY_CONSOLE = ["count", "countReset", "time", "timeLog", "timeEnd", "group", "groupCollapsed", "groupEnd",
    "table", "assert", "dir", "dirxml"];
  let consoleMethods = null;
  for (let i = 0; i < LAZY_CONSOLE.length; i++) {
    const key = LAZY_CONSOLE[i];
    const stub = function (...args) {
      if (consoleMethods === null) consoleMethods = requireBuiltin("internal/console").methods(console, consoleEnv);
      if (console[key] === stub) console[key] = consoleMethods[key]; // unless the guest replaced it
      return ReflectApply(consoleMethods[key], this, args);
    };
    console[key] = stub;
  }

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
    runTicks(); // as Node after a timer callback: its nextTicks before its promise callbacks
    return true;
  }

  /* process.nextTick's queue. Node drains it after each callback from the event loop (here: a
   * timer) before the promise jobs that callback queued, and again whenever the promise job queue
   * runs empty; engine.c calls runTicks at that point. A tick queued by a tick runs in the same
   * drain. */
  const tickQueue = [];
  let tickHead = 0;
  function queueTick(fn, args) {
    tickQueue[tickQueue.length] = { fn, args };
  }
  function runTicks() {
    if (tickHead >= tickQueue.length) return false;
    while (tickHead < tickQueue.length) {
      const t = tickQueue[tickHead];
      tickQueue[tickHead++] = undefined;
      ReflectApply(t.fn, undefined, t.args);
    }
    tickQueue.length = 0;
    tickHead = 0;
    return true;
  }

  // A throwing callback fails the run, as a throwing timer callback does (and as in Node).
  function queueMicrotask(fn) {
    if (typeof fn !== "function") throw new TypeErrorCtor("queueMicrotask: callback must be a function");
    enqueueMicrotask(fn);
  }

  /* ---- the chidori object ---- */

  function messageOf(message) {
    return typeof message === "string" ? message : nodeUtil().inspect(message, { depth: 4, breakLength: Infinity });
  }

  // Runs body() and turns a synchronous throw into a rejected promise.
  function attempt(body) {
    try {
      return body();
    } catch (e) {
      return PromiseReject(e);
    }
  }

  function mark(label, data) {
    const args = { label: StringCtor(label) };
    if (data !== undefined) args.data = data;
    return effect("mark", args);
  }

  // chidori.step(name, fn): on replay the recorded value answers and fn does not run.
  function step(name, fn) {
    return attempt(() => {
      if (typeof name !== "string" || !name) throw new TypeErrorCtor("chidori.step(name, fn): name must be a non-empty string");
      if (typeof fn !== "function") throw new TypeErrorCtor("chidori.step(name, fn): fn must be a function");
      const hit = callSync("step_begin", { name });
      if (hit.cached) return "error" in hit ? PromiseReject(new ErrorCtor(hit.error)) : PromiseResolve(hit.value);
      const running = PromiseThen(PromiseResolve(), () => fn());
      return PromiseThen(running,
        (value) => effect("step", { name, value: value === undefined ? null : value }),
        (err) => effect("step", { name, error: messageOfError(err) }));
    });
  }

  function memoryCall(action, key, value, opts, hasValue) {
    return attempt(() => {
      const o = optionsObject("chidori.memory." + action, opts);
      const args = { action };
      if (key !== undefined) args.key = StringCtor(key);
      if (hasValue) {
        requireJson("chidori.memory.set: the value", value);
        args.value = value;
      }
      if (o.namespace !== undefined) args.namespace = StringCtor(o.namespace);
      if (o.prefix !== undefined) args.prefix = StringCtor(o.prefix);
      return effect("memory", args);
    });
  }

  const memory = ObjectFreeze({
    get: (key, opts) => memoryCall("get", key, undefined, opts, false),
    set: (key, value, opts) => memoryCall("set", key, value, opts, true),
    delete: (key, opts) => memoryCall("delete", key, undefined, opts, false),
    list: (opts) => memoryCall("list", undefined, undefined, opts, false),
    clear: (opts) => memoryCall("clear", undefined, undefined, opts, false),
  });

  function workspaceCall(action, path, extra) {
    const args = { action };
    if (path !== undefined) args.path = StringCtor(path);
    if (extra) for (const k of ObjectKeys(extra)) args[k] = extra[k];
    return effect("workspace", args);
  }

  function workspaceOptions(what, opts) {
    const o = optionsObject("chidori.workspace." + what, opts);
    const out = {};
    if (what === "write" && o.language !== undefined) out.language = StringCtor(o.language);
    if (what === "list" && o.completeOnly !== undefined) out.completeOnly = !!o.completeOnly;
    return out;
  }
  const removeFile = (path, reason) =>
    attempt(() => workspaceCall("delete", path, { reason: reason === undefined || reason === null ? null : StringCtor(reason) }));

  const workspace = ObjectFreeze({
    list: (opts) => attempt(() => workspaceCall("list", undefined, { options: workspaceOptions("list", opts) })),
    manifest: () => workspaceCall("manifest"),
    read: (path) => workspaceCall("read", path),
    write: (path, content, opts) => attempt(() => workspaceCall("write", path, {
      content: typeof content === "string" ? content : StringCtor(content), options: workspaceOptions("write", opts) })),
    delete: removeFile,
    remove: removeFile,
  });

  function exec(language) {
    return (source) => effect("exec", { language, source: StringCtor(source) });
  }

  /* ---- pure sugar: records nothing itself ---- */

  const util = ObjectFreeze({
    // Results in order; at most `concurrency` tasks (thunks, promises or values) in flight.
    parallel(tasks, opts) {
      return attempt(() => {
        if (!ArrayIsArray(tasks)) throw new TypeErrorCtor("chidori.util.parallel: tasks must be an array");
        const o = optionsObject("chidori.util.parallel", opts);
        const limit = o.concurrency > 0 ? o.concurrency : tasks.length || 1;
        const results = new Array(tasks.length);
        let next = 0;
        const worker = () => {
          if (next >= tasks.length) return PromiseResolve();
          const i = next++;
          const t = tasks[i];
          const started = PromiseThen(PromiseResolve(), () => (typeof t === "function" ? t() : t));
          return PromiseThen(started, (v) => { results[i] = v; return worker(); });
        };
        const workers = [];
        for (let i = 0; i < limit && i < tasks.length; i++) workers.push(worker());
        return PromiseThen(PromiseCtor.all(workers), () => results);
      });
    },
    // Calls fn until it succeeds, at most `attempts` times (default 3); the last error is thrown.
    retry(fn, opts) {
      return attempt(() => {
        if (typeof fn !== "function") throw new TypeErrorCtor("chidori.util.retry: fn must be a function");
        const o = optionsObject("chidori.util.retry", opts);
        const attempts = o.attempts > 0 ? o.attempts : 3;
        const go = (n) => PromiseThen(PromiseThen(PromiseResolve(), () => fn(n)), undefined,
          (e) => (n + 1 < attempts ? go(n + 1) : PromiseReject(e)));
        return go(0);
      });
    },
    // {ok: true, value} or {ok: false, error: message}; never throws.
    tryCall(fn) {
      const settled = PromiseThen(PromiseResolve(), () => fn());
      return PromiseThen(settled, (value) => ({ ok: true, value }), (e) => ({ ok: false, error: messageOfError(e) }));
    },
  });

  /* ---- prompt and its tool loop ----
   * One `prompt` record per model turn (the full request and reply); tool calls run here, in the
   * agent: defineTool handles call their own `run`, tool names go through chidori.tool. */

  function toolResultText(result) {
    if (typeof result === "string") return result;
    if (result && typeof result === "object" && ArrayIsArray(result.content)) {
      const texts = [];
      for (const block of result.content) if (block && block.type === "text") texts.push(StringCtor(block.text));
      if (texts.length) return texts.join("\n");
    }
    const text = JSONStringify(result === undefined ? null : result);
    return text === undefined ? "null" : text;
  }

  function promptRequest(opts, messages, tools) {
    const req = { messages };
    for (const k of ["system", "model", "maxTokens", "temperature", "format"]) if (opts[k] !== undefined) req[k] = opts[k];
    // the prompt's type, as streamed prompt events name it (the original's three spellings)
    const type = opts.type !== undefined ? opts.type : opts.streamType !== undefined ? opts.streamType : opts.stream_type;
    if (typeof type === "string") req.type = type;
    if (tools.length) req.tools = tools;
    return req;
  }

  function replyOf(reply, opts) {
    return opts.format === "json" && "json" in reply ? reply.json : reply.content;
  }

  function prompt(text, opts) {
    return attempt(() => {
      const o = optionsObject("chidori.prompt", opts);
      const messages = [{ role: "user", content: messageOf(text) }];
      const toolList = o.tools === undefined ? [] : o.tools;
      if (!ArrayIsArray(toolList)) throw new TypeErrorCtor("chidori.prompt: `tools` must be an array of names or defineTool handles");
      if (toolList.length === 0) return PromiseThen(effect("prompt", promptRequest(o, messages, [])), (r) => replyOf(r, o));

      const handles = new Map();
      const names = [];
      for (const t of toolList) {
        if (typeof t === "string") names.push(t);
        else if (t && t.__chidoriTool === true) handles.set(t.name, t);
        else throw new TypeErrorCtor("chidori.prompt: each tool is a tool name or a defineTool handle");
      }
      const maxTurns = o.maxTurns > 0 ? o.maxTurns : 8;
      const schemas = names.length ? effect("tool_schemas", { names }) : PromiseResolve([]);
      return PromiseThen(schemas, (named) => {
        const tools = [];
        for (const h of handles.values()) tools.push({ name: h.name, description: h.description, parameters: h.parameters });
        for (const t of named) tools.push(t);
        const turn = (n) => {
          if (n >= maxTurns)
            return PromiseReject(new ErrorCtor("chidori.prompt: the model still asked for tools after " + maxTurns + " turns (maxTurns)"));
          return PromiseThen(effect("prompt", promptRequest(o, messages, tools)), (reply) => {
            const calls = ArrayIsArray(reply.toolCalls) ? reply.toolCalls : [];
            if (calls.length === 0) return replyOf(reply, o);
            messages.push({ role: "assistant", content: reply.content || "", toolCalls: calls });
            let chain = PromiseResolve();
            for (const call of calls) {
              chain = PromiseThen(chain, () => {
                const handle = handles.get(call.name);
                const ran = handle
                  ? PromiseThen(mark("tool:" + call.name, { args: call.input }), () => handle.run(call.input, guestChidori))
                  : chidori.tool(call.name, call.input);
                return PromiseThen(ran,
                  (out) => { messages.push({ role: "tool", toolCallId: call.id, content: toolResultText(out), isError: !!(out && out.isError) }); },
                  (err) => { messages.push({ role: "tool", toolCallId: call.id, content: "error: " + messageOfError(err), isError: true }); });
              });
            }
            return PromiseThen(chain, () => turn(n + 1));
          });
        };
        return turn(0);
      });
    });
  }

  // chidori.context and chidori.conversation live in context.js, evaluated on first use.
  let contextApi = null;
  function contextModule() {
    if (contextApi === null) {
      contextApi = loadBuiltinFile("context.js")(ObjectFreeze({
        effect, callSync, chidori: guestChidori, prompt, mark, messageOfError, JSONStringify, JSONParse, ObjectFreeze,
        ObjectCreate, ObjectDefineProperty, ObjectKeys, ArrayIsArray, StringCtor, ErrorCtor, TypeErrorCtor,
      }));
    }
    return contextApi;
  }

  /* ---- chidori.actors and chidori.receive (docs/effects.md#actors): every call is one record
   * of the calling run; a handle is sugar over the pid ---- */
  function actorTarget(t) {
    return t !== null && typeof t === "object" && typeof t.pid === "string" ? t.pid : t;
  }
  function actorHandle(pid, name) {
    return ObjectFreeze({
      pid,
      name: name === undefined ? null : name,
      send: (msg, payload) => actors.send(pid, msg, payload),
      join: (opts) => actors.join(pid, opts),
      stop: (opts) => actors.stop(pid, opts),
      status: () => actors.status(pid),
    });
  }
  const actors = ObjectFreeze({
    spawn(source, input, opts) {
      return PromiseThen(
        effect("spawn_actor", { source, input: input === undefined ? {} : input, options: opts === undefined || opts === null ? {} : opts }),
        (r) => actorHandle(r.pid, r.name));
    },
    send(to, name, payload) {
      return effect("send_actor", { to: actorTarget(to), name, payload: payload === undefined ? null : payload });
    },
    join(target, opts) {
      return effect("join_actor", { pid: actorTarget(target), opts: opts === undefined || opts === null ? {} : opts });
    },
    stop(target, opts) {
      return effect("stop_actor", { pid: actorTarget(target), opts: opts === undefined || opts === null ? {} : opts });
    },
    status(target) {
      return effect("actor_status", { pid: actorTarget(target) });
    },
    lookup(name) {
      return PromiseThen(effect("whereis", { name }), (r) => (r.pid === null ? null : actorHandle(r.pid, name)));
    },
  });
  function receive(names, opts) {
    return effect("receive", { names, opts: opts === undefined || opts === null ? {} : opts });
  }

  const chidori = ObjectFreeze({
    prompt,
    context: (seed) => contextModule().context(seed),
    conversation: (options) => contextModule().conversation(options),
    tool(name, args) {
      return effect("tool", { name: StringCtor(name), args: args === undefined ? {} : args });
    },
    template(textOrPath, vars) {
      return effect("template", { template: StringCtor(textOrPath), vars: vars === undefined ? {} : vars });
    },
    log(message, fields) {
      const args = { message: messageOf(message) };
      if (fields !== undefined) args.fields = fields;
      return effect("log", args);
    },
    mark,
    checkpoint: mark,
    step,
    input(prompt, opts) {
      return attempt(() => effect("input", { prompt: messageOf(prompt), opts: optionsObject("chidori.input", opts) }));
    },
    memory,
    workspace,
    // ---- signals (effects/signal.c): a name or a list of names, a timeout that resolves ----
    signal(name, opts) {
      return attempt(() => {
        const o = optionsObject("chidori.signal", opts);
        const args = ArrayIsArray(name) ? { names: name } : { name };
        if (o.timeoutMs !== undefined) args.timeout_ms = o.timeoutMs;
        return effect(ArrayIsArray(name) ? "signal_any" : "signal", args);
      });
    },
    pollSignal(name) {
      return effect("poll_signal", { name });
    },
    alarm(ms) {
      // a deadline it can never reach would wait for ever: refused (the original waits)
      if (!NumberIsInteger(ms) || ms <= 0) {
        return PromiseReject(new TypeErrorCtor("chidori.alarm: ms must be a positive whole number of milliseconds"));
      }
      return effect("signal", { name: "__chidori.alarm__", timeout_ms: ms });
    },
    callAgent(path, input) {
      return effect("call_agent", { path: StringCtor(path), input: input === undefined ? {} : input });
    },
    // chidori.branch (docs/effects.md#branch): one recorded call; the host checks the variants
    branch(variants, options) {
      return effect("branch", { variants, options: options === undefined || options === null ? {} : options });
    },
    actors,
    receive,
    execJs: exec("js"),
    execPython: exec("python"),
    execWasm: exec("wasm"),
    util,
    defineTool: (spec) => defineTool(spec),
  });

  /* ---- chidori:agent ---- */

  let registered = null;

  function run(handler, options) {
    if (typeof handler !== "function") throw new TypeErrorCtor("run(handler): handler must be a function");
    if (registered !== null) throw new ErrorCtor("run() was called more than once");
    if (options !== undefined && options !== null && typeof options !== "object")
      throw new TypeErrorCtor("run(handler, options): options must be an object");
    const schema = options === undefined || options === null ? undefined : options.inputSchema;
    registered = { handler, schema: schema === undefined ? null : schema };
  }

  /* ---- run(handler, { inputSchema }) ----
   * The input is checked before the handler starts, so before any effect, and nothing is recorded.
   * A Standard Schema (an object whose ["~standard"].validate is a function) decides itself, and
   * its `value` replaces the input; anything else is read as a JSON Schema subset (type, const,
   * enum, required, properties, additionalProperties: false, items, min/maxItems, min/maxLength,
   * pattern, minimum, maximum). Every issue is collected. */

  function jsonTypeOf(v) {
    if (v === null) return "null";
    if (ArrayIsArray(v)) return "array";
    if (typeof v === "number") return NumberIsInteger(v) ? "integer" : "number";
    return typeof v; // string, boolean, object
  }

  function jsonEqual(a, b) {
    try { return JSONStringify(canonical(a)) === JSONStringify(canonical(b)); } catch (_) { return false; }
  }
  function canonical(v) {
    if (v === null || typeof v !== "object") return v;
    if (ArrayIsArray(v)) { const out = []; for (let i = 0; i < v.length; i++) out[i] = canonical(v[i]); return out; }
    const keys = ObjectKeys(v).sort(), out = {};
    for (let i = 0; i < keys.length; i++) out[keys[i]] = canonical(v[keys[i]]);
    return out;
  }

  function checkJsonSchema(schema, value, where, issues) {
    const at = where === "" ? "input" : where;
    if (schema === false) { issues[issues.length] = at + ": schema forbids this value"; return; }
    if (schema === null || typeof schema !== "object" || ArrayIsArray(schema)) return;
    if (ObjectHasOwn(schema, "const")) {
      if (!jsonEqual(schema.const, value)) { issues[issues.length] = at + ": expected " + JSONStringify(schema.const); return; }
    }
    if (ArrayIsArray(schema.enum)) {
      let found = false;
      for (let i = 0; i < schema.enum.length && !found; i++) found = jsonEqual(schema.enum[i], value);
      if (!found) {
        const names = [];
        for (let i = 0; i < schema.enum.length; i++) names[i] = JSONStringify(schema.enum[i]);
        issues[issues.length] = at + ": expected one of " + names.join(", ");
        return;
      }
    }
    const actual = jsonTypeOf(value);
    if (schema.type !== undefined) {
      const types = ArrayIsArray(schema.type) ? schema.type : [schema.type];
      let ok = false;
      for (let i = 0; i < types.length && !ok; i++) ok = types[i] === actual || (types[i] === "number" && actual === "integer");
      if (!ok) { issues[issues.length] = at + ": expected " + types.join(" | ") + ", got " + actual; return; }
    }
    if (actual === "string") {
      if (typeof schema.minLength === "number" && value.length < schema.minLength)
        issues[issues.length] = at + ": shorter than " + schema.minLength + " characters";
      if (typeof schema.maxLength === "number" && value.length > schema.maxLength)
        issues[issues.length] = at + ": longer than " + schema.maxLength + " characters";
      if (typeof schema.pattern === "string") {
        let re = null;
        try { re = new RegExpCtor(schema.pattern); } catch (e) { issues[issues.length] = at + ": the schema's pattern is not a valid regular expression"; }
        if (re !== null && !RegExpTest(re, value)) issues[issues.length] = at + ": does not match " + schema.pattern;
      }
    } else if (actual === "number" || actual === "integer") {
      if (typeof schema.minimum === "number" && value < schema.minimum) issues[issues.length] = at + ": less than " + schema.minimum;
      if (typeof schema.maximum === "number" && value > schema.maximum) issues[issues.length] = at + ": greater than " + schema.maximum;
    } else if (actual === "array") {
      if (typeof schema.minItems === "number" && value.length < schema.minItems)
        issues[issues.length] = at + ": fewer than " + schema.minItems + " items";
      if (typeof schema.maxItems === "number" && value.length > schema.maxItems)
        issues[issues.length] = at + ": more than " + schema.maxItems + " items";
      if (schema.items !== undefined)
        for (let i = 0; i < value.length; i++) checkJsonSchema(schema.items, value[i], at + "[" + i + "]", issues);
    } else if (actual === "object") {
      const props = schema.properties !== null && typeof schema.properties === "object" ? schema.properties : null;
      if (ArrayIsArray(schema.required))
        for (let i = 0; i < schema.required.length; i++) {
          const key = StringCtor(schema.required[i]);
          if (!ObjectHasOwn(value, key)) issues[issues.length] = at + "." + key + ": required";
        }
      const keys = ObjectKeys(value);
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i];
        if (props !== null && ObjectHasOwn(props, key)) checkJsonSchema(props[key], value[key], where === "" ? key : where + "." + key, issues);
        else if (schema.additionalProperties === false) issues[issues.length] = at + "." + key + ": unexpected property";
      }
    }
  }

  function issuePath(path) {
    if (!ArrayIsArray(path) || path.length === 0) return "";
    const parts = [];
    for (let i = 0; i < path.length; i++) {
      const seg = path[i];
      parts[i] = StringCtor(seg !== null && typeof seg === "object" && "key" in seg ? seg.key : seg);
    }
    return " (at " + parts.join(".") + ")";
  }

  // {value} when the input passes (a Standard Schema's value replaces it), else {issues}.
  function checkInput(schema, input) {
    const standard = schema !== null && typeof schema === "object" ? schema["~standard"] : undefined;
    if (standard !== null && typeof standard === "object" && typeof standard.validate === "function") {
      return PromiseThen(PromiseResolve(standard.validate(input)), (result) => {
        if (result !== null && typeof result === "object" && result.issues) {
          const list = result.issues, issues = [];
          for (let i = 0; i < list.length; i++) {
            const issue = list[i];
            const message = issue !== null && typeof issue === "object" ? issue.message : issue;
            issues[i] = StringCtor(message) + (issue !== null && typeof issue === "object" ? issuePath(issue.path) : "");
          }
          return { issues };
        }
        return { value: result !== null && typeof result === "object" ? result.value : undefined };
      });
    }
    const issues = [];
    checkJsonSchema(schema, input, "", issues);
    return issues.length ? { issues } : { value: input };
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
  // default export, then a tool file's `run` (chidori.tool runs those, effects/tools.c).
  function pickHandler(ns) {
    if (registered !== null) return registered.handler;
    if (ns && typeof ns.agent === "function") return ns.agent;
    if (ns && typeof ns.default === "function") return ns.default;
    // a legacy tools/ file (export const tool, export function run): its run(args, chidori)
    if (ns && typeof ns.run === "function" && ns.tool !== null && typeof ns.tool === "object") return ns.run;
    throw new ErrorCtor(
      "no entrypoint: call run(handler) from \"chidori:agent\", or export an `agent` function or a default function");
  }

  function outputText(output) {
    let text;
    try {
      text = JSONStringify(output === undefined ? null : output);
    } catch (e) {
      throw new TypeErrorCtor("the agent's output is not JSON-compatible: " + (e && e.message));
    }
    if (text === undefined) throw new TypeErrorCtor("the agent's output is not JSON-compatible (" + typeof output + ")");
    return text;
  }

  // The chidori object guest code gets (the handler's argument, chidori:agent's export): the
  // members above, and for a member this runtime lacks a stand-in that throws "chidori.x is not
  // available in this runtime" when called, and is otherwise undefined-like (typeof "undefined",
  // falsy, == null: natives.unavailableMember), so feature detection still sees no member. `in`, keys and
  // destructuring see only the real members. Symbols and the protocol names a value is probed for
  // (then, toJSON) read as undefined, so awaiting or serializing chidori is unchanged.
  const PROBED_NAMES = ObjectFreeze({ then: true, toJSON: true });
  const standIns = ObjectCreate(null);
  const ReflectGet = Reflect.get;
  const guestChidori = new Proxy(chidori, {
    get(target, key, receiver) {
      if (typeof key !== "string" || key in target || ObjectHasOwn(PROBED_NAMES, key)) return ReflectGet(target, key, receiver);
      if (!ObjectHasOwn(standIns, key)) standIns[key] = unavailableMember(key);
      return standIns[key];
    },
  });

  // Runs the handler and resolves with the output as compact JSON text, or, when the input does
  // not match the run's inputSchema, with a frozen {inputInvalid: message} (the handler never
  // runs). A guest that replaces Promise.prototype.then can bend what this resolves with, as it
  // can bend its own output; that is why the runner honours an invalid input only for a run that
  // recorded nothing and hit no limit (runner.c), so a claim of one can never hide an effect or a
  // limit. The output is made JSON last, so whatever the guest does the output stays JSON.
  function start(ns, inputJson) {
    let rejection = null;
    const running = PromiseThen(PromiseResolve(), () => {
      const handler = pickHandler(ns);
      const input = JSONParse(inputJson);
      const schema = registered !== null ? registered.schema : null;
      if (schema === null) return handler(input, guestChidori);
      return PromiseThen(PromiseResolve(checkInput(schema, input)), (checked) => {
        if (checked !== null && typeof checked === "object" && checked.issues) {
          let message = "InputValidationError: invalid input:";
          for (let i = 0; i < checked.issues.length; i++) message += "\n  - " + checked.issues[i];
          rejection = ObjectFreeze({ inputInvalid: message });
          return rejection;
        }
        return handler(checked !== null && typeof checked === "object" ? checked.value : undefined, guestChidori);
      });
    });
    return PromiseThen(running, (output) => (rejection !== null && output === rejection ? rejection : outputText(output)));
  }

  /* ---- built-in modules (node:*) ----
   * Each lives in src/engine/js/node/<file>.js as a function (require, natives, name) → exports,
   * compiled to bytecode with the prelude and evaluated only when first required, so a run that
   * imports none of them pays nothing. `require` reaches other built-ins (never the agent's files);
   * `natives` is the shims' narrow view of the seam. Guests import them as `node:x` or bare `x`;
   * "internal/..." names are reachable from shims only. */

  const BUILTINS = {
    // importable name: [file, property of its exports or null]
    "path": ["path", null], "path/posix": ["path", "posix"],
    "events": ["events", null],
    "buffer": ["buffer", null],
    "url": ["url", null],
    "util": ["util", null], "util/types": ["util", "types"],
    "assert": ["assert", null], "assert/strict": ["assert", "strict"],
    "timers": ["timers", null], "timers/promises": ["timers", "promises"],
    "crypto": ["crypto", null],
    "fs": ["fs", null], "fs/promises": ["fs", "promises"],
    "http": ["http", null], "https": ["https", null],
    "querystring": ["querystring", null], "string_decoder": ["string_decoder", null],
    "stream": ["stream", null], "stream/promises": ["stream", "promises"],
    "stream/web": ["stream_web", null],
  };
  const UNAVAILABLE = ["child_process", "net", "tls", "dns", "dns/promises", "dgram", "worker_threads",
    "cluster", "vm", "v8", "inspector", "module", "readline", "repl", "http2", "os", "process",
    "perf_hooks", "async_hooks", "zlib", "sqlite", "test", "wasi", "trace_events"];
  for (let i = 0; i < UNAVAILABLE.length; i++) BUILTINS[UNAVAILABLE[i]] = ["unavailable", null];
  BUILTINS["process"] = ["process", null]; // the guest-facing process object (node/process.js)
  const INTERNAL = {
    "internal/text": "internal_text", "internal/clone": "internal_clone",
    "internal/abort": "internal_abort", "internal/fetch": "internal_fetch",
    "internal/url": "internal_url", "internal/idna": "internal_idna",
    "internal/path_win32": "internal_path_win32", "internal/console": "internal_console",
    "internal/path_win32_resolve": "internal_path_win32_resolve", "internal/url_resolve": "internal_url_resolve",
    "internal/stream_ops": "internal_stream_ops",
    "internal/webstreams": "internal_webstreams", "internal/blob": "internal_blob",
    "internal/formdata": "internal_formdata", "internal/dataurl": "internal_dataurl",
  };

  const loadedFiles = ObjectCreate(null); // "file|name" -> exports

  // The canonical name of an importable built-in ("node:fs" and "fs" → "fs"), or null.
  function builtinName(specifier) {
    const name = StringSlice(specifier, 0, 5) === "node:" ? StringSlice(specifier, 5) : specifier;
    return ObjectHasOwn(BUILTINS, name) ? name : null;
  }

  function evaluateFile(file, name) {
    const key = file + "|" + name;
    if (ObjectHasOwn(loadedFiles, key)) return loadedFiles[key];
    const factory = loadBuiltinFile(file);
    const exports = factory(requireBuiltin, shimNatives, name);
    loadedFiles[key] = exports;
    return exports;
  }

  // require() for shims: importable names and internal ones.
  function requireBuiltin(specifier) {
    if (ObjectHasOwn(INTERNAL, specifier)) return evaluateFile(INTERNAL[specifier], specifier);
    const name = builtinName(specifier);
    if (name === null) throw new ErrorCtor("no built-in module `" + specifier + "`");
    const file = BUILTINS[name][0], prop = BUILTINS[name][1];
    const exports = evaluateFile(file, file === "unavailable" ? name : file);
    return prop === null ? exports : exports[prop];
  }

  const shimNatives = ObjectFreeze({
    callSync(op, args) { return callSync(op, args); },
    effect,
    addTimer,
    clearTimer,
    queueTick,
    now: () => clockNow(),
    messageOfError,
    queueMicrotask,
  });

  // A rejection nobody handled once the job queue drained (engine.c): given to the guest's
  // process.on("unhandledRejection") listeners if it has any (true), else the run fails (false).
  function unhandledRejection(reason, promise) {
    if (!ObjectHasOwn(loadedFiles, "process|process")) return false;
    const proc = loadedFiles["process|process"];
    const proto = requireBuiltin("events").prototype;
    if (ReflectApply(proto.listenerCount, proc, ["unhandledRejection"]) === 0) return false;
    ReflectApply(proto.emit, proc, ["unhandledRejection", reason, promise]);
    return true;
  }

  // Globals that live in built-in modules are defined lazily: the module is evaluated on first
  // read, then the global becomes a plain writable value.
  const LAZY_GLOBALS = [
    ["URL", "url", "URL"], ["URLSearchParams", "url", "URLSearchParams"],
    ["Buffer", "buffer", "Buffer"],
    ["TextEncoder", "internal/text", "TextEncoder"], ["TextDecoder", "internal/text", "TextDecoder"],
    ["atob", "internal/text", "atob"], ["btoa", "internal/text", "btoa"],
    ["structuredClone", "internal/clone", "structuredClone"],
    ["AbortController", "internal/abort", "AbortController"], ["AbortSignal", "internal/abort", "AbortSignal"],
    ["Event", "internal/abort", "Event"], ["EventTarget", "internal/abort", "EventTarget"],
    ["CustomEvent", "internal/abort", "CustomEvent"], ["DOMException", "internal/text", "DOMException"],
    ["Blob", "buffer", "Blob"], ["File", "buffer", "File"],
    ["fetch", "internal/fetch", "fetch"], ["Headers", "internal/fetch", "Headers"],
    ["Request", "internal/fetch", "Request"], ["Response", "internal/fetch", "Response"],
    ["FormData", "internal/formdata", "FormData"],
    ["ReadableStream", "stream/web", "ReadableStream"], ["WritableStream", "stream/web", "WritableStream"],
    ["TransformStream", "stream/web", "TransformStream"],
    ["ReadableStreamDefaultReader", "stream/web", "ReadableStreamDefaultReader"],
    ["ReadableStreamDefaultController", "stream/web", "ReadableStreamDefaultController"],
    ["WritableStreamDefaultWriter", "stream/web", "WritableStreamDefaultWriter"],
    ["WritableStreamDefaultController", "stream/web", "WritableStreamDefaultController"],
    ["TransformStreamDefaultController", "stream/web", "TransformStreamDefaultController"],
    ["ByteLengthQueuingStrategy", "stream/web", "ByteLengthQueuingStrategy"],
    ["CountQueuingStrategy", "stream/web", "CountQueuingStrategy"],
    ["TextEncoderStream", "stream/web", "TextEncoderStream"], ["TextDecoderStream", "stream/web", "TextDecoderStream"],
    ["setImmediate", "timers", "setImmediate"], ["clearImmediate", "timers", "clearImmediate"],
    ["crypto", "crypto", "webcrypto"],
    ["process", "process", null], // null: the module itself
  ];

  function defineLazyGlobal(name, module, prop) {
    const settle = (value) =>
      ObjectDefineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
    ObjectDefineProperty(globalThis, name, {
      get() {
        const value = prop === null ? requireBuiltin(module) : requireBuiltin(module)[prop];
        settle(value);
        return value;
      },
      set(value) { settle(value); },
      configurable: true,
      enumerable: false,
    });
  }

  /* ---- V8's stack-trace API, for packages ----
   * Error.captureStackTrace(target, fn?) gives `target` a `stack` (its "Name: message" line, then
   * QuickJS's frames, those of `fn` and above it dropped when fn is on the stack), and
   * Error.stackTraceLimit (10, writable) bounds the frames it keeps; with a non-number there,
   * no stack is captured (as in V8).
   * QuickJS's own stacks (of `new Error`) do not read the limit. */

  const ErrorToString = ErrorCtor.prototype.toString;
  const StringSplit = (s, sep) => ReflectApply(String.prototype.split, s, [sep]);
  const StringStartsWith = (s, p) => ReflectApply(String.prototype.startsWith, s, [p]);

  function captureStackTrace(target, fn) {
    if (target === null || (typeof target !== "object" && typeof target !== "function")) {
      throw new TypeErrorCtor("Error.captureStackTrace: the target must be an object, got " +
        (target === null ? "null" : typeof target));
    }
    const limit = ErrorCtor.stackTraceLimit;
    if (typeof limit !== "number") return;
    const raw = new ErrorCtor().stack;
    let frames = typeof raw === "string" ? StringSplit(raw, "\n") : [];
    frames = frames.filter((line) => line !== "");
    frames = frames.slice(1); // this function's own frame
    if (typeof fn === "function" && fn.name) {
      const mark = "    at " + fn.name + " ";
      for (let i = 0; i < frames.length; i++) {
        if (StringStartsWith(frames[i], mark)) { frames = frames.slice(i + 1); break; }
      }
    }
    frames = frames.slice(0, limit > 0 ? limit : 0);
    let head;
    try { head = StringCtor(ReflectApply(ErrorToString, target, [])); } catch (_) { head = "Error"; }
    const stack = frames.length ? head + "\n" + frames.join("\n") : head;
    ObjectDefineProperty(target, "stack", { value: stack, writable: true, configurable: true, enumerable: false });
  }

  ObjectDefineProperty(ErrorCtor, "captureStackTrace", { value: captureStackTrace, writable: true, configurable: true, enumerable: false });
  ObjectDefineProperty(ErrorCtor, "stackTraceLimit", { value: 10, writable: true, configurable: true, enumerable: true });

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
  defineGlobal("global", globalThis);
  for (let i = 0; i < LAZY_GLOBALS.length; i++) defineLazyGlobal(LAZY_GLOBALS[i][0], LAZY_GLOBALS[i][1], LAZY_GLOBALS[i][2]);

  /* ---- Intl (js/intl.js over ICU), loaded on first use ----
   * `Intl` is a lazy global and the toLocaleString family are thin methods that load the layer on
   * their first call, so a run that never formats never loads ICU (docs/intl.md). */
  const intlNative = natives.intl;
  let intlLayerValue = null;
  const intlLayer = () => intlLayerValue || (intlLayerValue = loadBuiltinFile("intl.js")(intlNative, clockNow));
  {
    const settleIntl = (value) =>
      ObjectDefineProperty(globalThis, "Intl", { value, writable: true, configurable: true, enumerable: false });
    ObjectDefineProperty(globalThis, "Intl", {
      get() { const v = intlLayer().Intl; settleIntl(v); return v; },
      set(value) { settleIntl(value); },
      configurable: true,
      enumerable: false,
    });
    const method = (proto, name, fn) =>
      ObjectDefineProperty(proto, name, { value: fn, writable: true, configurable: true, enumerable: false });
    const NumberValueOf = Number.prototype.valueOf, BigIntValueOf = BigInt.prototype.valueOf;
    const DateGetTime = Date.prototype.getTime;
    const ArrayToLocale = { toLocaleString() {
      if (this === null || this === undefined) throw new TypeErrorCtor("Array.prototype.toLocaleString called on null or undefined");
      const o = Object(this), len = Math.min(Number(o.length) || 0, 2 ** 53 - 1);
      let out = "";
      for (let k = 0; k < len; k++) {
        if (k > 0) out += ",";
        const e = o[k];
        if (e !== undefined && e !== null) out += StringCtor(e.toLocaleString(arguments[0], arguments[1]));
      }
      return out;
    } }.toLocaleString;
    method(Number.prototype, "toLocaleString", { toLocaleString() {
      return intlLayer().locale.number(ReflectApply(NumberValueOf, this, []), arguments[0], arguments[1]); } }.toLocaleString);
    method(BigInt.prototype, "toLocaleString", { toLocaleString() {
      return intlLayer().locale.number(ReflectApply(BigIntValueOf, this, []), arguments[0], arguments[1]); } }.toLocaleString);
    method(Date.prototype, "toLocaleString", { toLocaleString() {
      return intlLayer().locale.date(ReflectApply(DateGetTime, this, []), arguments[0], arguments[1]); } }.toLocaleString);
    method(Date.prototype, "toLocaleDateString", { toLocaleDateString() {
      return intlLayer().locale.dateOnly(ReflectApply(DateGetTime, this, []), arguments[0], arguments[1]); } }.toLocaleDateString);
    method(Date.prototype, "toLocaleTimeString", { toLocaleTimeString() {
      return intlLayer().locale.timeOnly(ReflectApply(DateGetTime, this, []), arguments[0], arguments[1]); } }.toLocaleTimeString);
    method(String.prototype, "localeCompare", { localeCompare(that) {
      if (this === null || this === undefined) throw new TypeErrorCtor("String.prototype.localeCompare called on null or undefined");
      return intlLayer().locale.compare(StringCtor(this), StringCtor(that), arguments[1], arguments[2]); } }.localeCompare);
    method(Array.prototype, "toLocaleString", ArrayToLocale);
    const StringToLower = String.prototype.toLowerCase, StringToUpper = String.prototype.toUpperCase;
    const caseMap = (self, locales, upper) => {
      if (self === null || self === undefined) throw new TypeErrorCtor("String.prototype.toLocale" + (upper ? "Upper" : "Lower") + "Case called on null or undefined");
      const s = StringCtor(self);
      /* no locale: the default (en-US) maps case as the root does, without loading ICU */
      if (locales === undefined) return ReflectApply(upper ? StringToUpper : StringToLower, s, []);
      return intlLayer().locale.caseMap(s, locales, upper);
    };
    method(String.prototype, "toLocaleLowerCase", { toLocaleLowerCase() { return caseMap(this, arguments[0], false); } }.toLocaleLowerCase);
    method(String.prototype, "toLocaleUpperCase", { toLocaleUpperCase() { return caseMap(this, arguments[0], true); } }.toLocaleUpperCase);
  }

  return ObjectFreeze({
    agentExports: ObjectFreeze({ chidori: guestChidori, run, defineTool }),
    start,
    fireNextTimer,
    runTicks,
    hasTimers: () => timers.size > 0,
    unhandledRejection,
    builtinName,
    requireBuiltin,
  });
})
