/*---
description: a plain passing test (runs in both modes)
features: [Symbol]
---*/
assert.sameValue(typeof Symbol(), "symbol");
