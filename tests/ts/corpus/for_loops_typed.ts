for (let i: number = 0; i < 2; i++) console.log(i);
for (const [k, v] of Object.entries({ a: 1 })) console.log(k, v);
for (const k in { x: 1 }) console.log(k);
const xs: number[] = [1, 2];
for (const x of xs as number[]) console.log(x);
