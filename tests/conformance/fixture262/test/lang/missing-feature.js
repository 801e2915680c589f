/*---
description: names a feature the engine does not implement
features: [not-in-this-engine]
---*/
assert.sameValue(1, 1);
