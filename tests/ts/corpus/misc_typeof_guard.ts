function describe(x: string | number | (() => void)): string {
  if (typeof x === "function") return "fn";
  return typeof x === "string" ? `s:${x}` : `n:${x.toFixed(1)}`;
}
console.log(describe("a"), describe(1), describe(() => {}));
