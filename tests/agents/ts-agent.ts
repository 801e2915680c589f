//! input: name=Ada
//! stdout-file: ts-agent.out
// A TypeScript agent: types erased by chidori itself, non-erasable constructs transformed.
import { chidori, run, type JsonObject } from "chidori:agent";
import { scale, Scaled } from "./lib/ts-helper";

enum Mood { Calm, Busy = 5, Loud }
const enum Unit { Ms = "ms" }
namespace Text {
  export const shout = (s: string): string => s.toUpperCase() + "!";
}
type Input = { name?: string };

abstract class Base<T> { abstract describe(): T }
class Greeter extends Base<string> implements Object {
  private count: number = 0;
  constructor(private readonly greeting: string, public who?: string) { super(); }
  describe(): string { this.count!++; return `${this.greeting}, ${this.who ?? "world"}`; }
}

run(async (input: Input, c: typeof chidori): Promise<JsonObject> => {
  const g = new Greeter("Hello", input.name);
  const s: Scaled = scale<number>(2);
  await c.log("typed", { mood: Mood[Mood.Busy] } satisfies JsonObject);
  return {
    text: Text.shout(g.describe()),
    moods: [Mood.Calm, Mood.Busy, Mood.Loud, Mood[6]!],
    unit: Unit.Ms,
    scaled: s.value as number,
    generic: (<T,>(x: T) => x)(7),
    compare: ((a: number, b: number) => a < b)(1, 2),
  };
});
