/*---
description: counted only with --intl402
---*/
assert.sameValue(1, 1);
