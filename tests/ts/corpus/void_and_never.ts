function fail(msg: string): never { throw new Error(msg); }
function nothing(): void { return undefined; }
try { fail("x"); } catch (e) { console.log((e as Error).message, nothing()); }
