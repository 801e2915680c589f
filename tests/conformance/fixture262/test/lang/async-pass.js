/*---
description: an async test that completes
flags: [async]
---*/
Promise.resolve(2).then(function (v) { assert.sameValue(v, 2); }).then($DONE, $DONE);
