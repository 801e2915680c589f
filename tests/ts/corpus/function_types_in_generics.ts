type Handler<T> = (ev: T) => void;
const hs: Array<(x: number) => string> = [(x) => String(x)];
const cb: Handler<string> = (s) => console.log("ev", s);
cb("e");
console.log(hs[0](3));
