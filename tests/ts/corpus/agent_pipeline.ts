type Step<I, O> = (input: I) => O | Promise<O>;
function pipe<A, B>(f: Step<A, B>): Step<A, B>;
function pipe<A, B, C>(f: Step<A, B>, g: Step<B, C>): Step<A, C>;
function pipe(...fs: Step<any, any>[]): Step<any, any> {
  return async (x: unknown) => { let v = x; for (const f of fs) v = await f(v); return v; };
}
const tokenize: Step<string, string[]> = (s) => s.split(/\s+/).filter(Boolean);
const count: Step<string[], Record<string, number>> = (ws) => ws.reduce<Record<string, number>>((acc, w) => ({ ...acc, [w]: (acc[w] ?? 0) + 1 }), {});
const run = pipe(tokenize, count);
console.log(await run("a b a c  b a"));
