/*---
description: a syntax error expected at parse time
negative:
  phase: parse
  type: SyntaxError
---*/
$DONOTEVALUATE();
var = 1;
