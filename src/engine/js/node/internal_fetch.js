/* node/internal_fetch.js — placeholder: filled in by the captured-surface work (issue 6). */
(function (require, natives, name) {
  "use strict";
  throw new Error("built-in module `" + name + "` is not implemented yet");
})
