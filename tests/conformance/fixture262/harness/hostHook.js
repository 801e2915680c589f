// fixture262 harness: a file that reaches for the host's $262 (tests including it are left out).
function hostDetach(buffer) { $262.detachArrayBuffer(buffer); }
