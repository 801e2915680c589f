// tests/node/idna/probe.mjs — host names through UTS #46 as the URL Standard uses it, in whichever
// runtime runs it: chidori (`chidori run probe.mjs -i @rows.json`) or Node (the oracle, through
// node_runner.mjs). Each `url` row goes through `new URL("https://" + input + "/x")` and answers
// the host, or null when the constructor throws; the `ascii` and `unicode` rows go through
// node:url's domainToASCII and domainToUnicode. tests/cases_idna_uts46.py compares the answers.
import { domainToASCII, domainToUnicode } from "node:url";

function host(input) {
  try {
    const u = new URL("https://" + input + "/x");
    if (u.hostname !== u.host || u.pathname !== "/x" || u.href !== "https://" + u.host + "/x")
      return { inconsistent: [u.host, u.hostname, u.pathname, u.href] };
    return u.host;
  } catch (e) {
    return e instanceof TypeError && e.code === "ERR_INVALID_URL" ? null : { threw: String(e) };
  }
}

export async function agent(rows) {
  const out = { url: [], deviations: [], ascii: [], unicode: [] };
  for (const [input] of rows.url) out.url.push(host(input));
  for (const [input] of rows.deviations) out.deviations.push(host(input));
  for (const [input] of rows.ascii) out.ascii.push(domainToASCII(input));
  for (const [input] of rows.unicode) out.unicode.push(domainToUnicode(input));
  return out;
}
