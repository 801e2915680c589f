import type { Readable } from "node:stream";
type JsonValue = string | number | boolean | null | JsonValue[] | { [k: string]: JsonValue };
interface ToolSpec<I extends JsonValue = JsonValue, O = JsonValue> {
  name: string;
  description?: string;
  run(input: I): Promise<O> | O;
}
class ToolRegistry {
  private readonly tools = new Map<string, ToolSpec<any, any>>();
  register<I extends JsonValue, O>(tool: ToolSpec<I, O>): this {
    if (this.tools.has(tool.name)) throw new Error(`duplicate tool ${tool.name}`);
    this.tools.set(tool.name, tool);
    return this;
  }
  async call(name: string, input: JsonValue): Promise<JsonValue> {
    const t = this.tools.get(name);
    if (!t) throw new Error(`unknown tool: ${name}`);
    return (await t.run(input)) as JsonValue;
  }
  list(): string[] { return [...this.tools.keys()].sort(); }
}
const reg = new ToolRegistry()
  .register<{ a: number; b: number }, number>({ name: "add", run: ({ a, b }) => a + b })
  .register({ name: "upper", run: (s: JsonValue) => String(s).toUpperCase() });
const r1 = await reg.call("add", { a: 2, b: 3 });
const r2 = await reg.call("upper", "abc");
let err: string | undefined;
try { await reg.call("nope", null); } catch (e) { err = (e as Error).message; }
console.log(reg.list(), r1, r2, err);
