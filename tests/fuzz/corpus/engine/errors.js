function f(n) { return n ? f(n - 1) + 1 : 0; } try { f(1e6); } catch (e) { console.log(e instanceof RangeError); }
try { null.x; } catch (e) { console.log(e.stack); } const e = new AggregateError([new Error('a')], 'agg', { cause: 1 }); console.log(e.errors.length, e.cause);
