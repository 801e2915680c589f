// fixture262 harness: how an async test reports its end.
function $DONE(error) {
  if (error) print("Test262:AsyncTestFailure:" + (error && error.message !== undefined ? error.message : error));
  else print("Test262:AsyncTestComplete");
}
