/*---
description: a raw test (left out)
flags: [raw]
---*/
