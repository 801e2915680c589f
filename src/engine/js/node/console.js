/* node/console.js — node:console. As in Node, the module is the run's global console, and its
 * `Console` class makes more consoles: new Console(stdout[, stderr[, ignoreErrors]]) or
 * new Console({ stdout, stderr, ignoreErrors, colorMode, inspectOptions, groupIndentation }).
 * Such a console formats each entry as console.log does (util.formatWithOptions) and hands the
 * text, with its group indentation and a newline, to the given stream's write(): log/info/debug/
 * dir/dirxml/table/count/time* to stdout, warn/error/trace/assert to stderr. The other methods are
 * internal/console's, shared with the global console.
 *
 * Holds no capability (the streams are the guest's own objects; nothing reaches the host unless the
 * guest's write sends it). Reads no guest-writable property on its own paths: builtins come from
 * internal/captures_util, util's functions are read once at load. */
(function (require, natives, name) {
  "use strict";

  const C = require("internal/captures_util"), t = C.uncurryThis;
  const { ReflectApply, ObjectDefineProperty, StringCtor, TypeErrorCtor, ErrorCtor, codedError, invalidArgType } = C;
  const StringIndexOf = t(C.StringPrototypeIndexOf), StringSlice = t(C.StringPrototypeSlice);
  const StringRepeat = t(C.StringPrototypeRepeat);
  const util = require("util");
  const formatWithOptions = util.formatWithOptions;
  const consoleMethods = require("internal/console").methods;
  const globalConsole = require(1); // the run's own, even if a guest replaced globalThis.console

  // every line of text, each after `indent` (console.group's indentation)
  function indentLines(text, indent) {
    let out = indent, from = 0, at;
    while ((at = StringIndexOf(text, "\n", from)) !== -1) {
      out += StringSlice(text, from, at + 1) + indent;
      from = at + 1;
    }
    return out + StringSlice(text, from);
  }

  const noop = () => {};
  const define = (o, key, value, enumerable) =>
    ObjectDefineProperty(o, key, { __proto__: null, value, writable: true, configurable: true, enumerable });

  // Node's order of a console's own methods
  const METHODS = ["log", "warn", "dir", "time", "timeEnd", "timeLog", "trace", "assert", "clear", "count",
    "countReset", "group", "groupEnd", "table", "debug", "info", "dirxml", "error", "groupCollapsed"];

  function Console(options, stderr, ignoreErrors) {
    if (!new.target) return new Console(options, stderr, ignoreErrors);
    let stdout = options, colorMode = "auto", inspectOptions, groupIndentation = 2;
    if (options !== null && typeof options === "object" && typeof options.write !== "function") {
      stdout = options.stdout;
      stderr = options.stderr;
      ignoreErrors = options.ignoreErrors;
      if (options.colorMode !== undefined) colorMode = options.colorMode;
      inspectOptions = options.inspectOptions;
      if (options.groupIndentation !== undefined) groupIndentation = options.groupIndentation;
    }
    if (stderr === undefined) stderr = stdout;
    if (ignoreErrors === undefined) ignoreErrors = true;
    if (stdout === null || typeof stdout !== "object" || typeof stdout.write !== "function") {
      throw codedError(TypeErrorCtor, "ERR_CONSOLE_WRITABLE_STREAM", "Console expects a writable stream instance for stdout");
    }
    if (stderr === null || typeof stderr !== "object" || typeof stderr.write !== "function") {
      throw codedError(TypeErrorCtor, "ERR_CONSOLE_WRITABLE_STREAM", "Console expects a writable stream instance for stderr");
    }
    if (colorMode !== "auto" && colorMode !== true && colorMode !== false) {
      throw codedError(TypeErrorCtor, "ERR_INVALID_ARG_VALUE",
        "The argument 'colorMode' must be one of: 'auto', true, false. Received " + util.inspect(colorMode));
    }
    if (inspectOptions !== undefined && (inspectOptions === null || typeof inspectOptions !== "object")) {
      throw invalidArgType("options.inspectOptions", "of type object", inspectOptions);
    }
    if (typeof groupIndentation !== "number") throw invalidArgType("groupIndentation", "of type number", groupIndentation);
    const outOfRange = (must) => codedError(C.RangeErrorCtor, "ERR_OUT_OF_RANGE",
      "The value of \"groupIndentation\" is out of range. It must be " + must + ". Received " + util.inspect(groupIndentation));
    if (groupIndentation !== groupIndentation || groupIndentation % 1 !== 0) throw outOfRange("an integer");
    if (groupIndentation < 0 || groupIndentation > 1000) throw outOfRange(">= 0 && <= 1000");

    let indent = "";
    const self = this;
    // colours as Node decides them: asked for, or "auto" and the stream says it is a colour TTY
    function colorsFor(stream) {
      if (colorMode !== "auto") return colorMode;
      if (!stream.isTTY) return false;
      return typeof stream.getColorDepth === "function" ? ReflectApply(stream.getColorDepth, stream, []) > 2 : true;
    }
    function formatFor(stream, args) {
      const opts = { __proto__: null, colors: colorsFor(stream) };
      if (inspectOptions !== undefined) {
        const keys = C.ObjectKeys(inspectOptions);
        for (let i = 0; i < keys.length; i++) C.defineValue(opts, keys[i], inspectOptions[keys[i]]);
      }
      return ReflectApply(formatWithOptions, undefined, C.argsWith([opts], args));
    }
    function write(stream, text) {
      if (indent.length !== 0) text = indentLines(text, indent);
      text += "\n";
      if (ignoreErrors === false) return ReflectApply(stream.write, stream, [text]);
      // as Node: a failing stream (a throw, or an 'error' it emits) does not fail the program; a
      // stream without listenerCount/once fails here, silently, as it does in Node
      try {
        if (ReflectApply(stream.listenerCount, stream, ["error"]) === 0) ReflectApply(stream.once, stream, ["error", noop]);
        ReflectApply(stream.write, stream, [text, noop]);
      } catch (_) {
        // ignored, as asked (ignoreErrors)
      } finally {
        ReflectApply(stream.removeListener, stream, ["error", noop]);
      }
    }
    const toOut = (...args) => write(stdout, formatFor(stdout, args));
    const toErr = (...args) => write(stderr, formatFor(stderr, args));
    const env = {
      __proto__: null,
      write: (level, text) => write(level === "warn" || level === "error" ? stderr : stdout, text),
      now: natives.now,
      indent: (n) => {
        indent = n > 0 ? indent + StringRepeat(" ", groupIndentation)
          : StringSlice(indent, 0, indent.length > groupIndentation ? indent.length - groupIndentation : 0);
      },
    };
    const own = {
      __proto__: null,
      log: toOut, info: toOut, debug: toOut, warn: toErr, error: toErr,
      trace: (...args) => {
        const err = new ErrorCtor(formatFor(stderr, args));
        err.name = "Trace";
        let frames = "";
        try { frames = StringCtor(err.stack); } catch (_) { frames = ""; }
        while (frames.length !== 0 && StringSlice(frames, -1) === "\n") frames = StringSlice(frames, 0, -1);
        write(stderr, "Trace: " + err.message + (frames.length !== 0 ? "\n" + frames : ""));
      },
      clear: noop, // Node clears only a TTY stdout, which a run never has
    };
    const shared = consoleMethods(self, env);
    for (let i = 0; i < METHODS.length; i++) {
      const key = METHODS[i];
      define(self, key, own[key] !== undefined ? own[key] : shared[key], true);
    }
  }
  // the prototype carries the same names, as Node's (so Console.prototype.log is a function)
  for (let i = 0; i < METHODS.length; i++) {
    const key = METHODS[i];
    define(Console.prototype, key, function (...args) {
      return ReflectApply(globalConsole[key], globalConsole, args);
    }, false);
  }

  // node:console is the global console, which names the class too (console.Console)
  if (!C.ObjectHasOwn(globalConsole, "Console")) define(globalConsole, "Console", Console, true);
  return globalConsole;
});
