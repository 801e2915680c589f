type Fn<T> = () => Promise<T>;
interface RetryOpts { attempts: number; delayMs?: number; onRetry?: (n: number, e: unknown) => void }
async function retry<T>(fn: Fn<T>, { attempts, delayMs = 0, onRetry }: RetryOpts): Promise<T> {
  let last: unknown;
  for (let i = 1; i <= attempts; i++) {
    try { return await fn(); }
    catch (e: unknown) { last = e; onRetry?.(i, e); if (delayMs) await new Promise<void>((r) => setTimeout(r, delayMs)); }
  }
  throw last;
}
let calls = 0;
const v = await retry<number>(async () => { if (++calls < 3) throw new Error("flaky " + calls); return calls; },
  { attempts: 5, onRetry: (n, e) => console.log("retry", n, (e as Error).message) });
console.log("result", v);
