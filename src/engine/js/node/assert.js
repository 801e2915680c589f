/* node/assert.js — node:assert and its strict variant (`strict`, also reached as assert/strict):
 * ok/equal/deepEqual and their strict and negated forms, throws/rejects and their negations,
 * match/doesNotMatch, fail, ifError, and AssertionError with Node's fields and generated messages
 * (including the "+ actual - expected" line diff of strictEqual/deepStrictEqual).
 *
 * Deep equality is util's. One deviation: a failed ok() without a message cannot quote the
 * source expression (a run cannot read its own files), so it says "<value> == true", which is
 * what Node says when it cannot read the source either. */
(function (require, natives, name) {
  "use strict";
  const util = require("util");
  const { codedError, invalidArgType } = require("internal/captures_util");
  const inspect = util.inspect;
  const isDeepEqual = util._isDeepEqual;
  const isRegExp = util.types.isRegExp, isNativeError = util.types.isNativeError;
  // builtins captured before guest code (primordials.js, internal/captures_util)
  const C = require("internal/captures_util"), u = C.uncurryThis;
  const { ReflectApply, ReflectOwnKeys, ObjectCreate, ObjectGetPrototypeOf, ObjectDefineProperty, ObjectGetOwnPropertyDescriptor,
    ObjectKeys, ObjectFreeze, ObjectIs, NumberIsNaN, MathMax, StringCtor, ErrorCtor, TypeErrorCtor, list } = C;
  const StringIndexOf = u(C.StringPrototypeIndexOf), StringSlice = u(C.StringPrototypeSlice);
  const StringEndsWith = u(C.StringPrototypeEndsWith), StringRepeat = u(C.StringPrototypeRepeat);
  const ArrayJoin = u(C.ArrayPrototypeJoin), ArrayPop = u(C.ArrayPrototypePop), RegExpExec = u(C.RegExpPrototypeExec);
  const isInstance = (v, Ctor) => ReflectApply(C.FunctionPrototypeHasInstance, Ctor, [v]);
  const isError = (v) => isInstance(v, ErrorCtor);
  // s.split("\n") into a list without a prototype
  function lines(s) {
    const out = list();
    let from = 0, at;
    while ((at = StringIndexOf(s, "\n", from)) !== -1) { out[out.length] = StringSlice(s, from, at); from = at + 1; }
    out[out.length] = StringSlice(s, from);
    return out;
  }

  const READABLE = {
    deepStrictEqual: "Expected values to be strictly deep-equal:",
    strictEqual: "Expected values to be strictly equal:",
    strictEqualObject: "Expected \"actual\" to be reference-equal to \"expected\":",
    deepEqual: "Expected values to be loosely deep-equal:",
    notDeepStrictEqual: "Expected \"actual\" not to be strictly deep-equal to:",
    notStrictEqual: "Expected \"actual\" to be strictly unequal to:",
    notStrictEqualObject: "Expected \"actual\" not to be reference-equal to \"expected\":",
    notDeepEqual: "Expected \"actual\" not to be loosely deep-equal to:",
    notIdentical: "Values have same structure but are not reference-equal:",
    notDeepEqualUnequal: "Expected values not to be loosely deep-equal:",
  };

  // A top-level error is shown without its stack (nested ones keep it), as Node does.
  function withoutStack(err) {
    const copy = ObjectCreate(ObjectGetPrototypeOf(err));
    const keys = ReflectOwnKeys(err);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      if (k !== "stack") ObjectDefineProperty(copy, k, ObjectGetOwnPropertyDescriptor(err, k));
    }
    return copy;
  }

  function inspectValue(v) {
    if (isNativeError(v)) v = withoutStack(v);
    return inspect(v, {
      compact: false, customInspect: false, depth: 1000, maxArrayLength: Infinity, showHidden: false,
      showProxy: false, sorted: true, getters: true,
    });
  }

  const isObjectLike = (v) => (typeof v === "object" && v !== null) || typeof v === "function";

  // The line diff shown by strictEqual/deepStrictEqual: common tail lines folded, diverging
  // lines as "+ actual" / "- expected", runs of identical lines collapsed to "...". A caller's
  // message replaces the heading.
  function diffMessage(actual, expected, operator, heading) {
    let other = "", res = "", end = "";
    let skipped = false;
    const actualInspected = inspectValue(actual);
    const actualLines = lines(actualInspected);
    const expectedLines = lines(inspectValue(expected));
    let i = 0;
    let indicator = "";
    if (operator === "strictEqual" &&
        ((typeof actual === "object" && actual !== null && typeof expected === "object" && expected !== null) ||
         (typeof actual === "function" && typeof expected === "function"))) {
      operator = "strictEqualObject";
    }
    if (actualLines.length === 1 && expectedLines.length === 1 && actualLines[0] !== expectedLines[0]) {
      const a0 = actualLines[0], e0 = expectedLines[0];
      const inputLength = a0.length + e0.length;
      if (inputLength <= 12) {
        if ((typeof actual !== "object" || actual === null) && (typeof expected !== "object" || expected === null) &&
            (actual !== 0 || expected !== 0)) {
          return (heading === undefined ? READABLE[operator] : heading) + "\n\n" + a0 + " !== " + e0 + "\n";
        }
      } else if (operator !== "strictEqualObject" && inputLength < 80) {
        while (a0[i] === e0[i]) i++;
        if (i > 2) {
          indicator = "\n  " + StringRepeat(" ", i) + "^";
          i = 0;
        }
      }
    }
    let a = actualLines[actualLines.length - 1];
    let b = expectedLines[expectedLines.length - 1];
    while (a === b) {
      if (i++ < 3) end = "\n  " + a + end;
      else other = a;
      ArrayPop(actualLines);
      ArrayPop(expectedLines);
      if (actualLines.length === 0 || expectedLines.length === 0) break;
      a = actualLines[actualLines.length - 1];
      b = expectedLines[expectedLines.length - 1];
    }
    const maxLines = MathMax(actualLines.length, expectedLines.length);
    if (maxLines === 0) {
      const shown = lines(actualInspected);
      if (shown.length > 50) {
        shown[46] = "...";
        while (shown.length > 47) ArrayPop(shown);
      }
      return READABLE.notIdentical + "\n\n" + ArrayJoin(shown, "\n") + "\n";
    }
    if (i >= 5) {
      end = "\n..." + end;
      skipped = true;
    }
    if (other !== "") {
      end = "\n  " + other + end;
      other = "";
    }
    let printedLines = 0;
    let identical = 0;
    const msg = (heading === undefined ? READABLE[operator] : heading) + "\n+ actual - expected";
    const skippedMsg = " ... Lines skipped";
    let longer = actualLines;
    let plusMinus = "+";
    let maxLength = expectedLines.length;
    if (actualLines.length < maxLines) {
      longer = expectedLines;
      plusMinus = "-";
      maxLength = actualLines.length;
    }
    const flushIdentical = (source, at) => {
      if (identical > 2) {
        if (identical > 3) {
          if (identical > 4) {
            if (identical === 5) {
              res += "\n  " + source[at - 3];
              printedLines++;
            } else {
              res += "\n...";
              skipped = true;
            }
          }
          res += "\n  " + source[at - 2];
          printedLines++;
        }
        res += "\n  " + source[at - 1];
        printedLines++;
      }
      identical = 0;
    };
    for (i = 0; i < maxLines; i++) {
      if (maxLength < i + 1) {
        flushIdentical(longer, i);
        if (longer === actualLines) res += "\n" + plusMinus + " " + longer[i];
        else other += "\n" + plusMinus + " " + longer[i];
        printedLines++;
      } else {
        const expectedLine = expectedLines[i];
        let actualLine = actualLines[i];
        let diverging = actualLine !== expectedLine && (!StringEndsWith(actualLine, ",") || StringSlice(actualLine, 0, -1) !== expectedLine);
        if (diverging && StringEndsWith(expectedLine, ",") && StringSlice(expectedLine, 0, -1) === actualLine) {
          diverging = false;
          actualLine += ",";
        }
        if (diverging) {
          flushIdentical(actualLines, i);
          res += "\n+ " + actualLine;
          other += "\n- " + expectedLine;
          printedLines += 2;
        } else {
          res += other;
          other = "";
          identical++;
          if (identical <= 2) {
            res += "\n  " + actualLine;
            printedLines++;
          }
        }
      }
      if (printedLines > 50 && i < maxLines - 2) {
        return msg + skippedMsg + "\n" + res + "\n..." + other + "\n...";
      }
    }
    return msg + (skipped ? skippedMsg : "") + "\n" + res + other + end + indicator;
  }

  function generatedMessage(actual, expected, operator) {
    if (operator === "deepStrictEqual" || operator === "strictEqual") return diffMessage(actual, expected, operator);
    if (operator === "notDeepStrictEqual" || operator === "notStrictEqual") {
      let base = READABLE[operator];
      const res = lines(inspectValue(actual));
      if (operator === "notStrictEqual" && isObjectLike(actual)) base = READABLE.notStrictEqualObject;
      if (res.length > 50) {
        res[46] = "...";
        while (res.length > 47) ArrayPop(res);
      }
      if (res.length === 1) return base + (res[0].length > 5 ? "\n\n" : " ") + res[0];
      return base + "\n\n" + ArrayJoin(res, "\n") + "\n";
    }
    let res = inspectValue(actual);
    let other = inspectValue(expected);
    const known = READABLE[operator];
    if (operator === "notDeepEqual" && res === other) {
      res = known + "\n\n" + res;
      if (res.length > 1024) res = StringSlice(res, 0, 1021) + "...";
      return res;
    }
    if (res.length > 512) res = StringSlice(res, 0, 509) + "...";
    if (other.length > 512) other = StringSlice(other, 0, 509) + "...";
    if (operator === "deepEqual") {
      res = known + "\n\n" + res + "\n\nshould loosely deep-equal\n\n";
    } else {
      const unequal = READABLE[operator + "Unequal"];
      if (unequal) res = unequal + "\n\n" + res + "\n\nshould not loosely deep-equal\n\n";
      else other = " " + operator + " " + other;
    }
    return res + other;
  }

  class AssertionError extends ErrorCtor {
    constructor(options) {
      if (options === null || typeof options !== "object") throw invalidArgType("options", "of type object", options);
      const { message, operator } = options;
      let { actual, expected } = options;
      if (message != null) {
        if (operator === "deepStrictEqual" || operator === "strictEqual") super(diffMessage(actual, expected, operator, StringCtor(message)));
        else super(StringCtor(message));
      } else {
        super(generatedMessage(actual, expected, operator));
      }
      // defined, not assigned: no setter a guest put on Object.prototype or Error.prototype runs
      C.defineValue(this, "generatedMessage", !message);
      ObjectDefineProperty(this, "name", { __proto__: null, value: "AssertionError", enumerable: false, writable: true, configurable: true });
      C.defineValue(this, "code", "ERR_ASSERTION");
      C.defineValue(this, "actual", actual);
      C.defineValue(this, "expected", expected);
      C.defineValue(this, "operator", operator);
    }
    toString() {
      return this.name + " [" + this.code + "]: " + this.message;
    }
  }

  // Throws the AssertionError for `info`; a caller's Error given as the message is thrown as is.
  function fail(info) {
    if (isError(info.message)) throw info.message;
    const err = new AssertionError(info);
    if (info.generated !== undefined) err.generatedMessage = info.generated;
    throw err;
  }

  function innerOk(fn, argLen, value, message) {
    if (value) return;
    let generated = false;
    if (argLen === 0) {
      generated = true;
      message = "No value argument passed to `assert.ok()`";
    } else if (isError(message)) {
      throw message;
    }
    const err = new AssertionError({ actual: value, expected: true, message, operator: "==" });
    err.generatedMessage = generated || message == null;
    throw err;
  }

  function ok(...args) {
    innerOk(ok, args.length, args[0], args[1]);
  }

  function requireArgs(n, got, names) {
    if (got < n) {
      const quoted = list();
      for (let i = 0; i < names.length; i++) quoted[i] = "\"" + names[i] + "\"";
      throw codedError(TypeErrorCtor, "ERR_MISSING_ARGS", "The " + ArrayJoin(quoted, " and ") +
        " arguments must be specified");
    }
  }

  const api = {
    fail(actual, expected, message, operator) {
      const argsLen = arguments.length;
      let internalMessage = false;
      if (argsLen === 0) internalMessage = "Failed";
      else if (argsLen === 1) { message = actual; actual = undefined; }
      else if (argsLen === 2) operator = "!=";
      if (isError(message)) throw message;
      const errArgs = { actual, expected, operator: operator === undefined ? "fail" : operator, message: message || internalMessage || undefined };
      const err = new AssertionError(errArgs);
      if (internalMessage) err.generatedMessage = true;
      throw err;
    },
    equal(actual, expected, message) {
      requireArgs(2, arguments.length, ["actual", "expected"]);
      // eslint-disable-next-line eqeqeq
      if (actual != expected && (!NumberIsNaN(actual) || !NumberIsNaN(expected))) {
        fail({ actual, expected, message, operator: "==" });
      }
    },
    notEqual(actual, expected, message) {
      requireArgs(2, arguments.length, ["actual", "expected"]);
      // eslint-disable-next-line eqeqeq
      if (actual == expected || (NumberIsNaN(actual) && NumberIsNaN(expected))) {
        fail({ actual, expected, message, operator: "!=" });
      }
    },
    deepEqual(actual, expected, message) {
      requireArgs(2, arguments.length, ["actual", "expected"]);
      if (!isDeepEqual(actual, expected, false)) fail({ actual, expected, message, operator: "deepEqual" });
    },
    notDeepEqual(actual, expected, message) {
      requireArgs(2, arguments.length, ["actual", "expected"]);
      if (isDeepEqual(actual, expected, false)) fail({ actual, expected, message, operator: "notDeepEqual" });
    },
    deepStrictEqual(actual, expected, message) {
      requireArgs(2, arguments.length, ["actual", "expected"]);
      if (!isDeepEqual(actual, expected, true)) fail({ actual, expected, message, operator: "deepStrictEqual" });
    },
    notDeepStrictEqual(actual, expected, message) {
      requireArgs(2, arguments.length, ["actual", "expected"]);
      if (isDeepEqual(actual, expected, true)) fail({ actual, expected, message, operator: "notDeepStrictEqual" });
    },
    strictEqual(actual, expected, message) {
      requireArgs(2, arguments.length, ["actual", "expected"]);
      if (!ObjectIs(actual, expected)) fail({ actual, expected, message, operator: "strictEqual" });
    },
    notStrictEqual(actual, expected, message) {
      requireArgs(2, arguments.length, ["actual", "expected"]);
      if (ObjectIs(actual, expected)) fail({ actual, expected, message, operator: "notStrictEqual" });
    },
    throws(promiseFn, ...args) {
      ReflectApply(expectsError, undefined, C.argsWith(["throws", getActual(promiseFn)], args));
    },
    async rejects(promiseFn, ...args) {
      ReflectApply(expectsError, undefined, C.argsWith(["rejects", await C.PromiseOwn(waitForActual(promiseFn))], args));
    },
    doesNotThrow(fn, ...args) {
      ReflectApply(expectsNoError, undefined, C.argsWith(["doesNotThrow", getActual(fn)], args));
    },
    async doesNotReject(fn, ...args) {
      ReflectApply(expectsNoError, undefined, C.argsWith(["doesNotReject", await C.PromiseOwn(waitForActual(fn))], args));
    },
    ifError(err) {
      if (err !== null && err !== undefined) {
        let message = "ifError got unwanted exception: ";
        if (typeof err === "object" && typeof err.message === "string") {
          if (err.message.length === 0 && err.constructor) message += err.constructor.name;
          else message += err.message;
        } else {
          message += inspect(err);
        }
        const newErr = new AssertionError({ actual: err, expected: null, operator: "ifError", message });
        newErr.generatedMessage = false;
        throw newErr;
      }
    },
    match(string, regexp, message) { internalMatch(string, regexp, message, "match"); },
    doesNotMatch(string, regexp, message) { internalMatch(string, regexp, message, "doesNotMatch"); },
  };

  const NO_EXCEPTION = {};

  function getActual(fn) {
    if (typeof fn !== "function") throw invalidArgType("fn", "of type function", fn);
    try {
      fn();
    } catch (e) {
      return e;
    }
    return NO_EXCEPTION;
  }

  function isThenable(v) {
    return v !== null && typeof v === "object" && typeof v.then === "function" && typeof v.catch === "function";
  }

  async function waitForActual(promiseFn) {
    let resultPromise;
    if (typeof promiseFn === "function") {
      resultPromise = promiseFn();
      if (!isThenable(resultPromise)) {
        throw codedError(TypeErrorCtor, "ERR_INVALID_RETURN_VALUE", "Expected instance of Promise to be returned from the " +
          "\"promiseFn\" function but got " + describeType(resultPromise) + ".");
      }
    } else if (isThenable(promiseFn)) {
      resultPromise = promiseFn;
    } else {
      throw invalidArgType("promiseFn", "of type function or an instance of Promise", promiseFn);
    }
    try {
      await resultPromise;
    } catch (e) {
      return e;
    }
    return NO_EXCEPTION;
  }

  function describeType(v) {
    if (v === null || v === undefined) return StringCtor(v);
    if (typeof v === "function") return "function " + v.name;
    if (typeof v === "object") {
      if (v.constructor && v.constructor.name) return "an instance of " + v.constructor.name;
      return inspect(v, { depth: -1 });
    }
    let shown = inspect(v, { colors: false });
    if (shown.length > 28) shown = StringSlice(shown, 0, 25) + "...";
    return "type " + typeof v + " (" + shown + ")";
  }

  function isErrorClass(fn) {
    return typeof fn === "function" && fn.prototype !== undefined && (fn === ErrorCtor || isError(fn.prototype));
  }

  function expectsError(kind, actual, error, message) {
    if (typeof error === "string") {
      if (arguments.length === 4) {
        throw invalidArgType("error", "of type function or an instance of Error, RegExp, or Object", error);
      }
      if (typeof actual === "object" && actual !== null) {
        if (actual.message === error) {
          throw codedError(TypeErrorCtor, "ERR_AMBIGUOUS_ARGUMENT", "The \"error/message\" argument is ambiguous. " +
            "The error message \"" + actual.message + "\" is identical to the message.");
        }
      } else if (actual === error) {
        throw codedError(TypeErrorCtor, "ERR_AMBIGUOUS_ARGUMENT", "The \"error/message\" argument is ambiguous. " +
          "The error \"" + actual + "\" is identical to the message.");
      }
      message = error;
      error = undefined;
    } else if (error != null && typeof error !== "object" && typeof error !== "function") {
      throw invalidArgType("error", "of type function or an instance of Error, RegExp, or Object", error);
    }
    if (actual === NO_EXCEPTION) {
      let details = "";
      if (error && error.name) details += " (" + error.name + ")";
      details += message ? ": " + message : ".";
      const fnType = kind === "rejects" ? "rejection" : "exception";
      fail({ actual: undefined, expected: error, operator: kind, message: "Missing expected " + fnType + details });
    }
    if (!error) return;
    checkError(actual, error, message, kind);
  }

  function fail2(actual, expected, operator, message, generated) {
    const err = new AssertionError({ actual, expected, operator, message });
    err.generatedMessage = generated;
    throw err;
  }

  function checkError(actual, expected, msg, kind) {
    if (typeof expected !== "function") {
      if (isInstance(expected, C.RegExpCtor) || isRegExp(expected)) {
        const str = StringCtor(actual);
        if (RegExpExec(expected, str) !== null) return;
        if (!msg) {
          fail2(actual, expected, kind, "The input did not match the regular expression " + inspect(expected) +
            ". Input:\n\n" + inspect(str) + "\n", true);
        }
        fail2(actual, expected, kind, msg, false);
      }
      if (typeof actual !== "object" || actual === null) {
        const err = new AssertionError({ actual, expected, message: msg, operator: "deepStrictEqual" });
        err.operator = kind;
        throw err;
      }
      const keys = list();
      const own = ObjectKeys(expected);
      for (let i = 0; i < own.length; i++) keys[i] = own[i];
      if (isError(expected)) { keys[keys.length] = "name"; keys[keys.length] = "message"; }
      else if (keys.length === 0) throw codedError(TypeErrorCtor, "ERR_INVALID_ARG_VALUE", "The argument 'error' may not be an empty object. Received {}");
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i];
        if (typeof actual[key] === "string" && isRegExp(expected[key]) &&
            RegExpExec(expected[key], actual[key]) !== null) continue;
        if (!(key in actual) || !isDeepEqual(actual[key], expected[key], true)) {
          compareExceptionKey(actual, expected, keys, msg, kind);
        }
      }
      return;
    }
    if (expected.prototype !== undefined && isInstance(actual, expected)) return;
    if (isErrorClass(expected)) {
      if (!msg) {
        let m = "The error is expected to be an instance of \"" + expected.name + "\". Received ";
        if (actual !== null && typeof actual === "object" && isError(actual)) {
          m += "\"" + (actual.constructor && actual.constructor.name) + "\"";
          if (actual.message) m += "\n\nError message:\n\n" + actual.message;
        } else {
          m += "\"" + inspect(actual, { depth: -1 }) + "\"";
        }
        fail2(actual, expected, kind, m, true);
      }
      fail2(actual, expected, kind, msg, false);
    }
    const res = ReflectApply(expected, {}, [actual]);
    if (res !== true) {
      if (!msg) {
        const fnName = expected.name ? "\"" + expected.name + "\" " : "";
        fail2(actual, expected, kind, "The " + fnName + "validation function is expected to return \"true\". Received " +
          inspect(res) + (isError(actual) ? "\n\nCaught error:\n\n" + actual : ""), true);
      }
      fail2(actual, expected, kind, msg, false);
    }
  }

  class Comparison {}

  // The message of a failed object comparison: a diff between the compared keys of both sides.
  function compareExceptionKey(actual, expected, keys, msg, kind) {
    if (msg) fail2(actual, expected, kind, msg, false);
    // Node shows both sides as instances of a class named Comparison.
    const a = new Comparison(), b = new Comparison();
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      if (k in actual) C.defineValue(a, k, actual[k]);
      C.defineValue(b, k, expected[k]);
    }
    const err = new AssertionError({ actual: a, expected: b, operator: "deepStrictEqual" });
    const shown = new AssertionError({ actual, expected, message: err.message, operator: kind });
    shown.generatedMessage = true;
    throw shown;
  }

  function expectsNoError(kind, actual, error, message) {
    if (actual === NO_EXCEPTION) return;
    if (typeof error === "string") {
      message = error;
      error = undefined;
    }
    if (!error || (typeof error === "function" && error.prototype !== undefined && isInstance(actual, error)) ||
        (typeof error === "function" && error.prototype === undefined && ReflectApply(error, {}, [actual]) === true)) {
      const details = message ? ": " + message : ".";
      const fnType = kind === "doesNotReject" ? "rejection" : "exception";
      fail2(actual, error, kind, "Got unwanted " + fnType + details + "\nActual message: \"" + (actual && actual.message) + "\"", false);
    }
    throw actual;
  }

  function internalMatch(string, regexp, message, kind) {
    if (!isRegExp(regexp)) throw invalidArgType("regexp", "an instance of RegExp", regexp);
    const match = kind === "match";
    if (typeof string !== "string" || (RegExpExec(regexp, string) !== null) !== match) {
      if (isError(message)) throw message;
      const generated = !message;
      message = message || (typeof string !== "string"
        ? "The \"string\" argument must be of type string. Received type " + typeof string + " (" + inspect(string) + ")"
        : (match ? "The input did not match the regular expression " : "The input was expected to not match the regular expression ") +
          inspect(regexp) + ". Input:\n\n" + inspect(string) + "\n");
      fail2(string, regexp, kind, message, generated);
    }
  }

  // assert is ok(); strict is a second function whose equal/deepEqual are the strict ones (its
  // `ok` stays assert's, as in Node).
  function build(strictMode, okFn) {
    const fn = function assert(...args) { innerOk(fn, args.length, args[0], args[1]); };
    ObjectDefineProperty(fn, "name", { __proto__: null, value: strictMode ? "strict" : "ok" });
    const members = ObjectCreate(null);
    const apiNames = ObjectKeys(api);
    for (let i = 0; i < apiNames.length; i++) members[apiNames[i]] = api[apiNames[i]];
    members.AssertionError = AssertionError;
    members.ok = okFn || fn;
    if (strictMode) {
      members.equal = api.strictEqual;
      members.notEqual = api.notStrictEqual;
      members.deepEqual = api.deepStrictEqual;
      members.notDeepEqual = api.notDeepStrictEqual;
    }
    members.CallTracker = function CallTracker() {
      throw codedError(ErrorCtor, "ERR_CHIDORI_UNSUPPORTED", "assert.CallTracker is not available in chidori");
    };
    const names = ObjectKeys(members);
    for (let i = 0; i < names.length; i++) {
      const k = names[i];
      ObjectDefineProperty(fn, k, { __proto__: null, value: members[k], enumerable: true, writable: true, configurable: true });
    }
    return fn;
  }

  const assert = build(false);
  const strict = build(true, assert);
  ObjectDefineProperty(strict, "strict", { __proto__: null, value: strict, enumerable: true });
  ObjectDefineProperty(assert, "strict", { __proto__: null, value: strict, enumerable: true });
  return ObjectFreeze(assert);
})
