//! stdout: "genuine"
//! max-seconds: 5
// Replacing Promise.prototype.then: the run still settles (no hang, no host error), and the
// prelude's own chaining never calls the replacement (docs/primordials.md), so the output is the
// handler's, not the one the replacement would substitute.
export default async (input, chidori) => {
  const realThen = Promise.prototype.then;
  Promise.prototype.then = function (f, r) { return realThen.call(this, () => f && f("forged"), r); };
  return "genuine";
};
