/*---
description: a runtime error is expected, but of another type than the one thrown (fails)
negative:
  phase: runtime
  type: RangeError
---*/
null.x;
