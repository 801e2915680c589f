// fixture262 harness: a statement that must never run.
function $DONOTEVALUATE() { throw "fixture262: this statement must not be evaluated"; }
