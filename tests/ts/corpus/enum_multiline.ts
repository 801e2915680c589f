enum Level {
  Debug = 1,
  Info,
  Warn,

  Error = "err",
}
function lvl(l: Level): string { return String(l); }
console.log(lvl(Level.Warn), Level.Error)
const after = typeof new Error().stack!;
console.log(after);
