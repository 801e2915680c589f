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
 * plain JavaScript cannot see comes from engine.c's views (loadBuiltin(0), held by this file
 * only): a Promise's state, a Map/Set iterator's remaining entries, a Proxy's target and handler
 * (read from its slots, so none of its traps runs).
 *
 * Exports one internal helper non-enumerably: `_isDeepEqual(a, b, strict)`, shared with assert. */
(function (require, natives, name) {
  "use strict";
  const text = require("internal/text");
  const { codedError, invalidArgType, codeOfNodeError } = require("internal/captures_util");
  // Every builtin used below was captured before guest code ran (primordials.js,
  // internal/captures_util): a guest that replaces String.prototype.slice, Array.prototype.push,
  // RegExp.prototype.exec, Object.keys, JSON.stringify, Math.max … changes nothing here. Lists
  // this file fills have no prototype (setters on Array.prototype never run); regular expressions
  // run through the captured exec (never Symbol.replace/split).
  const C = require("internal/captures_util");
  const u = C.uncurryThis;
  const { ReflectApply, ReflectOwnKeys, ReflectConstruct, ObjectKeys, ObjectHasOwn, ObjectDefineProperty, ObjectGetPrototypeOf,
    ObjectGetOwnPropertyDescriptor, ObjectGetOwnPropertyDescriptors, ObjectGetOwnPropertyNames, ObjectGetOwnPropertySymbols,
    ObjectIs, ObjectCreate, ObjectFreeze, ObjectSetPrototypeOf, ArrayIsArray, StringCtor, NumberIsNaN, NumberIsFinite,
    NumberParseInt, NumberParseFloat, MathMin, MathMax, MathRound, MathSqrt, MathFloor, JSONStringify, SymbolCtor, SymbolFor,
    ErrorCtor, TypeErrorCtor, RangeErrorCtor, RegExpCtor, MapCtor, SetCtor, DateCtor, BooleanCtor, BigIntCtor, WeakMapCtor,
    WeakSetCtor, ArrayBufferCtor, SharedArrayBufferCtor, DataViewCtor, Uint8ArrayCtor, PromiseCtor, ArrayBufferIsView,
    list } = C;
  const StringSlice = u(C.StringPrototypeSlice), StringIndexOf = u(C.StringPrototypeIndexOf);
  const StringIncludes = u(C.StringPrototypeIncludes), StringStartsWith = u(C.StringPrototypeStartsWith);
  const StringEndsWith = u(C.StringPrototypeEndsWith), StringRepeat = u(C.StringPrototypeRepeat);
  const StringPadStart = u(C.StringPrototypePadStart), StringPadEnd = u(C.StringPrototypePadEnd);
  const StringCharCodeAt = u(C.StringPrototypeCharCodeAt), StringToUpperCase = u(C.StringPrototypeToUpperCase);
  const StringValueOf = u(C.StringPrototypeValueOf), NumberToString = u(C.NumberPrototypeToString);
  const NumberValueOf = u(C.NumberPrototypeValueOf), BooleanValueOf = u(C.BooleanPrototypeValueOf);
  const BigIntValueOf = u(C.BigIntPrototypeValueOf), SymbolToString = u(C.SymbolPrototypeToString);
  const SymbolValueOf = u(C.SymbolPrototypeValueOf), DateGetTime = u(C.DatePrototypeGetTime);
  const DateToISOString = u(C.DatePrototypeToISOString);
  const RegExpExec = u(C.RegExpPrototypeExec), FunctionToString = u(C.FunctionPrototypeToString);
  const ErrorToString = u(C.ErrorPrototypeToString), ArrayJoin = u(C.ArrayPrototypeJoin);
  const ArraySort = u(C.ArrayPrototypeSort), ArraySplice = u(C.ArrayPrototypeSplice);
  const ArrayIndexOf = u(C.ArrayPrototypeIndexOf), ArrayIncludes = u(C.ArrayPrototypeIncludes);
  const ArrayPop = u(C.ArrayPrototypePop), ArrayUnshift = u(C.ArrayPrototypeUnshift);
  const MapGet = u(C.MapPrototypeGet), MapSet = u(C.MapPrototypeSet), MapHas = u(C.MapPrototypeHas);
  const MapForEach = u(C.MapPrototypeForEach), MapGetSize = u(C.MapPrototypeGetSize);
  const SetHas = u(C.SetPrototypeHas), SetAdd = u(C.SetPrototypeAdd), SetForEach = u(C.SetPrototypeForEach);
  const SetGetSize = u(C.SetPrototypeGetSize), WeakMapHas = u(C.WeakMapPrototypeHas), WeakSetHas = u(C.WeakSetPrototypeHas);
  const HasInstance = C.FunctionPrototypeHasInstance;
  const objectToString = u(C.ObjectPrototypeToString), propertyIsEnumerable = u(C.ObjectPrototypePropertyIsEnumerable);
  const hasOwn = (o, k) => ObjectHasOwn(o, k);
  // a field of a property descriptor, never inherited (a guest may put `get` on Object.prototype)
  const field = (desc, k) => (ObjectHasOwn(desc, k) ? desc[k] : undefined);
  // `v instanceof Ctor` without reading Ctor[Symbol.hasInstance] (a guest may define one on a builtin)
  const isInstance = (v, Ctor) => ReflectApply(HasInstance, Ctor, [v]);
  // a.push(v) for a list this file made (no prototype: a[a.length] = v is an own write)
  const append = (a, v) => { a[a.length] = v; };
  // A copy of an array's elements into a list without a prototype.
  function listOf(a) {
    const out = list();
    for (let i = 0; i < a.length; i++) out[i] = a[i];
    return out;
  }
  // A fresh object with the own enumerable properties of each source, defined (no setter on
  // Object.prototype runs): Object.assign({}, ...sources) without the live Object.assign.
  function assignNew(a, b) {
    const out = {};
    const sources = [a, b];
    for (let s = 0; s < 2; s++) {
      const src = sources[s];
      if (src === null || src === undefined) continue;
      const keys = ObjectKeys(src);
      for (let i = 0; i < keys.length; i++) C.defineValue(out, keys[i], src[keys[i]]);
    }
    return out;
  }
  // RegExp#test through the captured exec, for a regular expression without the g or y flag.
  const reTest = (re, s) => RegExpExec(re, s) !== null;
  // s.replace(re, fn) for a global `re` of this file, through the captured exec.
  function reReplace(re, s, fn) {
    re.lastIndex = 0;
    let out = "", last = 0, m;
    while ((m = RegExpExec(re, s)) !== null) {
      const hit = m[0];
      out += StringSlice(s, last, m.index) + (typeof fn === "string" ? fn : fn(hit));
      last = m.index + hit.length;
      if (hit.length === 0) re.lastIndex++;
    }
    return last === 0 ? s : out + StringSlice(s, last);
  }
  // s.split(sep) for a non-empty string separator, into a list; with `keep`, each piece but the
  // last keeps its separator (s.split(/(?<=\n)/) for sep "\n").
  function splitString(s, sep, keep) {
    const out = list();
    let from = 0, at;
    while ((at = StringIndexOf(s, sep, from)) !== -1) {
      out[out.length] = StringSlice(s, from, keep ? at + sep.length : at);
      from = at + sep.length;
    }
    if (!keep || from < s.length) out[out.length] = StringSlice(s, from);
    return out;
  }
  // list.join(sep) for any array-like, with the captured join.
  const join = (a, sep) => ArrayJoin(a, sep);

  const customInspect = SymbolFor("nodejs.util.inspect.custom");
  const promisifyCustom = SymbolFor("nodejs.util.promisify.custom");
  const SymbolToStringTag = SymbolCtor.toStringTag, SymbolIterator = SymbolCtor.iterator;

  /* ---- brand checks ---- */

  function brand(fn, Ctor, tag) {
    const tagText = "[object " + tag + "]";
    return (v) => {
      if (v === null || typeof v !== "object") return false;
      // cheap filters first; an object with no prototype (Object.setPrototypeOf(new Set(), null))
      // keeps its internal slots, so the engine's own check decides for it as in Node
      if (!isInstance(v, Ctor) && objectToString(v) !== tagText && ObjectGetPrototypeOf(v) !== null) return false;
      try { fn(v); return true; } catch (_) { return false; }
    };
  }
  const typedArrayTag = u(C.TypedArrayPrototypeGetToStringTag), typedArrayLength = u(C.TypedArrayPrototypeGetLength);
  const mapSize = MapGetSize;
  const setSize = SetGetSize;
  const abByteLength = u(C.ArrayBufferPrototypeGetByteLength);
  const sabByteLength = C.SharedArrayBufferPrototypeGetByteLength ? u(C.SharedArrayBufferPrototypeGetByteLength) : null;
  const dvByteLength = u(C.DataViewPrototypeGetByteLength);
  const regexpSource = u(C.RegExpPrototypeGetSource);
  // RegExp.prototype.toString reads `source` and `flags` (and `flags` each flag) through the live
  // prototype; this reads the captured getters, in the order `flags` lists them
  const REGEXP_FLAGS = [[C.RegExpPrototypeGetHasIndices, "d"], [C.RegExpPrototypeGetGlobal, "g"],
    [C.RegExpPrototypeGetIgnoreCase, "i"], [C.RegExpPrototypeGetMultiline, "m"], [C.RegExpPrototypeGetDotAll, "s"],
    [C.RegExpPrototypeGetUnicode, "u"], [C.RegExpPrototypeGetUnicodeSets, "v"], [C.RegExpPrototypeGetSticky, "y"]];
  function regexpFlags(re) {
    let flags = "";
    for (let i = 0; i < REGEXP_FLAGS.length; i++) {
      const getter = REGEXP_FLAGS[i][0];
      if (getter !== undefined && ReflectApply(getter, re, [])) flags += REGEXP_FLAGS[i][1];
    }
    return flags;
  }
  const regexpText = (re) => "/" + regexpSource(re) + "/" + regexpFlags(re);
  // the prototypes of the function kinds, from syntax (no .constructor read)
  const AsyncFunctionPrototype = ObjectGetPrototypeOf(async function () {});
  const GeneratorFunctionPrototype = ObjectGetPrototypeOf(function* () {});
  const AsyncGeneratorFunctionPrototype = ObjectGetPrototypeOf(async function* () {});
  function inherits_(v, proto) {
    for (let o = ObjectGetPrototypeOf(v); o !== null; o = ObjectGetPrototypeOf(o)) if (o === proto) return true;
    return false;
  }

  const isDate = brand((v) => DateGetTime(v), DateCtor, "Date");
  const regexpBrand = brand((x) => regexpSource(x), RegExpCtor, "RegExp");
  const isRegExp = (v) => v !== RegExpCtor.prototype && regexpBrand(v);
  const isMap = brand((v) => mapSize(v), MapCtor, "Map");
  const isSet = brand((v) => setSize(v), SetCtor, "Set");
  const isWeakMap = brand((v) => WeakMapHas(v, {}), WeakMapCtor, "WeakMap");
  const isWeakSet = brand((v) => WeakSetHas(v, {}), WeakSetCtor, "WeakSet");
  const isArrayBuffer = brand((v) => abByteLength(v), ArrayBufferCtor, "ArrayBuffer");
  const isSharedArrayBuffer = sabByteLength ? brand((v) => sabByteLength(v), SharedArrayBufferCtor, "SharedArrayBuffer") : () => false;
  const isAnyArrayBuffer = (v) => isArrayBuffer(v) || isSharedArrayBuffer(v);
  const isDataView = brand((v) => dvByteLength(v), DataViewCtor, "DataView");
  const isTypedArray = (v) => typedArrayTag(v) !== undefined;
  const typedIs = (tag) => (v) => typedArrayTag(v) === tag;
  const isNumberObject = brand((v) => NumberValueOf(v), C.NumberCtor, "Number");
  const isStringObject = brand((v) => StringValueOf(v), StringCtor, "String");
  const isBooleanObject = brand((v) => BooleanValueOf(v), BooleanCtor, "Boolean");
  const isSymbolObject = brand((v) => SymbolValueOf(v), SymbolCtor, "Symbol");
  const isBigIntObject = brand((v) => BigIntValueOf(v), BigIntCtor, "BigInt");
  const isBoxedPrimitive = (v) => isNumberObject(v) || isStringObject(v) || isBooleanObject(v) || isSymbolObject(v) || isBigIntObject(v);
  // A promise is what the engine made as one (its state slot), as V8's check: not an object that
  // merely inherits from Promise.prototype. engine.c's promiseState, fetched on first use.
  let promiseStateNative;
  const promiseDetails = (v) => {
    if (promiseStateNative === undefined) promiseStateNative = require(0).promiseState;
    return promiseStateNative(v);
  };
  const isPromise = (v) => v !== null && typeof v === "object" && promiseDetails(v) !== undefined;
  // Map/Set iterators by the engine's class (not Symbol.toStringTag), and what they have yet to
  // yield, read without moving them: [items, kind (0 keys, 1 values, 2 entries), isSet].
  let iteratorPreviewNative;
  const iteratorPreview = (v) => {
    if (v === null || typeof v !== "object") return undefined;
    if (iteratorPreviewNative === undefined) iteratorPreviewNative = require(0).iteratorPreview;
    return iteratorPreviewNative(v);
  };
  // A proxy's target and handler read from the engine's slots, so no trap runs (engine.c's
  // proxyDetails, fetched on first use): undefined for anything else; [target, handler] when
  // `full`, else the target; null in their place for a revoked proxy. Only util.inspect's text
  // shows them (with showProxy), as in Node: nothing here hands a handler to guest code.
  let proxyDetailsNative;
  const proxyDetails = (v, full) => {
    if (v === null || (typeof v !== "object" && typeof v !== "function")) return undefined;
    if (proxyDetailsNative === undefined) proxyDetailsNative = require(0).proxyDetails;
    return proxyDetailsNative(v, full);
  };
  const isProxy = (v) => proxyDetails(v, false) !== undefined;
  const isMapIterator = (v) => { const p = iteratorPreview(v); return p !== undefined && !p[2]; };
  const isSetIterator = (v) => { const p = iteratorPreview(v); return p !== undefined && p[2]; };
  const isNativeError = (v) => isInstance(v, ErrorCtor) || (v !== null && typeof v === "object" && objectToString(v) === "[object Error]" &&
    !hasOwn(v, SymbolToStringTag) && !(SymbolToStringTag in v));
  // The kind of a function, from its source text as the engine keeps it (Node reads the engine's
  // kind; a changed prototype does not change it): 1 async, 2 generator, 3 async generator, 0
  // neither. Where the text is unavailable, the prototype chain decides.
  const ASYNC_GENERATOR_SOURCE = /^async\s*(?:function\b\s*)?\*/;
  const GENERATOR_SOURCE = /^(?:function\b\s*)?\*/;
  const ASYNC_SOURCE = /^async(?:\s+function\b|\s+[A-Za-z_$][\w$]*\s*(?:=>|\()|\s*\[)/;
  const ASYNC_PAREN = /^async\s*\(/;
  // `async (…) =>` is an async arrow; `async(…) {` is a method named async
  function isAsyncArrow(source) {
    let depth = 0, i = StringIndexOf(source, "(");
    for (; i < source.length; i++) {
      const c = StringCharCodeAt(source, i);
      if (c === 40) depth++;
      else if (c === 41 && --depth === 0) break;
    }
    return reTest(ARROW_AFTER, StringSlice(source, i + 1));
  }
  const ARROW_AFTER = /^\s*=>/;
  function functionKind(v) {
    let source;
    try { source = FunctionToString(v); } catch (_) { source = null; }
    if (typeof source === "string") {
      if (StringIncludes(source, "[native code]")) return 0; // built-in or bound: a plain function
      if (reTest(ASYNC_GENERATOR_SOURCE, source)) return 3;
      if (reTest(GENERATOR_SOURCE, source)) return 2;
      if (reTest(ASYNC_SOURCE, source)) return 1;
      if (reTest(ASYNC_PAREN, source) && isAsyncArrow(source)) return 1;
      return 0;
    }
    if (inherits_(v, AsyncGeneratorFunctionPrototype)) return 3;
    if (inherits_(v, GeneratorFunctionPrototype)) return 2;
    if (inherits_(v, AsyncFunctionPrototype)) return 1;
    return 0;
  }
  const isAsyncFunction = (v) => typeof v === "function" && (functionKind(v) & 1) === 1;
  const isGeneratorFunction = (v) => typeof v === "function" && (functionKind(v) & 2) === 2;
  const tagIs = (tag) => (v) => v !== null && typeof v === "object" && objectToString(v) === "[object " + tag + "]";
  const isArgumentsObject = (v) => tagIs("Arguments")(v) && !(SymbolToStringTag in v);
  const isModuleNamespaceObject = (v) => v !== null && typeof v === "object" && ObjectGetPrototypeOf(v) === null &&
    v[SymbolToStringTag] === "Module" && !field(ObjectGetOwnPropertyDescriptor(v, SymbolToStringTag), "writable");

  const types = {
    isDate, isRegExp, isMap, isSet, isWeakMap, isWeakSet, isArrayBuffer, isSharedArrayBuffer, isAnyArrayBuffer, isDataView,
    isTypedArray, isArrayBufferView: (v) => ArrayBufferIsView(v),
    isUint8Array: typedIs("Uint8Array"), isUint8ClampedArray: typedIs("Uint8ClampedArray"), isUint16Array: typedIs("Uint16Array"),
    isUint32Array: typedIs("Uint32Array"), isInt8Array: typedIs("Int8Array"), isInt16Array: typedIs("Int16Array"),
    isInt32Array: typedIs("Int32Array"), isFloat32Array: typedIs("Float32Array"), isFloat64Array: typedIs("Float64Array"),
    isBigInt64Array: typedIs("BigInt64Array"), isBigUint64Array: typedIs("BigUint64Array"),
    isNumberObject, isStringObject, isBooleanObject, isSymbolObject, isBigIntObject, isBoxedPrimitive,
    isPromise, isNativeError, isAsyncFunction, isGeneratorFunction,
    isGeneratorObject: tagIs("Generator"), isMapIterator, isSetIterator,
    isArgumentsObject, isModuleNamespaceObject,
    isProxy, isExternal: () => false, isKeyObject: () => false, isCryptoKey: () => false,
  };

  /* ---- inspect ---- */

  const defaultOptions = {
    showHidden: false, depth: 2, colors: false, customInspect: true, showProxy: false, maxArrayLength: 100,
    maxStringLength: 10000, breakLength: 80, compact: 3, sorted: false, getters: false, numericSeparator: false,
  };

  const colors = {
    __proto__: null,
    reset: [0, 0], bold: [1, 22], dim: [2, 22], italic: [3, 23], underline: [4, 24], blink: [5, 25], inverse: [7, 27],
    hidden: [8, 28], strikethrough: [9, 29], doubleunderline: [21, 24], black: [30, 39], red: [31, 39], green: [32, 39],
    yellow: [33, 39], blue: [34, 39], magenta: [35, 39], cyan: [36, 39], white: [37, 39], bgBlack: [40, 49], bgRed: [41, 49],
    bgGreen: [42, 49], bgYellow: [43, 49], bgBlue: [44, 49], bgMagenta: [45, 49], bgCyan: [46, 49], bgWhite: [47, 49],
    framed: [51, 54], overlined: [53, 55], gray: [90, 39], redBright: [91, 39], greenBright: [92, 39], yellowBright: [93, 39],
    blueBright: [94, 39], magentaBright: [95, 39], cyanBright: [96, 39], whiteBright: [97, 39], bgGray: [100, 49],
    bgRedBright: [101, 49], bgGreenBright: [102, 49], bgYellowBright: [103, 49], bgBlueBright: [104, 49],
    bgMagentaBright: [105, 49], bgCyanBright: [106, 49], bgWhiteBright: [107, 49],
  };
  // Node's aliases: non-enumerable accessors that read and write the colour they name
  const COLOR_ALIASES = [["grey", "gray"], ["blackBright", "gray"], ["bgGrey", "bgGray"], ["bgBlackBright", "bgGray"],
    ["faint", "dim"], ["crossedout", "strikethrough"], ["strikeThrough", "strikethrough"], ["crossedOut", "strikethrough"],
    ["conceal", "hidden"], ["swapColors", "inverse"], ["swapcolors", "inverse"], ["doubleUnderline", "doubleunderline"]];
  for (let i = 0; i < COLOR_ALIASES.length; i++) {
    const target = COLOR_ALIASES[i][1];
    ObjectDefineProperty(colors, COLOR_ALIASES[i][0], { __proto__: null, enumerable: false, configurable: true,
      get() { return this[target]; }, set(value) { this[target] = value; } });
  }
  const styles = {
    __proto__: null,
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
    return reReplace(ANSI, str, "");
  }
  const visibleLength = (ctx, s) => (ctx.colors ? reReplace(ANSI, s, "").length : s.length);

  // Escapes for code points below 0x80 (empty: printed as is).
  const ESCAPES = list();
  for (let i = 0; i < 0x80; i++) append(ESCAPES, i < 0x20 || i === 0x7f ? "\\x" + StringPadStart(StringToUpperCase(NumberToString(i, 16)), 2, "0") : "");
  ESCAPES[8] = "\\b"; ESCAPES[9] = "\\t"; ESCAPES[10] = "\\n"; ESCAPES[12] = "\\f"; ESCAPES[13] = "\\r"; ESCAPES[0x5c] = "\\\\";

  // A string literal with the quote Node picks: ' unless the text has ' and lacks " (then ") or
  // has both and lacks ` (then `).
  function quoteString(str) {
    let quote = "'";
    if (StringIndexOf(str, "'") >= 0) {
      if (StringIndexOf(str, '"') < 0) quote = '"';
      else if (StringIndexOf(str, "`") < 0 && StringIndexOf(str, "${") < 0) quote = "`";
    }
    let out = "";
    let last = 0;
    for (let i = 0; i < str.length; i++) {
      const c = StringCharCodeAt(str, i);
      let esc = "";
      if (c < 0x80) {
        esc = ESCAPES[c];
        if (c === StringCharCodeAt(quote, 0)) esc = "\\" + quote;
      } else if (c <= 0x9f) {
        esc = "\\x" + StringToUpperCase(NumberToString(c, 16));
      } else if (c >= 0xd800 && c <= 0xdfff) {
        if (c <= 0xdbff && i + 1 < str.length) {
          const d = StringCharCodeAt(str, i + 1);
          if (d >= 0xdc00 && d <= 0xdfff) { i++; continue; }
        }
        esc = "\\u" + NumberToString(c, 16);
      }
      if (esc) {
        out += StringSlice(str, last, i) + esc;
        last = i + 1;
      }
    }
    return quote + out + StringSlice(str, last) + quote;
  }

  function groupNumber(s) {
    const neg = s[0] === "-";
    if (neg) s = StringSlice(s, 1);
    const dot = StringIndexOf(s, ".");
    let int = dot === -1 ? s : StringSlice(s, 0, dot);
    const frac = dot === -1 ? undefined : StringSlice(s, dot + 1);
    let out = "";
    while (int.length > 3) { out = "_" + StringSlice(int, -3) + out; int = StringSlice(int, 0, -3); }
    out = int + out;
    if (frac !== undefined) {
      let f = "";
      for (let i = 0; i < frac.length; i += 3) f += (i ? "_" : "") + StringSlice(frac, i, i + 3);
      out += "." + f;
    }
    return (neg ? "-" : "") + out;
  }

  function formatNumber(stylize, n, separator) {
    if (ObjectIs(n, -0)) return stylize(separator ? "0" : "-0", "number"); // Node's grouping path prints -0 as 0
    const s = StringCtor(n);
    if (separator && NumberIsFinite(n) && StringIndexOf(s, "e") < 0) return stylize(groupNumber(s), "number");
    return stylize(s, "number");
  }

  function formatBigInt(stylize, n, separator) {
    const s = StringCtor(n);
    return stylize((separator ? groupNumber(s) : s) + "n", "bigint");
  }

  function formatPrimitive(ctx, value) {
    const stylize = ctx.stylize;
    switch (typeof value) {
      case "string": {
        let trailer = "";
        if (value.length > ctx.maxStringLength) {
          const remaining = value.length - ctx.maxStringLength;
          value = StringSlice(value, 0, ctx.maxStringLength);
          trailer = "... " + remaining + " more character" + (remaining > 1 ? "s" : "");
        }
        if (ctx.compact !== true && value.length > 16 && value.length > ctx.breakLength - ctx.indentationLvl - 4) {
          const lines = splitString(value, "\n", true);
          for (let i = 0; i < lines.length; i++) lines[i] = stylize(quoteString(lines[i]), "string");
          return join(lines, " +\n" + StringRepeat(" ", ctx.indentationLvl + 2)) + trailer;
        }
        return stylize(quoteString(value), "string") + trailer;
      }
      case "number": return formatNumber(stylize, value, ctx.numericSeparator);
      case "bigint": return formatBigInt(stylize, value, ctx.numericSeparator);
      case "boolean": return stylize(StringCtor(value), "boolean");
      case "undefined": return stylize("undefined", "undefined");
      default: return stylize(SymbolToString(value), "symbol");
    }
  }

  // The name of the nearest constructor on the prototype chain (null for a null-prototype object).
  // With showHidden, the properties a class's prototype (up to three levels, above no built-in
  // one) adds to an instance and the instance lacks, methods aside, as Node lists them.
  function addPrototypeProperties(ctx, main, obj, recurseTimes, output) {
    let depth = 0;
    let keys = null;
    const seenKeys = new SetCtor();
    do {
      if (depth !== 0 || main === obj) {
        obj = ObjectGetPrototypeOf(obj);
        if (obj === null) return;
        const desc = ObjectGetOwnPropertyDescriptor(obj, "constructor");
        const ctorValue = desc === undefined ? undefined : field(desc, "value");
        if (typeof ctorValue === "function" && SetHas(builtinConstructors, ctorValue.name)) return;
      }
      if (depth !== 0) for (let i = 0; i < keys.length; i++) SetAdd(seenKeys, keys[i]);
      keys = ReflectOwnKeys(obj);
      append(ctx.seen, main);
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i];
        if (key === "constructor" || hasOwn(main, key) || (depth !== 0 && SetHas(seenKeys, key))) continue;
        const desc = ObjectGetOwnPropertyDescriptor(obj, key);
        if (typeof field(desc, "value") === "function") continue;
        const text = formatProperty(ctx, obj, recurseTimes, key, kObjectType, main); // a getter runs on the object shown
        append(output, ctx.colors ? "\u001b[2m" + text + "\u001b[22m" : text);
      }
      ArrayPop(ctx.seen);
    } while (++depth !== 3);
  }

  function constructorName(obj, ctx, recurseTimes, protoProps) {
    let first;
    const original = obj;
    let o = obj;
    while (o !== null && o !== undefined) {
      const desc = ObjectGetOwnPropertyDescriptor(o, "constructor");
      const ctorValue = desc === undefined ? undefined : field(desc, "value");
      if (typeof ctorValue === "function" && ctorValue.name !== "") {
        let instance = false;
        try { instance = isInstance(original, ctorValue); } catch (_) { instance = false; }
        if (instance) {
          if (protoProps !== undefined && (first !== o || !SetHas(builtinConstructors, ctorValue.name)))
            addPrototypeProperties(ctx, original, first || original, recurseTimes, protoProps);
          return StringCtor(ctorValue.name);
        }
      }
      o = ObjectGetPrototypeOf(o);
      if (first === undefined) first = o;
    }
    if (first === null) return null;
    const base = builtinTag(original);
    if (recurseTimes > ctx.depth && ctx.depth !== null) return base + " <Complex prototype>";
    const protoName = constructorName(first, ctx, recurseTimes + 1);
    if (protoName === null) {
      return base + " <" + inspect(first, assignNew(ctx.userOptions, { __proto__: null, customInspect: false, depth: -1 })) + ">";
    }
    return base + " <" + protoName + ">";
  }

  function builtinTag(v) {
    const tag = objectToString(v);
    return StringSlice(tag, 8, -1);
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

  const INDEX_KEY = /^(0|[1-9][0-9]*)$/;
  function ownKeys(value, showHidden, nonIndex) {
    let names;
    const symbols = ObjectGetOwnPropertySymbols(value);
    names = showHidden ? ObjectGetOwnPropertyNames(value) : ObjectKeys(value);
    const keys = list();
    for (let i = 0; i < names.length; i++) {
      const k = names[i];
      if (nonIndex && reTest(INDEX_KEY, k) && C.NumberCtor(k) < 4294967295) continue;
      keys[keys.length] = k;
    }
    for (let i = 0; i < symbols.length; i++) {
      if (showHidden || propertyIsEnumerable(value, symbols[i])) keys[keys.length] = symbols[i];
    }
    return keys;
  }

  function functionBase(value, ctor, tag) {
    let source = "";
    try { source = FunctionToString(value); } catch (_) { source = ""; }
    if (StringStartsWith(source, "class") && StringEndsWith(source, "}")) {
      const body = StringSlice(source, 5, -1);
      const brace = StringIndexOf(body, "{");
      if (brace !== -1 && (!StringIncludes(StringSlice(body, 0, brace), "(") || reTest(/^\s*(?:[^\s(]+\s+)?extends\b/, body))) {
        const name = (hasOwn(value, "name") && value.name) || "(anonymous)";
        let base = "class " + name;
        if (ctor !== "Function" && ctor !== null) base += " [" + ctor + "]";
        if (tag !== "" && ctor !== tag) base += " [" + tag + "]";
        if (ctor !== null) {
          const superName = ObjectGetPrototypeOf(value).name;
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
    base += value.name === "" ? " (anonymous)" : ": " + StringCtor(value.name);
    base += "]";
    if (ctor !== type && ctor !== null) base += " " + ctor;
    if (tag !== "" && ctor !== tag) base += " [" + tag + "]";
    return base;
  }

  function formatError(err, ctor, tag, ctx, keys) {
    const nameText = err.name != null ? StringCtor(err.name) : "Error";
    const messageText = err.message != null ? StringCtor(err.message) : "";
    let stack = "";
    try { stack = err.stack ? StringCtor(err.stack) : ""; } catch (_) { stack = ""; }
    let head;
    try { head = ErrorToString(err); } catch (_) { head = nameText; }
    const nodeCode = codeOfNodeError(err);
    if (nodeCode !== undefined && StringStartsWith(head, nameText)) head = nameText + " [" + nodeCode + "]" + StringSlice(head, nameText.length);
    // QuickJS keeps only the frames in `stack`; V8 starts it with "Name: message".
    let text = stack;
    if (!stack || reTest(/^\s+at /, stack)) {
      let end = stack.length;
      while (end > 0 && StringCharCodeAt(stack, end - 1) === 10) end--;
      text = head + (stack ? "\n" + StringSlice(stack, 0, end) : "");
    }
    // Drop keys already shown in the text.
    const shownKeys = ["name", "message", "stack"];
    for (let n = 0; n < 3; n++) {
      const k = shownKeys[n];
      const i = ArrayIndexOf(keys, k);
      if (i !== -1 && (k === "stack" || StringIncludes(text, StringCtor(err[k])))) ArraySplice(keys, i, 1);
    }
    text = improveHead(text, ctor, nameText, tag);
    if ("cause" in err && (keys.length === 0 || !ArrayIncludes(keys, "cause"))) {
      const desc = ObjectGetOwnPropertyDescriptor(err, "cause");
      if (desc && !desc.enumerable) append(keys, "cause");
    }
    if (ArrayIsArray(err.errors) && !ArrayIncludes(keys, "errors")) {
      const desc = ObjectGetOwnPropertyDescriptor(err, "errors");
      if (desc && !desc.enumerable) append(keys, "errors");
    }
    const atLine = StringIndexOf(text, "\n    at");
    if (atLine === -1) text = "[" + text + "]";
    if (ctx.indentationLvl !== 0) {
      const indentation = StringRepeat(" ", ctx.indentationLvl);
      text = join(splitString(text, "\n", false), "\n" + indentation);
    }
    return text;
  }

  // Names the constructor in the first line of a "regular" error ("Name: message") when it differs
  // from the error's name, as Node does: class MyError → "MyError: msg"; a TypeError whose
  // constructor is Foo → "Foo [TypeError]: msg".
  function improveHead(text, ctor, errName, tag) {
    let len = errName.length;
    const regular = StringEndsWith(errName, "Error") && StringStartsWith(text, errName) &&
      (text.length === len || text[len] === ":" || text[len] === "\n");
    if (ctor !== null && !regular) return text;
    let fallback = "Error";
    if (ctor === null) {
      const m = RegExpExec(/^([A-Z][a-z_ A-Z0-9[\]()-]+)(?::|\n\s+at)/, text) || RegExpExec(/^([a-z_A-Z0-9-]*Error)$/, text);
      fallback = (m && m[1]) || "";
      len = fallback.length;
      fallback = fallback || "Error";
    }
    const shown = StringSlice(prefixOf(ctor, tag, fallback), 0, -1);
    if (errName === shown) return text;
    if (StringIncludes(shown, errName)) return len === 0 ? shown + ": " + text : shown + StringSlice(text, len);
    return shown + " [" + errName + "]" + StringSlice(text, len);
  }

  function formatValue(ctx, value, recurseTimes, typedArray) {
    if (typeof value !== "object" && typeof value !== "function") return formatPrimitive(ctx, value);
    if (value === null) return ctx.stylize("null", "null");
    // A proxy is never walked (its traps would run): it is shown as its target, or with showProxy
    // as `Proxy [ target, handler ]`; a custom inspector of the target is called on the proxy.
    const context = value;
    const proxy = proxyDetails(value, !!ctx.showProxy);
    if (proxy !== undefined) {
      if (proxy === null || proxy[0] === null) return ctx.stylize("<Revoked Proxy>", "special");
      if (ctx.showProxy) return formatProxy(ctx, proxy, recurseTimes);
      value = proxy;
    }
    if (ctx.customInspect) {
      let maybeCustom;
      try { maybeCustom = value[customInspect]; } catch (_) { maybeCustom = undefined; }
      if (typeof maybeCustom === "function" && maybeCustom !== inspect &&
          !(value.constructor && value.constructor.prototype === value)) {
        const depth = ctx.depth === null ? null : ctx.depth - recurseTimes;
        const options = assignNew(ctx.userOptions, { __proto__: null, depth, stylize: ctx.stylize });
        const ret = ReflectApply(maybeCustom, context, [depth, options, inspect]);
        if (ret !== context) {
          if (typeof ret !== "string") return formatValue(ctx, ret, recurseTimes);
          return join(splitString(ret, "\n", false), "\n" + StringRepeat(" ", ctx.indentationLvl));
        }
      }
    }
    if (ArrayIncludes(ctx.seen, value)) {
      let index = 1;
      if (ctx.circular === undefined) {
        ctx.circular = new MapCtor();
        MapSet(ctx.circular, value, index);
      } else {
        index = MapGet(ctx.circular, value);
        if (index === undefined) {
          index = MapGetSize(ctx.circular) + 1;
          MapSet(ctx.circular, value, index);
        }
      }
      return ctx.stylize("[Circular *" + index + "]", "special");
    }
    return formatRaw(ctx, value, recurseTimes, typedArray);
  }

  const kObjectType = 0, kArrayType = 1, kArrayExtrasType = 2;

  function formatProxy(ctx, proxy, recurseTimes) {
    if (recurseTimes > ctx.depth && ctx.depth !== null) return ctx.stylize("Proxy [Array]", "special");
    recurseTimes += 1;
    ctx.indentationLvl += 2;
    const res = list();
    append(res, formatValue(ctx, proxy[0], recurseTimes));
    append(res, formatValue(ctx, proxy[1], recurseTimes));
    ctx.indentationLvl -= 2;
    return reduceToSingleString(ctx, res, "", ["Proxy [", "]"], kArrayExtrasType, recurseTimes);
  }

  function formatRaw(ctx, value, recurseTimes, typedArray) {
    let keys;
    let protoProps;
    if (ctx.showHidden && (recurseTimes <= ctx.depth || ctx.depth === null)) protoProps = list();
    const ctor = constructorName(value, ctx, recurseTimes, protoProps);
    if (protoProps !== undefined && protoProps.length === 0) protoProps = undefined;
    let tag = "";
    try { tag = value[SymbolToStringTag]; } catch (_) { tag = ""; }
    // A tag that is an own enumerable property is printed with the keys, not twice.
    if (typeof tag !== "string" || (tag !== "" && (ctx.showHidden ? hasOwn(value, SymbolToStringTag)
      : propertyIsEnumerable(value, SymbolToStringTag)))) tag = "";
    let base = "";
    let formatter = () => list();
    let braces;
    let extrasType = kObjectType;
    let noIterator = true;

    if (SymbolIterator in value || ctor === null) {
      noIterator = false;
      if (ArrayIsArray(value)) {
        const prefix = ctor !== "Array" || tag !== "" ? prefixOf(ctor, tag, "Array", "(" + value.length + ")") : "";
        keys = ownKeys(value, ctx.showHidden, true);
        braces = [prefix + "[", "]"];
        if (value.length === 0 && keys.length === 0 && protoProps === undefined) return braces[0] + "]";
        extrasType = kArrayExtrasType;
        formatter = formatArray;
      } else if (isSet(value)) {
        const size = setSize(value);
        const prefix = prefixOf(ctor, tag, "Set", "(" + size + ")");
        keys = ownKeys(value, ctx.showHidden, false);
        formatter = formatSet;
        if (size === 0 && keys.length === 0 && protoProps === undefined) return prefix + "{}";
        braces = [prefix + "{", "}"];
      } else if (isMap(value)) {
        const size = mapSize(value);
        const prefix = prefixOf(ctor, tag, "Map", "(" + size + ")");
        keys = ownKeys(value, ctx.showHidden, false);
        formatter = formatMap;
        if (size === 0 && keys.length === 0 && protoProps === undefined) return prefix + "{}";
        braces = [prefix + "{", "}"];
      } else if (isTypedArray(value)) {
        keys = ownKeys(value, ctx.showHidden, true);
        const fallback = ctor === null ? typedArrayTag(value) : "";
        const size = typedArrayLength(value);
        const prefix = prefixOf(ctor, tag, fallback, "(" + size + ")");
        braces = [prefix + "[", "]"];
        if (size === 0 && keys.length === 0 && protoProps === undefined && !ctx.showHidden) return braces[0] + "]";
        formatter = formatTypedArray;
        extrasType = kArrayExtrasType;
      } else if ((preview = iteratorPreview(value)) !== undefined) {
        keys = ownKeys(value, ctx.showHidden, false);
        const type = preview[2] ? "Set" : "Map";
        // Node's layout: "[Map Iterator] {", "[Foo] [Set Iterator] {", "[Map Entries] {" for entries
        let shownTag = tag;
        if (shownTag !== type + " Iterator") shownTag = (shownTag !== "" ? shownTag + "] [" : "") + type + " Iterator";
        if (preview[1] === 2) shownTag = StringSlice(shownTag, 0, -9) + " Entries";
        braces = ["[" + shownTag + "] {", "}"];
        formatter = formatIteratorPreview;
      } else {
        noIterator = true;
      }
    }
    if (noIterator) {
      keys = ownKeys(value, ctx.showHidden, false);
      braces = ["{", "}"];
      if (typeof value === "function") {
        base = functionBase(value, ctor, tag);
        if (keys.length === 0 && protoProps === undefined) return ctx.stylize(base, "special");
      } else if (ctor === "Object") {
        if (isArgumentsObject(value)) braces[0] = "[Arguments] {";
        else if (tag !== "") braces[0] = prefixOf(ctor, tag, "Object") + "{";
        if (keys.length === 0 && protoProps === undefined) return braces[0] + "}";
      } else if (isRegExp(value)) {
        base = regexpText(value);
        const prefix = prefixOf(ctor, tag, "RegExp");
        if (prefix !== "RegExp ") base = prefix + base;
        if ((keys.length === 0 && protoProps === undefined) || (recurseTimes > ctx.depth && ctx.depth !== null)) return ctx.stylize(base, "regexp");
      } else if (isDate(value)) {
        const t = DateGetTime(value);
        base = NumberIsNaN(t) ? "Invalid Date" : DateToISOString(value);
        const prefix = prefixOf(ctor, tag, "Date");
        if (prefix !== "Date ") base = prefix + base;
        if (keys.length === 0 && protoProps === undefined) return ctx.stylize(base, "date");
      } else if (isNativeError(value)) {
        base = formatError(value, ctor, tag, ctx, keys);
        if (keys.length === 0 && protoProps === undefined) return base;
      } else if (isAnyArrayBuffer(value)) {
        const arrayType = isArrayBuffer(value) ? "ArrayBuffer" : "SharedArrayBuffer";
        const prefix = prefixOf(ctor, tag, arrayType);
        if (typedArray === undefined) formatter = formatArrayBuffer;
        else if (keys.length === 0 && protoProps === undefined) return prefix + "{ byteLength: " + formatNumber(ctx.stylize, value.byteLength, false) + " }";
        braces[0] = prefix + "{";
        ArrayUnshift(keys, "byteLength");
      } else if (isDataView(value)) {
        braces[0] = prefixOf(ctor, tag, "DataView") + "{";
        ArrayUnshift(keys, "byteLength", "byteOffset", "buffer");
      } else if (isPromise(value)) {
        braces[0] = prefixOf(ctor, tag, "Promise") + "{";
        formatter = formatPromise;
      } else if (isWeakSet(value)) {
        braces[0] = prefixOf(ctor, tag, "WeakSet") + "{";
        formatter = () => listOf([ctx.stylize("<items unknown>", "special")]);
      } else if (isWeakMap(value)) {
        braces[0] = prefixOf(ctor, tag, "WeakMap") + "{";
        formatter = () => listOf([ctx.stylize("<items unknown>", "special")]);
      } else if (isModuleNamespaceObject(value)) {
        braces[0] = prefixOf(ctor, tag, "Module") + "{";
        keys = listOf(ObjectKeys(value));
      } else if (isBoxedPrimitive(value)) {
        let type, fn;
        if (isNumberObject(value)) { type = "Number"; fn = (v) => formatNumber(stylizeNoColor, NumberValueOf(v), false); }
        else if (isStringObject(value)) {
          type = "String";
          fn = (v) => quoteString(StringValueOf(v));
          const len = StringValueOf(value).length;
          const all = keys;
          keys = list();
          for (let i = 0; i < all.length; i++) {
            const k = all[i];
            if (typeof k === "symbol" || !reTest(INDEX_KEY, k) || C.NumberCtor(k) >= len) keys[keys.length] = k;
          }
        } else if (isBooleanObject(value)) { type = "Boolean"; fn = (v) => StringCtor(BooleanValueOf(v)); }
        else if (isBigIntObject(value)) { type = "BigInt"; fn = (v) => StringCtor(BigIntValueOf(v)) + "n"; }
        else { type = "Symbol"; fn = (v) => SymbolToString(SymbolValueOf(v)); }
        base = "[" + type;
        if (type !== ctor) base += ctor === null ? " (null prototype)" : " (" + ctor + ")";
        base += ": " + fn(value) + "]";
        if (tag !== "" && tag !== ctor) base += " [" + tag + "]";
        base = ctx.stylize(base, type === "String" ? "string" : C.ReflectApply(C.StringPrototypeToLowerCase, type, []));
        if (keys.length === 0 && protoProps === undefined) return base;
      } else {
        if (keys.length === 0 && protoProps === undefined) return prefixOf(ctor, tag, "Object") + "{}";
        braces[0] = prefixOf(ctor, tag, "Object") + "{";
      }
    }

    if (recurseTimes > ctx.depth && ctx.depth !== null) {
      let shown = StringSlice(prefixOf(ctor, tag, "Object"), 0, -1);
      if (ctor !== null) shown = "[" + shown + "]";
      return ctx.stylize(shown, "special");
    }
    recurseTimes += 1;
    append(ctx.seen, value);
    ctx.currentDepth = recurseTimes;
    let output;
    try {
      output = formatter(ctx, value, recurseTimes);
      for (let i = 0; i < keys.length; i++) append(output, formatProperty(ctx, value, recurseTimes, keys[i], extrasType));
      if (protoProps !== undefined) for (let i = 0; i < protoProps.length; i++) append(output, protoProps[i]);
    } catch (err) {
      ArrayPop(ctx.seen);
      if (isInstance(err, RangeErrorCtor) || (err && err.name === "InternalError")) {
        return ctx.stylize("[" + StringSlice(prefixOf(ctor, tag, "Object"), 0, -1) + ": Inspection interrupted prematurely. Maximum call stack size exceeded.]", "special");
      }
      throw err;
    }
    if (ctx.circular !== undefined) {
      const index = MapGet(ctx.circular, value);
      if (index !== undefined) {
        const reference = ctx.stylize("<ref *" + index + ">", "special");
        if (ctx.compact !== true) base = base === "" ? reference : reference + " " + base;
        else braces[0] = reference + " " + braces[0];
      }
    }
    ArrayPop(ctx.seen);
    if (ctx.sorted) {
      const comparator = ctx.sorted === true ? undefined : ctx.sorted;
      if (extrasType === kObjectType) ArraySort(output, comparator);
      else if (keys.length > 1) {
        const from = output.length - keys.length;
        const sorted = ArraySort(listOf(C.ReflectApply(C.ArrayPrototypeSlice, output, [from])), comparator);
        for (let i = 0; i < sorted.length; i++) output[from + i] = sorted[i];
      }
    }
    return reduceToSingleString(ctx, output, base, braces, extrasType, recurseTimes, value);
  }

  // The own integer-index keys of an array, ascending (the order Object.keys gives them in).
  function ownIndices(array) {
    const keys = ObjectKeys(array);
    const out = list();
    for (let k = 0; k < keys.length; k++) {
      const n = C.NumberCtor(keys[k]);
      if (!(n >= 0 && n < 4294967295 && StringCtor(n) === keys[k])) break;
      out[out.length] = n;
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
    const shown = MathMin(MathMax(0, ctx.maxArrayLength), length);
    const output = list();
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
        append(output, ctx.stylize("<" + holes + " empty item" + (holes > 1 ? "s" : "") + ">", "undefined"));
        i = j;
        continue;
      }
      append(output, formatProperty(ctx, value, recurseTimes, i, kArrayType));
      i++;
    }
    const remaining = length - i;
    if (remaining > 0) append(output, "... " + remaining + " more item" + (remaining > 1 ? "s" : ""));
    return output;
  }

  function formatTypedArray(ctx, value, recurseTimes) {
    // the engine's length (an own `length` a program defined does not change it); the element
    // format is chosen as Node chooses it, from the visible length and first element
    const length = typedArrayLength(value);
    const shown = MathMin(MathMax(0, ctx.maxArrayLength), length);
    const output = list();
    // (with no prototype Node reads a copy, so the kind decides: BigInt64/BigUint64 print as bigints)
    let asNumber;
    if (ObjectGetPrototypeOf(value) === null) {
      const kind = typedArrayTag(value);
      asNumber = kind !== "BigInt64Array" && kind !== "BigUint64Array";
    } else {
      asNumber = value.length > 0 && typeof value[0] === "number";
    }
    for (let i = 0; i < shown; i++) {
      output[i] = asNumber ? formatNumber(ctx.stylize, value[i], ctx.numericSeparator)
        : formatBigInt(ctx.stylize, value[i], ctx.numericSeparator);
    }
    if (length - shown > 0) append(output, "... " + (length - shown) + " more item" + (length - shown > 1 ? "s" : ""));
    if (ctx.showHidden) {
      ctx.indentationLvl += 2;
      const hidden = ["BYTES_PER_ELEMENT", "length", "byteLength", "byteOffset", "buffer"];
      for (let i = 0; i < hidden.length; i++) {
        const key = hidden[i];
        append(output, "[" + key + "]: " + formatValue(ctx, value[key], recurseTimes, true));
      }
      ctx.indentationLvl -= 2;
    }
    return output;
  }

  function formatArrayBuffer(ctx, value) {
    let bytes;
    try { bytes = new Uint8ArrayCtor(value); } catch (_) { return listOf([ctx.stylize("(detached)", "special")]); }
    const max = MathMin(50, bytes.length);
    let str = "";
    for (let i = 0; i < max; i++) str += (i ? " " : "") + (bytes[i] < 16 ? "0" : "") + NumberToString(bytes[i], 16);
    const remaining = bytes.length - 50;
    if (remaining > 0) str += " ... " + remaining + " more byte" + (remaining > 1 ? "s" : "");
    return listOf([ctx.stylize("[Uint8Contents]", "special") + ": <" + str + ">"]);
  }

  // A promise's state and result as the engine holds them (engine.c's promiseState, made on first
  // use): "<pending>", the value, or "<rejected> value". Nothing of the promise is called.
  function formatPromise(ctx, value, recurseTimes) {
    const details = promiseDetails(value);
    if (details[0] === 0) return listOf([ctx.stylize("<pending>", "special")]);
    ctx.indentationLvl += 2;
    const shown = formatValue(ctx, details[1], recurseTimes);
    ctx.indentationLvl -= 2;
    return listOf([details[0] === 2 ? ctx.stylize("<rejected>", "special") + " " + shown : shown]);
  }

  // The items of a Map/Set iterator's preview (formatRaw's test keeps it in `preview`): values as a Set's,
  // entries as "[ key, value ]" pairs; maxArrayLength bounds both.
  let preview;
  function formatIteratorPreview(ctx, value, recurseTimes) {
    const seen = iteratorPreview(value); // again: formatting other values may have reused `preview`
    const items = seen[0], entries = seen[1] === 2;
    const max = MathMin(MathMax(0, ctx.maxArrayLength), items.length);
    const output = list();
    ctx.indentationLvl += 2;
    for (let i = 0; i < max; i++) {
      if (entries) {
        const pair = items[i];
        const res = listOf([formatValue(ctx, pair[0], recurseTimes), formatValue(ctx, pair[1], recurseTimes)]);
        append(output, reduceToSingleString(ctx, res, "", ["[", "]"], kArrayExtrasType, recurseTimes));
      } else {
        append(output, formatValue(ctx, items[i], recurseTimes));
      }
    }
    ctx.indentationLvl -= 2;
    const remaining = items.length - max;
    if (remaining > 0) append(output, "... " + remaining + " more item" + (remaining > 1 ? "s" : ""));
    return output;
  }

  function formatSet(ctx, value, recurseTimes) {
    const length = setSize(value);
    const max = MathMin(MathMax(0, ctx.maxArrayLength), length);
    const output = list();
    ctx.indentationLvl += 2;
    // the entries first (forEach, not the guest-writable iterator), then the formatting
    const items = list();
    SetForEach(value, (v) => { if (items.length < max) items[items.length] = v; });
    for (let i = 0; i < items.length; i++) append(output, formatValue(ctx, items[i], recurseTimes));
    if (length - max > 0) append(output, "... " + (length - max) + " more item" + (length - max > 1 ? "s" : ""));
    ctx.indentationLvl -= 2;
    return output;
  }

  function formatMap(ctx, value, recurseTimes) {
    const length = mapSize(value);
    const max = MathMin(MathMax(0, ctx.maxArrayLength), length);
    const output = list();
    ctx.indentationLvl += 2;
    const ks = list(), vs = list();
    MapForEach(value, (v, k) => { if (ks.length < max) { ks[ks.length] = k; vs[vs.length] = v; } });
    for (let i = 0; i < ks.length; i++) {
      append(output, formatValue(ctx, ks[i], recurseTimes) + " => " + formatValue(ctx, vs[i], recurseTimes));
    }
    if (length - max > 0) append(output, "... " + (length - max) + " more item" + (length - max > 1 ? "s" : ""));
    ctx.indentationLvl -= 2;
    return output;
  }

  // `original`: the object a getter runs on (a prototype's getter, shown with showHidden, reads the
  // inspected object, as Node's does)
  function formatProperty(ctx, value, recurseTimes, key, type, original = value) {
    let str;
    let extra = " ";
    const own = ObjectGetOwnPropertyDescriptor(value, key);
    const desc = own === undefined ? { __proto__: null, value: value[key], get: undefined, set: undefined, enumerable: true }
      : { __proto__: null, value: field(own, "value"), get: field(own, "get"), set: field(own, "set"), enumerable: own.enumerable };
    if (desc.value !== undefined) {
      const diff = ctx.compact !== true || type !== kObjectType ? 2 : 3;
      ctx.indentationLvl += diff;
      str = formatValue(ctx, desc.value, recurseTimes);
      if (diff === 3 && ctx.breakLength < visibleLength(ctx, str)) extra = "\n" + StringRepeat(" ", ctx.indentationLvl);
      ctx.indentationLvl -= diff;
    } else if (desc.get !== undefined) {
      const label = desc.set !== undefined ? "Getter/Setter" : "Getter";
      if (ctx.getters && (ctx.getters === true || (ctx.getters === "get" && desc.set === undefined) ||
          (ctx.getters === "set" && desc.set !== undefined))) {
        try {
          const tmp = ReflectApply(desc.get, original, []);
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
      nameText = "[" + ctx.stylize(escapeControl(SymbolToString(key)), "symbol") + "]";
    } else if (key === "__proto__") {
      nameText = "['__proto__']";
    } else if (desc.enumerable === false) {
      nameText = "[" + escapeControl(key) + "]";
    } else if (reTest(/^[a-zA-Z_][a-zA-Z_0-9]*$/, key)) {
      nameText = ctx.stylize(key, "name");
    } else {
      nameText = ctx.stylize(quoteString(key), "string");
    }
    return nameText + ":" + extra + str;
  }

  function escapeControl(s) {
    return reReplace(/[\x00-\x1f\x27\x5c\x7f-\x9f]/g, s, (c) => {
      const code = StringCharCodeAt(c, 0);
      if (code < 0x80 && ESCAPES[code]) return ESCAPES[code];
      return "\\x" + StringPadStart(StringToUpperCase(NumberToString(code, 16)), 2, "0");
    });
  }

  function isBelowBreakLength(ctx, output, start, base) {
    let total = output.length + start;
    if (total + output.length > ctx.breakLength) return false;
    for (let i = 0; i < output.length; i++) {
      total += visibleLength(ctx, output[i]);
      if (total > ctx.breakLength) return false;
    }
    return base === "" || !StringIncludes(base, "\n");
  }

  // Lays out many short array entries in aligned columns (numbers right-aligned).
  function groupArrayElements(ctx, output, value) {
    let totalLength = 0;
    let maxLength = 0;
    let outputLength = output.length;
    if (ctx.maxArrayLength < output.length) outputLength--; // leave "... more items" alone
    const separatorSpace = 2;
    const dataLen = list();
    for (let i = 0; i < outputLength; i++) {
      const len = visibleLength(ctx, output[i]);
      dataLen[i] = len;
      totalLength += len + separatorSpace;
      if (maxLength < len) maxLength = len;
    }
    const actualMax = maxLength + separatorSpace;
    if (actualMax * 3 + ctx.indentationLvl < ctx.breakLength && (totalLength / actualMax > 5 || maxLength <= 6)) {
      const averageBias = MathSqrt(actualMax - totalLength / output.length);
      const biasedMax = MathMax(actualMax - 3 - averageBias, 1);
      const columns = MathMin(
        MathRound(MathSqrt(2.5 * biasedMax * outputLength) / biasedMax),
        MathFloor((ctx.breakLength - ctx.indentationLvl) / actualMax),
        ctx.compact * 4,
        15);
      if (columns <= 1) return output;
      const maxLineLength = list();
      for (let i = 0; i < columns; i++) {
        let lineLength = 0;
        for (let j = i; j < output.length; j += columns) if (dataLen[j] > lineLength) lineLength = dataLen[j];
        append(maxLineLength, lineLength + separatorSpace);
      }
      let padStart = true;
      if (value !== undefined) {
        for (let i = 0; i < output.length; i++) {
          if (typeof value[i] !== "number" && typeof value[i] !== "bigint") { padStart = false; break; }
        }
      }
      const grouped = list();
      for (let i = 0; i < outputLength; i += columns) {
        const max = MathMin(i + columns, outputLength);
        let line = "";
        let j = i;
        for (; j < max - 1; j++) {
          const padding = maxLineLength[j - i] + output[j].length - dataLen[j];
          line += padStart ? StringPadStart(output[j] + ", ", padding, " ") : StringPadEnd(output[j] + ", ", padding, " ");
        }
        if (padStart) {
          const padding = maxLineLength[j - i] + output[j].length - dataLen[j] - separatorSpace;
          line += StringPadStart(output[j], padding, " ");
        } else {
          line += output[j];
        }
        append(grouped, line);
      }
      if (ctx.maxArrayLength < output.length) append(grouped, output[outputLength]);
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
            const joined = join(output, ", ");
            if (!StringIncludes(joined, "\n")) return (base ? base + " " : "") + braces[0] + " " + joined + " " + braces[1];
          }
        }
      }
      const indentation = "\n" + StringRepeat(" ", ctx.indentationLvl);
      return (base ? base + " " : "") + braces[0] + indentation + "  " + join(output, "," + indentation + "  ") + indentation + braces[1];
    }
    if (isBelowBreakLength(ctx, output, 0, base)) {
      return braces[0] + (base ? " " + base : "") + " " + join(output, ", ") + " " + braces[1];
    }
    const indentation = StringRepeat(" ", ctx.indentationLvl);
    const ln = base === "" && braces[0].length === 1 ? " " : (base ? " " + base : "") + "\n" + indentation + "  ";
    return braces[0] + ln + join(output, ",\n" + indentation + "  ") + " " + braces[1];
  }

  function inspect(value, opts) {
    // no prototype: ctx.circular and the option fields are own writes (no setter on Object.prototype)
    const ctx = {
      __proto__: null, circular: undefined,
      budget: {}, indentationLvl: 0, seen: list(), currentDepth: 0, stylize: stylizeNoColor,
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
        const optKeys = ObjectKeys(opts);
        for (let i = 0; i < optKeys.length; i++) {
          const key = optKeys[i];
          if (hasOwn(defaultOptions, key) || key === "stylize") ctx[key] = opts[key];
          C.defineValue(ctx.userOptions, key, opts[key]);
        }
      }
    }
    if (ctx.colors) ctx.stylize = stylizeWithColor;
    if (ctx.maxArrayLength === null) ctx.maxArrayLength = Infinity;
    if (ctx.maxStringLength === null) ctx.maxStringLength = Infinity;
    // What a custom inspector receives: the caller's options over the effective ones.
    const defaultKeys = ObjectKeys(defaultOptions);
    for (let i = 0; i < defaultKeys.length; i++) {
      const key = defaultKeys[i];
      if (!hasOwn(ctx.userOptions, key)) C.defineValue(ctx.userOptions, key, ctx[key]);
    }
    return formatValue(ctx, value, 0);
  }
  ObjectDefineProperty(inspect, "custom", { __proto__: null, value: customInspect, enumerable: false });
  ObjectDefineProperty(inspect, "defaultOptions", {
    __proto__: null,
    get() { return defaultOptions; },
    set(options) {
      if (options === null || typeof options !== "object") throw invalidArgType("options", "of type object", options);
      const keys = ObjectKeys(options);
      for (let i = 0; i < keys.length; i++) defaultOptions[keys[i]] = options[keys[i]];
    },
  });
  C.defineValue(inspect, "colors", colors);
  C.defineValue(inspect, "styles", styles);

  /* ---- format ---- */

  const builtinConstructors = new SetCtor();
  const builtinNames = ["Object", "Error", "Array", "Date", "RegExp", "Map", "Set", "WeakMap", "WeakSet", "Promise",
    "Function", "Number", "String", "Boolean", "Symbol", "BigInt", "ArrayBuffer", "DataView", "EvalError", "RangeError",
    "ReferenceError", "SyntaxError", "TypeError", "URIError", "AggregateError", "Int8Array", "Uint8Array", "Uint8ClampedArray",
    "Int16Array", "Uint16Array", "Int32Array", "Uint32Array", "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array",
    "SharedArrayBuffer", "WeakRef", "FinalizationRegistry", "Proxy"];
  for (let i = 0; i < builtinNames.length; i++) SetAdd(builtinConstructors, builtinNames[i]);

  function hasBuiltInToString(value) {
    // a proxy counts as its target (a revoked one as built-in): its traps never run
    const target = proxyDetails(value, false);
    if (target !== undefined) {
      if (target === null) return true;
      value = target;
    }
    if (typeof value.toString !== "function") return true;
    if (hasOwn(value, "toString")) return false;
    let pointer = value;
    do { pointer = ObjectGetPrototypeOf(pointer); } while (pointer !== null && !hasOwn(pointer, "toString"));
    if (pointer === null) return true;
    const desc = ObjectGetOwnPropertyDescriptor(pointer, "constructor");
    const ctorValue = desc === undefined ? undefined : field(desc, "value");
    return typeof ctorValue === "function" && SetHas(builtinConstructors, ctorValue.name);
  }

  function tryStringify(arg) {
    try {
      return JSONStringify(arg);
    } catch (err) {
      if (isInstance(err, TypeErrorCtor) && reTest(/circular|cyclic/i, StringCtor(err.message))) return "[Circular]";
      throw err;
    }
  }

  function formatWithOptionsInternal(inspectOptions, args) {
    const first = args[0];
    let a = 0;
    let str = "";
    let join = "";
    // %d, %i, %f and %s group a number's digits (1_234_567) when the options given, else
    // util.inspect.defaultOptions, ask for numericSeparator, as in Node 20.
    const sep = inspectOptions !== undefined && inspectOptions !== null && inspectOptions.numericSeparator !== undefined
      ? !!inspectOptions.numericSeparator : !!defaultOptions.numericSeparator;
    if (typeof first === "string") {
      if (args.length === 1) return first;
      let tempStr;
      let lastPos = 0;
      for (let i = 0; i < first.length - 1; i++) {
        if (StringCharCodeAt(first, i) !== 37) continue; // '%'
        const next = StringCharCodeAt(first, ++i);
        if (a + 1 !== args.length) {
          switch (next) {
            case 115: { // s
              const arg = args[++a];
              if (typeof arg === "number") tempStr = formatNumber(stylizeNoColor, arg, sep);
              else if (typeof arg === "bigint") tempStr = formatBigInt(stylizeNoColor, arg, sep);
              else if (typeof arg !== "object" || arg === null || !hasBuiltInToString(arg)) tempStr = StringCtor(arg);
              else tempStr = inspect(arg, assignNew(inspectOptions, { __proto__: null, depth: 0, colors: false, compact: 3 }));
              break;
            }
            case 106: tempStr = tryStringify(args[++a]); break; // j
            case 100: { // d
              const n = args[++a];
              if (typeof n === "bigint") tempStr = formatBigInt(stylizeNoColor, n, sep);
              else if (typeof n === "symbol") tempStr = "NaN";
              else tempStr = formatNumber(stylizeNoColor, C.NumberCtor(n), sep);
              break;
            }
            case 79: tempStr = inspect(args[++a], inspectOptions); break; // O
            case 111: // o
              tempStr = inspect(args[++a], assignNew(inspectOptions, { __proto__: null, showHidden: true, showProxy: true, depth: 4 }));
              break;
            case 105: { // i
              const n = args[++a];
              if (typeof n === "bigint") tempStr = formatBigInt(stylizeNoColor, n, sep);
              else if (typeof n === "symbol") tempStr = "NaN";
              else tempStr = formatNumber(stylizeNoColor, NumberParseInt(n), sep);
              break;
            }
            case 102: { // f
              const n = args[++a];
              tempStr = typeof n === "symbol" ? "NaN" : formatNumber(stylizeNoColor, NumberParseFloat(n), sep);
              break;
            }
            case 99: a += 1; tempStr = ""; break; // c
            case 37: str += StringSlice(first, lastPos, i); lastPos = i + 1; continue; // %%
            default: continue;
          }
          if (lastPos !== i - 1) str += StringSlice(first, lastPos, i - 1);
          str += tempStr;
          lastPos = i + 1;
        } else if (next === 37) {
          str += StringSlice(first, lastPos, i);
          lastPos = i + 1;
        }
      }
      if (lastPos !== 0) {
        a++;
        join = " ";
        if (lastPos < first.length) str += StringSlice(first, lastPos);
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
    return deepEqual(a, b, strict, { __proto__: null, a: list(), b: list() });
  }

  function keysForCompare(v, strict) {
    const keys = listOf(ObjectKeys(v));
    if (strict) {
      const symbols = ObjectGetOwnPropertySymbols(v);
      for (let i = 0; i < symbols.length; i++) if (propertyIsEnumerable(v, symbols[i])) append(keys, symbols[i]);
    }
    return keys;
  }

  function deepEqual(a, b, strict, memo) {
    if (a === b) return a !== 0 || !strict || ObjectIs(a, b);
    if (strict) {
      if (typeof a !== "object" || a === null) return typeof a === "number" && typeof b === "number" && NumberIsNaN(a) && NumberIsNaN(b);
      if (typeof b !== "object" || b === null) return false;
      if (ObjectGetPrototypeOf(a) !== ObjectGetPrototypeOf(b)) return false;
    } else {
      if (a === null || typeof a !== "object") {
        if (b === null || typeof b !== "object") {
          // eslint-disable-next-line eqeqeq
          return a == b || (NumberIsNaN(a) && NumberIsNaN(b));
        }
        return false;
      }
      if (b === null || typeof b !== "object") return false;
    }
    if (objectToString(a) !== objectToString(b)) return false;
    if (ArrayIsArray(a) !== ArrayIsArray(b)) return false;
    // cycles: a pair already under comparison is assumed equal
    for (let i = 0; i < memo.a.length; i++) if (memo.a[i] === a && memo.b[i] === b) return true;

    if (ArrayIsArray(a)) {
      if (a.length !== b.length) return false;
      return compareWith(a, b, strict, memo, true);
    }
    if (isDate(a)) {
      if (!isDate(b) || DateGetTime(a) !== DateGetTime(b)) return false;
    } else if (isRegExp(a)) {
      if (!isRegExp(b) || regexpSource(a) !== regexpSource(b) || regexpFlags(a) !== regexpFlags(b) ||
          a.lastIndex !== b.lastIndex) return false;
    } else if (isNativeError(a)) {
      if (!isNativeError(b) || a.message !== b.message || a.name !== b.name) return false;
    } else if (ArrayBufferIsView(a)) {
      if (!ArrayBufferIsView(b)) return false;
      if (!strict && (types.isFloat32Array(a) || types.isFloat64Array(a))) {
        if (a.length !== b.length) return false;
        for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
      } else {
        if (a.byteLength !== b.byteLength) return false;
        const x = new Uint8ArrayCtor(a.buffer, a.byteOffset, a.byteLength), y = new Uint8ArrayCtor(b.buffer, b.byteOffset, b.byteLength);
        for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
      }
      return compareWith(a, b, strict, memo, true);
    } else if (isAnyArrayBuffer(a)) {
      if (!isAnyArrayBuffer(b) || a.byteLength !== b.byteLength) return false;
      const x = new Uint8ArrayCtor(a), y = new Uint8ArrayCtor(b);
      for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
    } else if (isSet(a)) {
      if (!isSet(b) || setSize(a) !== setSize(b)) return false;
      return compareWith(a, b, strict, memo, false, setEquiv);
    } else if (isMap(a)) {
      if (!isMap(b) || mapSize(a) !== mapSize(b)) return false;
      return compareWith(a, b, strict, memo, false, mapEquiv);
    } else if (isBoxedPrimitive(a)) {
      if (!isBoxedPrimitive(b)) return false;
      if (!ObjectIs(boxedValue(a), boxedValue(b))) return false;
    } else if (isBoxedPrimitive(b) || ArrayBufferIsView(b) || isSet(b) || isMap(b) || isDate(b) || isRegExp(b) || isAnyArrayBuffer(b)) {
      return false;
    }
    return compareWith(a, b, strict, memo, false);
  }

  // The primitive inside a boxed value (a guest's valueOf is not consulted).
  function boxedValue(v) {
    if (isNumberObject(v)) return NumberValueOf(v);
    if (isStringObject(v)) return StringValueOf(v);
    if (isBooleanObject(v)) return BooleanValueOf(v);
    if (isBigIntObject(v)) return BigIntValueOf(v);
    return SymbolValueOf(v);
  }

  function nonIndexKeys(keys) {
    const out = list();
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      if (typeof k === "symbol" || !reTest(INDEX_KEY, k)) out[out.length] = k;
    }
    return out;
  }

  function compareWith(a, b, strict, memo, arrayLike, extra) {
    let keysA = keysForCompare(a, strict);
    let keysB = keysForCompare(b, strict);
    if (arrayLike) {
      keysA = nonIndexKeys(keysA);
      keysB = nonIndexKeys(keysB);
    }
    if (keysA.length !== keysB.length) return false;
    for (let i = 0; i < keysA.length; i++) {
      if (!propertyIsEnumerable(b, keysA[i])) return false;
    }
    append(memo.a, a);
    append(memo.b, b);
    try {
      if (arrayLike && !ArrayBufferIsView(a)) {
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
      for (let i = 0; i < keysA.length; i++) if (!deepEqual(a[keysA[i]], b[keysA[i]], strict, memo)) return false;
      return true;
    } finally {
      ArrayPop(memo.a);
      ArrayPop(memo.b);
    }
  }

  // The elements of a Set, or the [key, value] pairs of a Map, as a list (forEach: no iterator).
  function setItems(s) {
    const out = list();
    SetForEach(s, (v) => { out[out.length] = v; });
    return out;
  }
  function mapPairs(m) {
    const out = list();
    MapForEach(m, (v, k) => { out[out.length] = listOf([k, v]); });
    return out;
  }
  function findIndexOf(items, pred) {
    for (let i = 0; i < items.length; i++) if (pred(items[i])) return i;
    return -1;
  }

  function setEquiv(a, b, strict, memo) {
    const pending = list();
    const itemsA = setItems(a);
    for (let n = 0; n < itemsA.length; n++) {
      const v = itemsA[n];
      if (v !== null && typeof v === "object") append(pending, v);
      else if (!SetHas(b, v)) {
        if (strict) return false;
        append(pending, v);
      }
    }
    if (pending.length === 0) return true;
    const candidates = list();
    const itemsB = setItems(b);
    for (let n = 0; n < itemsB.length; n++) {
      const v = itemsB[n];
      if ((v !== null && typeof v === "object") || !SetHas(a, v)) append(candidates, v);
    }
    for (let n = 0; n < pending.length; n++) {
      const v = pending[n];
      const i = findIndexOf(candidates, (c) => deepEqual(v, c, strict, memo));
      if (i === -1) return false;
      ArraySplice(candidates, i, 1);
    }
    return true;
  }

  function mapEquiv(a, b, strict, memo) {
    const pending = list();
    const pairsA = mapPairs(a);
    for (let n = 0; n < pairsA.length; n++) {
      const k = pairsA[n][0], v = pairsA[n][1];
      if (k !== null && typeof k === "object") append(pending, pairsA[n]);
      else if (MapHas(b, k) && deepEqual(v, MapGet(b, k), strict, memo)) continue;
      else if (strict) return false;
      else append(pending, pairsA[n]);
    }
    if (pending.length === 0) return true;
    const candidates = list();
    const pairsB = mapPairs(b);
    for (let n = 0; n < pairsB.length; n++) {
      const k = pairsB[n][0];
      if ((k !== null && typeof k === "object") || !MapHas(a, k) || !strict) append(candidates, pairsB[n]);
    }
    for (let n = 0; n < pending.length; n++) {
      const k = pending[n][0], v = pending[n][1];
      const i = findIndexOf(candidates, (c) => deepEqual(k, c[0], strict, memo) && deepEqual(v, c[1], strict, memo));
      if (i === -1) return false;
      ArraySplice(candidates, i, 1);
    }
    return true;
  }

  /* ---- functions ---- */

  function promisify(original) {
    if (typeof original !== "function") throw invalidArgType("original", "of type function", original);
    if (original[promisifyCustom]) {
      const fn = original[promisifyCustom];
      if (typeof fn !== "function") throw invalidArgType("util.promisify.custom", "of type function", fn);
      return ObjectDefineProperty(fn, promisifyCustom, { __proto__: null, value: fn, enumerable: false, writable: false, configurable: true });
    }
    function fn(...args) {
      return C.PromiseOwn(new PromiseCtor((resolve, reject) => {
        ReflectApply(original, this, C.argsWith(args, [(err, ...values) => {
          if (err) return reject(err);
          resolve(values[0]);
        }]));
      }));
    }
    ObjectSetPrototypeOf(fn, ObjectGetPrototypeOf(original));
    ObjectDefineProperty(fn, promisifyCustom, { __proto__: null, value: fn, enumerable: false, writable: false, configurable: true });
    const descriptors = ObjectGetOwnPropertyDescriptors(original);
    const names = ReflectOwnKeys(descriptors);
    for (let i = 0; i < names.length; i++) {
      const k = names[i];
      if (k === "length" || k === "name" || k === "prototype" || k === promisifyCustom) continue;
      try { ObjectDefineProperty(fn, k, descriptors[k]); } catch (_) { /* non-configurable: skip */ }
    }
    return fn;
  }
  C.defineValue(promisify, "custom", promisifyCustom);

  function callbackify(original) {
    if (typeof original !== "function") throw invalidArgType("original", "of type function", original);
    function callbackified(...args) {
      const cb = ArrayPop(args);
      if (typeof cb !== "function") throw invalidArgType("last argument", "of type function", cb);
      const onOk = (value) => natives.addTimer(() => ReflectApply(cb, this, [null, value]), 0, [], false);
      const onErr = (reason) => {
        if (!reason) {
          const err = codedError(ErrorCtor, "ERR_FALSY_VALUE_REJECTION", "Promise was rejected with falsy value");
          C.defineValue(err, "reason", reason);
          reason = err;
        }
        natives.addTimer(() => ReflectApply(cb, this, [reason]), 0, [], false);
      };
      // the guest's promise (or thenable) is followed with the captured then
      C.PromiseThen(C.PromiseFrom(ReflectApply(original, this, args)), onOk, onErr);
    }
    ObjectDefineProperty(callbackified, "name", { __proto__: null, value: original.name + "Callbackified", configurable: true });
    ObjectDefineProperty(callbackified, "length", { __proto__: null, value: original.length + 1, configurable: true });
    return callbackified;
  }

  const warnedCodes = new SetCtor();
  function deprecate(fn, msg, code) {
    if (code !== undefined && typeof code !== "string") throw invalidArgType("code", "of type string", code);
    if (typeof fn !== "function") throw invalidArgType("fn", "of type function", fn);
    let warned = false;
    function deprecated(...args) {
      if (!warned && !(code !== undefined && SetHas(warnedCodes, code))) {
        warned = true;
        if (code !== undefined) SetAdd(warnedCodes, code);
        globalThis.console.warn("[" + (code || "DEP0000") + "] DeprecationWarning: " + msg);
      }
      return new.target ? ReflectConstruct(fn, args, new.target) : ReflectApply(fn, this, args);
    }
    ObjectSetPrototypeOf(deprecated, fn);
    if (fn.prototype) deprecated.prototype = fn.prototype;
    return deprecated;
  }

  function inherits(ctor, superCtor) {
    if (ctor === undefined || ctor === null) throw invalidArgType("ctor", "of type function", ctor);
    if (superCtor === undefined || superCtor === null) throw invalidArgType("superCtor", "of type function", superCtor);
    if (superCtor.prototype === undefined) throw invalidArgType("superCtor.prototype", "of type object", superCtor.prototype);
    ObjectDefineProperty(ctor, "super_", { __proto__: null, value: superCtor, writable: true, configurable: true });
    ObjectSetPrototypeOf(ctor.prototype, superCtor.prototype);
  }

  function debuglog(section) {
    const log = () => {};
    log.enabled = false;
    return log;
  }

  function toUSVString(str) {
    return reReplace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, StringCtor(str), "\ufffd");
  }

  function aborted(signal, resource) {
    if (signal === undefined || signal === null || typeof signal !== "object" || !("aborted" in signal))
      throw invalidArgType("signal", "an instance of AbortSignal", signal);
    if (resource === null || (typeof resource !== "object" && typeof resource !== "function"))
      throw invalidArgType("resource", "of type object", resource);
    if (signal.aborted) return C.PromiseResolve(undefined);
    return C.PromiseOwn(new PromiseCtor((resolve) => signal.addEventListener("abort", () => resolve(), { once: true })));
  }

  // Styles apply only with { validateStream: false }: a run's output is never a colour terminal.
  function styleText(format, str, options) {
    if (typeof str !== "string") throw invalidArgType("text", "of type string", str);
    const styled = !!(options && options.validateStream === false);
    const formats = ArrayIsArray(format) ? format : [format];
    let left = "", right = "";
    for (let i = 0; i < formats.length; i++) {
      const f = formats[i];
      const code = hasOwn(colors, f) ? colors[f] : undefined;
      if (code === undefined) {
        const names = listOf(ObjectKeys(colors));
        for (let n = 0; n < names.length; n++) names[n] = "'" + names[n] + "'";
        throw codedError(TypeErrorCtor, "ERR_INVALID_ARG_VALUE", "The argument 'format' must be one of: " +
          join(names, ", ") + ". Received " + inspect(f));
      }
      left += "\u001b[" + code[0] + "m";
      right = "\u001b[" + code[1] + "m" + right;
    }
    return styled ? left + str + right : str;
  }

  function unsupported(what) {
    return () => { throw codedError(ErrorCtor, "ERR_CHIDORI_UNSUPPORTED", "util." + what + " is not available in chidori"); };
  }

  const isPrimitive = (v) => v === null || (typeof v !== "object" && typeof v !== "function");

  const exports = {
    format, formatWithOptions, inspect, promisify, callbackify, deprecate, inherits, debuglog, debug: debuglog,
    isDeepStrictEqual: (a, b) => isDeepEqual(a, b, true),
    types: ObjectFreeze(types),
    TextEncoder: text.TextEncoder, TextDecoder: text.TextDecoder,
    stripVTControlCharacters, toUSVString, aborted, styleText,
    getSystemErrorName: unsupported("getSystemErrorName"), getSystemErrorMap: unsupported("getSystemErrorMap"),
    parseArgs: unsupported("parseArgs"), parseEnv: unsupported("parseEnv"),
    isArray: ArrayIsArray, isBoolean: (v) => typeof v === "boolean", isNull: (v) => v === null,
    isNullOrUndefined: (v) => v === null || v === undefined, isNumber: (v) => typeof v === "number",
    isString: (v) => typeof v === "string", isSymbol: (v) => typeof v === "symbol", isUndefined: (v) => v === undefined,
    isRegExp, isObject: (v) => v !== null && typeof v === "object", isDate, isError: (v) => isNativeError(v),
    isFunction: (v) => typeof v === "function", isPrimitive,
    isBuffer: (v) => { try { return require("buffer").Buffer.isBuffer(v); } catch (_) { return false; } },
    log: (...args) => globalThis.console.log(formatWithOptionsInternal(undefined, args)),
    _extend: (target, source) => {
      if (source === null || typeof source !== "object") return target;
      const keys = ObjectKeys(source);
      for (let i = 0; i < keys.length; i++) target[keys[i]] = source[keys[i]];
      return target;
    },
  };
  ObjectDefineProperty(exports, "_isDeepEqual", { __proto__: null, value: isDeepEqual, enumerable: false });
  return ObjectFreeze(exports);
})
