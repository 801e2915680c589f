/* node/https.js — node:https's client: node:http's (http.js) for https: URLs, on the same `http`
 * host op behind the SSRF guard. Servers and agents throw a clear error, as in node:http. */
(function (require, natives, name) {
  "use strict";
  const makeClient = require("http")[Symbol.for("chidori.http.client")];
  return Object.freeze(makeClient("https:"));
})
