const fns: { f?: <T>(x: T) => T } = { f: (x) => x };
console.log(fns.f?.<number>(3), fns.f!<string>("s"));
