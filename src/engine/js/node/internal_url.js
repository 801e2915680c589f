/* node/internal_url.js — the WHATWG URL Standard's URL records: the basic URL parser (the whole
 * state machine, with state overrides for the setters), host parsing (domains through
 * internal/idna, IPv4 in all its number forms, IPv6, opaque hosts), percent-encoding and -decoding,
 * the serializer and the origin. node/url.js builds the URL and URLSearchParams classes on it.
 *
 * A URL record is a plain object:
 *   {scheme, username, password, host: string|null (already serialized: a domain, a dotted IPv4,
 *    "[v6]", an opaque host or ""), port: number|null, path: string[] | string (a string is an
 *    opaque path), query: string|null, fragment: string|null}
 * Failures are the value FAILURE (null); nothing here throws on bad input. Input is guest text,
 * processed as code points (lone surrogates were replaced with U+FFFD by the caller).
 */
(function (require, natives, name) {
  "use strict";
  const idna = require("internal/idna");
  // Every builtin used below was captured before guest code ran (natives.primordials): the parser
  // reads no guest-writable property (docs/primordials.md). Its own lists have no prototype.
  const P = natives.primordials;
  const ReflectApply = P.ReflectApply;
  const StringPrototypeCharCodeAt = P.StringPrototypeCharCodeAt, StringPrototypeCodePointAt = P.StringPrototypeCodePointAt;
  const StringPrototypeSlice = P.StringPrototypeSlice, StringPrototypeIndexOf = P.StringPrototypeIndexOf;
  const StringPrototypeToLowerCase = P.StringPrototypeToLowerCase, NumberPrototypeToString = P.NumberPrototypeToString;
  // uncurried by binding the captured Function.prototype.call: no argument list made per call
  const uncurryThis = P.uncurryThis;
  const charCodeAt = uncurryThis(StringPrototypeCharCodeAt);
  const codePointAt = uncurryThis(StringPrototypeCodePointAt);
  const strSlice = uncurryThis(StringPrototypeSlice);
  const strIndexOf = uncurryThis(StringPrototypeIndexOf);
  const toLowerCase = uncurryThis(StringPrototypeToLowerCase);
  const numberToString = uncurryThis(NumberPrototypeToString);
  const hex = (n) => numberToString(n, 16);
  const fromCharCode = P.StringFromCharCode, fromCodePoint = P.StringFromCodePoint;
  const StringCtor = P.StringCtor, ObjectFreeze = P.ObjectFreeze, ObjectHasOwn = P.ObjectHasOwn, MathFloor = P.MathFloor;
  const list = P.list;
  const push = (a, v) => { a[a.length] = v; };
  // a copy of a list, itself a list
  function copyList(a, start, end) {
    const out = list();
    for (let i = start || 0, n = end === undefined ? a.length : end; i < n; i++) out[out.length] = a[i];
    return out;
  }
  // s split at every `sep` (one character), as a list
  function split(s, sep) {
    const out = list();
    let start = 0;
    for (;;) {
      const i = strIndexOf(s, sep, start);
      if (i < 0) break;
      out[out.length] = strSlice(s, start, i);
      start = i + 1;
    }
    out[out.length] = strSlice(s, start);
    return out;
  }
  const FAILURE = null;
  const EOF = -1;

  const SPECIAL = { __proto__: null, "ftp": 21, "file": null, "http": 80, "https": 443, "ws": 80, "wss": 443 };
  const isSpecialScheme = (s) => ObjectHasOwn(SPECIAL, s);
  const defaultPort = (s) => (isSpecialScheme(s) ? SPECIAL[s] : null);

  /* ---- code point classes ---- */
  const isDigit = (c) => c >= 0x30 && c <= 0x39;
  const isAlpha = (c) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
  const isHex = (c) => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
  const lower = (c) => (c >= 0x41 && c <= 0x5a ? c + 0x20 : c);
  const hexValue = (c) => (isDigit(c) ? c - 0x30 : (lower(c) - 0x61) + 10);

  /* ---- percent-encode sets ---- */
  const inC0 = (c) => c < 0x20 || c > 0x7e;
  const inFragment = (c) => inC0(c) || c === 0x20 || c === 0x22 || c === 0x3c || c === 0x3e || c === 0x60;
  const inQuery = (c) => inC0(c) || c === 0x20 || c === 0x22 || c === 0x23 || c === 0x3c || c === 0x3e;
  const inSpecialQuery = (c) => inQuery(c) || c === 0x27;
  const inPath = (c) => inQuery(c) || c === 0x3f || c === 0x60 || c === 0x7b || c === 0x7d;
  const inUserinfo = (c) => inPath(c) || c === 0x2f || c === 0x3a || c === 0x3b || c === 0x3d || c === 0x40 ||
    (c >= 0x5b && c <= 0x5e) || c === 0x7c;
  const inComponent = (c) => inUserinfo(c) || (c >= 0x24 && c <= 0x26) || c === 0x2b || c === 0x2c;
  const inForm = (c) => inComponent(c) || c === 0x21 || (c >= 0x27 && c <= 0x29) || c === 0x7e;
  const SETS = { __proto__: null, c0: inC0, fragment: inFragment, query: inQuery, specialQuery: inSpecialQuery, path: inPath,
    userinfo: inUserinfo, component: inComponent, form: inForm };

  const HEX = "0123456789ABCDEF";
  const pctByte = (b) => "%" + HEX[b >> 4] + HEX[b & 15];

  function list1(c) {
    const a = list();
    a[0] = c;
    return a;
  }
  const allDigits = (s) => {
    for (let i = 0; i < s.length; i++) if (!isDigit(charCodeAt(s, i))) return false;
    return true;
  };
  function plusToSpace(s) {
    if (strIndexOf(s, "+", 0) < 0) return s;
    let out = "";
    for (let i = 0; i < s.length; i++) { const c = charCodeAt(s, i); out += c === 0x2b ? " " : fromCharCode(c); }
    return out;
  }

  function utf8Bytes(c) {
    if (c < 0x80) return list1(c);
    if (c < 0x800) return [0xc0 | (c >> 6), 0x80 | (c & 63)];
    if (c < 0x10000) return [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63)];
    return [0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63)];
  }

  function encodeCodePoint(c, inSet, spaceAsPlus) {
    if (spaceAsPlus && c === 0x20) return "+";
    if (!inSet(c)) return fromCodePoint(c);
    const bytes = utf8Bytes(c);
    let out = "";
    for (let i = 0; i < bytes.length; i++) out += pctByte(bytes[i]);
    return out;
  }

  // UTF-8 percent-encode a (well-formed) string with a set.
  function percentEncode(s, inSet, spaceAsPlus) {
    let out = "";
    for (let i = 0; i < s.length; i++) {
      const c = codePointAt(s, i);
      if (c > 0xffff) i++;
      out += (c < 0x80 && !inSet(c) && !(spaceAsPlus && c === 0x20)) ? s[i] : encodeCodePoint(c, inSet, spaceAsPlus);
    }
    return out;
  }

  // String → its UTF-8 bytes with %XX sequences decoded (the "percent-decode a string" steps).
  function percentDecodeToBytes(s) {
    const bytes = list();
    for (let i = 0; i < s.length; i++) {
      const c = codePointAt(s, i);
      if (c > 0xffff) i++;
      if (c === 0x25 && i + 2 < s.length && isHex(charCodeAt(s, i + 1)) && isHex(charCodeAt(s, i + 2))) {
        push(bytes, hexValue(charCodeAt(s, i + 1)) * 16 + hexValue(charCodeAt(s, i + 2)));
        i += 2;
      } else {
        const b = utf8Bytes(c);
        for (let j = 0; j < b.length; j++) push(bytes, b[j]);
      }
    }
    return bytes;
  }

  // UTF-8 decode without BOM, invalid sequences → U+FFFD (the Encoding Standard's decoder).
  function utf8Decode(bytes) {
    let out = "";
    let i = 0;
    const n = bytes.length;
    while (i < n) {
      const b = bytes[i];
      if (b < 0x80) { out += fromCharCode(b); i++; continue; }
      let need, cp, lo = 0x80, hi = 0xbf;
      if (b >= 0xc2 && b <= 0xdf) { need = 1; cp = b & 0x1f; }
      else if (b >= 0xe0 && b <= 0xef) { need = 2; cp = b & 0x0f; if (b === 0xe0) lo = 0xa0; if (b === 0xed) hi = 0x9f; }
      else if (b >= 0xf0 && b <= 0xf4) { need = 3; cp = b & 0x07; if (b === 0xf0) lo = 0x90; if (b === 0xf4) hi = 0x8f; }
      else { out += "\ufffd"; i++; continue; }
      let j = i + 1, ok = true;
      for (let k = 0; k < need; k++, j++) {
        const t = j < n ? bytes[j] : -1;
        if (t < lo || t > hi) { ok = false; break; }
        lo = 0x80; hi = 0xbf;
        cp = (cp << 6) | (t & 0x3f);
      }
      if (!ok) { out += "\ufffd"; i = j; continue; }
      out += fromCodePoint(cp);
      i = j;
    }
    return out;
  }

  const percentDecode = (s) => utf8Decode(percentDecodeToBytes(s));

  /* ---- hosts ---- */

  // Forbidden host code points (the domain set adds C0 controls, % and DEL).
  const isForbiddenHost = (c) => c === 0 || c === 9 || c === 0xa || c === 0xd || c === 0x20 || c === 0x23 ||
    c === 0x2f || c === 0x3a || c === 0x3c || c === 0x3e || c === 0x3f || c === 0x40 || c === 0x5b ||
    c === 0x5c || c === 0x5d || c === 0x5e || c === 0x7c;
  const isForbiddenDomain = (c) => isForbiddenHost(c) || c <= 0x1f || c === 0x25 || c === 0x7f;

  // IPv4 number parser: "" fails; 0x → hex, leading 0 → octal. Returns a number or FAILURE.
  function parseIPv4Number(s) {
    if (s === "") return FAILURE;
    let radix = 10;
    if (s.length >= 2 && s[0] === "0" && (s[1] === "x" || s[1] === "X")) { s = strSlice(s, 2); radix = 16; }
    else if (s.length >= 2 && s[0] === "0") { s = strSlice(s, 1); radix = 8; }
    if (s === "") return 0;
    let value = 0;
    for (let i = 0; i < s.length; i++) {
      const c = charCodeAt(s, i);
      let d;
      if (radix === 16 && isHex(c)) d = hexValue(c);
      else if (radix === 10 && isDigit(c)) d = c - 0x30;
      else if (radix === 8 && c >= 0x30 && c <= 0x37) d = c - 0x30;
      else return FAILURE;
      value = value * radix + d; // may grow past 2^53: only compared against limits below
    }
    return value;
  }

  function endsInANumber(s) {
    const parts = split(s, ".");
    let n = parts.length;
    if (parts[n - 1] === "") {
      if (n === 1) return false;
      n--;
    }
    const last = parts[n - 1];
    if (last !== "" && allDigits(last)) return true;
    return parseIPv4Number(last) !== FAILURE;
  }

  function parseIPv4(s) {
    const parts = split(s, ".");
    let count = parts.length;
    if (parts[count - 1] === "" && count > 1) count--;
    if (count > 4) return FAILURE;
    const numbers = list();
    for (let i = 0; i < count; i++) {
      const n = parseIPv4Number(parts[i]);
      if (n === FAILURE) return FAILURE;
      push(numbers, n);
    }
    for (let i = 0; i < numbers.length - 1; i++) if (numbers[i] > 255) return FAILURE;
    const last = numbers[numbers.length - 1];
    if (last >= 256 ** (5 - numbers.length)) return FAILURE;
    let ipv4 = last;
    for (let i = 0; i < numbers.length - 1; i++) ipv4 += numbers[i] * 256 ** (3 - i);
    return ipv4;
  }

  function serializeIPv4(n) {
    let out = "";
    for (let i = 0; i < 4; i++) {
      out = (i ? "." : "") + out;
      out = StringCtor(n % 256) + out;
      n = MathFloor(n / 256);
    }
    return out;
  }

  // IPv6 parser over the text between the brackets: 8 pieces or FAILURE.
  function parseIPv6(s) {
    const cps = list();
    for (let i = 0; i < s.length; i++) push(cps, charCodeAt(s, i));
    const at = (p) => (p < cps.length ? cps[p] : EOF);
    const address = list();
    for (let i = 0; i < 8; i++) address[i] = 0;
    let pieceIndex = 0, compress = null, p = 0;
    if (at(p) === 0x3a) {
      if (at(p + 1) !== 0x3a) return FAILURE;
      p += 2;
      pieceIndex++;
      compress = pieceIndex;
    }
    while (at(p) !== EOF) {
      if (pieceIndex === 8) return FAILURE;
      if (at(p) === 0x3a) {
        if (compress !== null) return FAILURE;
        p++;
        pieceIndex++;
        compress = pieceIndex;
        continue;
      }
      let value = 0, length = 0;
      while (length < 4 && at(p) !== EOF && isHex(at(p))) {
        value = value * 16 + hexValue(at(p));
        p++;
        length++;
      }
      if (at(p) === 0x2e) {
        if (length === 0) return FAILURE;
        p -= length;
        if (pieceIndex > 6) return FAILURE;
        let numbersSeen = 0;
        while (at(p) !== EOF) {
          let piece = null;
          if (numbersSeen > 0) {
            if (at(p) === 0x2e && numbersSeen < 4) p++;
            else return FAILURE;
          }
          if (at(p) === EOF || !isDigit(at(p))) return FAILURE;
          while (at(p) !== EOF && isDigit(at(p))) {
            const number = at(p) - 0x30;
            if (piece === null) piece = number;
            else if (piece === 0) return FAILURE;
            else piece = piece * 10 + number;
            if (piece > 255) return FAILURE;
            p++;
          }
          address[pieceIndex] = address[pieceIndex] * 0x100 + piece;
          numbersSeen++;
          if (numbersSeen === 2 || numbersSeen === 4) pieceIndex++;
        }
        if (numbersSeen !== 4) return FAILURE;
        break;
      } else if (at(p) === 0x3a) {
        p++;
        if (at(p) === EOF) return FAILURE;
      } else if (at(p) !== EOF) {
        return FAILURE;
      }
      address[pieceIndex] = value;
      pieceIndex++;
    }
    if (compress !== null) {
      let swaps = pieceIndex - compress;
      pieceIndex = 7;
      while (pieceIndex !== 0 && swaps > 0) {
        const t = address[pieceIndex];
        address[pieceIndex] = address[compress + swaps - 1];
        address[compress + swaps - 1] = t;
        pieceIndex--;
        swaps--;
      }
    } else if (pieceIndex !== 8) {
      return FAILURE;
    }
    return address;
  }

  // Pieces → text, compressing the first longest run (length ≥ 2) of zero pieces.
  function serializeIPv6(address) {
    let compress = null, bestLen = 1;
    for (let i = 0; i < 8;) {
      if (address[i] !== 0) { i++; continue; }
      let j = i;
      while (j < 8 && address[j] === 0) j++;
      if (j - i > bestLen) { bestLen = j - i; compress = i; }
      i = j;
    }
    let out = "", ignore0 = false;
    for (let i = 0; i < 8; i++) {
      if (ignore0 && address[i] === 0) continue;
      ignore0 = false;
      if (compress === i) {
        out += i === 0 ? "::" : ":";
        ignore0 = true;
        continue;
      }
      out += hex(address[i]);
      if (i !== 7) out += ":";
    }
    return out;
  }

  function parseOpaqueHost(s) {
    for (let i = 0; i < s.length; i++) if (isForbiddenHost(charCodeAt(s, i))) return FAILURE;
    return percentEncode(s, inC0);
  }

  // The host parser; returns the serialized host or FAILURE.
  function parseHost(input, isOpaque) {
    if (input.length > 0 && charCodeAt(input, 0) === 0x5b) {
      if (charCodeAt(input, input.length - 1) !== 0x5d) return FAILURE;
      const a = parseIPv6(strSlice(input, 1, -1));
      return a === FAILURE ? FAILURE : "[" + serializeIPv6(a) + "]";
    }
    if (isOpaque) return parseOpaqueHost(input);
    const domain = percentDecode(input);
    const ascii = domainToASCII(domain, false);
    if (ascii === FAILURE) return FAILURE;
    if (endsInANumber(ascii)) {
      const v4 = parseIPv4(ascii);
      return v4 === FAILURE ? FAILURE : serializeIPv4(v4);
    }
    return ascii;
  }

  // The URL Standard's "domain to ASCII": UTS #46 (internal/idna) plus the forbidden check.
  function domainToASCII(domain, beStrict) {
    const r = idna.toASCII(domain, beStrict);
    if (r === null || r === "") return FAILURE;
    for (let i = 0; i < r.length; i++) if (isForbiddenDomain(charCodeAt(r, i))) return FAILURE;
    return r;
  }

  /* ---- paths ---- */

  const isWindowsDriveLetter = (a, b) => isAlpha(a) && (b === 0x3a || b === 0x7c);
  const isDriveString = (s) => s.length === 2 && isWindowsDriveLetter(charCodeAt(s, 0), charCodeAt(s, 1));
  const isNormalizedDrive = (s) => s.length === 2 && isAlpha(charCodeAt(s, 0)) && charCodeAt(s, 1) === 0x3a;

  function startsWithDrive(cps, p) {
    if (cps.length - p < 2 || !isWindowsDriveLetter(cps[p], cps[p + 1])) return false;
    if (cps.length - p === 2) return true;
    const c = cps[p + 2];
    return c === 0x2f || c === 0x5c || c === 0x3f || c === 0x23;
  }

  const isSingleDot = (s) => s === "." || toLowerCase(s) === "%2e";
  function isDoubleDot(s) {
    const l = toLowerCase(s);
    return l === ".." || l === ".%2e" || l === "%2e." || l === "%2e%2e";
  }

  function shortenPath(url) {
    const path = url.path;
    if (url.scheme === "file" && path.length === 1 && isNormalizedDrive(path[0])) return;
    if (path.length > 0) path.length--;
  }

  const hasOpaquePath = (url) => typeof url.path === "string";
  const includesCredentials = (url) => url.username !== "" || url.password !== "";

  function newRecord() {
    return { __proto__: null, scheme: "", username: "", password: "", host: null, port: null, path: list(), query: null,
      fragment: null };
  }

  function cloneRecord(u) {
    return { __proto__: null, scheme: u.scheme, username: u.username, password: u.password, host: u.host, port: u.port,
      path: typeof u.path === "string" ? u.path : copyList(u.path), query: u.query, fragment: u.fragment };
  }

  /* ---- the basic URL parser ---- */

  const S = {
    __proto__: null,
    SCHEME_START: 1, SCHEME: 2, NO_SCHEME: 3, SPECIAL_RELATIVE_OR_AUTHORITY: 4, PATH_OR_AUTHORITY: 5,
    RELATIVE: 6, RELATIVE_SLASH: 7, SPECIAL_AUTHORITY_SLASHES: 8, SPECIAL_AUTHORITY_IGNORE_SLASHES: 9,
    AUTHORITY: 10, HOST: 11, HOSTNAME: 12, PORT: 13, FILE: 14, FILE_SLASH: 15, FILE_HOST: 16,
    PATH_START: 17, PATH: 18, OPAQUE_PATH: 19, QUERY: 20, FRAGMENT: 21,
  };

  const isC0OrSpace = (c) => c <= 0x20;

  function toCodePoints(s) {
    const out = list();
    for (let i = 0; i < s.length; i++) {
      const c = codePointAt(s, i);
      if (c > 0xffff) i++;
      out[out.length] = c;
    }
    return out;
  }

  // input: a well-formed string. With a stateOverride, `url` is modified in place and the result
  // is `url` (or FAILURE); without, a new record is returned (or FAILURE).
  function basicParse(input, base, url, stateOverride) {
    let cps = toCodePoints(input);
    if (!url) {
      url = newRecord();
      let start = 0, end = cps.length;
      while (start < end && isC0OrSpace(cps[start])) start++;
      while (end > start && isC0OrSpace(cps[end - 1])) end--;
      if (start !== 0 || end !== cps.length) cps = copyList(cps, start, end);
    }
    {
      const kept = list();
      for (let i = 0; i < cps.length; i++) {
        const c = cps[i];
        if (c !== 0x09 && c !== 0x0a && c !== 0x0d) kept[kept.length] = c;
      }
      cps = kept;
    }
    const len = cps.length;
    let state = stateOverride || S.SCHEME_START;
    let buffer = "";
    let atSignSeen = false, insideBrackets = false, passwordTokenSeen = false;
    let special = isSpecialScheme(url.scheme);

    for (let pointer = 0; ; pointer++) {
      const c = pointer < len ? cps[pointer] : EOF;
      const remainingStarts = (x) => pointer + 1 < len && cps[pointer + 1] === x;
      switch (state) {
        case S.SCHEME_START:
          if (c !== EOF && isAlpha(c)) {
            buffer += fromCharCode(lower(c));
            state = S.SCHEME;
          } else if (!stateOverride) {
            state = S.NO_SCHEME;
            pointer--;
          } else {
            return FAILURE;
          }
          break;

        case S.SCHEME:
          if (c !== EOF && (isAlpha(c) || isDigit(c) || c === 0x2b || c === 0x2d || c === 0x2e)) {
            buffer += fromCharCode(lower(c));
          } else if (c === 0x3a) {
            if (stateOverride) {
              if (isSpecialScheme(url.scheme) !== isSpecialScheme(buffer)) return url;
              if ((includesCredentials(url) || url.port !== null) && buffer === "file") return url;
              if (url.scheme === "file" && url.host === "") return url;
            }
            url.scheme = buffer;
            special = isSpecialScheme(buffer);
            if (stateOverride) {
              if (url.port === defaultPort(url.scheme)) url.port = null;
              return url;
            }
            buffer = "";
            if (url.scheme === "file") {
              state = S.FILE;
            } else if (special && base && base.scheme === url.scheme) {
              state = S.SPECIAL_RELATIVE_OR_AUTHORITY;
            } else if (special) {
              state = S.SPECIAL_AUTHORITY_SLASHES;
            } else if (remainingStarts(0x2f)) {
              state = S.PATH_OR_AUTHORITY;
              pointer++;
            } else {
              url.path = "";
              state = S.OPAQUE_PATH;
            }
          } else if (!stateOverride) {
            buffer = "";
            state = S.NO_SCHEME;
            pointer = -1;
          } else {
            return FAILURE;
          }
          break;

        case S.NO_SCHEME:
          if (!base || (hasOpaquePath(base) && c !== 0x23)) return FAILURE;
          if (hasOpaquePath(base) && c === 0x23) {
            url.scheme = base.scheme;
            special = isSpecialScheme(url.scheme);
            url.path = base.path;
            url.query = base.query;
            url.fragment = "";
            state = S.FRAGMENT;
          } else if (base.scheme !== "file") {
            state = S.RELATIVE;
            pointer--;
          } else {
            state = S.FILE;
            pointer--;
          }
          break;

        case S.SPECIAL_RELATIVE_OR_AUTHORITY:
          if (c === 0x2f && remainingStarts(0x2f)) {
            state = S.SPECIAL_AUTHORITY_IGNORE_SLASHES;
            pointer++;
          } else {
            state = S.RELATIVE;
            pointer--;
          }
          break;

        case S.PATH_OR_AUTHORITY:
          if (c === 0x2f) {
            state = S.AUTHORITY;
          } else {
            state = S.PATH;
            pointer--;
          }
          break;

        case S.RELATIVE:
          url.scheme = base.scheme;
          special = isSpecialScheme(url.scheme);
          if (c === 0x2f || (special && c === 0x5c)) {
            state = S.RELATIVE_SLASH;
          } else {
            url.username = base.username;
            url.password = base.password;
            url.host = base.host;
            url.port = base.port;
            url.path = copyList(base.path);
            url.query = base.query;
            if (c === 0x3f) {
              url.query = "";
              state = S.QUERY;
            } else if (c === 0x23) {
              url.fragment = "";
              state = S.FRAGMENT;
            } else if (c !== EOF) {
              url.query = null;
              shortenPath(url);
              state = S.PATH;
              pointer--;
            }
          }
          break;

        case S.RELATIVE_SLASH:
          if (special && (c === 0x2f || c === 0x5c)) {
            state = S.SPECIAL_AUTHORITY_IGNORE_SLASHES;
          } else if (c === 0x2f) {
            state = S.AUTHORITY;
          } else {
            url.username = base.username;
            url.password = base.password;
            url.host = base.host;
            url.port = base.port;
            state = S.PATH;
            pointer--;
          }
          break;

        case S.SPECIAL_AUTHORITY_SLASHES:
          if (c === 0x2f && remainingStarts(0x2f)) {
            state = S.SPECIAL_AUTHORITY_IGNORE_SLASHES;
            pointer++;
          } else {
            state = S.SPECIAL_AUTHORITY_IGNORE_SLASHES;
            pointer--;
          }
          break;

        case S.SPECIAL_AUTHORITY_IGNORE_SLASHES:
          if (c !== 0x2f && c !== 0x5c) {
            state = S.AUTHORITY;
            pointer--;
          }
          break;

        case S.AUTHORITY:
          if (c === 0x40) {
            if (atSignSeen) buffer = "%40" + buffer;
            atSignSeen = true;
            for (let i = 0; i < buffer.length; i++) {
              const b = codePointAt(buffer, i);
              if (b > 0xffff) i++;
              if (b === 0x3a && !passwordTokenSeen) {
                passwordTokenSeen = true;
                continue;
              }
              const enc = encodeCodePoint(b, inUserinfo, false);
              if (passwordTokenSeen) url.password += enc;
              else url.username += enc;
            }
            buffer = "";
          } else if (c === EOF || c === 0x2f || c === 0x3f || c === 0x23 || (special && c === 0x5c)) {
            if (atSignSeen && buffer === "") return FAILURE;
            pointer -= toCodePoints(buffer).length + 1;
            buffer = "";
            state = S.HOST;
          } else {
            buffer += fromCodePoint(c);
          }
          break;

        case S.HOST:
        case S.HOSTNAME:
          if (stateOverride && url.scheme === "file") {
            pointer--;
            state = S.FILE_HOST;
          } else if (c === 0x3a && !insideBrackets) {
            if (buffer === "") return FAILURE;
            if (stateOverride === S.HOSTNAME) return FAILURE;
            const host = parseHost(buffer, !special);
            if (host === FAILURE) return FAILURE;
            url.host = host;
            buffer = "";
            state = S.PORT;
          } else if (c === EOF || c === 0x2f || c === 0x3f || c === 0x23 || (special && c === 0x5c)) {
            pointer--;
            if (special && buffer === "") return FAILURE;
            if (stateOverride && buffer === "" && (includesCredentials(url) || url.port !== null)) return FAILURE;
            const host = parseHost(buffer, !special);
            if (host === FAILURE) return FAILURE;
            url.host = host;
            buffer = "";
            state = S.PATH_START;
            if (stateOverride) return url;
          } else {
            if (c === 0x5b) insideBrackets = true;
            if (c === 0x5d) insideBrackets = false;
            buffer += fromCodePoint(c);
          }
          break;

        case S.PORT:
          if (c !== EOF && isDigit(c)) {
            buffer += fromCharCode(c);
          } else if (c === EOF || c === 0x2f || c === 0x3f || c === 0x23 || (special && c === 0x5c) || stateOverride) {
            if (buffer !== "") {
              let port = 0;
              for (let i = 0; i < buffer.length; i++) {
                port = port * 10 + (charCodeAt(buffer, i) - 0x30);
                if (port > 65535) return FAILURE;
              }
              url.port = port === defaultPort(url.scheme) ? null : port;
              buffer = "";
            }
            if (stateOverride) return url;
            state = S.PATH_START;
            pointer--;
          } else {
            return FAILURE;
          }
          break;

        case S.FILE:
          url.scheme = "file";
          special = true;
          url.host = "";
          if (c === 0x2f || c === 0x5c) {
            state = S.FILE_SLASH;
          } else if (base && base.scheme === "file") {
            url.host = base.host;
            url.path = copyList(base.path);
            url.query = base.query;
            if (c === 0x3f) {
              url.query = "";
              state = S.QUERY;
            } else if (c === 0x23) {
              url.fragment = "";
              state = S.FRAGMENT;
            } else if (c !== EOF) {
              url.query = null;
              if (!startsWithDrive(cps, pointer)) shortenPath(url);
              else url.path = [];
              state = S.PATH;
              pointer--;
            }
          } else {
            state = S.PATH;
            pointer--;
          }
          break;

        case S.FILE_SLASH:
          if (c === 0x2f || c === 0x5c) {
            state = S.FILE_HOST;
          } else {
            if (base && base.scheme === "file") {
              url.host = base.host;
              if (!startsWithDrive(cps, pointer) && base.path.length > 0 && isNormalizedDrive(base.path[0])) {
                push(url.path, base.path[0]);
              }
            }
            state = S.PATH;
            pointer--;
          }
          break;

        case S.FILE_HOST:
          if (c === EOF || c === 0x2f || c === 0x5c || c === 0x3f || c === 0x23) {
            pointer--;
            if (!stateOverride && isDriveString(buffer)) {
              state = S.PATH; // buffer is kept: the path state uses it (the drive-letter quirk)
            } else if (buffer === "") {
              url.host = "";
              if (stateOverride) return url;
              state = S.PATH_START;
            } else {
              let host = parseHost(buffer, !special);
              if (host === FAILURE) return FAILURE;
              if (host === "localhost") host = "";
              url.host = host;
              if (stateOverride) return url;
              buffer = "";
              state = S.PATH_START;
            }
          } else {
            buffer += fromCodePoint(c);
          }
          break;

        case S.PATH_START:
          if (special) {
            state = S.PATH;
            if (c !== 0x2f && c !== 0x5c) pointer--;
          } else if (!stateOverride && c === 0x3f) {
            url.query = "";
            state = S.QUERY;
          } else if (!stateOverride && c === 0x23) {
            url.fragment = "";
            state = S.FRAGMENT;
          } else if (c !== EOF) {
            state = S.PATH;
            if (c !== 0x2f) pointer--;
          } else if (stateOverride && url.host === null) {
            push(url.path, "");
          }
          break;

        case S.PATH:
          if (c === EOF || c === 0x2f || (special && c === 0x5c) || (!stateOverride && (c === 0x3f || c === 0x23))) {
            const slash = c === 0x2f || (special && c === 0x5c);
            if (isDoubleDot(buffer)) {
              shortenPath(url);
              if (!slash) push(url.path, "");
            } else if (isSingleDot(buffer) && !slash) {
              push(url.path, "");
            } else if (!isSingleDot(buffer)) {
              if (url.scheme === "file" && url.path.length === 0 && isDriveString(buffer)) {
                buffer = buffer[0] + ":";
              }
              push(url.path, buffer);
            }
            buffer = "";
            if (c === 0x3f) {
              url.query = "";
              state = S.QUERY;
            }
            if (c === 0x23) {
              url.fragment = "";
              state = S.FRAGMENT;
            }
          } else {
            buffer += encodeCodePoint(c, inPath, false);
          }
          break;

        case S.OPAQUE_PATH:
          if (c === 0x3f) {
            url.query = "";
            state = S.QUERY;
          } else if (c === 0x23) {
            url.fragment = "";
            state = S.FRAGMENT;
          } else if (c !== EOF) {
            url.path += encodeCodePoint(c, inC0, false);
          }
          break;

        case S.QUERY:
          if ((!stateOverride && c === 0x23) || c === EOF) {
            url.query += percentEncode(buffer, special ? inSpecialQuery : inQuery);
            buffer = "";
            if (c === 0x23) {
              url.fragment = "";
              state = S.FRAGMENT;
            }
          } else if (c !== EOF) {
            buffer += fromCodePoint(c);
          }
          break;

        case S.FRAGMENT:
          if (c !== EOF) url.fragment += encodeCodePoint(c, inFragment, false);
          break;
      }
      if (pointer >= len) break;
    }
    return url;
  }

  /* ---- serializing ---- */

  function serializePath(url) {
    if (hasOpaquePath(url)) return url.path;
    let out = "";
    for (let i = 0; i < url.path.length; i++) out += "/" + url.path[i];
    return out;
  }

  function serialize(url, excludeFragment) {
    let out = url.scheme + ":";
    if (url.host !== null) {
      out += "//";
      if (includesCredentials(url)) {
        out += url.username;
        if (url.password !== "") out += ":" + url.password;
        out += "@";
      }
      out += url.host;
      if (url.port !== null) out += ":" + url.port;
    }
    if (url.host === null && !hasOpaquePath(url) && url.path.length > 1 && url.path[0] === "") out += "/.";
    out += serializePath(url);
    if (url.query !== null) out += "?" + url.query;
    if (!excludeFragment && url.fragment !== null) out += "#" + url.fragment;
    return out;
  }

  // The serialized origin ("null" for opaque origins).
  function origin(url) {
    switch (url.scheme) {
      case "blob": {
        const inner = basicParse(serializePath(url), null, null, 0);
        if (inner !== FAILURE && (inner.scheme === "http" || inner.scheme === "https")) return origin(inner);
        return "null";
      }
      case "ftp": case "http": case "https": case "ws": case "wss":
        return url.scheme + "://" + url.host + (url.port !== null ? ":" + url.port : "");
      default:
        return "null";
    }
  }

  // The application/x-www-form-urlencoded parser: string → [[name, value], ...].
  function parseForm(input) {
    const out = list();
    const seqs = split(input, "&");
    for (let i = 0; i < seqs.length; i++) {
      const seq = seqs[i];
      if (seq === "") continue;
      const eq = strIndexOf(seq, "=", 0);
      const n = eq < 0 ? seq : strSlice(seq, 0, eq);
      const v = eq < 0 ? "" : strSlice(seq, eq + 1);
      const pair = list();
      pair[0] = percentDecode(plusToSpace(n));
      pair[1] = percentDecode(plusToSpace(v));
      out[out.length] = pair;
    }
    return out;
  }

  function serializeForm(list) {
    let out = "";
    for (let i = 0; i < list.length; i++) {
      if (i) out += "&";
      out += percentEncode(list[i][0], inForm, true) + "=" + percentEncode(list[i][1], inForm, true);
    }
    return out;
  }

  return ObjectFreeze({
    __proto__: null,
    FAILURE, STATES: ObjectFreeze(S), SETS: ObjectFreeze(SETS),
    basicParse, serialize, serializePath, origin, cloneRecord, hasOpaquePath, includesCredentials,
    isSpecialScheme, defaultPort, parseHost, domainToASCII, serializeIPv4, serializeIPv6, parseIPv6,
    percentEncode, percentDecode, percentDecodeToBytes, utf8Decode, parseForm, serializeForm,
  });
})
