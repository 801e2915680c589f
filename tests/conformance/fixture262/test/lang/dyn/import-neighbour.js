/*---
description: dynamic import of a _FIXTURE file beside the test
flags: [async]
features: [dynamic-import]
---*/
import('./value_FIXTURE.js').then(function (ns) { assert.sameValue(ns.value, 42); }).then($DONE, $DONE);
