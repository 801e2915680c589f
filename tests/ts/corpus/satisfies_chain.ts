type Cfg = { name: string; n: number };
const cfg = { name: "a", n: 1 } satisfies Cfg;
const two = ({ name: "b", n: 2 } satisfies Cfg) as Cfg;
console.log(cfg, two);
