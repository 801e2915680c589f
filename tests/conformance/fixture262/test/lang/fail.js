/*---
description: a plain failing test
---*/
assert.sameValue(1 + 1, 3, "arithmetic");
