/* input_schema.js — the check of a run's input against run(handler, { inputSchema }), evaluated by
 * the prelude the first time a run declares a schema (loadBuiltin("input_schema.js")) with the
 * builtins captured before guest code ran (primordials.js): it is loaded after guest code may have
 * replaced the live ones, so it reads nothing from the global object.
 *
 * A Standard Schema (an object whose ["~standard"].validate is a function) decides itself, and its
 * `value` replaces the input; anything else is read as a JSON Schema subset (type, const, enum,
 * required, properties, additionalProperties: false, items, min/maxItems, min/maxLength, pattern,
 * minimum, maximum). Every issue is collected. Returns checkInput(schema, input): {value} when the
 * input passes, else {issues}, or a promise of one of them (a Standard Schema may be async).
 */
(function (P) {
  "use strict";
  const { JSONStringify, ArrayIsArray, NumberIsInteger, ObjectKeys, ObjectHasOwn, RegExpCtor, StringCtor, PromiseThen,
    PromiseFrom, list, rec, uncurry } = P;
  const ArraySort = uncurry(P.ArrayPrototypeSort), ArrayJoin = uncurry(P.ArrayPrototypeJoin);
  const RegExpExec = uncurry(P.RegExpPrototypeExec);
  const RegExpTest = (re, s) => RegExpExec(re, s) !== null;

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
    if (ArrayIsArray(v)) { const out = list(); for (let i = 0; i < v.length; i++) out[i] = canonical(v[i]); return out; }
    const keys = ArraySort(ObjectKeys(v)), out = { __proto__: null };
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
        const names = list();
        for (let i = 0; i < schema.enum.length; i++) names[i] = JSONStringify(schema.enum[i]);
        issues[issues.length] = at + ": expected one of " + ArrayJoin(names, ", ");
        return;
      }
    }
    const actual = jsonTypeOf(value);
    if (schema.type !== undefined) {
      const types = ArrayIsArray(schema.type) ? schema.type : rec([schema.type]);
      let ok = false;
      for (let i = 0; i < types.length && !ok; i++) ok = types[i] === actual || (types[i] === "number" && actual === "integer");
      if (!ok) { issues[issues.length] = at + ": expected " + ArrayJoin(types, " | ") + ", got " + actual; return; }
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
    const parts = list();
    for (let i = 0; i < path.length; i++) {
      const seg = path[i];
      parts[i] = StringCtor(seg !== null && typeof seg === "object" && "key" in seg ? seg.key : seg);
    }
    return " (at " + ArrayJoin(parts, ".") + ")";
  }

  // {value} when the input passes (a Standard Schema's value replaces it), else {issues}.
  function checkInput(schema, input) {
    const standard = schema !== null && typeof schema === "object" ? schema["~standard"] : undefined;
    if (standard !== null && typeof standard === "object" && typeof standard.validate === "function") {
      return PromiseThen(PromiseFrom(standard.validate(input)), (result) => {
        if (result !== null && typeof result === "object" && result.issues) {
          const given = result.issues, issues = list();
          for (let i = 0; i < given.length; i++) {
            const issue = given[i];
            const message = issue !== null && typeof issue === "object" ? issue.message : issue;
            issues[i] = StringCtor(message) + (issue !== null && typeof issue === "object" ? issuePath(issue.path) : "");
          }
          return { __proto__: null, issues };
        }
        return { __proto__: null, value: result !== null && typeof result === "object" ? result.value : undefined };
      });
    }
    const issues = list();
    checkJsonSchema(schema, input, "", issues);
    return issues.length ? { __proto__: null, issues } : { __proto__: null, value: input };
  }

  return checkInput;
})
