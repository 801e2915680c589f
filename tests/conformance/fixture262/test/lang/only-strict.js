/*---
description: runs in strict mode only (this is undefined in a plain call)
flags: [onlyStrict]
---*/
assert.sameValue((function () { return this; })(), undefined);
