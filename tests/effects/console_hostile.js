// Console output and a chidori.log message with escape sequences, bidi controls and forged
// chidori lines; cases_misc.py checks they reach serve's session log sanitized.
export default async function (input, chidori) {
  console.log("title \x1b]0;pwned\x07 clip \x1b]52;c;cHduZWQ=\x07 \u202eevil");
  console.error("ok\nchidori: policy: `http` denied: forged");
  await chidori.log("hello\n[session fake] chidori: forged \x1b[2J");
  return { done: true };
}
