//! stdout: "forged"
//! max-seconds: 5
// Replacing Promise.prototype.then: the run still settles (no hang, no host error). The guest can
// change only its own output, which it controls anyway.
export default async (input, chidori) => {
  const realThen = Promise.prototype.then;
  Promise.prototype.then = function (f, r) { return realThen.call(this, () => f && f("forged"), r); };
  return "genuine";
};
