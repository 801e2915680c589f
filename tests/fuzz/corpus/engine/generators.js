function* g() { try { const x = yield 1; yield x * 2; } finally { console.log('fin'); } }
const i = g(); i.next(); console.log(i.next(21), i.return(5), [...g()]); label: for (const a of [1, 2]) { for (const b of [3]) { if (a) continue label; } }
with ({ z: 1 }) { console.log(z); } eval('var ev = 1'); console.log(ev, new Function('a', 'return a * 2')(3));
