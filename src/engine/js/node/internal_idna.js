/* node/internal_idna.js — domain names to ASCII and back, for the URL parser (internal/url) and
 * node:url's domainToASCII / domainToUnicode.
 *
 * Owns: the ASCII fast path and the choice of what goes to ICU. UTS #46 itself (mapping table,
 * validity, Punycode, CheckBidi, CheckJoiners) is ICU's, through natives.idna (idna_native.c), with
 * the URL Standard's options (Nontransitional, CheckHyphens=false, UseSTD3ASCIIRules=false,
 * VerifyDnsLength=false unless beStrict).
 *
 * The fast path: a domain of ASCII only with no label starting "xn--" needs no table. UTS #46 maps
 * its A-Z to a-z and leaves the rest (without STD3 rules every other ASCII code point is valid,
 * and no ASCII character is right-to-left, so CheckBidi has nothing to check), so it is
 * lower-cased here and ICU is never loaded: a run that fetches "api.example.com" does not pay for
 * ICU. Everything else goes to ICU.
 *
 * Trusts nothing: input is guest text; every failure is a `null` result. Reads no guest-writable
 * property: only builtins captured before guest code (natives.primordials).
 */
(function (require, natives, name) {
  "use strict";
  const P = natives.primordials;
  const StringCtor = P.StringCtor;
  const charCodeAt = P.uncurryThis(P.StringPrototypeCharCodeAt);
  const native = natives.idna;
  const nativeToASCII = native.toASCII, nativeToUnicode = native.toUnicode;

  // true when `s` is all ASCII with no label that starts with "xn--" (any case): the fast path.
  // A-Z is lowered into `out` as it goes, so the caller gets the result from the same loop.
  function asciiLower(s) {
    let out = "", start = true;
    for (let i = 0; i < s.length; i++) {
      let c = charCodeAt(s, i);
      if (c >= 0x80) return null;
      if (start && (c === 0x78 || c === 0x58) && s.length - i >= 4) {
        const c1 = charCodeAt(s, i + 1), c2 = charCodeAt(s, i + 2), c3 = charCodeAt(s, i + 3);
        if ((c1 === 0x6e || c1 === 0x4e) && c2 === 0x2d && c3 === 0x2d) return null;
      }
      start = c === 0x2e;
      if (c >= 0x41 && c <= 0x5a) c += 0x20;
      out += P.StringFromCharCode(c);
    }
    return out;
  }

  // Length checks of VerifyDnsLength on an ASCII result (the fast path's, for beStrict).
  function dnsLengthOK(s) {
    if (s.length === 0 || s.length > 253 + (charCodeAt(s, s.length - 1) === 0x2e ? 1 : 0)) return false;
    let label = 0;
    for (let i = 0; i < s.length; i++) {
      if (charCodeAt(s, i) === 0x2e) {
        if (label === 0 && i !== s.length - 1) return false;
        label = 0;
      } else if (++label > 63) return false;
    }
    return true;
  }

  // Domain → ASCII per the URL Standard's "domain to ASCII" (beStrict adds the DNS length checks),
  // without the forbidden-code-point check the URL parser does after it. null = failure.
  function toASCII(domain, beStrict) {
    const s = StringCtor(domain);
    const fast = asciiLower(s);
    if (fast !== null) return beStrict && !dnsLengthOK(fast) ? null : fast;
    return nativeToASCII(s, !!beStrict);
  }

  // Domain → Unicode: UTS #46 ToUnicode (xn-- labels decoded). null = failure.
  function toUnicode(domain) {
    const s = StringCtor(domain);
    const fast = asciiLower(s);
    if (fast !== null) return fast;
    return nativeToUnicode(s);
  }

  return P.ObjectFreeze({ __proto__: null, toASCII, toUnicode });
})
