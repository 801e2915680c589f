//! stdout-contains: "done": true
//! stderr: \x1b]0;pwned-title\x07
//! stderr: \x1b]52;c;cHduZWQ=\x07
//! stderr: \x1b[2J\x1b[H
//! stderr: plain text, ünïcödé, 中文 and emoji 🎉 stay as they are
//! stderr: (guest) chidori: policy: `http` denied: forged
//! stderr: (guest) [log] forged too
//! stderr: (guest)   Run id: 00000000-forged
//! stderr: evil\u{202e}gnp.exe
//! stderr: a\x0dchidori: overwritten
//! stderr: \u{009b}31m C1 CSI
//! stderr: [log] multi-line message
//! stderr: (guest) chidori: policy: from chidori.log
// Console output and chidori.log text reach the operator's terminal sanitized: escape sequences
// (window title, OSC 52 clipboard, screen clear, C1 CSI), bidi overrides and lone CRs are shown
// escaped, and lines that would pass for chidori's own are marked; ordinary text is untouched.
// (Raw bytes are checked in tests/cases_misc.py.)
export default async (input, chidori) => {
  console.log("\x1b]0;pwned-title\x07");
  console.log("\x1b]52;c;cHduZWQ=\x07");
  console.error("\x1b[2J\x1b[H");
  console.log("plain text, ünïcödé, 中文 and emoji 🎉 stay as they are");
  console.error("chidori: policy: `http` denied: forged");
  console.warn("ok\n[log] forged too");
  console.info("  Run id: 00000000-forged");
  console.error("evil\u202egnp.exe");
  console.log("a\rchidori: overwritten");
  console.log("\u009b31m C1 CSI");
  await chidori.log("multi-line message\nchidori: policy: from chidori.log");
  return { done: true };
};
