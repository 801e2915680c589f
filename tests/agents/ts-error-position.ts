//! exit: 1
//! stderr: Error: thrown from TypeScript
//! stderr: at fail (ts-error-position.ts:9:71)
//! stderr: ts-error-position.ts:12:
// The column is where the engine puts it for the same JavaScript (quickjs-ng: the last argument
// of the call, `label`): erasure keeps every remaining token where it was in the .ts file.
interface Opts { loud: boolean }
function fail(opts: Opts, label: string): never {
  const msg: string = "thrown from TypeScript"; throw new Error(msg + label);
}
export default async function (input: Record<string, unknown>): Promise<void> {
  fail({ loud: true } as Opts, "");
}
