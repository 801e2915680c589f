
  /* tail.js — the close of the generated temporal.js (see head.js): hands back what the polyfill
   * installed on its private global. */
  return globalThis.Temporal;
})
