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
  // speed: args read in C when stringify could run no guest code, and the reply's promise made in C
  // as PromiseResolve makes it (own `constructor` and `then` included)
  const hostEffect = natives.hostEffect;
  const clockNow = natives.now;
  const clockAdvanceTo = natives.advanceTo;
  const loadBuiltinFile = natives.loadBuiltin;
  const enqueueMicrotask = natives.enqueueMicrotask;

  // Every builtin this file uses, captured before any guest code runs (primordials.js).
  const P = loadBuiltinFile("primordials.js")();
  const { JSONStringify, JSONParse, ObjectFreeze, ObjectDefineProperty, ObjectKeys, ObjectHasOwn, ReflectApply,
    ReflectGet, ObjectCreate, ArrayIsArray, PromiseResolve, PromiseReject, PromiseThen, PromiseFrom, StringCtor,
    ErrorCtor, TypeErrorCtor, MathMax, NumberIsInteger, ProxyCtor, MapCtor, list, rec, defineValue, uncurry } = P;
  const StringSlice = uncurry(P.StringPrototypeSlice), StringIncludes = uncurry(P.StringPrototypeIncludes);
  const StringRepeat = uncurry(P.StringPrototypeRepeat), StringIndexOf = uncurry(P.StringPrototypeIndexOf);
  const StringStartsWith = uncurry(P.StringPrototypeStartsWith), ArrayJoin = uncurry(P.ArrayPrototypeJoin);
  const MapGet = uncurry(P.MapPrototypeGet), MapSet = uncurry(P.MapPrototypeSet), MapDelete = uncurry(P.MapPrototypeDelete);
  const MapForEach = uncurry(P.MapPrototypeForEach), MapSize = uncurry(P.MapPrototypeGetSize);

  /* ---- the seam ---- */

  // Synchronous host call: args are marshalled as JSON; the host's reply comes back parsed.
  function callSync(op, args) {
    return hostCall(op, JSONStringify(rec(args)));
  }

  // Every chidori.* effect returns a Promise, settled with the host's result or error.
  function effect(op, args) {
    // Plain args (data properties of plain objects and arrays, no toJSON anywhere: what
    // JSON.stringify would read without running guest code) go to the host as they are; for
    // anything else hostEffect calls nothing and answers undefined (a host reply is never
    // undefined), and the args take the JSON path below, with its errors.
    try {
      const promise = hostEffect(op, args); // natives.hostEffect reads only own data properties, and gives up on a toJSON anywhere on the chain
      if (promise !== undefined) return promise;
    } catch (e) {
      return PromiseReject(e);
    }
    let text;
    try {
      text = JSONStringify(rec(args));
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
    if (opts === undefined || opts === null) return { __proto__: null };
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

  function indentLines(text, indent) {
    let out = "", from = 0;
    for (let at = StringIndexOf(text, "\n", 0); at >= 0; at = StringIndexOf(text, "\n", from)) {
      out += StringSlice(text, from, at + 1) + indent;
      from = at + 1;
    }
    return out + StringSlice(text, from, text.length);
  }

  // console.group's indentation: prefixed to every line of every entry, stdout and stderr.
  let groupIndent = "";
  function consoleWrite(level, text) {
    if (groupIndent.length !== 0) {
      if (StringIncludes(text, "\n")) text = indentLines(text, groupIndent);
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
      if (console[key] === stub) defineValue(console, key, consoleMethods[key]); // unless the guest replaced it
      return ReflectApply(consoleMethods[key], this, args);
    };
    console[key] = stub; // at startup: no guest code has run, a plain write is an own one
  }

  /* ---- timers on virtual time ----
   * Nothing sleeps: when no job is left, the engine fires the earliest timer and the clock jumps
   * to its deadline. Order is (deadline, id), so a run's timer order is a pure function of the
   * program and replays identically. */

  const timers = new MapCtor(); // id -> {id, at, fn, args, interval}, used through captured methods only
  let nextTimerId = 1;

  function addTimer(fn, ms, args, repeat) {
    if (typeof fn !== "function") throw new TypeErrorCtor("timer callback must be a function");
    let delay = +ms;
    if (!(delay >= 1)) delay = 1; // NaN, negative and 0 all mean 1 ms, as in browsers and Node
    if (delay > 2147483647) delay = 1;
    const id = nextTimerId++;
    MapSet(timers, id, { __proto__: null, id, at: clockNow() + delay, fn, args, interval: repeat ? delay : 0 });
    return id;
  }

  function clearTimer(id) {
    MapDelete(timers, +id);
  }

  function fireNextTimer() {
    let next = null;
    MapForEach(timers, (t) => {
      if (next === null || t.at < next.at || (t.at === next.at && t.id < next.id)) next = t;
    });
    if (next === null) return false;
    clockAdvanceTo(next.at);
    if (next.interval) next.at = MathMax(next.at, clockNow()) + next.interval;
    else MapDelete(timers, next.id);
    ReflectApply(next.fn, undefined, next.args);
    runTicks(); // as Node after a timer callback: its nextTicks before its promise callbacks
    return true;
  }

  /* process.nextTick's queue. Node drains it after each callback from the event loop (here: a
   * timer) before the promise jobs that callback queued, and again whenever the promise job queue
   * runs empty; engine.c calls runTicks at that point. A tick queued by a tick runs in the same
   * drain. */
  const tickQueue = list();
  let tickHead = 0;
  function queueTick(fn, args) {
    tickQueue[tickQueue.length] = { __proto__: null, fn, args };
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
    const args = { __proto__: null, label: StringCtor(label) };
    if (data !== undefined) args.data = data;
    return effect("mark", args);
  }

  // chidori.step(name, fn): on replay the recorded value answers and fn does not run.
  function step(name, fn) {
    return attempt(() => {
      if (typeof name !== "string" || !name) throw new TypeErrorCtor("chidori.step(name, fn): name must be a non-empty string");
      if (typeof fn !== "function") throw new TypeErrorCtor("chidori.step(name, fn): fn must be a function");
      const hit = callSync("step_begin", { name });
      if (ObjectHasOwn(hit, "cached") && hit.cached === true)
        return ObjectHasOwn(hit, "error") ? PromiseReject(new ErrorCtor(hit.error)) : PromiseResolve(ObjectHasOwn(hit, "value") ? hit.value : null);
      const running = PromiseThen(PromiseResolve(), () => PromiseFrom(fn()));
      return PromiseThen(running,
        (value) => effect("step", { name, value: value === undefined ? null : value }),
        (err) => effect("step", { name, error: messageOfError(err) }));
    });
  }

  function memoryCall(action, key, value, opts, hasValue) {
    return attempt(() => {
      const o = optionsObject("chidori.memory." + action, opts);
      const args = { __proto__: null, action };
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
    const args = { __proto__: null, action };
    if (path !== undefined) args.path = StringCtor(path);
    if (extra) {
      const keys = ObjectKeys(extra);
      for (let i = 0; i < keys.length; i++) args[keys[i]] = extra[keys[i]];
    }
    return effect("workspace", args);
  }

  function workspaceOptions(what, opts) {
    const o = optionsObject("chidori.workspace." + what, opts);
    const out = { __proto__: null };
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
        const results = [];
        let next = 0;
        const worker = () => {
          if (next >= tasks.length) return PromiseResolve();
          const i = next++;
          const t = tasks[i];
          const started = PromiseThen(PromiseResolve(), () => PromiseFrom(typeof t === "function" ? t() : t));
          return PromiseThen(started, (v) => { defineValue(results, i, v); return worker(); });
        };
        for (let i = 0; i < tasks.length; i++) defineValue(results, i, undefined);
        // the workers joined in order (no Promise.all: it reads Promise.resolve, the array
        // iterator and each promise's then, all guest-writable)
        let all = PromiseResolve();
        for (let i = 0; i < limit && i < tasks.length; i++) {
          const w = worker();
          all = PromiseThen(all, () => w);
        }
        return PromiseThen(all, () => results);
      });
    },
    // Calls fn until it succeeds, at most `attempts` times (default 3); the last error is thrown.
    retry(fn, opts) {
      return attempt(() => {
        if (typeof fn !== "function") throw new TypeErrorCtor("chidori.util.retry: fn must be a function");
        const o = optionsObject("chidori.util.retry", opts);
        const attempts = o.attempts > 0 ? o.attempts : 3;
        const go = (n) => PromiseThen(PromiseThen(PromiseResolve(), () => PromiseFrom(fn(n))), undefined,
          (e) => (n + 1 < attempts ? go(n + 1) : PromiseReject(e)));
        return go(0);
      });
    },
    // {ok: true, value} or {ok: false, error: message}; never throws.
    tryCall(fn) {
      const settled = PromiseThen(PromiseResolve(), () => PromiseFrom(fn()));
      return PromiseThen(settled, (value) => ({ ok: true, value }), (e) => ({ ok: false, error: messageOfError(e) }));
    },
  });

  /* ---- prompt and its tool loop ----
   * One `prompt` record per model turn (the full request and reply); tool calls run here, in the
   * agent: defineTool handles call their own `run`, tool names go through chidori.tool. */

  function toolResultText(result) {
    if (typeof result === "string") return result;
    if (result && typeof result === "object" && ArrayIsArray(result.content)) {
      const texts = list(), content = result.content;
      for (let i = 0; i < content.length; i++) {
        const block = content[i];
        if (block && block.type === "text") texts[texts.length] = StringCtor(block.text);
      }
      if (texts.length) return ArrayJoin(texts, "\n");
    }
    const text = JSONStringify(result === undefined ? null : result);
    return text === undefined ? "null" : text;
  }

  const PROMPT_KEYS = ObjectFreeze(["system", "model", "maxTokens", "temperature", "format"]);
  function promptRequest(opts, messages, tools) {
    const req = { __proto__: null, messages };
    for (let i = 0; i < PROMPT_KEYS.length; i++) if (opts[PROMPT_KEYS[i]] !== undefined) req[PROMPT_KEYS[i]] = opts[PROMPT_KEYS[i]];
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
      const messages = list();
      messages[0] = { __proto__: null, role: "user", content: messageOf(text) };
      const toolList = o.tools === undefined ? [] : o.tools;
      if (!ArrayIsArray(toolList)) throw new TypeErrorCtor("chidori.prompt: `tools` must be an array of names or defineTool handles");
      if (toolList.length === 0) return PromiseThen(effect("prompt", promptRequest(o, messages, [])), (r) => replyOf(r, o));

      const handles = new MapCtor();
      const names = list();
      for (let i = 0; i < toolList.length; i++) {
        const t = toolList[i];
        if (typeof t === "string") names[names.length] = t;
        else if (t && t.__chidoriTool === true) MapSet(handles, t.name, t);
        else throw new TypeErrorCtor("chidori.prompt: each tool is a tool name or a defineTool handle");
      }
      const maxTurns = o.maxTurns > 0 ? o.maxTurns : 8;
      const schemas = names.length ? effect("tool_schemas", { names }) : PromiseResolve([]);
      return PromiseThen(schemas, (named) => {
        const tools = list();
        MapForEach(handles, (h) => { tools[tools.length] = { __proto__: null, name: h.name, description: h.description, parameters: h.parameters }; });
        for (let i = 0; i < named.length; i++) tools[tools.length] = named[i];
        const turn = (n) => {
          if (n >= maxTurns)
            return PromiseReject(new ErrorCtor("chidori.prompt: the model still asked for tools after " + maxTurns + " turns (maxTurns)"));
          return PromiseThen(effect("prompt", promptRequest(o, messages, tools)), (reply) => {
            const calls = ArrayIsArray(reply.toolCalls) ? reply.toolCalls : [];
            if (calls.length === 0) return replyOf(reply, o);
            messages[messages.length] = { __proto__: null, role: "assistant", content: reply.content || "", toolCalls: calls };
            let chain = PromiseResolve();
            for (let i = 0; i < calls.length; i++) {
              const call = calls[i];
              chain = PromiseThen(chain, () => {
                const handle = MapGet(handles, call.name);
                const ran = handle
                  ? PromiseThen(mark("tool:" + call.name, { args: call.input }), () => PromiseFrom(handle.run(call.input, guestChidori)))
                  : chidori.tool(call.name, call.input);
                return PromiseThen(ran,
                  (out) => { messages[messages.length] = { __proto__: null, role: "tool", toolCallId: call.id, content: toolResultText(out), isError: !!(out && out.isError) }; },
                  (err) => { messages[messages.length] = { __proto__: null, role: "tool", toolCallId: call.id, content: "error: " + messageOfError(err), isError: true }; });
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
        ObjectCreate, ObjectDefineProperty, ObjectKeys, ArrayIsArray, StringCtor, ErrorCtor, TypeErrorCtor, primordials: P,
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

  // The chidori object's prototype, which answers the names it lacks: for a member this runtime
  // lacks, a stand-in that throws "chidori.x is not available in this runtime" when called, and is
  // otherwise undefined-like (typeof "undefined", falsy, == null), so feature detection still sees
  // no member. `in`, keys and destructuring see only the real members. Symbols and the protocol
  // names a value is probed for (then, toJSON) read as undefined, so awaiting or serializing
  // chidori is unchanged, and an inherited name (toString) is read from Object.prototype, with
  // chidori as the receiver. A Proxy only behind the members: a real member's read runs no trap
  // (it was about 800 instructions a read through a Proxy with the trap in C). The get trap is made
  // in C (member_trap.c) over the Reflect.get captured here; its target is a frozen empty object
  // (so nothing can be added under chidori, as nothing can be added to it), and the handler has no
  // prototype: util.inspect with showProxy formats it (as Node does), and a getter a guest put on
  // Object.prototype must not receive it as `this`.
  const memberMisses = new ProxyCtor(ObjectFreeze({}), { __proto__: null, get: natives.memberTrap(ReflectGet) });

  const chidori = ObjectFreeze({
    __proto__: memberMisses,
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
   * The input is checked before the handler starts, so before any effect, and nothing is recorded. */

  // The input's check (js/input_schema.js), loaded the first time a run declares an inputSchema:
  // a run without one never reads its bytecode.
  let checkInputLoaded = null;
  function checkInput(schema, input) {
    if (checkInputLoaded === null) checkInputLoaded = loadBuiltinFile("input_schema.js")(P);
    return checkInputLoaded(schema, input);
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

  // The chidori object guest code gets (the handler's argument, chidori:agent's export) is the
  // object above itself: a real member is its own property, read as any property is.
  const guestChidori = chidori;

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
      if (schema === null) return PromiseFrom(handler(input, guestChidori));
      return PromiseThen(PromiseResolve(checkInput(schema, input)), (checked) => {
        if (checked !== null && typeof checked === "object" && checked.issues) {
          let message = "InputValidationError: invalid input:";
          for (let i = 0; i < checked.issues.length; i++) message += "\n  - " + checked.issues[i];
          rejection = ObjectFreeze({ inputInvalid: message });
          return rejection;
        }
        return PromiseFrom(handler(checked !== null && typeof checked === "object" ? checked.value : undefined, guestChidori));
      });
    });
    return PromiseThen(running, (output) => (rejection !== null && output === rejection ? rejection : outputText(output)));
  }

  /* ---- built-in modules (node:*) ----
   * Each lives in src/engine/js/node/<file>.js as a function (require, natives, name) → exports,
   * compiled to bytecode with the prelude and evaluated only when first required, so a run that
   * imports none of them pays nothing. `require` reaches other built-ins (never the agent's files);
   * `natives` is the shims' narrow view of the seam. Guests import them as `node:x` or bare `x`;
   * "internal/..." names are reachable from shims only.
   *
   * The two tables are built by builtinTables() when a module is first asked for (not at every
   * start-up: about 0.15 M instructions), maybe after guest code ran: they are made of literals
   * (own properties, no setter runs) and defineValue only. (Their lines keep the indentation they
   * had at the top level.) */
  let BUILTINS = null, INTERNAL = null;
  function builtinTables() {
  BUILTINS = {
    // importable name: [file, property of its exports or null]
    "path": ["path", null], "path/posix": ["path", "posix"], "path/win32": ["path", "win32"],
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
  for (let i = 0; i < UNAVAILABLE.length; i++) defineValue(BUILTINS, UNAVAILABLE[i], ["unavailable", null]);
  defineValue(BUILTINS, "process", ["process", null]); // the guest-facing process object (node/process.js)
  INTERNAL = {
    "internal/text": "internal_text", "internal/clone": "internal_clone",
    "internal/abort": "internal_abort", "internal/fetch": "internal_fetch",
    "internal/url": "internal_url", "internal/idna": "internal_idna",
    "internal/path_win32": "internal_path_win32", "internal/console": "internal_console",
    "internal/path_win32_resolve": "internal_path_win32_resolve", "internal/url_resolve": "internal_url_resolve",
    "internal/stream_ops": "internal_stream_ops",
    "internal/webstreams": "internal_webstreams", "internal/blob": "internal_blob",
    "internal/formdata": "internal_formdata", "internal/dataurl": "internal_dataurl",
    "internal/captures_util": "internal_captures_util", // shims1: the builtins util & co. use
    "internal/decode": "internal_decode", // shims1: bytes to text without Buffer methods
  };
  }

  const loadedFiles = ObjectCreate(null); // "file|name" -> exports

  // The canonical name of an importable built-in ("node:fs" and "fs" → "fs"), or null.
  function builtinName(specifier) {
    if (BUILTINS === null) builtinTables();
    const name = StringSlice(specifier, 0, 5) === "node:" ? StringSlice(specifier, 5) : specifier;
    // utilgrp: node:console is named here, not in BUILTINS, so that a run which never imports it
    // pays no table entry at start-up
    return ObjectHasOwn(BUILTINS, name) || name === "console" ? name : null;
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
    if (INTERNAL === null) builtinTables();
    if (ObjectHasOwn(INTERNAL, specifier)) return evaluateFile(INTERNAL[specifier], specifier);
    // utilgrp, for shims only (a guest's require reaches here only with builtinName's names):
    // require(0) is the engine views util.inspect needs (engine.c's loadBuiltin(0)), require(1) the
    // console node:console exports. Numbers, not names: a new string constant here would cost
    // every run an atom at start-up.
    if (typeof specifier === "number") return specifier === 0 ? loadBuiltinFile(0) : console;
    const name = builtinName(specifier);
    if (name === null) throw new ErrorCtor("no built-in module `" + specifier + "`");
    if (name === "console") return evaluateFile("console", "console");
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
    primordials: P,
    idna: natives.idna, // UTS #46 over ICU (idna_native.c), for internal/idna
    allocFits: natives.allocFits, // whether n bytes fit the single-allocation cap, for node:buffer
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
    ["Blob", "internal/blob", "Blob"], ["File", "internal/blob", "File"], // the classes node:buffer re-exports
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
    ["Intl", null, "Intl"], // module null: the Intl layer (intl.js, below), loaded with ICU on first use
  ];

  /* A global made on first read and then an ordinary data property. Its accessor is made in C
   * (natives.defineLazyGlobals, lazy_globals.c: no closures per global) and calls lazyGlobal(i) to
   * read, lazyGlobal(i, true, value) to assign, i its index in LAZY_GLOBALS. Reflect.defineProperty
   * (captured here, before guest code) answers false instead of throwing: on a global the guest
   * froze or sealed, the accessor stays and keeps serving the one loaded value (lazyKept). An entry
   * whose module is null is the Intl layer's. */
  const ReflectDefineProperty = Reflect.defineProperty;
  const lazyKept = ObjectCreate(null); // LAZY_GLOBALS index -> the value its first read loaded
  function lazyGlobal(i, setting, value) {
    const entry = LAZY_GLOBALS[i];
    if (setting !== true) {
      if (!ObjectHasOwn(lazyKept, i)) {
        const module = entry[1], prop = entry[2];
        lazyKept[i] = module === null ? intlLayer()[prop] : prop === null ? requireBuiltin(module) : requireBuiltin(module)[prop];
      }
      value = lazyKept[i];
    }
    ReflectDefineProperty(globalThis, entry[0], { __proto__: null, value, writable: true, configurable: true, enumerable: false });
    return value;
  }

  /* ---- V8's stack-trace API, for packages ----
   * Error.captureStackTrace(target, fn?) gives `target` a `stack` (its "Name: message" line, then
   * QuickJS's frames, those of `fn` and above it dropped when fn is on the stack), and
   * Error.stackTraceLimit (10, writable) bounds the frames it keeps; with a non-number there,
   * no stack is captured (as in V8).
   * QuickJS's own stacks (of `new Error`) do not read the limit. */


  function captureStackTrace(target, fn) {
    if (target === null || (typeof target !== "object" && typeof target !== "function")) {
      throw new TypeErrorCtor("Error.captureStackTrace: the target must be an object, got " +
        (target === null ? "null" : typeof target));
    }
    const limit = ErrorCtor.stackTraceLimit;
    if (typeof limit !== "number") return;
    const raw = new ErrorCtor().stack;
    const frames = list(); // its non-empty lines (split by hand: String.prototype.split is guest-writable)
    if (typeof raw === "string") {
      for (let from = 0; ;) {
        const at = StringIndexOf(raw, "\n", from);
        const line = StringSlice(raw, from, at < 0 ? raw.length : at);
        if (line !== "") frames[frames.length] = line;
        if (at < 0) break;
        from = at + 1;
      }
    }
    let first = 1; // this function's own frame
    if (typeof fn === "function" && fn.name) {
      const mark = "    at " + fn.name + " ";
      for (let i = 1; i < frames.length; i++) {
        if (StringStartsWith(frames[i], mark)) { first = i + 1; break; }
      }
    }
    const keep = limit > 0 ? limit : 0;
    let head;
    try { head = StringCtor(ReflectApply(P.ErrorPrototypeToString, target, [])); } catch (_) { head = "Error"; }
    let stack = head;
    for (let i = first, n = 0; i < frames.length && n + 1 <= keep; i++, n++) stack += "\n" + frames[i];
    ObjectDefineProperty(target, "stack", { __proto__: null, value: stack, writable: true, configurable: true, enumerable: false });
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
  {
    const names = list();
    for (let i = 0; i < LAZY_GLOBALS.length; i++) names[i] = LAZY_GLOBALS[i][0];
    natives.defineLazyGlobals(names, lazyGlobal);
  }

  /* ---- Intl (js/intl.js over ICU), loaded on first use ----
   * `Intl` is a lazy global and the toLocaleString family are thin methods that load the layer on
   * their first call, so a run that never formats never loads ICU (docs/intl.md). */
  const intlNatives = natives.intl; // makes the natives' object: called once, when the layer loads
  let intlLayerValue = null;
  const intlLayer = () => intlLayerValue || (intlLayerValue = loadBuiltinFile("intl.js")(intlNatives(), clockNow));
  {
    // the global Intl: the last entry of LAZY_GLOBALS (module null). The toLocaleString family are
    // native methods made in C (natives.defineLocaleMethods, locale_methods.c: no closure, object
    // and descriptor per method at start-up) that call localeMethod(i, this, a, b, c), i their
    // index in the list below.
    const NumberValueOf = Number.prototype.valueOf, BigIntValueOf = BigInt.prototype.valueOf;
    const DateGetTime = Date.prototype.getTime;
    const StringToLower = String.prototype.toLowerCase, StringToUpper = String.prototype.toUpperCase;
    const caseMap = (self, locales, upper) => {
      if (self === null || self === undefined) throw new TypeErrorCtor("String.prototype.toLocale" + (upper ? "Upper" : "Lower") + "Case called on null or undefined");
      const s = StringCtor(self);
      /* no locale: the default (en-US) maps case as the root does, without loading ICU */
      if (locales === undefined) return ReflectApply(upper ? StringToUpper : StringToLower, s, []);
      return intlLayer().locale.caseMap(s, locales, upper);
    };
    const arrayToLocale = (self, a, b) => {
      if (self === null || self === undefined) throw new TypeErrorCtor("Array.prototype.toLocaleString called on null or undefined");
      const o = Object(self), len = Math.min(Number(o.length) || 0, 2 ** 53 - 1);
      let out = "";
      for (let k = 0; k < len; k++) {
        if (k > 0) out += ",";
        const e = o[k];
        if (e !== undefined && e !== null) out += StringCtor(e.toLocaleString(a, b));
      }
      return out;
    };
    const localeMethod = (i, self, a, b, c) => {
      switch (i) {
        case 0: return intlLayer().locale.number(ReflectApply(NumberValueOf, self, []), a, b);
        case 1: return intlLayer().locale.number(ReflectApply(BigIntValueOf, self, []), a, b);
        case 2: return intlLayer().locale.date(ReflectApply(DateGetTime, self, []), a, b);
        case 3: return intlLayer().locale.dateOnly(ReflectApply(DateGetTime, self, []), a, b);
        case 4: return intlLayer().locale.timeOnly(ReflectApply(DateGetTime, self, []), a, b);
        case 5:
          if (self === null || self === undefined) throw new TypeErrorCtor("String.prototype.localeCompare called on null or undefined");
          return intlLayer().locale.compare(StringCtor(self), StringCtor(a), b, c);
        case 6: return arrayToLocale(self, a, b);
        case 7: return caseMap(self, a, false);
        default: return caseMap(self, a, true);
      }
    };
    natives.defineLocaleMethods([ // [prototype, name, length], in localeMethod's order
      [Number.prototype, "toLocaleString", 0], [BigInt.prototype, "toLocaleString", 0],
      [Date.prototype, "toLocaleString", 0], [Date.prototype, "toLocaleDateString", 0],
      [Date.prototype, "toLocaleTimeString", 0], [String.prototype, "localeCompare", 1],
      [Array.prototype, "toLocaleString", 0], [String.prototype, "toLocaleLowerCase", 0],
      [String.prototype, "toLocaleUpperCase", 0],
    ], localeMethod);
  }

  return ObjectFreeze({
    agentExports: ObjectFreeze({ chidori: guestChidori, run, defineTool }),
    start,
    fireNextTimer,
    runTicks,
    hasTimers: () => MapSize(timers) > 0,
    unhandledRejection,
    builtinName,
    requireBuiltin,
  });
})
