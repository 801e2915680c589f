const enum Mode { Fast = 1, Slow = 2 }
const m = Mode.Fast;
console.log(m, Mode.Slow);
