/*---
description: an async test that reports a failure
flags: [async]
---*/
Promise.resolve(2).then(function (v) { assert.sameValue(v, 5, "async value"); }).then($DONE, $DONE);
