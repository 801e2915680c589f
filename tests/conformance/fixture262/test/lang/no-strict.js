/*---
description: runs in sloppy mode only (with is a syntax error in strict mode)
flags: [noStrict]
---*/
with ({ a: 1 }) { assert.sameValue(a, 1); }
