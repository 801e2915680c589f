/*---
description: a module test (left out)
flags: [module]
---*/
export const x = 1;
