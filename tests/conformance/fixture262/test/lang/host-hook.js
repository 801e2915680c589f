/*---
description: uses $262 itself (left out)
---*/
$262.gc();
