module.exports = {
  kind: "require",
  add(a, b) { return a + b; },
  version: 2,
  "quoted": "yes",
};
