/* node/stream_web.js — node:stream/web: the public classes of internal/webstreams (one instance,
 * shared with the ReadableStream/WritableStream/TransformStream globals and with fetch bodies). */
(function (require, natives, name) {
  "use strict";
  return require("internal/webstreams").web;
})
