type Schema =
  | { type: "string"; enum?: readonly string[] }
  | { type: "number"; minimum?: number }
  | { type: "object"; properties: Record<string, Schema>; required?: string[] }
  | { type: "array"; items: Schema };
function validate(s: Schema, v: unknown, path = "$"): string[] {
  switch (s.type) {
    case "string": return typeof v === "string" && (!s.enum || s.enum.includes(v)) ? [] : [`${path}: expected string`];
    case "number": return typeof v === "number" && v >= (s.minimum ?? -Infinity) ? [] : [`${path}: expected number`];
    case "array": return Array.isArray(v) ? v.flatMap((x, i) => validate(s.items, x, `${path}[${i}]`)) : [`${path}: expected array`];
    case "object": {
      if (typeof v !== "object" || v === null) return [`${path}: expected object`];
      const o = v as Record<string, unknown>;
      const missing = (s.required ?? []).filter((k) => !(k in o)).map((k) => `${path}.${k}: required`);
      return missing.concat(Object.entries(s.properties).flatMap(([k, sub]) => (k in o ? validate(sub, o[k], `${path}.${k}`) : [])));
    }
  }
}
const schema = { type: "object", properties: { q: { type: "string" }, n: { type: "number", minimum: 1 }, tags: { type: "array", items: { type: "string" } } }, required: ["q"] } as const satisfies Schema;
console.log(validate(schema, { n: 0, tags: ["a", 1] }));
