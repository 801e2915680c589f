const re: RegExp = /a:b<c>/g;
const t = "x a:b<c> y".replace(re, "Z");
const n: number = 10 / 2 / 1;
const m = (n as number) / 5;
const k = re.source.length! / 2;
console.log(t, n, m, k, /[/]/.test("/"));
