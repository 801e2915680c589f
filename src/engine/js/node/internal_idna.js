/* node/internal_idna.js — domain names to ASCII and back, for the URL parser (internal/url) and
 * node:url's domainToASCII / domainToUnicode.
 *
 * Owns: Punycode (RFC 3492, encode and decode, with its overflow checks) and a reduced UTS #46
 * processing with the URL Standard's flags (CheckHyphens=false, Transitional=false,
 * UseSTD3ASCIIRules=false, VerifyDnsLength=false unless strict).
 *
 * What is simplified, on purpose (a full UTS #46 needs the ~9000-row IDNA mapping table):
 *   - the mapping step is NFKC, then per-code-point lower-casing, then NFC; plus the "ignored"
 *     code points (soft hyphen, zero-width space, variation selectors, ...) removed and the
 *     ideographic full stops mapped to ".". That agrees with the table for letters, digits,
 *     full-width forms and compatibility characters; it differs for the rare rows where the table
 *     is not NFKC_Casefold (e.g. a few Cherokee and Georgian letters).
 *   - validity: C1 controls, surrogates, private use, non-characters, U+FFFD, line/paragraph
 *     separators and the joiners ZWJ/ZWNJ (CheckJoiners, without the virama exception) are
 *     disallowed; a label may not begin with a combining mark; unassigned code points are not
 *     detected; a label decoded from Punycode must be stable under the mapping.
 *   - CheckBidi (RFC 5893) runs on an approximate Bidi_Class derived from scripts and general
 *     categories (see bidiClass), exact for letters, digits and marks of the common scripts.
 * Trusts nothing: input is guest text; every failure is a `null` result, never a throw.
 */
