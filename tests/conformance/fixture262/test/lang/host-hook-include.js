/*---
description: includes a harness file that uses $262 (left out)
includes: [hostHook.js]
---*/
hostDetach(new ArrayBuffer(1));
