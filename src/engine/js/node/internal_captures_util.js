/* node/internal_captures_util.js — names the builtins that util, internal_console, assert,
 * querystring, string_decoder, events and process use beyond natives.primordials' named ones.
 * primordials.js read them before any guest code ran, into one array (shims1Captures, cheap at
 * startup); this file, loaded with the first of those modules, gives each its name, in the same
 * order. It also builds the call forms those modules share (docs/primordials.md).
 *
 * Trusts nothing from the guest and reads no guest-writable property: the array and the list of
 * names are read by index, the result has no prototype. */
(function (require, natives, name) {
  "use strict";
  const P = natives.primordials;
  const captured = P.shims1;
  const NAMES = [
    "FunctionPrototypeCall",
    "FunctionPrototypeToString",
    "FunctionPrototypeHasInstance",
    "ObjectGetPrototypeOf",
    "ObjectGetOwnPropertyDescriptor",
    "ObjectGetOwnPropertyDescriptors",
    "ObjectGetOwnPropertyNames",
    "ObjectGetOwnPropertySymbols",
    "ObjectIs",
    "ObjectPrototypeToString",
    "ObjectPrototypePropertyIsEnumerable",
    "ReflectConstruct",
    "ArrayPrototypePop",
    "ArrayPrototypeIncludes",
    "StringFromCharCode",
    "StringPrototypeCharCodeAt",
    "StringPrototypeCodePointAt",
    "StringPrototypeEndsWith",
    "StringPrototypePadStart",
    "StringPrototypePadEnd",
    "StringPrototypeToUpperCase",
    "StringPrototypeNormalize",
    "StringPrototypeValueOf",
    "NumberIsNaN",
    "NumberParseInt",
    "NumberParseFloat",
    "NumberPrototypeToString",
    "NumberPrototypeToFixed",
    "NumberPrototypeValueOf",
    "BooleanCtor",
    "BooleanPrototypeValueOf",
    "BigIntCtor",
    "BigIntPrototypeValueOf",
    "SymbolCtor",
    "SymbolFor",
    "SymbolPrototypeToString",
    "SymbolPrototypeValueOf",
    "MathMin",
    "MathRound",
    "MathSqrt",
    "DateCtor",
    "DatePrototypeGetTime",
    "DatePrototypeToISOString",
    "RegExpPrototypeGetSource",
    "SetCtor",
    "SetPrototypeHas",
    "SetPrototypeAdd",
    "SetPrototypeForEach",
    "SetPrototypeGetSize",
    "WeakMapPrototypeHas",
    "WeakSetCtor",
    "WeakSetPrototypeHas",
    "ArrayBufferCtor",
    "ArrayBufferIsView",
    "ArrayBufferPrototypeGetByteLength",
    "SharedArrayBufferCtor",
    "SharedArrayBufferPrototypeGetByteLength",
    "DataViewCtor",
    "DataViewPrototypeGetByteLength",
    "TypedArrayPrototypeGetToStringTag",
    "Uint8ArrayCtor",
    "PromiseStaticResolve",
    "RangeErrorCtor",
    "URIErrorCtor",
    "EncodeURIComponent",
    "DecodeURIComponent",
    "TypedArrayPrototypeSet",
    "ArrayPrototypeShift",
    "MapIteratorPrototypeNext",
    "SetIteratorPrototypeNext",
    "RegExpPrototypeGetHasIndices",
    "RegExpPrototypeGetGlobal",
    "RegExpPrototypeGetIgnoreCase",
    "RegExpPrototypeGetMultiline",
    "RegExpPrototypeGetDotAll",
    "RegExpPrototypeGetUnicode",
    "RegExpPrototypeGetUnicodeSets",
    "RegExpPrototypeGetSticky",
    "TypedArrayPrototypeGetLength",
  ];
  if (captured.length !== NAMES.length)
    throw new P.ErrorCtor("internal/captures_util: " + captured.length + " captures for " + NAMES.length + " names");
  const C = P.ObjectCreate(null);
  // everything natives.primordials names, then the shims1 captures
  const base = P.ObjectKeys(P);
  for (let i = 0; i < base.length; i++) C[base[i]] = P[base[i]];
  for (let i = 0; i < NAMES.length; i++) C[NAMES[i]] = captured[i];

  // f(self, ...args) with no array made and nothing looked up at call time: the original
  // Function.prototype.call, bound to f with the original bind.
  const bind = P.FunctionPrototypeBind, call = C.FunctionPrototypeCall;
  C.uncurryThis = (f) => P.ReflectApply(bind, call, [f]);

  // Node-style coded errors (internal/text has the same two; these run on the captures, so an
  // error a shim throws reads nothing a guest replaced): an Error of class Ctor with a `code`.
  const defineCode = (err, code) => P.ObjectDefineProperty(err, "code",
    { __proto__: null, value: code, writable: true, configurable: true, enumerable: true });
  // As in Node, String(err) names the code too ("TypeError [ERR_X]: message"): an own,
  // non-enumerable toString that reads only the error it is called on.
  // The errors made here, with their codes: util.inspect writes "TypeError [ERR_X]: message" as
  // the first line of these only (a guest error that merely has a `code` keeps "TypeError: ...").
  const codes = new P.WeakMapCtor();
  const WeakMapGet = C.uncurryThis(P.WeakMapPrototypeGet), WeakMapSet = C.uncurryThis(P.WeakMapPrototypeSet);
  C.codeOfNodeError = (err) => WeakMapGet(codes, err);
  C.codedError = (Ctor, code, message) => {
    const err = new Ctor(message);
    WeakMapSet(codes, err, code);
    P.ObjectDefineProperty(err, "toString", { __proto__: null, writable: true, configurable: true, enumerable: false,
      value: function toString() { return this.name + " [" + code + "]: " + this.message; } });
    defineCode(err, code);
    return err;
  };
  const StringIndexOf = C.uncurryThis(P.StringPrototypeIndexOf);
  // Node's " Received ..." tail: internal/text's (one copy; loaded on the error path only)
  function describeReceived(value) {
    return require("internal/text").describeReceived(value);
  }

  // TypeError ERR_INVALID_ARG_TYPE: `The "<what>" argument must be <expected>. Received ...`.
  // A name that is itself a phrase ("last argument") goes in as it is, as in Node's wording.
  const StringSlice = C.uncurryThis(P.StringPrototypeSlice);
  C.invalidArgType = (what, expected, value) => {
    const phrase = what.length > 9 && StringSlice(what, what.length - 9) === " argument";
    const noun = StringIndexOf(what, ".") >= 0 ? "property" : "argument";
    return C.codedError(P.TypeErrorCtor, "ERR_INVALID_ARG_TYPE",
      (phrase ? "The " + what : "The \"" + what + "\" " + noun) + " must be " + expected + "." + describeReceived(value));
  };
  return P.ObjectFreeze(C);
})
