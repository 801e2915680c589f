/* node/process.js — the `process` object packages lean on (the global, node:process, and what
 * CommonJS modules see), with nothing of the host in it.
 *
 * Fixed values, the same on every machine so a run replays anywhere: platform "linux", arch
 * "x64", version "v20.0.0", pid 1, cwd() "/", an empty argv and an empty, writable env (no host
 * variable ever reaches it; a package writing it changes only this run). It is an EventEmitter:
 * on/once/off('unhandledRejection') listeners receive a rejection nobody handled instead of the
 * run failing (the prelude dispatches, engine.c decides when). nextTick queues on the prelude's
 * tick queue (drained before promise jobs, as in Node), emitWarning prints on the console's warn
 * channel, hrtime/uptime read the virtual clock, and exit/abort/kill/chdir refuse with an error
 * saying what to do instead.
 * Trusts nothing: it holds no capability, only pure values and the console op. */
(function (require, natives, name) {
  "use strict";
  const EventEmitter = require("events");
  const { codedError, invalidArgType } = require("internal/captures_util");
  // builtins captured before guest code (primordials.js, internal/captures_util)
  const C = require("internal/captures_util");
  const { ReflectApply, StringCtor, ErrorCtor, BigIntCtor, MathRound, ArrayIsArray, ObjectFreeze, ObjectKeys, ObjectDefineProperty } = C;
  const StringEndsWith = C.uncurryThis(C.StringPrototypeEndsWith), StringSlice = C.uncurryThis(C.StringPrototypeSlice);
  const isError = (v) => ReflectApply(C.FunctionPrototypeHasInstance, ErrorCtor, [v]);
  const startMs = natives.now();

  function refuse(what, instead) {
    return function () {
      throw codedError(ErrorCtor, "ERR_CHIDORI_UNSUPPORTED",
        "process." + what + "() is not available inside a chidori run (there is no host process): " + instead);
    };
  }

  function consoleText(level, text) {
    natives.callSync("console", { level, text });
  }

  // A stream-like sink for packages that write to process.stdout/stderr: each write is one
  // console line (a trailing newline is dropped, since the console adds its own).
  function sink(level, fd) {
    return {
      fd,
      isTTY: false,
      writable: true,
      write(chunk, encoding, callback) {
        let text = typeof chunk === "string" ? chunk : StringCtor(chunk);
        if (StringEndsWith(text, "\n")) text = StringSlice(text, 0, -1);
        consoleText(level, text);
        const cb = typeof encoding === "function" ? encoding : callback;
        if (typeof cb === "function") natives.queueMicrotask(() => cb());
        return true;
      },
      on() { return this; },
      once() { return this; },
      // what console.Console asks of a stream before each write (it never emits 'error')
      removeListener() { return this; },
      off() { return this; },
      listenerCount() { return 0; },
      end() {},
    };
  }

  const process = new EventEmitter();

  function nextTick(fn, ...args) {
    if (typeof fn !== "function") throw invalidArgType("callback", "of type function", fn);
    natives.queueTick(fn, args);
  }

  function emitWarning(warning, type, code) {
    let opts = {};
    if (type !== null && typeof type === "object") {
      opts = type;
      type = opts.type;
      code = opts.code;
    }
    let err;
    if (isError(warning)) {
      err = warning;
    } else if (typeof warning === "string") {
      err = new ErrorCtor(warning);
      C.defineValue(err, "name", typeof type === "string" && type ? type : "Warning");
      if (code !== undefined) C.defineValue(err, "code", code);
      if (typeof opts.detail === "string") C.defineValue(err, "detail", opts.detail);
    } else {
      throw invalidArgType("warning", "of type string or an instance of Error", warning);
    }
    if (err.name === "DeprecationWarning" && process.noDeprecation) return;
    let text = (err.code !== undefined ? "[" + err.code + "] " : "") + err.name + ": " + err.message;
    if (typeof err.detail === "string") text += "\n" + err.detail;
    consoleText("warn", text);
    natives.queueMicrotask(() => process.emit("warning", err));
  }

  function hrtime(previous) {
    const ns = BigIntCtor(MathRound((natives.now() - startMs) * 1e6));
    let sec = C.NumberCtor(ns / 1000000000n), nsec = C.NumberCtor(ns % 1000000000n);
    if (previous !== undefined) {
      if (!ArrayIsArray(previous) || previous.length !== 2) throw invalidArgType("time", "an instance of Array", previous);
      sec -= previous[0];
      nsec -= previous[1];
      if (nsec < 0) { sec -= 1; nsec += 1e9; }
    }
    return [sec, nsec];
  }
  C.defineValue(hrtime, "bigint", () => BigIntCtor(MathRound((natives.now() - startMs) * 1e6)));

  const fields = {
    title: "chidori",
    version: "v20.0.0",
    versions: ObjectFreeze({ node: "20.0.0" }),
    release: ObjectFreeze({ name: "node" }),
    platform: "linux",
    arch: "x64",
    pid: 1,
    ppid: 0,
    argv: [],
    execArgv: [],
    argv0: "chidori",
    execPath: "/chidori",
    env: {},
    exitCode: undefined,
    noDeprecation: false,
    stdout: sink("log", 1),
    stderr: sink("error", 2),
    cwd: () => "/",
    chdir: refuse("chdir", "paths are relative to the project; there is no working folder to change"),
    exit: refuse("exit", "return from the agent (or throw an error) to end the run"),
    reallyExit: refuse("reallyExit", "return from the agent (or throw an error) to end the run"),
    abort: refuse("abort", "throw an error to end the run"),
    kill: refuse("kill", "there are no processes to signal"),
    umask: () => 0o22,
    uptime: () => (natives.now() - startMs) / 1000,
    hrtime,
    nextTick,
    emitWarning,
  };
  const names = ObjectKeys(fields);
  for (let i = 0; i < names.length; i++) {
    ObjectDefineProperty(process, names[i], { __proto__: null, value: fields[names[i]], writable: true, configurable: true, enumerable: true });
  }
  return process;
})
