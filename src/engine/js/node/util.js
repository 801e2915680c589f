/* node/util.js — node:util: inspect (Node's layout rules: single-line when it fits in breakLength
 * and nesting is shallow, numeric arrays grouped in columns, circular references marked, custom
 * inspectors honoured), format/formatWithOptions, promisify/callbackify, deprecate, inherits,
 * isDeepStrictEqual, util.types, and the legacy is* predicates.
 *
 * Pure JavaScript. Types are recognised by brand checks on built-in methods rather than by
 * Object.prototype.toString, so a guest-set Symbol.toStringTag cannot disguise a value. A brand
 * check runs only for an instance of the class or a value whose tag names it: a failed check
 * throws, and a throw costs a stack trace (quadratic in deeply nested data). So a Map whose
 * prototype was swapped away and whose tag no longer says "Map" is not seen as a Map. What
 * plain JavaScript cannot see is reported as such: a Promise's state ("<unknown>"), a Proxy
 * (formatted as its target), the entries of a Map iterator.
 *
 * Exports one internal helper non-enumerably: `_isDeepEqual(a, b, strict)`, shared with assert. */
(function (require, natives, name) {
  "use strict";
  const text = require("internal/text");
  const { codedError, invalidArgType } = text;

  const customInspect = Symbol.for("nodejs.util.inspect.custom");
  const promisifyCustom = Symbol.for("nodejs.util.promisify.custom");
  const hasOwn = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
  const objectToString = (v) => Object.prototype.toString.call(v);

  /* ---- brand checks ---- */

  function brand(fn, Ctor, tag) {
    const tagText = "[object " + tag + "]";
    return (v) => {
      if (v === null || typeof v !== "object") return false;
      if (!(v instanceof Ctor) && objectToString(v) !== tagText) return false;
      try { fn(v); return true; } catch (_) { return false; }
    };
  }
  const getter = (proto, key) => Object.getOwnPropertyDescriptor(proto, key).get;
  const typedArrayTag = getter(Object.getPrototypeOf(Uint8Array.prototype), Symbol.toStringTag);
  const mapSize = getter(Map.prototype, "size");
  const setSize = getter(Set.prototype, "size");
  const abByteLength = getter(ArrayBuffer.prototype, "byteLength");
  const sabByteLength = typeof SharedArrayBuffer === "function" ? getter(SharedArrayBuffer.prototype, "byteLength") : null;
  const dvByteLength = getter(DataView.prototype, "byteLength");
  const regexpSource = getter(RegExp.prototype, "source");
  const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor;
  const GeneratorFunction = Object.getPrototypeOf(function* () {}).constructor;
  const AsyncGeneratorFunction = Object.getPrototypeOf(async function* () {}).constructor;

  const isDate = brand((v) => Date.prototype.getTime.call(v), Date, "Date");
  const regexpBrand = brand((x) => regexpSource.call(x), RegExp, "RegExp");
  const isRegExp = (v) => v !== RegExp.prototype && regexpBrand(v);
  const isMap = brand((v) => mapSize.call(v), Map, "Map");
  const isSet = brand((v) => setSize.call(v), Set, "Set");
  const isWeakMap = brand((v) => WeakMap.prototype.has.call(v, {}), WeakMap, "WeakMap");
  const isWeakSet = brand((v) => WeakSet.prototype.has.call(v, {}), WeakSet, "WeakSet");
  const isArrayBuffer = brand((v) => abByteLength.call(v), ArrayBuffer, "ArrayBuffer");
  const isSharedArrayBuffer = sabByteLength ? brand((v) => sabByteLength.call(v), SharedArrayBuffer, "SharedArrayBuffer") : () => false;
  const isAnyArrayBuffer = (v) => isArrayBuffer(v) || isSharedArrayBuffer(v);
  const isDataView = brand((v) => dvByteLength.call(v), DataView, "DataView");
  const isTypedArray = (v) => typedArrayTag.call(v) !== undefined;
  const typedIs = (tag) => (v) => typedArrayTag.call(v) === tag;
  const isNumberObject = brand((v) => Number.prototype.valueOf.call(v), Number, "Number");
  const isStringObject = brand((v) => String.prototype.valueOf.call(v), String, "String");
  const isBooleanObject = brand((v) => Boolean.prototype.valueOf.call(v), Boolean, "Boolean");
  const isSymbolObject = brand((v) => Symbol.prototype.valueOf.call(v), Symbol, "Symbol");
  const isBigIntObject = brand((v) => BigInt.prototype.valueOf.call(v), BigInt, "BigInt");
  const isBoxedPrimitive = (v) => isNumberObject(v) || isStringObject(v) || isBooleanObject(v) || isSymbolObject(v) || isBigIntObject(v);
  const isPromise = (v) => v instanceof Promise || (v !== null && typeof v === "object" && objectToString(v) === "[object Promise]" &&
    (() => { try { return Promise.resolve(v) === v; } catch (_) { return false; } })());
  const isNativeError = (v) => v instanceof Error || (v !== null && typeof v === "object" && objectToString(v) === "[object Error]" &&
    !hasOwn(v, Symbol.toStringTag) && !(Symbol.toStringTag in v));
  const isAsyncFunction = (v) => typeof v === "function" && (v instanceof AsyncFunction || v instanceof AsyncGeneratorFunction);
  const isGeneratorFunction = (v) => typeof v === "function" && (v instanceof GeneratorFunction || v instanceof AsyncGeneratorFunction);
  const tagIs = (tag) => (v) => v !== null && typeof v === "object" && objectToString(v) === "[object " + tag + "]";
  const isArgumentsObject = (v) => tagIs("Arguments")(v) && !(Symbol.toStringTag in v);
  const isModuleNamespaceObject = (v) => v !== null && typeof v === "object" && Object.getPrototypeOf(v) === null &&
    v[Symbol.toStringTag] === "Module" && !Object.getOwnPropertyDescriptor(v, Symbol.toStringTag).writable;

  const types = {
    isDate, isRegExp, isMap, isSet, isWeakMap, isWeakSet, isArrayBuffer, isSharedArrayBuffer, isAnyArrayBuffer, isDataView,
    isTypedArray, isArrayBufferView: (v) => ArrayBuffer.isView(v),
    isUint8Array: typedIs("Uint8Array"), isUint8ClampedArray: typedIs("Uint8ClampedArray"), isUint16Array: typedIs("Uint16Array"),
    isUint32Array: typedIs("Uint32Array"), isInt8Array: typedIs("Int8Array"), isInt16Array: typedIs("Int16Array"),
    isInt32Array: typedIs("Int32Array"), isFloat32Array: typedIs("Float32Array"), isFloat64Array: typedIs("Float64Array"),
    isBigInt64Array: typedIs("BigInt64Array"), isBigUint64Array: typedIs("BigUint64Array"),
    isNumberObject, isStringObject, isBooleanObject, isSymbolObject, isBigIntObject, isBoxedPrimitive,
    isPromise, isNativeError, isAsyncFunction, isGeneratorFunction,
    isGeneratorObject: tagIs("Generator"), isMapIterator: tagIs("Map Iterator"), isSetIterator: tagIs("Set Iterator"),
    isArgumentsObject, isModuleNamespaceObject,
    isProxy: () => false, isExternal: () => false, isKeyObject: () => false, isCryptoKey: () => false,
  };

  /* ---- inspect ---- */

  const defaultOptions = {
    showHidden: false, depth: 2, colors: false, customInspect: true, showProxy: false, maxArrayLength: 100,
    maxStringLength: 10000, breakLength: 80, compact: 3, sorted: false, getters: false, numericSeparator: false,
  };

  const colors = {
    reset: [0, 0], bold: [1, 22], dim: [2, 22], italic: [3, 23], underline: [4, 24], blink: [5, 25], inverse: [7, 27],
    hidden: [8, 28], strikethrough: [9, 29], doubleunderline: [21, 24], black: [30, 39], red: [31, 39], green: [32, 39],
    yellow: [33, 39], blue: [34, 39], magenta: [35, 39], cyan: [36, 39], white: [37, 39], bgBlack: [40, 49], bgRed: [41, 49],
    bgGreen: [42, 49], bgYellow: [43, 49], bgBlue: [44, 49], bgMagenta: [45, 49], bgCyan: [46, 49], bgWhite: [47, 49],
    framed: [51, 54], overlined: [53, 55], gray: [90, 39], redBright: [91, 39], greenBright: [92, 39], yellowBright: [93, 39],
    blueBright: [94, 39], magentaBright: [95, 39], cyanBright: [96, 39], whiteBright: [97, 39], bgGray: [100, 49],
    bgRedBright: [101, 49], bgGreenBright: [102, 49], bgYellowBright: [103, 49], bgBlueBright: [104, 49],
    bgMagentaBright: [105, 49], bgCyanBright: [106, 49], bgWhiteBright: [107, 49],
  };
  Object.defineProperty(colors, "grey", { value: colors.gray, enumerable: false });
  const styles = {
    special: "cyan", number: "yellow", bigint: "yellow", boolean: "yellow", undefined: "grey", null: "bold",
    string: "green", symbol: "green", date: "magenta", regexp: "red", module: "underline",
  };

  function stylizeWithColor(str, styleType) {
    const style = styles[styleType];
    if (style !== undefined) {
      const color = colors[style];
      if (color !== undefined) return "\u001b[" + color[0] + "m" + str + "\u001b[" + color[1] + "m";
    }
    return str;
  }
  const stylizeNoColor = (str) => str;

  const ANSI = /[\u001B\u009B][[\]()#;?]*(?:(?:(?:(?:;[-a-zA-Z\d/#&.:=?%@~_]+)*|[a-zA-Z\d]+(?:;[-a-zA-Z\d/#&.:=?%@~_]*)*)?\u0007)|(?:(?:\d{1,4}(?:;\d{0,4})*)?[\dA-PR-TZcf-ntqry=><~]))/g;
  function stripVTControlCharacters(str) {
    if (typeof str !== "string") throw invalidArgType("str", "of type string", str);
    return str.replace(ANSI, "");
  }
  const visibleLength = (ctx, s) => (ctx.colors ? s.replace(ANSI, "").length : s.length);

  // Escapes for code points below 0x80 (empty: printed as is).
  const ESCAPES = [];
  for (let i = 0; i < 0x80; i++) ESCAPES.push(i < 0x20 || i === 0x7f ? "\\x" + i.toString(16).toUpperCase().padStart(2, "0") : "");
  ESCAPES[8] = "\\b"; ESCAPES[9] = "\\t"; ESCAPES[10] = "\\n"; ESCAPES[12] = "\\f"; ESCAPES[13] = "\\r"; ESCAPES[0x5c] = "\\\\";

  // A string literal with the quote Node picks: ' unless the text has ' and lacks " (then ") or
  // has both and lacks ` (then `).
  function quoteString(str) {
    let quote = "'";
    if (str.indexOf("'") >= 0) {
      if (str.indexOf('"') < 0) quote = '"';
      else if (str.indexOf("`") < 0 && str.indexOf("${") < 0) quote = "`";
    }
    let out = "";
    let last = 0;
    for (let i = 0; i < str.length; i++) {
      const c = str.charCodeAt(i);
      let esc = "";
      if (c < 0x80) {
        esc = ESCAPES[c];
        if (c === quote.charCodeAt(0)) esc = "\\" + quote;
      } else if (c <= 0x9f) {
        esc = "\\x" + c.toString(16).toUpperCase();
      } else if (c >= 0xd800 && c <= 0xdfff) {
        if (c <= 0xdbff && i + 1 < str.length) {
          const d = str.charCodeAt(i + 1);
          if (d >= 0xdc00 && d <= 0xdfff) { i++; continue; }
        }
        esc = "\\u" + c.toString(16);
      }
      if (esc) {
        out += str.slice(last, i) + esc;
        last = i + 1;
      }
    }
    return quote + out + str.slice(last) + quote;
  }

  function groupNumber(s) {
    const neg = s[0] === "-";
    if (neg) s = s.slice(1);
    let [int, frac] = s.split(".");
    let out = "";
    while (int.length > 3) { out = "_" + int.slice(-3) + out; int = int.slice(0, -3); }
    out = int + out;
    if (frac !== undefined) {
      let f = "";
      for (let i = 0; i < frac.length; i += 3) f += (i ? "_" : "") + frac.slice(i, i + 3);
      out += "." + f;
    }
    return (neg ? "-" : "") + out;
  }

  function formatNumber(stylize, n, separator) {
    if (Object.is(n, -0)) return stylize("-0", "number");
    const s = String(n);
    if (separator && Number.isFinite(n) && s.indexOf("e") < 0) return stylize(groupNumber(s), "number");
    return stylize(s, "number");
  }

  function formatBigInt(stylize, n, separator) {
    const s = String(n);
    return stylize((separator ? groupNumber(s) : s) + "n", "bigint");
  }

  function formatPrimitive(ctx, value) {
    const stylize = ctx.stylize;
    switch (typeof value) {
      case "string": {
        let trailer = "";
        if (value.length > ctx.maxStringLength) {
          const remaining = value.length - ctx.maxStringLength;
          value = value.slice(0, ctx.maxStringLength);
          trailer = "... " + remaining + " more character" + (remaining > 1 ? "s" : "");
        }
        if (ctx.compact !== true && value.length > 16 && value.length > ctx.breakLength - ctx.indentationLvl - 4) {
          const lines = value.split(/(?<=\n)/);
          return lines.map((line) => stylize(quoteString(line), "string")).join(" +\n" + " ".repeat(ctx.indentationLvl + 2)) + trailer;
        }
        return stylize(quoteString(value), "string") + trailer;
      }
      case "number": return formatNumber(stylize, value, ctx.numericSeparator);
      case "bigint": return formatBigInt(stylize, value, ctx.numericSeparator);
      case "boolean": return stylize(String(value), "boolean");
      case "undefined": return stylize("undefined", "undefined");
      default: return stylize(Symbol.prototype.toString.call(value), "symbol");
    }
  }

  // The name of the nearest constructor on the prototype chain (null for a null-prototype object).
  function constructorName(obj, ctx, recurseTimes) {
    let first;
    const original = obj;
    let o = obj;
    while (o !== null && o !== undefined) {
      const desc = Object.getOwnPropertyDescriptor(o, "constructor");
      if (desc !== undefined && typeof desc.value === "function" && desc.value.name !== "") {
        let isInstance = false;
        try { isInstance = original instanceof desc.value; } catch (_) { isInstance = false; }
        if (isInstance) return String(desc.value.name);
      }
      o = Object.getPrototypeOf(o);
      if (first === undefined) first = o;
    }
    if (first === null) return null;
    const base = builtinTag(original);
    if (recurseTimes > ctx.depth && ctx.depth !== null) return base + " <Complex prototype>";
    const protoName = constructorName(first, ctx, recurseTimes + 1);
    if (protoName === null) {
      return base + " <" + inspect(first, Object.assign({}, ctx.userOptions, { customInspect: false, depth: -1 })) + ">";
    }
    return base + " <" + protoName + ">";
  }

  function builtinTag(v) {
    const tag = objectToString(v);
    return tag.slice(8, -1);
  }

  function prefixOf(ctor, tag, fallback, size) {
    size = size || "";
    if (ctor === null) {
      if (tag !== "" && fallback !== tag) return "[" + fallback + size + ": null prototype] [" + tag + "] ";
      return "[" + fallback + size + ": null prototype] ";
    }
    if (tag !== "" && ctor !== tag) return ctor + size + " [" + tag + "] ";
    return ctor + size + " ";
  }

  function ownKeys(value, showHidden, nonIndex) {
    let keys;
    if (showHidden) {
      keys = Object.getOwnPropertyNames(value);
      const symbols = Object.getOwnPropertySymbols(value);
      keys = keys.concat(symbols);
    } else {
      keys = Object.keys(value);
      const symbols = Object.getOwnPropertySymbols(value);
      for (const s of symbols) if (Object.prototype.propertyIsEnumerable.call(value, s)) keys.push(s);
    }
    if (nonIndex) keys = keys.filter((k) => typeof k === "symbol" || !/^(0|[1-9][0-9]*)$/.test(k) || Number(k) >= 4294967295);
    return keys;
  }

  function functionBase(value, ctor, tag) {
    let source = "";
    try { source = Function.prototype.toString.call(value); } catch (_) { source = ""; }
    if (source.startsWith("class") && source.endsWith("}")) {
      const body = source.slice(5, -1);
      const brace = body.indexOf("{");
      if (brace !== -1 && (!body.slice(0, brace).includes("(") || /^\s*(?:[^\s(]+\s+)?extends\b/.test(body))) {
        const name = (hasOwn(value, "name") && value.name) || "(anonymous)";
        let base = "class " + name;
        if (ctor !== "Function" && ctor !== null) base += " [" + ctor + "]";
        if (tag !== "" && ctor !== tag) base += " [" + tag + "]";
        if (ctor !== null) {
          const superName = Object.getPrototypeOf(value).name;
          if (superName) base += " extends " + superName;
        } else {
          base += " extends [null prototype]";
        }
        return "[" + base + "]";
      }
    }
    let type = "Function";
    if (isGeneratorFunction(value)) type = "Generator" + type;
    if (isAsyncFunction(value)) type = "Async" + type;
    let base = "[" + type;
    if (ctor === null) base += " (null prototype)";
    base += value.name === "" || typeof value.name !== "string" ? " (anonymous)" : ": " + value.name;
    base += "]";
    if (ctor !== type && ctor !== null) base += " " + ctor;
    if (tag !== "" && ctor !== tag) base += " [" + tag + "]";
    return base;
  }

  function formatError(err, ctor, tag, ctx, keys) {
    const nameText = err.name != null ? String(err.name) : "Error";
    const messageText = err.message != null ? String(err.message) : "";
    let stack = "";
    try { stack = err.stack ? String(err.stack) : ""; } catch (_) { stack = ""; }
    let head;
    try { head = Error.prototype.toString.call(err); } catch (_) { head = nameText; }
    // QuickJS keeps only the frames in `stack`; V8 starts it with "Name: message".
    let text = stack;
    if (!stack || /^\s+at /.test(stack)) text = head + (stack ? "\n" + stack.replace(/\n+$/, "") : "");
    // Drop keys already shown in the text.
    for (const k of ["name", "message", "stack"]) {
      const i = keys.indexOf(k);
      if (i !== -1 && (k === "stack" || text.includes(String(err[k])))) keys.splice(i, 1);
    }
    text = improveHead(text, ctor, nameText, tag);
    if ("cause" in err && (keys.length === 0 || !keys.includes("cause"))) {
      const desc = Object.getOwnPropertyDescriptor(err, "cause");
      if (desc && !desc.enumerable) keys.push("cause");
    }
    if (Array.isArray(err.errors) && !keys.includes("errors")) {
      const desc = Object.getOwnPropertyDescriptor(err, "errors");
      if (desc && !desc.enumerable) keys.push("errors");
    }
    const atLine = text.indexOf("\n    at");
    if (atLine === -1) text = "[" + text + "]";
    if (ctx.indentationLvl !== 0) {
      const indentation = " ".repeat(ctx.indentationLvl);
      text = text.split("\n").join("\n" + indentation);
    }
    return text;
  }

  // Names the constructor in the first line of a "regular" error ("Name: message") when it differs
  // from the error's name, as Node does: class MyError → "MyError: msg"; a TypeError whose
  // constructor is Foo → "Foo [TypeError]: msg".
  function improveHead(text, ctor, errName, tag) {
    let len = errName.length;
    const regular = errName.endsWith("Error") && text.startsWith(errName) &&
      (text.length === len || text[len] === ":" || text[len] === "\n");
    if (ctor !== null && !regular) return text;
    let fallback = "Error";
    if (ctor === null) {
      const m = /^([A-Z][a-z_ A-Z0-9[\]()-]+)(?::|\n\s+at)/.exec(text) || /^([a-z_A-Z0-9-]*Error)$/.exec(text);
      fallback = (m && m[1]) || "";
      len = fallback.length;
      fallback = fallback || "Error";
    }
    const shown = prefixOf(ctor, tag, fallback).slice(0, -1);
    if (errName === shown) return text;
    if (shown.includes(errName)) return len === 0 ? shown + ": " + text : shown + text.slice(len);
    return shown + " [" + errName + "]" + text.slice(len);
  }

  function formatValue(ctx, value, recurseTimes, typedArray) {
    if (typeof value !== "object" && typeof value !== "function") return formatPrimitive(ctx, value);
    if (value === null) return ctx.stylize("null", "null");
    if (ctx.customInspect) {
      let maybeCustom;
      try { maybeCustom = value[customInspect]; } catch (_) { maybeCustom = undefined; }
      if (typeof maybeCustom === "function" && maybeCustom !== inspect &&
          !(value.constructor && value.constructor.prototype === value)) {
        const depth = ctx.depth === null ? null : ctx.depth - recurseTimes;
        const options = Object.assign({}, ctx.userOptions, { depth, stylize: ctx.stylize, indentationLvl: ctx.indentationLvl });
        const ret = Reflect.apply(maybeCustom, value, [depth, options, inspect]);
        if (ret !== value) {
          if (typeof ret !== "string") return formatValue(ctx, ret, recurseTimes);
          return ret.split("\n").join("\n" + " ".repeat(ctx.indentationLvl));
        }
      }
    }
    if (ctx.seen.includes(value)) {
      let index = 1;
      if (ctx.circular === undefined) {
        ctx.circular = new Map();
        ctx.circular.set(value, index);
      } else {
        index = ctx.circular.get(value);
        if (index === undefined) {
          index = ctx.circular.size + 1;
          ctx.circular.set(value, index);
        }
      }
      return ctx.stylize("[Circular *" + index + "]", "special");
    }
    return formatRaw(ctx, value, recurseTimes, typedArray);
  }

  const kObjectType = 0, kArrayType = 1, kArrayExtrasType = 2;

  function formatRaw(ctx, value, recurseTimes, typedArray) {
    let keys;
    const ctor = constructorName(value, ctx, recurseTimes);
    let tag = "";
    try { tag = value[Symbol.toStringTag]; } catch (_) { tag = ""; }
    // A tag that is an own enumerable property is printed with the keys, not twice.
    if (typeof tag !== "string" || (tag !== "" && (ctx.showHidden ? hasOwn(value, Symbol.toStringTag)
      : Object.prototype.propertyIsEnumerable.call(value, Symbol.toStringTag)))) tag = "";
    let base = "";
    let formatter = () => [];
    let braces;
    let extrasType = kObjectType;
    let noIterator = true;

    if (Symbol.iterator in value || ctor === null) {
      noIterator = false;
      if (Array.isArray(value)) {
        const prefix = ctor !== "Array" || tag !== "" ? prefixOf(ctor, tag, "Array", "(" + value.length + ")") : "";
        keys = ownKeys(value, ctx.showHidden, true);
        braces = [prefix + "[", "]"];
        if (value.length === 0 && keys.length === 0) return braces[0] + "]";
        extrasType = kArrayExtrasType;
        formatter = formatArray;
      } else if (isSet(value)) {
        const size = setSize.call(value);
        const prefix = prefixOf(ctor, tag, "Set", "(" + size + ")");
        keys = ownKeys(value, ctx.showHidden, false);
        formatter = formatSet;
        if (size === 0 && keys.length === 0) return prefix + "{}";
        braces = [prefix + "{", "}"];
      } else if (isMap(value)) {
        const size = mapSize.call(value);
        const prefix = prefixOf(ctor, tag, "Map", "(" + size + ")");
        keys = ownKeys(value, ctx.showHidden, false);
        formatter = formatMap;
        if (size === 0 && keys.length === 0) return prefix + "{}";
        braces = [prefix + "{", "}"];
      } else if (isTypedArray(value)) {
        keys = ownKeys(value, ctx.showHidden, true);
        const fallback = ctor === null ? typedArrayTag.call(value) : "";
        const size = value.length;
        const prefix = prefixOf(ctor, tag, fallback, "(" + size + ")");
        braces = [prefix + "[", "]"];
        if (value.length === 0 && keys.length === 0 && !ctx.showHidden) return braces[0] + "]";
        formatter = formatTypedArray;
        extrasType = kArrayExtrasType;
      } else if (types.isMapIterator(value) || types.isSetIterator(value)) {
        keys = ownKeys(value, ctx.showHidden, false);
        braces = ["[" + tag + "] {", "}"];
        formatter = () => [ctx.stylize("<items unknown>", "special")];
      } else {
        noIterator = true;
      }
    }
    if (noIterator) {
      keys = ownKeys(value, ctx.showHidden, false);
      braces = ["{", "}"];
      if (typeof value === "function") {
        base = functionBase(value, ctor, tag);
        if (keys.length === 0) return ctx.stylize(base, "special");
      } else if (ctor === "Object") {
        if (isArgumentsObject(value)) braces[0] = "[Arguments] {";
        else if (tag !== "") braces[0] = prefixOf(ctor, tag, "Object") + "{";
        if (keys.length === 0) return braces[0] + "}";
      } else if (isRegExp(value)) {
        base = RegExp.prototype.toString.call(ctor !== null ? value : new RegExp(value));
        const prefix = prefixOf(ctor, tag, "RegExp");
        if (prefix !== "RegExp ") base = prefix + base;
        if (keys.length === 0 || (recurseTimes > ctx.depth && ctx.depth !== null)) return ctx.stylize(base, "regexp");
      } else if (isDate(value)) {
        const t = Date.prototype.getTime.call(value);
        base = Number.isNaN(t) ? "Invalid Date" : Date.prototype.toISOString.call(value);
        const prefix = prefixOf(ctor, tag, "Date");
        if (prefix !== "Date ") base = prefix + base;
        if (keys.length === 0) return ctx.stylize(base, "date");
      } else if (isNativeError(value)) {
        base = formatError(value, ctor, tag, ctx, keys);
        if (keys.length === 0) return base;
      } else if (isAnyArrayBuffer(value)) {
        const arrayType = isArrayBuffer(value) ? "ArrayBuffer" : "SharedArrayBuffer";
        const prefix = prefixOf(ctor, tag, arrayType);
        if (typedArray === undefined) formatter = formatArrayBuffer;
        else if (keys.length === 0) return prefix + "{ byteLength: " + formatNumber(ctx.stylize, value.byteLength, false) + " }";
        braces[0] = prefix + "{";
        keys.unshift("byteLength");
      } else if (isDataView(value)) {
        braces[0] = prefixOf(ctor, tag, "DataView") + "{";
        keys.unshift("byteLength", "byteOffset", "buffer");
      } else if (isPromise(value)) {
        braces[0] = prefixOf(ctor, tag, "Promise") + "{";
        formatter = () => [ctx.stylize("<unknown>", "special")];
      } else if (isWeakSet(value)) {
        braces[0] = prefixOf(ctor, tag, "WeakSet") + "{";
        formatter = () => [ctx.stylize("<items unknown>", "special")];
      } else if (isWeakMap(value)) {
        braces[0] = prefixOf(ctor, tag, "WeakMap") + "{";
        formatter = () => [ctx.stylize("<items unknown>", "special")];
      } else if (isModuleNamespaceObject(value)) {
        braces[0] = prefixOf(ctor, tag, "Module") + "{";
        keys = Object.keys(value);
      } else if (isBoxedPrimitive(value)) {
        let type, fn;
        if (isNumberObject(value)) { type = "Number"; fn = (v) => formatNumber(stylizeNoColor, Number.prototype.valueOf.call(v), false); }
        else if (isStringObject(value)) {
          type = "String";
          fn = (v) => quoteString(String.prototype.valueOf.call(v));
          const len = String.prototype.valueOf.call(value).length;
          keys = keys.filter((k) => typeof k === "symbol" || !/^(0|[1-9][0-9]*)$/.test(k) || Number(k) >= len);
        } else if (isBooleanObject(value)) { type = "Boolean"; fn = (v) => String(Boolean.prototype.valueOf.call(v)); }
        else if (isBigIntObject(value)) { type = "BigInt"; fn = (v) => String(BigInt.prototype.valueOf.call(v)) + "n"; }
        else { type = "Symbol"; fn = (v) => Symbol.prototype.toString.call(Symbol.prototype.valueOf.call(v)); }
        base = "[" + type;
        if (type !== ctor) base += ctor === null ? " (null prototype)" : " (" + ctor + ")";
        base += ": " + fn(value) + "]";
        if (tag !== "" && tag !== ctor) base += " [" + tag + "]";
        base = ctx.stylize(base, type === "String" ? "string" : type.toLowerCase());
        if (keys.length === 0) return base;
      } else {
        if (keys.length === 0) return prefixOf(ctor, tag, "Object") + "{}";
        braces[0] = prefixOf(ctor, tag, "Object") + "{";
      }
    }

    if (recurseTimes > ctx.depth && ctx.depth !== null) {
      let shown = prefixOf(ctor, tag, "Object").slice(0, -1);
      if (ctor !== null) shown = "[" + shown + "]";
      return ctx.stylize(shown, "special");
    }
    recurseTimes += 1;
    ctx.seen.push(value);
    ctx.currentDepth = recurseTimes;
    let output;
    try {
      output = formatter(ctx, value, recurseTimes);
      for (let i = 0; i < keys.length; i++) output.push(formatProperty(ctx, value, recurseTimes, keys[i], extrasType));
    } catch (err) {
      ctx.seen.pop();
      if (err instanceof RangeError || (err && err.name === "InternalError")) {
        return ctx.stylize("[" + prefixOf(ctor, tag, "Object").slice(0, -1) + ": Inspection interrupted prematurely. Maximum call stack size exceeded.]", "special");
      }
      throw err;
    }
    if (ctx.circular !== undefined) {
      const index = ctx.circular.get(value);
      if (index !== undefined) {
        const reference = ctx.stylize("<ref *" + index + ">", "special");
        if (ctx.compact !== true) base = base === "" ? reference : reference + " " + base;
        else braces[0] = reference + " " + braces[0];
      }
    }
    ctx.seen.pop();
    if (ctx.sorted) {
      const comparator = ctx.sorted === true ? undefined : ctx.sorted;
      if (extrasType === kObjectType) output.sort(comparator);
      else if (keys.length > 1) {
        const sorted = output.slice(output.length - keys.length).sort(comparator);
        output.splice(output.length - keys.length, keys.length, ...sorted);
      }
    }
    return reduceToSingleString(ctx, output, base, braces, extrasType, recurseTimes, value);
  }

  // The own integer-index keys of an array, ascending (the order Object.keys gives them in).
  function ownIndices(array) {
    const keys = Object.keys(array);
    const out = [];
    for (let k = 0; k < keys.length; k++) {
      const n = Number(keys[k]);
      if (!(n >= 0 && n < 4294967295 && String(n) === keys[k])) break;
      out.push(n);
    }
    return out;
  }

  // The first element of the ascending list `sorted` that is >= from, or Infinity.
  function firstAtLeast(sorted, from) {
    let lo = 0, hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sorted[mid] < from) lo = mid + 1; else hi = mid;
    }
    return lo < sorted.length ? sorted[lo] : Infinity;
  }

  function formatArray(ctx, value, recurseTimes) {
    const length = value.length;
    const shown = Math.min(Math.max(0, ctx.maxArrayLength), length);
    const output = [];
    let i = 0;
    let owned = null; // the array's own indices, ascending; read at the first hole
    while (i < length && output.length < shown) {
      if (!hasOwn(value, i)) {
        // A run of holes is measured from the own indices, never walked: `new Array(1e9)` has
        // one run of a billion holes and must print at once.
        if (owned === null) owned = ownIndices(value);
        let j = firstAtLeast(owned, i);
        if (j > length) j = length;
        const holes = j - i;
        output.push(ctx.stylize("<" + holes + " empty item" + (holes > 1 ? "s" : "") + ">", "undefined"));
        i = j;
        continue;
      }
      output.push(formatProperty(ctx, value, recurseTimes, i, kArrayType));
      i++;
    }
    const remaining = length - i;
    if (remaining > 0) output.push("... " + remaining + " more item" + (remaining > 1 ? "s" : ""));
    return output;
  }

  function formatTypedArray(ctx, value, recurseTimes) {
    const length = value.length;
    const shown = Math.min(Math.max(0, ctx.maxArrayLength), length);
    const output = new Array(shown);
    for (let i = 0; i < shown; i++) {
      output[i] = typeof value[i] === "bigint" ? formatBigInt(ctx.stylize, value[i], ctx.numericSeparator)
        : formatNumber(ctx.stylize, value[i], ctx.numericSeparator);
    }
    if (length - shown > 0) output.push("... " + (length - shown) + " more item" + (length - shown > 1 ? "s" : ""));
    if (ctx.showHidden) {
      ctx.indentationLvl += 2;
      for (const key of ["BYTES_PER_ELEMENT", "length", "byteLength", "byteOffset", "buffer"]) {
        output.push("[" + key + "]: " + formatValue(ctx, value[key], recurseTimes, true));
      }
      ctx.indentationLvl -= 2;
    }
    return output;
  }

  function formatArrayBuffer(ctx, value) {
    let bytes;
    try { bytes = new Uint8Array(value); } catch (_) { return [ctx.stylize("(detached)", "special")]; }
    const max = Math.min(50, bytes.length);
    const parts = [];
    for (let i = 0; i < max; i++) parts.push((bytes[i] < 16 ? "0" : "") + bytes[i].toString(16));
    let str = parts.join(" ");
    const remaining = bytes.length - 50;
    if (remaining > 0) str += " ... " + remaining + " more byte" + (remaining > 1 ? "s" : "");
    return [ctx.stylize("[Uint8Contents]", "special") + ": <" + str + ">"];
  }

  function formatSet(ctx, value, recurseTimes) {
    const length = setSize.call(value);
    const max = Math.min(Math.max(0, ctx.maxArrayLength), length);
    const output = [];
    ctx.indentationLvl += 2;
    let i = 0;
    for (const v of Set.prototype.values.call(value)) {
      if (i >= max) break;
      output.push(formatValue(ctx, v, recurseTimes));
      i++;
    }
    if (length - max > 0) output.push("... " + (length - max) + " more item" + (length - max > 1 ? "s" : ""));
    ctx.indentationLvl -= 2;
    return output;
  }

  function formatMap(ctx, value, recurseTimes) {
    const length = mapSize.call(value);
    const max = Math.min(Math.max(0, ctx.maxArrayLength), length);
    const output = [];
    ctx.indentationLvl += 2;
    let i = 0;
    for (const [k, v] of Map.prototype.entries.call(value)) {
      if (i >= max) break;
      output.push(formatValue(ctx, k, recurseTimes) + " => " + formatValue(ctx, v, recurseTimes));
      i++;
    }
    if (length - max > 0) output.push("... " + (length - max) + " more item" + (length - max > 1 ? "s" : ""));
    ctx.indentationLvl -= 2;
    return output;
  }

  function formatProperty(ctx, value, recurseTimes, key, type) {
    let str;
    let extra = " ";
    const desc = Object.getOwnPropertyDescriptor(value, key) || { value: value[key], enumerable: true };
    if (desc.value !== undefined) {
      const diff = ctx.compact !== true || type !== kObjectType ? 2 : 3;
      ctx.indentationLvl += diff;
      str = formatValue(ctx, desc.value, recurseTimes);
      if (diff === 3 && ctx.breakLength < visibleLength(ctx, str)) extra = "\n" + " ".repeat(ctx.indentationLvl);
      ctx.indentationLvl -= diff;
    } else if (desc.get !== undefined) {
      const label = desc.set !== undefined ? "Getter/Setter" : "Getter";
      if (ctx.getters && (ctx.getters === true || (ctx.getters === "get" && desc.set === undefined) ||
          (ctx.getters === "set" && desc.set !== undefined))) {
        try {
          const tmp = Reflect.apply(desc.get, value, []);
          ctx.indentationLvl += 2;
          if (tmp === null) str = ctx.stylize("[" + label + ":", "special") + " " + ctx.stylize("null", "null") + ctx.stylize("]", "special");
          else if (typeof tmp === "object") str = ctx.stylize("[" + label + "]", "special") + " " + formatValue(ctx, tmp, recurseTimes);
          else str = ctx.stylize("[" + label + ":", "special") + " " + formatPrimitive(ctx, tmp) + ctx.stylize("]", "special");
          ctx.indentationLvl -= 2;
        } catch (err) {
          str = ctx.stylize("[" + label + ": <Inspection threw (" + (err && err.message) + ")>]", "special");
        }
      } else {
        str = ctx.stylize("[" + label + "]", "special");
      }
    } else if (desc.set !== undefined) {
      str = ctx.stylize("[Setter]", "special");
    } else {
      str = ctx.stylize("undefined", "undefined");
    }
    if (type === kArrayType) return str;
    let nameText;
    if (typeof key === "symbol") {
      nameText = "[" + ctx.stylize(escapeControl(Symbol.prototype.toString.call(key)), "symbol") + "]";
    } else if (key === "__proto__") {
      nameText = "['__proto__']";
    } else if (desc.enumerable === false) {
      nameText = "[" + escapeControl(key) + "]";
    } else if (/^[a-zA-Z_][a-zA-Z_0-9]*$/.test(key)) {
      nameText = ctx.stylize(key, "name");
    } else {
      nameText = ctx.stylize(quoteString(key), "string");
    }
    return nameText + ":" + extra + str;
  }

  function escapeControl(s) {
    return s.replace(/[\x00-\x1f\x27\x5c\x7f-\x9f]/g, (c) => {
      const code = c.charCodeAt(0);
      if (code < 0x80 && ESCAPES[code]) return ESCAPES[code];
      return "\\x" + code.toString(16).toUpperCase().padStart(2, "0");
    });
  }

  function isBelowBreakLength(ctx, output, start, base) {
    let total = output.length + start;
    if (total + output.length > ctx.breakLength) return false;
    for (let i = 0; i < output.length; i++) {
      total += visibleLength(ctx, output[i]);
      if (total > ctx.breakLength) return false;
    }
    return base === "" || !base.includes("\n");
  }

  // Lays out many short array entries in aligned columns (numbers right-aligned).
  function groupArrayElements(ctx, output, value) {
    let totalLength = 0;
    let maxLength = 0;
    let outputLength = output.length;
    if (ctx.maxArrayLength < output.length) outputLength--; // leave "... more items" alone
    const separatorSpace = 2;
    const dataLen = new Array(outputLength);
    for (let i = 0; i < outputLength; i++) {
      const len = visibleLength(ctx, output[i]);
      dataLen[i] = len;
      totalLength += len + separatorSpace;
      if (maxLength < len) maxLength = len;
    }
    const actualMax = maxLength + separatorSpace;
    if (actualMax * 3 + ctx.indentationLvl < ctx.breakLength && (totalLength / actualMax > 5 || maxLength <= 6)) {
      const averageBias = Math.sqrt(actualMax - totalLength / output.length);
      const biasedMax = Math.max(actualMax - 3 - averageBias, 1);
      const columns = Math.min(
        Math.round(Math.sqrt(2.5 * biasedMax * outputLength) / biasedMax),
        Math.floor((ctx.breakLength - ctx.indentationLvl) / actualMax),
        ctx.compact * 4,
        15);
      if (columns <= 1) return output;
      const maxLineLength = [];
      for (let i = 0; i < columns; i++) {
        let lineLength = 0;
        for (let j = i; j < output.length; j += columns) if (dataLen[j] > lineLength) lineLength = dataLen[j];
        maxLineLength.push(lineLength + separatorSpace);
      }
      let padStart = true;
      if (value !== undefined) {
        for (let i = 0; i < output.length; i++) {
          if (typeof value[i] !== "number" && typeof value[i] !== "bigint") { padStart = false; break; }
        }
      }
      const grouped = [];
      for (let i = 0; i < outputLength; i += columns) {
        const max = Math.min(i + columns, outputLength);
        let line = "";
        let j = i;
        for (; j < max - 1; j++) {
          const padding = maxLineLength[j - i] + output[j].length - dataLen[j];
          line += padStart ? (output[j] + ", ").padStart(padding, " ") : (output[j] + ", ").padEnd(padding, " ");
        }
        if (padStart) {
          const padding = maxLineLength[j - i] + output[j].length - dataLen[j] - separatorSpace;
          line += output[j].padStart(padding, " ");
        } else {
          line += output[j];
        }
        grouped.push(line);
      }
      if (ctx.maxArrayLength < output.length) grouped.push(output[outputLength]);
      output = grouped;
    }
    return output;
  }

  function reduceToSingleString(ctx, output, base, braces, extrasType, recurseTimes, value) {
    if (ctx.compact !== true) {
      if (typeof ctx.compact === "number" && ctx.compact >= 1) {
        const entries = output.length;
        if (extrasType === kArrayExtrasType && entries > 6) output = groupArrayElements(ctx, output, value);
        if (ctx.currentDepth - recurseTimes < ctx.compact && entries === output.length) {
          const start = output.length + ctx.indentationLvl + braces[0].length + base.length + 10;
          if (isBelowBreakLength(ctx, output, start, base)) {
            const joined = output.join(", ");
            if (!joined.includes("\n")) return (base ? base + " " : "") + braces[0] + " " + joined + " " + braces[1];
          }
        }
      }
      const indentation = "\n" + " ".repeat(ctx.indentationLvl);
      return (base ? base + " " : "") + braces[0] + indentation + "  " + output.join("," + indentation + "  ") + indentation + braces[1];
    }
    if (isBelowBreakLength(ctx, output, 0, base)) {
      return braces[0] + (base ? " " + base : "") + " " + output.join(", ") + " " + braces[1];
    }
    const indentation = " ".repeat(ctx.indentationLvl);
    const ln = base === "" && braces[0].length === 1 ? " " : (base ? " " + base : "") + "\n" + indentation + "  ";
    return braces[0] + ln + output.join(",\n" + indentation + "  ") + " " + braces[1];
  }

  function inspect(value, opts) {
    const ctx = {
      budget: {}, indentationLvl: 0, seen: [], currentDepth: 0, stylize: stylizeNoColor,
      showHidden: defaultOptions.showHidden, depth: defaultOptions.depth, colors: defaultOptions.colors,
      customInspect: defaultOptions.customInspect, showProxy: defaultOptions.showProxy,
      maxArrayLength: defaultOptions.maxArrayLength, maxStringLength: defaultOptions.maxStringLength,
      breakLength: defaultOptions.breakLength, compact: defaultOptions.compact, sorted: defaultOptions.sorted,
      getters: defaultOptions.getters, numericSeparator: defaultOptions.numericSeparator, userOptions: {},
    };
    if (arguments.length > 1) {
      if (arguments.length > 2) {
        if (arguments[2] !== undefined) ctx.depth = arguments[2];
        if (arguments.length > 3 && arguments[3] !== undefined) ctx.colors = arguments[3];
      }
      if (typeof opts === "boolean") ctx.showHidden = opts;
      else if (opts) {
        for (const key of Object.keys(opts)) {
          if (hasOwn(defaultOptions, key) || key === "stylize") ctx[key] = opts[key];
          ctx.userOptions[key] = opts[key];
        }
      }
    }
    if (ctx.colors) ctx.stylize = stylizeWithColor;
    if (ctx.maxArrayLength === null) ctx.maxArrayLength = Infinity;
    if (ctx.maxStringLength === null) ctx.maxStringLength = Infinity;
    // What a custom inspector receives: the caller's options over the effective ones.
    for (const key of Object.keys(defaultOptions)) if (!hasOwn(ctx.userOptions, key)) ctx.userOptions[key] = ctx[key];
    return formatValue(ctx, value, 0);
  }
  Object.defineProperty(inspect, "custom", { value: customInspect, enumerable: false });
  Object.defineProperty(inspect, "defaultOptions", {
    get() { return defaultOptions; },
    set(options) {
      if (options === null || typeof options !== "object") throw invalidArgType("options", "of type object", options);
      Object.assign(defaultOptions, options);
    },
  });
  inspect.colors = colors;
  inspect.styles = styles;

  /* ---- format ---- */

  const builtinConstructors = new Set(["Object", "Error", "Array", "Date", "RegExp", "Map", "Set", "WeakMap", "WeakSet", "Promise",
    "Function", "Number", "String", "Boolean", "Symbol", "BigInt", "ArrayBuffer", "DataView", "EvalError", "RangeError",
    "ReferenceError", "SyntaxError", "TypeError", "URIError", "AggregateError", "Int8Array", "Uint8Array", "Uint8ClampedArray",
    "Int16Array", "Uint16Array", "Int32Array", "Uint32Array", "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array",
    "SharedArrayBuffer", "WeakRef", "FinalizationRegistry", "Proxy"]);

  function hasBuiltInToString(value) {
    if (typeof value.toString !== "function") return true;
    if (hasOwn(value, "toString")) return false;
    let pointer = value;
    do { pointer = Object.getPrototypeOf(pointer); } while (pointer !== null && !hasOwn(pointer, "toString"));
    if (pointer === null) return true;
    const desc = Object.getOwnPropertyDescriptor(pointer, "constructor");
    return desc !== undefined && typeof desc.value === "function" && builtinConstructors.has(desc.value.name);
  }

  function tryStringify(arg) {
    try {
      return JSON.stringify(arg);
    } catch (err) {
      if (err instanceof TypeError && /circular|cyclic/i.test(String(err.message))) return "[Circular]";
      throw err;
    }
  }

  function formatWithOptionsInternal(inspectOptions, args) {
    const first = args[0];
    let a = 0;
    let str = "";
    let join = "";
    if (typeof first === "string") {
      if (args.length === 1) return first;
      let tempStr;
      let lastPos = 0;
      for (let i = 0; i < first.length - 1; i++) {
        if (first.charCodeAt(i) !== 37) continue; // '%'
        const next = first.charCodeAt(++i);
        if (a + 1 !== args.length) {
          switch (next) {
            case 115: { // s
              const arg = args[++a];
              if (typeof arg === "number") tempStr = formatNumber(stylizeNoColor, arg, false);
              else if (typeof arg === "bigint") tempStr = formatBigInt(stylizeNoColor, arg, false);
              else if (typeof arg !== "object" || arg === null || !hasBuiltInToString(arg)) tempStr = String(arg);
              else tempStr = inspect(arg, Object.assign({}, inspectOptions, { depth: 0, colors: false, compact: 3 }));
              break;
            }
            case 106: tempStr = tryStringify(args[++a]); break; // j
            case 100: { // d
              const n = args[++a];
              if (typeof n === "bigint") tempStr = formatBigInt(stylizeNoColor, n, false);
              else if (typeof n === "symbol") tempStr = "NaN";
              else tempStr = formatNumber(stylizeNoColor, Number(n), false);
              break;
            }
            case 79: tempStr = inspect(args[++a], inspectOptions); break; // O
            case 111: // o
              tempStr = inspect(args[++a], Object.assign({}, inspectOptions, { showHidden: true, showProxy: true, depth: 4 }));
              break;
            case 105: { // i
              const n = args[++a];
              if (typeof n === "bigint") tempStr = formatBigInt(stylizeNoColor, n, false);
              else if (typeof n === "symbol") tempStr = "NaN";
              else tempStr = formatNumber(stylizeNoColor, Number.parseInt(n), false);
              break;
            }
            case 102: { // f
              const n = args[++a];
              tempStr = typeof n === "symbol" ? "NaN" : formatNumber(stylizeNoColor, Number.parseFloat(n), false);
              break;
            }
            case 99: a += 1; tempStr = ""; break; // c
            case 37: str += first.slice(lastPos, i); lastPos = i + 1; continue; // %%
            default: continue;
          }
          if (lastPos !== i - 1) str += first.slice(lastPos, i - 1);
          str += tempStr;
          lastPos = i + 1;
        } else if (next === 37) {
          str += first.slice(lastPos, i);
          lastPos = i + 1;
        }
      }
      if (lastPos !== 0) {
        a++;
        join = " ";
        if (lastPos < first.length) str += first.slice(lastPos);
      }
    }
    while (a < args.length) {
      const value = args[a];
      str += join;
      str += typeof value !== "string" ? inspect(value, inspectOptions) : value;
      join = " ";
      a++;
    }
    return str;
  }

  function format(...args) {
    return formatWithOptionsInternal(undefined, args);
  }

  function formatWithOptions(inspectOptions, ...args) {
    if (inspectOptions === null || typeof inspectOptions !== "object")
      throw invalidArgType("inspectOptions", "of type object", inspectOptions);
    return formatWithOptionsInternal(inspectOptions, args);
  }

  /* ---- deep equality (shared with assert) ---- */

  function isDeepEqual(a, b, strict) {
    return deepEqual(a, b, strict, { a: [], b: [] });
  }

  function keysForCompare(v, strict) {
    const keys = Object.keys(v);
    if (strict) {
      for (const s of Object.getOwnPropertySymbols(v)) if (Object.prototype.propertyIsEnumerable.call(v, s)) keys.push(s);
    }
    return keys;
  }

  function deepEqual(a, b, strict, memo) {
    if (a === b) return a !== 0 || !strict || Object.is(a, b);
    if (strict) {
      if (typeof a !== "object" || a === null) return typeof a === "number" && typeof b === "number" && Number.isNaN(a) && Number.isNaN(b);
      if (typeof b !== "object" || b === null) return false;
      if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
    } else {
      if (a === null || typeof a !== "object") {
        if (b === null || typeof b !== "object") {
          // eslint-disable-next-line eqeqeq
          return a == b || (Number.isNaN(a) && Number.isNaN(b));
        }
        return false;
      }
      if (b === null || typeof b !== "object") return false;
    }
    if (objectToString(a) !== objectToString(b)) return false;
    if (Array.isArray(a) !== Array.isArray(b)) return false;
    // cycles: a pair already under comparison is assumed equal
    for (let i = 0; i < memo.a.length; i++) if (memo.a[i] === a && memo.b[i] === b) return true;

    if (Array.isArray(a)) {
      if (a.length !== b.length) return false;
      return compareWith(a, b, strict, memo, true);
    }
    if (isDate(a)) {
      if (!isDate(b) || Date.prototype.getTime.call(a) !== Date.prototype.getTime.call(b)) return false;
    } else if (isRegExp(a)) {
      if (!isRegExp(b) || a.source !== b.source || a.flags !== b.flags || a.lastIndex !== b.lastIndex) return false;
    } else if (isNativeError(a) || a instanceof Error) {
      if (!(isNativeError(b) || b instanceof Error) || a.message !== b.message || a.name !== b.name) return false;
    } else if (ArrayBuffer.isView(a)) {
      if (!ArrayBuffer.isView(b)) return false;
      if (!strict && (types.isFloat32Array(a) || types.isFloat64Array(a))) {
        if (a.length !== b.length) return false;
        for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
      } else {
        if (a.byteLength !== b.byteLength) return false;
        const x = new Uint8Array(a.buffer, a.byteOffset, a.byteLength), y = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
        for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
      }
      return compareWith(a, b, strict, memo, true);
    } else if (isAnyArrayBuffer(a)) {
      if (!isAnyArrayBuffer(b) || a.byteLength !== b.byteLength) return false;
      const x = new Uint8Array(a), y = new Uint8Array(b);
      for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
    } else if (isSet(a)) {
      if (!isSet(b) || a.size !== b.size) return false;
      return compareWith(a, b, strict, memo, false, setEquiv);
    } else if (isMap(a)) {
      if (!isMap(b) || a.size !== b.size) return false;
      return compareWith(a, b, strict, memo, false, mapEquiv);
    } else if (isBoxedPrimitive(a)) {
      if (!isBoxedPrimitive(b)) return false;
      if (!Object.is(a.valueOf(), b.valueOf())) return false;
    } else if (isBoxedPrimitive(b) || ArrayBuffer.isView(b) || isSet(b) || isMap(b) || isDate(b) || isRegExp(b) || isAnyArrayBuffer(b)) {
      return false;
    }
    return compareWith(a, b, strict, memo, false);
  }

  function compareWith(a, b, strict, memo, arrayLike, extra) {
    let keysA = keysForCompare(a, strict);
    let keysB = keysForCompare(b, strict);
    if (arrayLike) {
      const nonIndex = (k) => typeof k === "symbol" || !/^(0|[1-9][0-9]*)$/.test(k);
      keysA = keysA.filter(nonIndex);
      keysB = keysB.filter(nonIndex);
    }
    if (keysA.length !== keysB.length) return false;
    for (const k of keysA) {
      if (!Object.prototype.propertyIsEnumerable.call(b, k)) return false;
    }
    memo.a.push(a);
    memo.b.push(b);
    try {
      if (arrayLike && !ArrayBuffer.isView(a)) {
        for (let i = 0; i < a.length; i++) {
          const hasA = hasOwn(a, i), hasB = hasOwn(b, i);
          if (hasA !== hasB) {
            if (strict) return false;
            if ((hasA ? a[i] : b[i]) !== undefined) return false;
            continue;
          }
          if (!deepEqual(a[i], b[i], strict, memo)) return false;
        }
      }
      if (extra && !extra(a, b, strict, memo)) return false;
      for (const k of keysA) if (!deepEqual(a[k], b[k], strict, memo)) return false;
      return true;
    } finally {
      memo.a.pop();
      memo.b.pop();
    }
  }

  function setEquiv(a, b, strict, memo) {
    const pending = [];
    for (const v of a) {
      if (v !== null && typeof v === "object") pending.push(v);
      else if (!b.has(v)) {
        if (strict) return false;
        pending.push(v);
      }
    }
    if (pending.length === 0) return true;
    const candidates = [];
    for (const v of b) if ((v !== null && typeof v === "object") || !a.has(v)) candidates.push(v);
    for (const v of pending) {
      const i = candidates.findIndex((c) => deepEqual(v, c, strict, memo));
      if (i === -1) return false;
      candidates.splice(i, 1);
    }
    return true;
  }

  function mapEquiv(a, b, strict, memo) {
    const pending = [];
    for (const [k, v] of a) {
      if (k !== null && typeof k === "object") pending.push([k, v]);
      else if (b.has(k) && deepEqual(v, b.get(k), strict, memo)) continue;
      else if (strict) return false;
      else pending.push([k, v]);
    }
    if (pending.length === 0) return true;
    const candidates = [];
    for (const [k, v] of b) if ((k !== null && typeof k === "object") || !a.has(k) || !strict) candidates.push([k, v]);
    for (const [k, v] of pending) {
      const i = candidates.findIndex(([ck, cv]) => deepEqual(k, ck, strict, memo) && deepEqual(v, cv, strict, memo));
      if (i === -1) return false;
      candidates.splice(i, 1);
    }
    return true;
  }

  /* ---- functions ---- */

  function promisify(original) {
    if (typeof original !== "function") throw invalidArgType("original", "of type function", original);
    if (original[promisifyCustom]) {
      const fn = original[promisifyCustom];
      if (typeof fn !== "function") throw invalidArgType("util.promisify.custom", "of type function", fn);
      return Object.defineProperty(fn, promisifyCustom, { value: fn, enumerable: false, writable: false, configurable: true });
    }
    function fn(...args) {
      return new Promise((resolve, reject) => {
        Reflect.apply(original, this, args.concat([(err, ...values) => {
          if (err) return reject(err);
          resolve(values[0]);
        }]));
      });
    }
    Object.setPrototypeOf(fn, Object.getPrototypeOf(original));
    Object.defineProperty(fn, promisifyCustom, { value: fn, enumerable: false, writable: false, configurable: true });
    const descriptors = Object.getOwnPropertyDescriptors(original);
    for (const k of Reflect.ownKeys(descriptors)) {
      if (k === "length" || k === "name" || k === "prototype" || k === promisifyCustom) continue;
      try { Object.defineProperty(fn, k, descriptors[k]); } catch (_) { /* non-configurable: skip */ }
    }
    return fn;
  }
  promisify.custom = promisifyCustom;

  function callbackify(original) {
    if (typeof original !== "function") throw invalidArgType("original", "of type function", original);
    function callbackified(...args) {
      const cb = args.pop();
      if (typeof cb !== "function") throw invalidArgType("last argument", "of type function", cb);
      const onOk = (value) => natives.addTimer(() => Reflect.apply(cb, this, [null, value]), 0, [], false);
      const onErr = (reason) => {
        if (!reason) {
          const err = codedError(Error, "ERR_FALSY_VALUE_REJECTION", "Promise was rejected with falsy value");
          err.reason = reason;
          reason = err;
        }
        natives.addTimer(() => Reflect.apply(cb, this, [reason]), 0, [], false);
      };
      Reflect.apply(original, this, args).then(onOk, onErr);
    }
    Object.defineProperty(callbackified, "name", { value: original.name + "Callbackified", configurable: true });
    Object.defineProperty(callbackified, "length", { value: original.length + 1, configurable: true });
    return callbackified;
  }

  const warnedCodes = new Set();
  function deprecate(fn, msg, code) {
    if (typeof fn !== "function") throw invalidArgType("fn", "of type function", fn);
    let warned = false;
    function deprecated(...args) {
      if (!warned && !(code !== undefined && warnedCodes.has(code))) {
        warned = true;
        if (code !== undefined) warnedCodes.add(code);
        globalThis.console.warn("[" + (code || "DEP0000") + "] DeprecationWarning: " + msg);
      }
      return new.target ? Reflect.construct(fn, args, new.target) : Reflect.apply(fn, this, args);
    }
    Object.setPrototypeOf(deprecated, fn);
    if (fn.prototype) deprecated.prototype = fn.prototype;
    return deprecated;
  }

  function inherits(ctor, superCtor) {
    if (ctor === undefined || ctor === null) throw invalidArgType("ctor", "of type function", ctor);
    if (superCtor === undefined || superCtor === null) throw invalidArgType("superCtor", "of type function", superCtor);
    if (superCtor.prototype === undefined) throw invalidArgType("superCtor.prototype", "of type object", superCtor.prototype);
    Object.defineProperty(ctor, "super_", { value: superCtor, writable: true, configurable: true });
    Object.setPrototypeOf(ctor.prototype, superCtor.prototype);
  }

  function debuglog(section) {
    const log = () => {};
    log.enabled = false;
    return log;
  }

  function toUSVString(str) {
    return String(str).replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");
  }

  function aborted(signal, resource) {
    if (signal === undefined || signal === null || typeof signal !== "object" || !("aborted" in signal))
      throw invalidArgType("signal", "an instance of AbortSignal", signal);
    if (resource === null || (typeof resource !== "object" && typeof resource !== "function"))
      throw invalidArgType("resource", "of type object", resource);
    if (signal.aborted) return Promise.resolve();
    return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
  }

  // Styles apply only with { validateStream: false }: a run's output is never a colour terminal.
  function styleText(format, str, options) {
    if (typeof str !== "string") throw invalidArgType("text", "of type string", str);
    const styled = !!(options && options.validateStream === false);
    const formats = Array.isArray(format) ? format : [format];
    let left = "", right = "";
    for (const f of formats) {
      const code = colors[f];
      if (code === undefined) {
        throw codedError(TypeError, "ERR_INVALID_ARG_VALUE", "The argument 'format' must be one of: " +
          Object.keys(colors).map((k) => "'" + k + "'").join(", ") + ". Received " + inspect(f));
      }
      left += "\u001b[" + code[0] + "m";
      right = "\u001b[" + code[1] + "m" + right;
    }
    return styled ? left + str + right : str;
  }

  function unsupported(what) {
    return () => { throw codedError(Error, "ERR_CHIDORI_UNSUPPORTED", "util." + what + " is not available in chidori"); };
  }

  const isPrimitive = (v) => v === null || (typeof v !== "object" && typeof v !== "function");

  const exports = {
    format, formatWithOptions, inspect, promisify, callbackify, deprecate, inherits, debuglog, debug: debuglog,
    isDeepStrictEqual: (a, b) => isDeepEqual(a, b, true),
    types: Object.freeze(types),
    TextEncoder: text.TextEncoder, TextDecoder: text.TextDecoder,
    stripVTControlCharacters, toUSVString, aborted, styleText,
    getSystemErrorName: unsupported("getSystemErrorName"), getSystemErrorMap: unsupported("getSystemErrorMap"),
    parseArgs: unsupported("parseArgs"), parseEnv: unsupported("parseEnv"),
    isArray: Array.isArray, isBoolean: (v) => typeof v === "boolean", isNull: (v) => v === null,
    isNullOrUndefined: (v) => v === null || v === undefined, isNumber: (v) => typeof v === "number",
    isString: (v) => typeof v === "string", isSymbol: (v) => typeof v === "symbol", isUndefined: (v) => v === undefined,
    isRegExp, isObject: (v) => v !== null && typeof v === "object", isDate, isError: (v) => isNativeError(v) || v instanceof Error,
    isFunction: (v) => typeof v === "function", isPrimitive,
    isBuffer: (v) => { try { return require("buffer").Buffer.isBuffer(v); } catch (_) { return false; } },
    log: (...args) => globalThis.console.log(format(...args)),
    _extend: (target, source) => {
      if (source === null || typeof source !== "object") return target;
      for (const k of Object.keys(source)) target[k] = source[k];
      return target;
    },
  };
  Object.defineProperty(exports, "_isDeepEqual", { value: isDeepEqual, enumerable: false });
  return Object.freeze(exports);
})
