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
    "ObjectValues",
    "ObjectIsFrozen",
    "ObjectPrototypeToString",
    "ObjectPrototypePropertyIsEnumerable",
    "ReflectConstruct",
    "ReflectHas",
    "ArrayCtor",
    "ArrayPrototypePop",
    "ArrayPrototypeIncludes",
    "ArrayPrototypeFill",
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
    "MathAbs",
    "DateCtor",
    "DatePrototypeGetTime",
    "DatePrototypeToISOString",
    "RegExpPrototypeToString",
    "RegExpPrototypeGetSource",
    "RegExpPrototypeGetFlags",
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
    "TypedArrayPrototypeSubarray",
    "TypedArrayPrototypeSet",
    "ObjectPrototypeHasOwnProperty",
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
  return P.ObjectFreeze(C);
})
