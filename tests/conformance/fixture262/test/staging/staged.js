/*---
description: staging is left out
---*/
