const t = JSON.stringify({ a: [1, { b: null }], c: '\u2028', d: 1e21 }, null, 2); const v = JSON.parse(t, (k, x) => (typeof x === 'number' ? x + 1 : x));
console.log(v, JSON.stringify(new Map([[1, 2]])), JSON.rawJSON ? 1 : 0); try { JSON.parse('{"a":1,}'); } catch (e) { console.log(e.message); }
