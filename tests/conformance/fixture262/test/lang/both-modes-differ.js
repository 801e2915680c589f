/*---
description: passes in sloppy mode, fails in strict mode, so it fails
---*/
undeclaredGlobal = 1;
