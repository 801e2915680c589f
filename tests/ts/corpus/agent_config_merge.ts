type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> : T[K] };
interface Config { model: { name: string; temperature: number }; tools: { enabled: boolean } }
const defaults: Config = { model: { name: "m1", temperature: 0.2 }, tools: { enabled: false } };
function merge<T extends object>(base: T, over: DeepPartial<T>): T {
  const out: any = Array.isArray(base) ? [...base] : { ...base };
  for (const [k, v] of Object.entries(over) as [keyof T & string, any][]) {
    out[k] = v && typeof v === "object" && !Array.isArray(v) ? merge((base as any)[k] ?? {}, v) : v;
  }
  return out as T;
}
console.log(JSON.stringify(merge(defaults, { model: { temperature: 0.9 }, tools: { enabled: true } })));