(function (require, natives, name) {
  "use strict";
  const BASE = 36, TMIN = 1, TMAX = 26, SKEW = 38, DAMP = 700, INITIAL_BIAS = 72, INITIAL_N = 128;
  const MAXINT = 0x7fffffff;

  function adapt(delta, points, first) {
    delta = first ? Math.floor(delta / DAMP) : delta >> 1;
    delta += Math.floor(delta / points);
    let k = 0;
    while (delta > ((BASE - TMIN) * TMAX) >> 1) {
      delta = Math.floor(delta / (BASE - TMIN));
      k += BASE;
    }
    return k + Math.floor(((BASE - TMIN + 1) * delta) / (delta + SKEW));
  }

  const digitChar = (d) => String.fromCharCode(d < 26 ? 0x61 + d : 0x30 + d - 26);
  function digitValue(c) {
    if (c >= 0x30 && c <= 0x39) return c - 0x30 + 26;
    if (c >= 0x41 && c <= 0x5a) return c - 0x41;
    if (c >= 0x61 && c <= 0x7a) return c - 0x61;
    return BASE;
  }
  const threshold = (k, bias) => (k <= bias ? TMIN : k >= bias + TMAX ? TMAX : k - bias);

  // Code points (array of numbers) → Punycode string (without "xn--"), or null on overflow.
  function punycodeEncode(cps) {
    let out = "";
    for (let i = 0; i < cps.length; i++) if (cps[i] < 0x80) out += String.fromCharCode(cps[i]);
    const basic = out.length;
    let handled = basic;
    if (basic > 0) out += "-";
    let n = INITIAL_N, delta = 0, bias = INITIAL_BIAS;
    while (handled < cps.length) {
      let m = 0x110000;
      for (let i = 0; i < cps.length; i++) if (cps[i] >= n && cps[i] < m) m = cps[i];
      if ((m - n) > Math.floor((MAXINT - delta) / (handled + 1))) return null;
      delta += (m - n) * (handled + 1);
      n = m;
      for (let i = 0; i < cps.length; i++) {
        const c = cps[i];
        if (c < n && ++delta > MAXINT) return null;
        if (c !== n) continue;
        let q = delta;
        for (let k = BASE; ; k += BASE) {
          const t = threshold(k, bias);
          if (q < t) break;
          out += digitChar(t + ((q - t) % (BASE - t)));
          q = Math.floor((q - t) / (BASE - t));
        }
        out += digitChar(q);
        bias = adapt(delta, handled + 1, handled === basic);
        delta = 0;
        handled++;
      }
      delta++;
      n++;
    }
    return out;
  }

  // Punycode string (without "xn--") → array of code points, or null when it is not valid.
  function punycodeDecode(input) {
    const out = [];
    let b = input.lastIndexOf("-");
    if (b < 0) b = 0;
    for (let j = 0; j < b; j++) {
      const c = input.charCodeAt(j);
      if (c >= 0x80) return null;
      out.push(c);
    }
    let n = INITIAL_N, i = 0, bias = INITIAL_BIAS;
    for (let pos = b > 0 ? b + 1 : 0; pos < input.length;) {
      const oldi = i;
      let w = 1;
      for (let k = BASE; ; k += BASE) {
        if (pos >= input.length) return null;
        const digit = digitValue(input.charCodeAt(pos++));
        if (digit >= BASE) return null;
        if (digit > Math.floor((MAXINT - i) / w)) return null;
        i += digit * w;
        const t = threshold(k, bias);
        if (digit < t) break;
        if (w > Math.floor(MAXINT / (BASE - t))) return null;
        w *= BASE - t;
      }
      const len = out.length + 1;
      bias = adapt(i - oldi, len, oldi === 0);
      if (Math.floor(i / len) > MAXINT - n) return null;
      n += Math.floor(i / len);
      i %= len;
      if (n > 0x10ffff || (n >= 0xd800 && n <= 0xdfff) || n < 0x80) return null;
      out.splice(i, 0, n);
      i++;
    }
    return out;
  }

  function codePoints(s) {
    const out = [];
    for (const ch of s) out.push(ch.codePointAt(0));
    return out;
  }

  const IGNORED = new Set([0xad, 0x34f, 0x180b, 0x180c, 0x180d, 0x180f, 0x200b, 0x2060, 0x2064, 0xfeff, 0x1bca0,
    0x1bca1, 0x1bca2, 0x1bca3]);
  const isIgnored = (c) => IGNORED.has(c) || (c >= 0xfe00 && c <= 0xfe0f) || (c >= 0xe0100 && c <= 0xe01ef);
  const isFullStop = (c) => c === 0x3002 || c === 0xff0e || c === 0xff61;

  function isDisallowed(c) {
    if (c < 0x80) return false;
    return (c >= 0x80 && c <= 0x9f) || (c >= 0xd800 && c <= 0xdfff) || (c >= 0xe000 && c <= 0xf8ff) ||
      (c >= 0xfdd0 && c <= 0xfdef) || (c & 0xfffe) === 0xfffe || c >= 0xf0000 || (c >= 0xfff0 && c <= 0xfffd) ||
      c === 0x2028 || c === 0x2029 || c === 0x200c || c === 0x200d || (c >= 0x200e && c <= 0x200f) ||
      (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || (c >= 0xe0000 && c <= 0xe0fff) ||
      c === 0x61c;
  }

  const LEADING_MARK = /^\p{M}/u;

  // The UTS #46 mapping step (simplified, see the header).
  function mapDomain(domain) {
    let ascii = true;
    for (let i = 0; i < domain.length; i++) if (domain.charCodeAt(i) >= 0x80) { ascii = false; break; }
    if (ascii) return domain.toLowerCase();
    let kept = "";
    for (const ch of domain.normalize("NFKC")) {
      const c = ch.codePointAt(0);
      if (isIgnored(c)) continue;
      kept += isFullStop(c) ? "." : ch.toLowerCase();
    }
    return kept.normalize("NFC");
  }

  // A Unicode label (code points) is valid for nontransitional processing. A label that came
  // from Punycode must also be stable under the mapping (no upper case, no compatibility forms).
  function validLabel(cps, fromPunycode) {
    if (cps.length === 0) return true;
    for (let i = 0; i < cps.length; i++) if (isDisallowed(cps[i]) || isFullStop(cps[i]) || isIgnored(cps[i])) return false;
    const text = String.fromCodePoint(...cps);
    if (text.normalize("NFC") !== text) return false;
    if (LEADING_MARK.test(text)) return false;
    if (fromPunycode && (mapDomain(text) !== text || text.startsWith("xn--"))) return false;
    return true;
  }

  /* CheckBidi (RFC 5893 section 2), on an approximation of Bidi_Class built from Unicode
   * properties the regexp engine knows: letters of right-to-left scripts are R/AL; Arabic-Indic
   * digits AN; ASCII and a few other digits EN; nonspacing and enclosing marks NSM; the rest is
   * L for letters, digits and spacing marks, else ES/CS/ET/ON/BN by a short list. */
  const RTL = /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}\p{Script=Adlam}\p{Script=Hanifi_Rohingya}\p{Script=Mende_Kikakui}\p{Script=Imperial_Aramaic}\p{Script=Phoenician}\p{Script=Kharoshthi}\p{Script=Old_South_Arabian}\p{Script=Old_North_Arabian}\p{Script=Avestan}\p{Script=Old_Turkic}\p{Script=Nabataean}\p{Script=Palmyrene}\p{Script=Manichaean}\p{Script=Psalter_Pahlavi}\p{Script=Inscriptional_Pahlavi}\p{Script=Inscriptional_Parthian}\p{Script=Hatran}\p{Script=Lydian}\p{Script=Cypriot}\p{Script=Old_Hungarian}\p{Script=Sogdian}\p{Script=Old_Sogdian}\p{Script=Elymaic}\p{Script=Chorasmian}\p{Script=Yezidi}]/u;
  const NSM = /[\p{Mn}\p{Me}]/u;
  const LTR = /[\p{L}\p{Mc}\p{Nd}\p{Nl}]/u;
  function isAN(c) {
    return (c >= 0x660 && c <= 0x669) || c === 0x66b || c === 0x66c || (c >= 0x600 && c <= 0x605) || c === 0x6dd ||
      c === 0x8e2 || (c >= 0x10e60 && c <= 0x10e7e);
  }
  function isEN(c) {
    return (c >= 0x30 && c <= 0x39) || (c >= 0x6f0 && c <= 0x6f9) || c === 0xb2 || c === 0xb3 || c === 0xb9;
  }
  function bidiClass(c) {
    if (isEN(c)) return "EN";
    if (isAN(c)) return "AN";
    const ch = String.fromCodePoint(c);
    if (NSM.test(ch)) return "NSM";
    if (RTL.test(ch)) return (c === 0x60c) ? "CS" : "R";
    if (LTR.test(ch)) return "L";
    if (c === 0x2b || c === 0x2d || c === 0x2212) return "ES";
    if (c === 0x2c || c === 0x2e || c === 0x2f || c === 0x3a || c === 0xa0) return "CS";
    if (c === 0x23 || c === 0x24 || c === 0x25 || c === 0xb0 || c === 0xb1 || /\p{Sc}/u.test(ch)) return "ET";
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || /\p{Cf}/u.test(ch)) return "BN";
    return "ON";
  }

  function bidiLabelOK(cps) {
    if (cps.length === 0) return true;
    const classes = cps.map(bidiClass);
    const first = classes[0];
    let end = classes.length - 1;
    while (end >= 0 && classes[end] === "NSM") end--;
    const last = end >= 0 ? classes[end] : null;
    if (first === "R") {
      let en = false, an = false;
      for (const k of classes) {
        if (k === "L") return false;
        if (k === "EN") en = true;
        if (k === "AN") an = true;
      }
      if (en && an) return false;
      return last === "R" || last === "EN" || last === "AN";
    }
    if (first === "L") {
      for (const k of classes) if (k === "R" || k === "AN") return false;
      return last === "L" || last === "EN";
    }
    return false;
  }

  // Applies only to a Bidi domain name: one with an R, AL or AN character in some label.
  function bidiOK(unicodeLabels) {
    const labels = unicodeLabels.map(codePoints);
    let bidiDomain = false;
    for (const cps of labels) {
      for (const c of cps) {
        if (c >= 0x590 && (isAN(c) || bidiClass(c) === "R")) { bidiDomain = true; break; }
      }
      if (bidiDomain) break;
    }
    if (!bidiDomain) return true;
    for (const cps of labels) if (!bidiLabelOK(cps)) return false;
    return true;
  }

  // Domain → ASCII per the URL Standard's "domain to ASCII" (beStrict adds the DNS length checks),
  // without the forbidden-code-point check the URL parser does after it. null = failure.
  function toASCII(domain, beStrict) {
    const mapped = mapDomain(String(domain));
    const labels = mapped.split(".");
    let needsWork = false;
    for (let i = 0; i < labels.length; i++) {
      const l = labels[i];
      if (l.startsWith("xn--")) { needsWork = true; break; }
      for (let j = 0; j < l.length; j++) if (l.charCodeAt(j) >= 0x80) { needsWork = true; break; }
      if (needsWork) break;
    }
    let result;
    if (!needsWork) {
      result = mapped;
    } else {
      const out = [], unicode = [];
      for (let i = 0; i < labels.length; i++) {
        const label = labels[i];
        if (label.startsWith("xn--")) {
          const body = label.slice(4);
          for (let j = 0; j < body.length; j++) if (body.charCodeAt(j) >= 0x80) return null;
          const decoded = punycodeDecode(body);
          if (decoded === null || decoded.length === 0 || !validLabel(decoded, true)) return null;
          out.push(label);
          unicode.push(String.fromCodePoint(...decoded));
        } else {
          const cps = codePoints(label);
          unicode.push(label);
          let allAscii = true;
          for (let j = 0; j < cps.length; j++) if (cps[j] >= 0x80) { allAscii = false; break; }
          if (allAscii) { out.push(label); continue; }
          if (!validLabel(cps, false)) return null;
          const enc = punycodeEncode(cps);
          if (enc === null) return null;
          out.push("xn--" + enc);
        }
      }
      if (!bidiOK(unicode)) return null;
      result = out.join(".");
    }
    if (beStrict) {
      const parts = result.split(".");
      if (parts.length > 1 && parts[parts.length - 1] === "") parts.pop();
      if (result.length > 253 || result.length === 0) return null;
      for (let i = 0; i < parts.length; i++) if (parts[i].length === 0 || parts[i].length > 63) return null;
    }
    return result;
  }

  // Domain → Unicode: the mapping step, then every valid xn-- label decoded. null = failure.
  function toUnicode(domain) {
    const labels = mapDomain(String(domain)).split(".");
    for (let i = 0; i < labels.length; i++) {
      const label = labels[i];
      if (label.startsWith("xn--")) {
        const decoded = punycodeDecode(label.slice(4));
        if (decoded === null || decoded.length === 0 || !validLabel(decoded, true)) return null;
        labels[i] = String.fromCodePoint(...decoded);
      } else if (!validLabel(codePoints(label), false)) {
        return null;
      }
    }
    if (!bidiOK(labels)) return null;
    return labels.join(".");
  }

  return Object.freeze({ toASCII, toUnicode, punycodeEncode, punycodeDecode });
})
