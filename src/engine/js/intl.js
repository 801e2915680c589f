/* intl.js — the ECMA-402 layer: option reading, locale negotiation and resolvedOptions for Intl,
 * over the ICU functions of intl_native.c (`icu`). Loaded by the prelude on the first touch of
 * `Intl` or of a toLocaleString-family method, so a run that never formats pays nothing.
 *
 * Deterministic: the default locale is en-US and the default time zone UTC whatever the machine
 * says; nothing here reads a clock except through `now` (the run's virtual clock).
 *
 * Trusts: nothing of the guest; the C side re-checks every string it is handed (length, syntax),
 * so a mistake here is a wrong answer or an error, never memory unsafety. It captures the builtins
 * it uses when it loads (see docs/intl.md, Current gaps).
 */
(function (icu, now) {
  "use strict";
  const DEFAULT_LOCALE = "en-US";
  const DEFAULT_ZONE = "UTC";
  const LOCALE_MAX = 255;
  const ObjectDefineProperty = Object.defineProperty;
  const ObjectCreate = Object.create;
  const ArrayIsArray = Array.isArray;
  const MathFloor = Math.floor;
  const MathAbs = Math.abs;
  const NumberIsNaN = Number.isNaN;
  const NumberIsFinite = Number.isFinite;
  const SymbolToStringTag = Symbol.toStringTag;
  const SymbolIterator = Symbol.iterator;
  const $String = String, $Number = Number, $Object = Object;
  const TypeErr = TypeError, RangeErr = RangeError;
  const ObjectSetPrototypeOf = Object.setPrototypeOf;
  const ObjectKeys = Object.keys;
  /* Internal records have no prototype, so a guest's setters on Object.prototype never see them;
   * objects handed back are built with data properties only (CreateDataProperty, not Set). */
  const rec = (o) => ObjectSetPrototypeOf(o, null);
  function plain(r) {
    const o = {};
    for (const k of ObjectKeys(r)) ObjectDefineProperty(o, k, { value: r[k], writable: true, enumerable: true, configurable: true });
    return o;
  }
  /* ToString: a Symbol is a TypeError (String(sym) would not throw). */
  const toStr = (v) => { if (typeof v === "symbol") throw new TypeErr("Cannot convert a Symbol value to a string"); return $String(v); };

  const slots = new WeakMap();
  function internal(o, kind, method) {
    const s = (typeof o === "object" || typeof o === "function") && o !== null ? slots.get(o) : undefined;
    if (!s || s.kind !== kind) throw new TypeErr(`Method Intl.${kind}.prototype.${method} called on incompatible receiver ${typeof o === "object" ? "object" : $String(o)}`);
    return s;
  }
  function defineMethods(proto, methods) {
    for (const name of Object.keys(methods))
      ObjectDefineProperty(proto, name, { value: methods[name], writable: true, enumerable: false, configurable: true });
  }
  /* holder: an object literal with `get name() {}` (so the getter is named "get name" and has no
   * prototype, as a built-in accessor) */
  function defineGetter(proto, name, holder) {
    const get = Object.getOwnPropertyDescriptor(holder, name).get;
    ObjectDefineProperty(proto, name, { get, enumerable: false, configurable: true });
  }
  function defineTag(proto, tag) {
    ObjectDefineProperty(proto, SymbolToStringTag, { value: tag, writable: false, enumerable: false, configurable: true });
  }

  /* ---------- locales ---------- */

  const LANG_RE = /^(?:[a-z]{2,3}|[a-z]{5,8})(?:-[a-z]{4})?(?:-(?:[a-z]{2}|[0-9]{3}))?((?:-(?:[a-z0-9]{5,8}|[0-9][a-z0-9]{3}))*)((?:-[0-9a-wy-z](?:-[a-z0-9]{2,8})+)*)(?:-x(?:-[a-z0-9]{1,8})+)?$/i;
  function isStructurallyValid(tag) {
    if (tag.length > LOCALE_MAX) return false;
    const m = LANG_RE.exec(tag);
    if (!m) return false;
    const lower = tag.toLowerCase();
    const variants = m[1] ? m[1].slice(1).toLowerCase().split("-") : [];
    if (new Set(variants).size !== variants.length) return false;
    if (m[2]) {
      const singles = new Set();
      for (const p of m[2].slice(1).toLowerCase().split("-"))
        if (p.length === 1) { if (singles.has(p)) return false; singles.add(p); }
    }
    return lower !== "root";
  }
  const canonCache = new Map();
  function canonicalizeTag(tag) {
    let c = canonCache.get(tag);
    if (c !== undefined) return c;
    if (!isStructurallyValid(tag)) throw new RangeErr(`Incorrect locale information provided: ${tag}`);
    c = icu.canonicalize(tag);
    if (c === null) throw new RangeErr(`Incorrect locale information provided: ${tag}`);
    if (canonCache.size < 1000) canonCache.set(tag, c);
    return c;
  }
  function canonicalizeLocaleList(locales) {
    if (locales === undefined) return [];
    const seen = [];
    if (locales === null) throw new TypeErr("Cannot convert null to an object (locales)");
    const O = typeof locales === "string" ? [locales] : $Object(locales);
    const len = toLength(O.length);
    for (let k = 0; k < len; k++) {
      if (!(k in O)) continue;
      const v = O[k];
      if (typeof v !== "string" && (typeof v !== "object" || v === null)) throw new TypeErr("Language ID should be string or object.");
      const tag = canonicalizeTag(toStr(v));
      if (!seen.includes(tag)) seen.push(tag);
    }
    return seen;
  }
  function toLength(v) {
    const n = $Number(v);
    if (!(n > 0)) return 0;
    return n > 2 ** 53 - 1 ? 2 ** 53 - 1 : MathFloor(n);
  }
  /* The locales each service has data for, as ICU lists them: 0 every locale, 1 collation;
   * 2 plural rules (ICU's C API lists none: its languages). */
  const availableSets = [null, null, null];
  function availableSet(kind = 0) {
    if (!availableSets[kind]) {
      const set = new Set();
      for (const t of icu.availableLocales(kind === 1 ? 1 : 0))
        if (kind !== 2 || t.indexOf("-") < 0) set.add(t.toLowerCase());
      if (kind === 1) set.add("en-us"); /* V8 lists its default locale for every service */
      availableSets[kind] = set;
    }
    return availableSets[kind];
  }
  function stripExtensions(tag) {
    const i = tag.search(/-[0-9a-wyz]-|-x-/i);
    return i < 0 ? tag : tag.slice(0, i);
  }
  function bestAvailable(tag, kind) {
    const set = availableSet(kind);
    /* ICU lists "zh-Hant-TW", not "zh-TW": a tag whose likely form is listed is available as is */
    if (!set.has(tag.toLowerCase()) && kind !== 2) {
      const max = icu.maximize(tag);
      if (max !== null && set.has(max.toLowerCase())) return tag;
    }
    let c = tag;
    for (;;) {
      if (set.has(c.toLowerCase())) return c;
      let pos = c.lastIndexOf("-");
      if (pos < 0) return undefined;
      if (pos >= 2 && c[pos - 2] === "-") pos -= 2;
      c = c.slice(0, pos);
    }
  }
  function lookupMatcher(requested, kind) {
    for (const tag of requested) {
      const noExt = stripExtensions(tag);
      const found = bestAvailable(noExt, kind);
      if (found !== undefined) {
        const m = /-u((?:-[a-z0-9]{2,8})+)/i.exec(tag.slice(noExt.length));
        return { locale: found, extension: m ? m[1].slice(1) : "" };
      }
    }
    return { locale: DEFAULT_LOCALE, extension: "" };
  }
  /* unicode extension keywords: "ca-gregory-nu-arab" → Map */
  function parseKeywords(ext) {
    const map = new Map();
    if (!ext) return map;
    let key = null, vals = [];
    const flush = () => { if (key !== null && !map.has(key)) map.set(key, vals.join("-")); };
    for (const p of ext.split("-")) {
      if (p.length === 2) { flush(); key = p.toLowerCase(); vals = []; }
      else if (key !== null) vals.push(p.toLowerCase());
    }
    flush();
    return map;
  }
  const NUMBERING = new Set(["arab", "arabext", "bali", "beng", "deva", "fullwide", "gujr", "guru", "hanidec", "khmr", "knda", "laoo", "latn", "limb", "mlym", "mong", "mymr", "orya", "tamldec", "telu", "thai", "tibt"]);
  let calendarSet = null;
  /* ICU's calendars (BCP 47 types), and the deprecated aliases ECMA-402 canonicalizes. */
  const CALENDAR_ALIASES = { __proto__: null, islamicc: "islamic-civil", "ethiopic-amete-alem": "ethioaa", gregorian: "gregory" };
  function isCalendar(v) {
    if (!calendarSet) calendarSet = new Set(icu.calendars());
    return calendarSet.has(v);
  }
  function canonicalCalendar(v) {
    return v !== undefined && CALENDAR_ALIASES[v] !== undefined ? CALENDAR_ALIASES[v] : v;
  }
  /* resolve: relevant keys → { locale (with kept -u- keys), dataLocale, values } */
  function resolveLocale(requested, options, relevant, check, kind) {
    const r = lookupMatcher(requested, kind);
    const kw = parseKeywords(r.extension);
    const values = { __proto__: null };
    let kept = "";
    for (const key of relevant) {
      let value = kw.has(key) ? kw.get(key) : undefined;
      if (value === "" && (key === "kn")) value = "true";
      let fromExt = value !== undefined && check(key, value);
      if (!fromExt) value = undefined;
      const opt = options[key];
      if (opt !== undefined) {
        if (check(key, opt)) { if (opt !== value) fromExt = false; value = opt; }
      }
      values[key] = value;
      if (fromExt && value !== undefined) kept += `-${key}` + (value === "true" && key === "kn" ? "" : `-${value}`);
    }
    const locale = kept ? `${r.locale}-u${kept}` : r.locale;
    return { locale, base: r.locale, values };
  }
  function supportedLocales(locales, options, kind) {
    const requested = canonicalizeLocaleList(locales);
    getOption(coerceOptions(options), "localeMatcher", ["lookup", "best fit"], "best fit");
    const out = [];
    for (const tag of requested) if (bestAvailable(stripExtensions(tag), kind) !== undefined) out.push(tag);
    return out;
  }

  /* ---------- options ---------- */

  function coerceOptions(options) {
    if (options === undefined) return ObjectCreate(null);
    if (options === null) throw new TypeErr("Cannot convert undefined or null to object");
    return $Object(options);
  }
  function getOption(o, prop, values, fallback, type) {
    let v = o[prop];
    if (v === undefined) return fallback;
    if (type === "boolean") return !!v;
    v = toStr(v);
    if (values && !values.includes(v)) throw new RangeErr(`Value ${v} out of range for Intl options property ${prop}`);
    return v;
  }
  function getNumberOption(o, prop, min, max, fallback) {
    return defaultNumberOption(o[prop], min, max, fallback, prop);
  }
  function defaultNumberOption(v, min, max, fallback, prop) {
    if (v === undefined) return fallback;
    v = $Number(v);
    if (NumberIsNaN(v) || v < min || v > max) throw new RangeErr(`${prop} value is out of range.`);
    return MathFloor(v);
  }
  function localeOptions(o) {
    getOption(o, "localeMatcher", ["lookup", "best fit"], "best fit");
  }
  function identifierOption(o, prop) {
    const v = getOption(o, prop, undefined, undefined);
    if (v !== undefined && !/^[a-z0-9]{3,8}(-[a-z0-9]{3,8})*$/i.test(v)) throw new RangeErr(`Invalid ${prop} : ${v}`);
    return v === undefined ? undefined : v.toLowerCase();
  }

  /* ---------- NumberFormat ---------- */

  const SANCTIONED_UNITS = new Set(("acre bit byte celsius centimeter day degree fahrenheit fluid-ounce foot gallon gigabit gigabyte gram hectare hour inch kilobit kilobyte kilogram kilometer liter megabit megabyte meter microsecond mile mile-scandinavian milliliter millimeter millisecond minute month nanosecond ounce percent petabyte pound second stone terabit terabyte week yard year").split(" "));
  function isWellFormedUnit(u) {
    if (SANCTIONED_UNITS.has(u)) return true;
    const i = u.indexOf("-per-");
    return i > 0 && SANCTIONED_UNITS.has(u.slice(0, i)) && SANCTIONED_UNITS.has(u.slice(i + 5));
  }
  const currencyDigitsCache = new Map();
  function currencyDigits(cur) {
    let d = currencyDigitsCache.get(cur);
    if (d === undefined) {
      const [, spans] = icu.numberFormat("en", "currency/" + cur, 1, true);
      d = 0;
      for (let i = 0; i < spans.length; i += 4) if (spans[i] === 2 && spans[i + 1] === 1) d = spans[i + 3] - spans[i + 2];
      currencyDigitsCache.set(cur, d);
    }
    return d;
  }
  /* SetNumberFormatDigitOptions: fills s.{minimumIntegerDigits, ...}, s.roundingType */
  function setDigitOptions(s, o, mnfdDefault, mxfdDefault, notation) {
    s.minimumIntegerDigits = getNumberOption(o, "minimumIntegerDigits", 1, 21, 1);
    const mnfd = o.minimumFractionDigits, mxfd = o.maximumFractionDigits;
    const mnsd = o.minimumSignificantDigits, mxsd = o.maximumSignificantDigits;
    s.roundingIncrement = getNumberOption(o, "roundingIncrement", 1, 5000, 1);
    if (![1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000].includes(s.roundingIncrement)) throw new RangeErr("roundingIncrement value is out of range.");
    s.roundingMode = getOption(o, "roundingMode", ["ceil", "floor", "expand", "trunc", "halfCeil", "halfFloor", "halfExpand", "halfTrunc", "halfEven"], "halfExpand");
    s.roundingPriority = getOption(o, "roundingPriority", ["auto", "morePrecision", "lessPrecision"], "auto");
    s.trailingZeroDisplay = getOption(o, "trailingZeroDisplay", ["auto", "stripIfInteger"], "auto");
    if (s.roundingIncrement !== 1) mxfdDefault = mnfdDefault;
    const needSd = s.roundingPriority !== "auto" || mnsd !== undefined || mxsd !== undefined;
    let needFd = true;
    if (s.roundingPriority === "auto") {
      needFd = !needSd && (mnfd !== undefined || mxfd !== undefined || notation !== "compact") || (!needSd && notation !== "compact");
      if (!needSd && notation === "compact" && mnfd === undefined && mxfd === undefined) needFd = false;
      if (needSd) needFd = false;
    }
    if (needSd) {
      const mn = defaultNumberOption(mnsd, 1, 21, 1, "minimumSignificantDigits");
      const mx = defaultNumberOption(mxsd, mn, 21, 21, "maximumSignificantDigits");
      s.minimumSignificantDigits = mn;
      s.maximumSignificantDigits = mx;
    }
    if (needFd) {
      let mn = defaultNumberOption(mnfd, 0, 100, undefined, "minimumFractionDigits");
      let mx = defaultNumberOption(mxfd, 0, 100, undefined, "maximumFractionDigits");
      if (mn === undefined && mx === undefined) { mn = mnfdDefault; mx = mxfdDefault; }
      else if (mn === undefined) mn = mnfdDefault < mx ? mnfdDefault : mx;
      else if (mx === undefined) mx = mxfdDefault > mn ? mxfdDefault : mn;
      else if (mn > mx) throw new RangeErr("maximumFractionDigits value is out of range.");
      s.minimumFractionDigits = mn;
      s.maximumFractionDigits = mx;
    }
    if (!needSd && !needFd) {
      s.minimumFractionDigits = 0; s.maximumFractionDigits = 0;
      s.minimumSignificantDigits = 1; s.maximumSignificantDigits = 2;
      s.roundingType = "compact";
      s.roundingPriority = "morePrecision";
    } else if (s.roundingPriority === "auto") s.roundingType = needSd ? "significant" : "fraction";
    else s.roundingType = s.roundingPriority;
    if (s.roundingIncrement !== 1 && s.roundingType !== "fraction")
      throw new TypeErr("roundingIncrement other than 1 needs fraction-digit rounding");
    if (s.roundingIncrement !== 1 && s.maximumFractionDigits !== s.minimumFractionDigits)
      throw new RangeErr("roundingIncrement requires fraction rounding with equal minimum and maximum digits");
  }
  const ROUNDING_MODES = { ceil: "ceiling", floor: "floor", expand: "up", trunc: "down", halfCeil: "half-ceiling", halfFloor: "half-floor", halfExpand: "half-up", halfTrunc: "half-down", halfEven: "half-even" };
  function precisionStem(s) {
    const w = s.trailingZeroDisplay === "stripIfInteger" ? "/w" : "";
    const frac = () => {
      if (s.roundingIncrement !== 1) {
        const inc = s.roundingIncrement / 10 ** s.maximumFractionDigits;
        return "precision-increment/" + inc.toFixed(s.maximumFractionDigits);
      }
      return s.maximumFractionDigits === 0 && s.minimumFractionDigits === 0 ? "precision-integer" : "." + "0".repeat(s.minimumFractionDigits) + "#".repeat(s.maximumFractionDigits - s.minimumFractionDigits);
    };
    const sig = () => "@".repeat(s.minimumSignificantDigits) + "#".repeat(s.maximumSignificantDigits - s.minimumSignificantDigits);
    if (s.roundingType === "compact") return "";
    if (s.roundingType === "fraction") return frac() + w;
    if (s.roundingType === "significant") return sig() + w;
    const f = "." + "0".repeat(s.minimumFractionDigits) + "#".repeat(s.maximumFractionDigits - s.minimumFractionDigits);
    return f + "/" + sig() + (s.roundingType === "morePrecision" ? "r" : "s") + w;
  }
  function digitSkeleton(s) {
    const parts = [];
    const p = precisionStem(s);
    if (p) parts.push(p);
    parts.push("rounding-mode-" + ROUNDING_MODES[s.roundingMode]);
    if (s.minimumIntegerDigits > 1) parts.push("integer-width/*" + "0".repeat(s.minimumIntegerDigits));
    return parts.join(" ");
  }
  function numberSkeleton(s) {
    const parts = [];
    if (s.style === "percent") parts.push("percent scale/100");
    else if (s.style === "currency") {
      parts.push("currency/" + s.currency);
      if (s.currencyDisplay === "code") parts.push("unit-width-iso-code");
      else if (s.currencyDisplay === "narrowSymbol") parts.push("unit-width-narrow");
      else if (s.currencyDisplay === "name") parts.push("unit-width-full-name");
    } else if (s.style === "unit") {
      parts.push("unit/" + s.unit);
      if (s.unitDisplay === "long") parts.push("unit-width-full-name");
      else if (s.unitDisplay === "narrow") parts.push("unit-width-narrow");
    }
    if (s.notation === "scientific") parts.push("scientific");
    else if (s.notation === "engineering") parts.push("engineering");
    else if (s.notation === "compact") parts.push(s.compactDisplay === "long" ? "compact-long" : "compact-short");
    parts.push(digitSkeleton(s));
    const g = s.useGrouping;
    parts.push(g === false ? "group-off" : g === "min2" ? "group-min2" : g === "always" ? "group-on-aligned" : "group-auto");
    const acc = s.style === "currency" && s.currencySign === "accounting";
    const sd = { auto: acc ? "sign-accounting" : "", never: "sign-never", always: acc ? "sign-accounting-always" : "sign-always", exceptZero: acc ? "sign-accounting-except-zero" : "sign-except-zero", negative: acc ? "sign-accounting-negative" : "sign-negative" }[s.signDisplay];
    if (sd) parts.push(sd);
    return parts.join(" ");
  }
  function NumberFormat(locales, options) {
    if (new.target === undefined) return new NumberFormat(locales, options);
    const requested = canonicalizeLocaleList(locales);
    const o = coerceOptions(options);
    localeOptions(o);
    const nu = identifierOption(o, "numberingSystem");
    const r = resolveLocale(requested, { __proto__: null, nu }, ["nu"], (k, v) => NUMBERING.has(v));
    const s = { __proto__: null, kind: "NumberFormat", locale: r.locale, numberingSystem: r.values.nu || "latn" };
    s.style = getOption(o, "style", ["decimal", "percent", "currency", "unit"], "decimal");
    let currency = getOption(o, "currency", undefined, undefined);
    if (currency === undefined && s.style === "currency") throw new TypeErr("Currency code is required with currency style.");
    if (currency !== undefined && !/^[a-z]{3}$/i.test(currency)) throw new RangeErr(`Invalid currency code : ${currency}`);
    const currencyDisplay = getOption(o, "currencyDisplay", ["code", "symbol", "narrowSymbol", "name"], "symbol");
    const currencySign = getOption(o, "currencySign", ["standard", "accounting"], "standard");
    const unit = getOption(o, "unit", undefined, undefined);
    if (unit === undefined && s.style === "unit") throw new TypeErr("Unit is required with unit style.");
    if (unit !== undefined && !isWellFormedUnit(unit)) throw new RangeErr(`Invalid unit argument for Intl.NumberFormat() '${unit}'`);
    const unitDisplay = getOption(o, "unitDisplay", ["short", "narrow", "long"], "short");
    if (s.style === "currency") {
      if (currency === undefined) throw new TypeErr("Currency code is required with currency style.");
      s.currency = currency.toUpperCase(); s.currencyDisplay = currencyDisplay; s.currencySign = currencySign;
    }
    if (s.style === "unit") {
      if (unit === undefined) throw new TypeErr("Unit is required with unit style.");
      s.unit = unit; s.unitDisplay = unitDisplay;
    }
    s.notation = getOption(o, "notation", ["standard", "scientific", "engineering", "compact"], "standard");
    let mnfd = 0, mxfd = 3;
    if (s.style === "currency" && s.notation === "standard") { mnfd = mxfd = currencyDigits(s.currency); }
    else if (s.style === "percent") mxfd = 0;
    setDigitOptions(s, o, mnfd, mxfd, s.notation);
    s.compactDisplay = getOption(o, "compactDisplay", ["short", "long"], "short");
    const defaultGrouping = s.notation === "compact" ? "min2" : "auto";
    let g = o.useGrouping;
    if (g === undefined) g = defaultGrouping;
    else if (g === true) g = "always";
    else if (typeof g !== "string" && !g) g = false;
    else {
      g = toStr(g);
      if (g === "true" || g === "false") g = defaultGrouping;
      else if (!["min2", "auto", "always"].includes(g)) throw new RangeErr(`Value ${g} out of range for Intl.NumberFormat options property useGrouping`);
    }
    s.useGrouping = g;
    s.signDisplay = getOption(o, "signDisplay", ["auto", "never", "always", "exceptZero", "negative"], "auto");
    s.skeleton = numberSkeleton(s);
    icu.numberFormat(s.locale, s.skeleton, 0, false); /* a bad combination fails here, not later */
    const self = new.target === NumberFormat ? this : this;
    slots.set(self, s);
    return self;
  }
  const NUMBER_FIELDS = ["integer", "fraction", "decimal", "exponentSeparator", "exponentMinusSign", "exponentInteger", "group", "currency", "percentSign", "permille", "sign", "unit", "compact", "approximatelySign"];
  /* ECMA-402 ToIntlMathematicalValue: numbers stay doubles; BigInts and numeric strings go exact */
  function toIntlMV(x) {
    if (typeof x === "bigint") return x.toString();
    let p = typeof x === "object" && x !== null ? toPrimitiveNumber(x) : x;
    if (typeof p === "bigint") return p.toString();
    if (typeof p === "string") {
      const t = p.trim();
      if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t) && t.length < 1000) {
        const n = $Number(t);
        if (NumberIsFinite(n) && n !== 0) return t.replace(/^\+/, "");
        return n;
      }
      return $Number(p);
    }
    return $Number(p);
  }
  function toPrimitiveNumber(x) {
    const f = x[Symbol.toPrimitive];
    if (f !== undefined && f !== null) return f.call(x, "number");
    for (const m of ["valueOf", "toString"]) {
      const g = x[m];
      if (typeof g === "function") { const v = g.call(x); if (typeof v !== "object" || v === null) return v; }
    }
    throw new TypeErr("Cannot convert object to primitive value");
  }
  function numberParts(text, spans, x) {
    const n = text.length;
    const type = new Array(n).fill("literal");
    const width = new Array(n).fill(Infinity);
    for (let i = 0; i < spans.length; i += 4) {
      const [cat, field, a, b] = [spans[i], spans[i + 1], spans[i + 2], spans[i + 3]];
      if (cat !== 2) continue;
      let t = NUMBER_FIELDS[field] || "literal";
      if (t === "integer" && typeof x === "number" && !NumberIsFinite(x)) t = NumberIsNaN(x) ? "nan" : "infinity";
      if (t === "sign") t = /[-\u2212]/.test(text.slice(a, b)) ? "minusSign" : "plusSign";
      if (t === "permille") t = "perMille";
      for (let k = a; k < b; k++) if (b - a <= width[k]) { type[k] = t; width[k] = b - a; }
    }
    return coalesce(text, type);
  }
  /* Runs of one type (and one `extra` value) become parts; extraName names extra in each part
   * ("source", "unit"), or null when extra only separates runs (list elements). */
  function coalesce(text, type, extra, extraName) {
    const out = [];
    let start = 0;
    for (let k = 1; k <= text.length; k++) {
      if (k === text.length || type[k] !== type[start] || (extra && extra[k] !== extra[start])) {
        if (k > start) {
          /* object literals define their properties (no setter of Object.prototype runs) */
          const t = type[start], v = text.slice(start, k), x = extraName ? extra[start] : undefined;
          out.push(x === undefined ? { type: t, value: v } : extraName === "source" ? { type: t, value: v, source: x } : { type: t, value: v, unit: x });
        }
        start = k;
      }
    }
    return out;
  }
  function formatNumber(s, x) {
    return icu.numberFormat(s.locale, s.skeleton, toIntlMV(x), false);
  }
  defineMethods(NumberFormat.prototype, {
    formatToParts(x) {
      const s = internal(this, "NumberFormat", "formatToParts");
      const v = toIntlMV(x);
      const [text, spans] = icu.numberFormat(s.locale, s.skeleton, v, true);
      const parts = numberParts(text, spans, v);
      if (s.style === "unit") for (const p of parts) if (p.type === "percentSign") p.type = "unit";
      return parts;
    },
    resolvedOptions() {
      const s = internal(this, "NumberFormat", "resolvedOptions");
      const r = { __proto__: null, locale: s.locale, numberingSystem: s.numberingSystem, style: s.style };
      for (const k of ["currency", "currencyDisplay", "currencySign", "unit", "unitDisplay", "minimumIntegerDigits", "minimumFractionDigits", "maximumFractionDigits", "minimumSignificantDigits", "maximumSignificantDigits", "useGrouping", "notation", "compactDisplay", "signDisplay", "roundingMode", "roundingIncrement", "trailingZeroDisplay", "roundingPriority"])
        if (s[k] !== undefined && (k !== "compactDisplay" || s.notation === "compact")) r[k] = s[k];
      return plain(r);
    },
  });
  defineGetter(NumberFormat.prototype, "format", { get format() {
    const s = internal(this, "NumberFormat", "format");
    if (!s.bound) s.bound = (x) => formatNumber(s, x);
    return s.bound;
  } });
  defineTag(NumberFormat.prototype, "Intl.NumberFormat");

  /* ---------- DateTimeFormat ---------- */

  let zoneIndex = null;
  const zoneCache = new Map();
  function canonicalZone(name) {
    let z = zoneCache.get(name);
    if (z !== undefined) return z;
    if (name.length > 100 || !/^[A-Za-z0-9_+\-\/]+$/.test(name)) return null;
    const upper = name.toUpperCase();
    if (upper === "UTC" || upper === "ETC/UTC" || upper === "ETC/GMT" || upper === "GMT") z = "UTC";
    else {
      if (!zoneIndex) {
        zoneIndex = new Map();
        for (const id of icu.timeZones()) zoneIndex.set(id.toUpperCase(), id);
      }
      const exact = zoneIndex.get(upper);
      z = exact === undefined ? null : icu.timeZone(exact);
      if (z === "Etc/UTC" || z === "Etc/GMT") z = "UTC";
    }
    if (zoneCache.size < 1000) zoneCache.set(name, z);
    return z;
  }
  const DATE_COMPONENTS = ["weekday", "era", "year", "month", "day", "dayPeriod", "hour", "minute", "second", "fractionalSecondDigits", "timeZoneName"];
  const STYLE_INDEX = { full: 0, long: 1, medium: 2, short: 3 };
  function hourChar(hc) { return { h11: "K", h12: "h", h23: "H", h24: "k" }[hc]; }
  function skeletonOf(f, hc) {
    let sk = "";
    const add = (v, map) => { if (v !== undefined) sk += map[v]; };
    add(f.era, { narrow: "GGGGG", short: "G", long: "GGGG" });
    add(f.year, { numeric: "y", "2-digit": "yy" });
    add(f.month, { numeric: "M", "2-digit": "MM", short: "MMM", long: "MMMM", narrow: "MMMMM" });
    add(f.weekday, { narrow: "EEEEE", short: "EEE", long: "EEEE" });
    add(f.day, { numeric: "d", "2-digit": "dd" });
    add(f.dayPeriod, { narrow: "BBBBB", short: "B", long: "BBBB" });
    if (f.hour !== undefined) {
      const c = hc ? hourChar(hc) : "j";
      sk += f.hour === "2-digit" ? c + c : c;
    }
    add(f.minute, { numeric: "m", "2-digit": "mm" });
    add(f.second, { numeric: "s", "2-digit": "ss" });
    if (f.fractionalSecondDigits !== undefined) sk += "S".repeat(f.fractionalSecondDigits);
    add(f.timeZoneName, { short: "z", long: "zzzz", shortOffset: "O", longOffset: "OOOO", shortGeneric: "v", longGeneric: "vvvv" });
    return sk;
  }
  /* Replaces the hour letters of a pattern (outside quotes) with the one of hc. */
  function applyHourCycle(pattern, hc) {
    const c = hourChar(hc);
    let out = "", quoted = false;
    for (const ch of pattern) {
      if (ch === "'") quoted = !quoted;
      out += !quoted && "hHkK".includes(ch) ? c : ch;
    }
    if (hc === "h23" || hc === "h24") out = out.replace(/\s*\ba\b\s*/g, (m) => (m.trim() === m ? "" : " ")).trim();
    return out;
  }
  function patternFields(pattern) {
    const runs = [];
    let quoted = false;
    for (let i = 0; i < pattern.length;) {
      const ch = pattern[i];
      if (ch === "'") { quoted = !quoted; i++; continue; }
      if (!quoted && /[A-Za-z]/.test(ch)) {
        let j = i;
        while (j < pattern.length && pattern[j] === ch) j++;
        runs.push([ch, j - i]);
        i = j;
      } else i++;
    }
    return runs;
  }
  function resolvedComponents(pattern) {
    const r = { __proto__: null };
    const text = { 1: "numeric", 2: "2-digit" };
    for (const [ch, n] of patternFields(pattern)) {
      switch (ch) {
        case "G": r.era = n === 4 ? "long" : n === 5 ? "narrow" : "short"; break;
        case "y": case "u": case "U": r.year = n === 2 ? "2-digit" : "numeric"; break;
        case "M": case "L": r.month = n <= 2 ? text[n] : n === 3 ? "short" : n === 4 ? "long" : "narrow"; break;
        case "E": case "c": case "e": r.weekday = n === 4 ? "long" : n === 5 ? "narrow" : "short"; break;
        case "d": r.day = text[Math.min(n, 2)]; break;
        case "h": case "H": case "k": case "K": r.hour = text[Math.min(n, 2)]; break;
        case "m": r.minute = text[Math.min(n, 2)]; break;
        case "s": r.second = text[Math.min(n, 2)]; break;
        case "S": r.fractionalSecondDigits = n; break;
        case "B": case "b": r.dayPeriod = n === 4 ? "long" : n === 5 ? "narrow" : "short"; break;
        case "z": r.timeZoneName = n === 4 ? "long" : "short"; break;
        case "O": r.timeZoneName = n === 4 ? "longOffset" : "shortOffset"; break;
        case "v": r.timeZoneName = n === 4 ? "longGeneric" : "shortGeneric"; break;
      }
    }
    return r;
  }
  function patternHourCycle(pattern) {
    for (const [ch] of patternFields(pattern)) {
      if (ch === "h") return "h12";
      if (ch === "H") return "h23";
      if (ch === "K") return "h11";
      if (ch === "k") return "h24";
    }
    return undefined;
  }
  function toDateTimeOptions(options, required, defaults) {
    const o = options === undefined ? null : $Object(options);
    const copy = ObjectCreate(o);
    let need = true;
    if (required === "date" || required === "any") for (const k of ["weekday", "year", "month", "day"]) if (copy[k] !== undefined) need = false;
    if (required === "time" || required === "any") for (const k of ["dayPeriod", "hour", "minute", "second", "fractionalSecondDigits"]) if (copy[k] !== undefined) need = false;
    if (copy.dateStyle !== undefined || copy.timeStyle !== undefined) need = false;
    if (required === "date" && copy.timeStyle !== undefined) throw new TypeErr("Invalid option : timeStyle");
    if (required === "time" && copy.dateStyle !== undefined) throw new TypeErr("Invalid option : dateStyle");
    if (need && (defaults === "date" || defaults === "all")) for (const k of ["year", "month", "day"]) ObjectDefineProperty(copy, k, { value: "numeric", writable: true, enumerable: true, configurable: true });
    if (need && (defaults === "time" || defaults === "all")) for (const k of ["hour", "minute", "second"]) ObjectDefineProperty(copy, k, { value: "numeric", writable: true, enumerable: true, configurable: true });
    return copy;
  }
  function DateTimeFormat(locales, options) {
    if (new.target === undefined) return new DateTimeFormat(locales, options);
    slots.set(this, createDateTimeFormat(locales, options, "any", "date"));
    return this;
  }
  function createDateTimeFormat(locales, options, required, defaults) {
    const requested = canonicalizeLocaleList(locales);
    const o = toDateTimeOptions(options, required, defaults);
    localeOptions(o);
    const ca = canonicalCalendar(identifierOption(o, "calendar"));
    const nu = identifierOption(o, "numberingSystem");
    const hour12 = o.hour12 === undefined ? undefined : !!o.hour12;
    let hourCycle = getOption(o, "hourCycle", ["h11", "h12", "h23", "h24"], undefined);
    if (hour12 !== undefined) hourCycle = null;
    const r = resolveLocale(requested, { __proto__: null, ca, nu, hc: hourCycle === null ? undefined : hourCycle }, ["ca", "hc", "nu"], (k, v) => (k === "nu" ? NUMBERING.has(v) : k === "ca" ? isCalendar(v) : ["h11", "h12", "h23", "h24"].includes(v)));
    const s = { __proto__: null, kind: "DateTimeFormat", locale: r.locale, calendar: r.values.ca || "gregory", numberingSystem: r.values.nu || "latn" };
    let tz = o.timeZone;
    if (tz === undefined) tz = DEFAULT_ZONE;
    else {
      tz = toStr(tz);
      const c = canonicalZone(tz);
      if (c === null) throw new RangeErr(`Invalid time zone specified: ${tz}`);
      tz = c;
    }
    s.timeZone = tz;
    const f = { __proto__: null };
    for (const k of DATE_COMPONENTS) {
      if (k === "fractionalSecondDigits") { const v = getNumberOption(o, k, 1, 3, undefined); if (v !== undefined) f[k] = v; continue; }
      const values = k === "weekday" || k === "era" || k === "dayPeriod" ? ["narrow", "short", "long"]
        : k === "month" ? ["numeric", "2-digit", "narrow", "short", "long"]
        : k === "timeZoneName" ? ["short", "long", "shortOffset", "longOffset", "shortGeneric", "longGeneric"]
        : ["numeric", "2-digit"];
      const v = getOption(o, k, values, undefined);
      if (v !== undefined) f[k] = v;
    }
    getOption(o, "formatMatcher", ["basic", "best fit"], "best fit");
    const dateStyle = getOption(o, "dateStyle", ["full", "long", "medium", "short"], undefined);
    const timeStyle = getOption(o, "timeStyle", ["full", "long", "medium", "short"], undefined);
    const hasComponent = Object.keys(f).length > 0;
    if ((dateStyle !== undefined || timeStyle !== undefined) && hasComponent) throw new TypeErr(`Can't set option ${Object.keys(f)[0]} when ${dateStyle !== undefined ? "dateStyle" : "timeStyle"} is used`);
    let icuLocale = r.base;
    if (r.values.ca || r.values.nu) icuLocale += "-u" + (r.values.ca ? "-ca-" + r.values.ca : "") + (r.values.nu ? "-nu-" + r.values.nu : "");
    s.icuLocale = icuLocale;
    const hcDefault = icu.hourCycle(r.base);
    let hc = r.values.hc || hourCycle || undefined;
    if (hour12 !== undefined) hc = hour12 ? (hcDefault === "h11" || hcDefault === "h23" ? "h11" : "h12") : (hcDefault === "h11" || hcDefault === "h23" ? "h23" : "h24");
    let pattern;
    if (dateStyle !== undefined || timeStyle !== undefined) {
      pattern = icu.stylePattern(icuLocale, dateStyle === undefined ? -1 : STYLE_INDEX[dateStyle], timeStyle === undefined ? -1 : STYLE_INDEX[timeStyle]);
      if (hc !== undefined && timeStyle !== undefined) pattern = applyHourCycle(pattern, hc);
      s.dateStyle = dateStyle; s.timeStyle = timeStyle;
    } else {
      if (!hasComponent) { f.year = "numeric"; f.month = "numeric"; f.day = "numeric"; }
      pattern = icu.bestPattern(icuLocale, skeletonOf(f, hc));
      if (hc !== undefined && f.hour !== undefined) pattern = applyHourCycle(pattern, hc);
    }
    s.pattern = pattern;
    s.skeleton = patternFields(pattern).map(([ch, n]) => ch.repeat(n)).join("");
    s.hourCycle = patternHourCycle(pattern);
    if (s.hourCycle === undefined) s.hourCycleRequested = hc;
    return s;
  }
  function timeValue(date) {
    let x = date === undefined ? now() : $Number(date);
    if (!NumberIsFinite(x) || MathAbs(x) > 8.64e15) throw new RangeErr("Invalid time value");
    x = Math.trunc(x) + 0;
    return x;
  }
  const DATE_FIELDS = { 0: "era", 1: "year", 2: "month", 3: "day", 4: "hour", 5: "hour", 6: "minute", 7: "second", 8: "fractionalSecond", 9: "weekday", 14: "dayPeriod", 15: "hour", 16: "hour", 17: "timeZoneName", 18: "year", 19: "weekday", 20: "year", 23: "timeZoneName", 24: "timeZoneName", 25: "weekday", 26: "month", 29: "timeZoneName", 30: "yearName", 31: "timeZoneName", 32: "timeZoneName", 33: "timeZoneName", 34: "relatedYear", 35: "dayPeriod", 36: "dayPeriod" };
  function dateParts(text, spans, withSource) {
    if (!withSource) {
      /* a date's fields never overlap: walk them in order */
      const order = [];
      for (let i = 0; i < spans.length; i += 4) if (spans[i] === 1) order.push(i);
      order.sort((a, b) => spans[a + 2] - spans[b + 2]);
      const out = [];
      let at = 0;
      for (const i of order) {
        const a = spans[i + 2], b = spans[i + 3];
        if (a < at) continue;
        if (a > at) out.push({ type: "literal", value: text.slice(at, a) });
        out.push({ type: DATE_FIELDS[spans[i + 1]] || "literal", value: text.slice(a, b) });
        at = b;
      }
      if (at < text.length) out.push({ type: "literal", value: text.slice(at) });
      return out;
    }
    const n = text.length;
    const type = new Array(n).fill("literal");
    const source = withSource ? new Array(n).fill("shared") : undefined;
    for (let i = 0; i < spans.length; i += 4) {
      const [cat, field, a, b] = [spans[i], spans[i + 1], spans[i + 2], spans[i + 3]];
      if (cat === 1) { const t = DATE_FIELDS[field] || "literal"; for (let k = a; k < b; k++) type[k] = t; }
      else if (cat === 0x1005 && withSource) for (let k = a; k < b; k++) source[k] = field === 0 ? "startRange" : "endRange";
    }
    return coalesce(text, type, source, withSource ? "source" : null);
  }
  /* As V8 does for the web's sake, format() (not formatToParts) writes CLDR 42's narrow no-break
   * space (before AM/PM) as a plain space. */
  const NNBSP = /\u202f/g;
  function formatDate(s, date) {
    return icu.dateFormat(s.icuLocale, s.timeZone, s.pattern, timeValue(date), false).replace(NNBSP, " ");
  }
  defineMethods(DateTimeFormat.prototype, {
    formatToParts(date) {
      const s = internal(this, "DateTimeFormat", "formatToParts");
      const [text, spans] = icu.dateFormat(s.icuLocale, s.timeZone, s.pattern, timeValue(date), true);
      return dateParts(text, spans, false);
    },
    formatRange(a, b) {
      const s = internal(this, "DateTimeFormat", "formatRange");
      if (a === undefined || b === undefined) throw new TypeErr("startDate and endDate are required");
      const x = timeValue(a), y = timeValue(b);
      return icu.dateRange(s.icuLocale, s.timeZone, s.skeleton, x, y, false);
    },
    formatRangeToParts(a, b) {
      const s = internal(this, "DateTimeFormat", "formatRangeToParts");
      if (a === undefined || b === undefined) throw new TypeErr("startDate and endDate are required");
      const x = timeValue(a), y = timeValue(b);
      const [text, spans] = icu.dateRange(s.icuLocale, s.timeZone, s.skeleton, x, y, true);
      return dateParts(text, spans, true);
    },
    resolvedOptions() {
      const s = internal(this, "DateTimeFormat", "resolvedOptions");
      const r = { __proto__: null, locale: s.locale, calendar: s.calendar, numberingSystem: s.numberingSystem, timeZone: s.timeZone };
      if (s.hourCycle !== undefined) { r.hourCycle = s.hourCycle; r.hour12 = s.hourCycle === "h11" || s.hourCycle === "h12"; }
      if (s.dateStyle === undefined && s.timeStyle === undefined) {
        const c = resolvedComponents(s.pattern);
        for (const k of DATE_COMPONENTS) if (c[k] !== undefined) r[k] = c[k];
      } else {
        if (s.dateStyle !== undefined) r.dateStyle = s.dateStyle;
        if (s.timeStyle !== undefined) r.timeStyle = s.timeStyle;
      }
      return plain(r);
    },
  });
  defineGetter(DateTimeFormat.prototype, "format", { get format() {
    const s = internal(this, "DateTimeFormat", "format");
    if (!s.bound) s.bound = (date) => formatDate(s, date);
    return s.bound;
  } });
  defineTag(DateTimeFormat.prototype, "Intl.DateTimeFormat");

  /* ---------- Collator ---------- */

  function Collator(locales, options) {
    if (new.target === undefined) return new Collator(locales, options);
    const requested = canonicalizeLocaleList(locales);
    const o = coerceOptions(options);
    const usage = getOption(o, "usage", ["sort", "search"], "sort");
    localeOptions(o);
    const co = identifierOption(o, "collation");
    let kn = o.numeric === undefined ? undefined : $String(!!o.numeric);
    const kf = getOption(o, "caseFirst", ["upper", "lower", "false"], undefined);
    const r = resolveLocale(requested, { __proto__: null, co, kn, kf }, ["co", "kn", "kf"], (k, v) => (k === "kn" ? v === "true" || v === "false" : k === "kf" ? ["upper", "lower", "false"].includes(v) : false), 1);
    const s = { __proto__: null, kind: "Collator", locale: r.locale, usage, collation: "default", numeric: r.values.kn === "true", caseFirst: r.values.kf || "false" };
    s.sensitivity = getOption(o, "sensitivity", ["base", "accent", "case", "variant"], "variant");
    const ip = getOption(o, "ignorePunctuation", undefined, undefined, "boolean");
    s.ignorePunctuation = ip === undefined ? icu.collatorIgnoresPunctuation(r.base) : ip;
    s.icuLocale = usage === "search" ? `${r.base}-u-co-search` : r.base;
    s.strength = { base: 0, accent: 1, case: 3, variant: 2 }[s.sensitivity];
    slots.set(this, s);
    return this;
  }
  function compareStrings(s, x, y) {
    return icu.compare(s.icuLocale, s.strength, s.numeric, s.caseFirst, s.ignorePunctuation, toStr(x), toStr(y));
  }
  defineMethods(Collator.prototype, {
    resolvedOptions() {
      const s = internal(this, "Collator", "resolvedOptions");
      return plain({ __proto__: null, locale: s.locale, usage: s.usage, sensitivity: s.sensitivity, ignorePunctuation: s.ignorePunctuation, collation: s.collation, numeric: s.numeric, caseFirst: s.caseFirst });
    },
  });
  defineGetter(Collator.prototype, "compare", { get compare() {
    const s = internal(this, "Collator", "compare");
    if (!s.bound) s.bound = (x, y) => compareStrings(s, x, y);
    return s.bound;
  } });
  defineTag(Collator.prototype, "Intl.Collator");

  /* ---------- PluralRules ---------- */

  function PluralRules(locales, options) {
    if (new.target === undefined) throw new TypeErr("Constructor Intl.PluralRules requires 'new'");
    const requested = canonicalizeLocaleList(locales);
    const o = coerceOptions(options);
    localeOptions(o);
    const r = resolveLocale(requested, { __proto__: null }, [], () => false, 2);
    const s = { __proto__: null, kind: "PluralRules", locale: r.locale, type: getOption(o, "type", ["cardinal", "ordinal"], "cardinal") };
    s.notation = getOption(o, "notation", ["standard", "scientific", "engineering", "compact"], "standard");
    const compactDisplay = getOption(o, "compactDisplay", ["short", "long"], "short");
    if (s.notation === "compact") s.compactDisplay = compactDisplay;
    setDigitOptions(s, o, 0, 3, s.notation);
    s.skeleton = (s.notation === "standard" ? "" : (s.notation === "compact" ? "compact-" + compactDisplay : s.notation) + " ") + digitSkeleton(s);
    slots.set(this, s);
    return this;
  }
  defineMethods(PluralRules.prototype, {
    select(n) {
      const s = internal(this, "PluralRules", "select");
      const x = $Number(n);
      if (!NumberIsFinite(x)) return "other";
      return icu.plural(s.locale, s.type === "ordinal", s.skeleton, x);
    },
    resolvedOptions() {
      const s = internal(this, "PluralRules", "resolvedOptions");
      const r = { __proto__: null, locale: s.locale, type: s.type, notation: s.notation };
      if (s.compactDisplay !== undefined) r.compactDisplay = s.compactDisplay;
      r.minimumIntegerDigits = s.minimumIntegerDigits;
      for (const k of ["minimumFractionDigits", "maximumFractionDigits", "minimumSignificantDigits", "maximumSignificantDigits"]) if (s[k] !== undefined) r[k] = s[k];
      /* ECMA-402 (2025) orders the categories; Node 20 gives ICU's order (docs/intl.md) */
      const order = ["zero", "one", "two", "few", "many", "other"];
      const cats = icu.pluralCategories(s.locale, s.type === "ordinal");
      r.pluralCategories = order.filter((c) => cats.includes(c));
      r.roundingIncrement = s.roundingIncrement; r.roundingMode = s.roundingMode;
      r.roundingPriority = s.roundingType === "compact" ? "morePrecision" : s.roundingPriority; r.trailingZeroDisplay = s.trailingZeroDisplay;
      return plain(r);
    },
  });
  defineTag(PluralRules.prototype, "Intl.PluralRules");

  /* ---------- RelativeTimeFormat ---------- */

  const REL_UNITS = ["year", "quarter", "month", "week", "day", "hour", "minute", "second"];
  function RelativeTimeFormat(locales, options) {
    if (new.target === undefined) throw new TypeErr("Constructor Intl.RelativeTimeFormat requires 'new'");
    const requested = canonicalizeLocaleList(locales);
    const o = coerceOptions(options);
    localeOptions(o);
    const nu = identifierOption(o, "numberingSystem");
    const r = resolveLocale(requested, { __proto__: null, nu }, ["nu"], (k, v) => NUMBERING.has(v));
    const s = { __proto__: null, kind: "RelativeTimeFormat", locale: r.locale, numberingSystem: r.values.nu || "latn" };
    s.icuLocale = r.values.nu ? `${r.base}-u-nu-${r.values.nu}` : r.base;
    s.style = getOption(o, "style", ["long", "short", "narrow"], "long");
    s.numeric = getOption(o, "numeric", ["always", "auto"], "always");
    slots.set(this, s);
    return this;
  }
  function relUnit(unit) {
    let u = toStr(unit);
    if (u.endsWith("s")) u = u.slice(0, -1);
    const i = REL_UNITS.indexOf(u);
    if (i < 0) throw new RangeErr(`Invalid unit argument for format() '${$String(unit)}'`);
    return i;
  }
  function relArgs(value, unit) {
    const v = $Number(value);
    const u = relUnit(unit);
    if (!NumberIsFinite(v)) throw new RangeErr("Invalid number value");
    return [v, u];
  }
  defineMethods(RelativeTimeFormat.prototype, {
    format(value, unit) {
      const s = internal(this, "RelativeTimeFormat", "format");
      const [v, u] = relArgs(value, unit);
      return icu.relativeTime(s.icuLocale, ["long", "short", "narrow"].indexOf(s.style), s.numeric === "auto", v, u, false);
    },
    formatToParts(value, unit) {
      const s = internal(this, "RelativeTimeFormat", "formatToParts");
      const [v, u] = relArgs(value, unit);
      const [text, spans] = icu.relativeTime(s.icuLocale, ["long", "short", "narrow"].indexOf(s.style), s.numeric === "auto", v, u, true);
      const n = text.length;
      const type = new Array(n).fill("literal"), width = new Array(n).fill(Infinity), unitOf = new Array(n).fill(undefined);
      for (let i = 0; i < spans.length; i += 4) {
        const [cat, field, a, b] = [spans[i], spans[i + 1], spans[i + 2], spans[i + 3]];
        if (cat !== 2) continue;
        let t = NUMBER_FIELDS[field] || "literal";
        if (t === "sign") t = /[-\u2212]/.test(text.slice(a, b)) ? "minusSign" : "plusSign";
        for (let k = a; k < b; k++) if (b - a <= width[k]) { type[k] = t; width[k] = b - a; unitOf[k] = REL_UNITS[u]; }
      }
      return coalesce(text, type, unitOf, "unit");
    },
    resolvedOptions() {
      const s = internal(this, "RelativeTimeFormat", "resolvedOptions");
      return plain({ __proto__: null, locale: s.locale, style: s.style, numeric: s.numeric, numberingSystem: s.numberingSystem });
    },
  });
  defineTag(RelativeTimeFormat.prototype, "Intl.RelativeTimeFormat");

  /* ---------- ListFormat ---------- */

  function ListFormat(locales, options) {
    if (new.target === undefined) throw new TypeErr("Constructor Intl.ListFormat requires 'new'");
    const requested = canonicalizeLocaleList(locales);
    const o = options === undefined ? ObjectCreate(null) : options;
    if (typeof o !== "object" || o === null) throw new TypeErr("Options must be an object");
    localeOptions(o);
    const r = resolveLocale(requested, { __proto__: null }, [], () => false);
    const s = { __proto__: null, kind: "ListFormat", locale: r.locale };
    s.type = getOption(o, "type", ["conjunction", "disjunction", "unit"], "conjunction");
    s.style = getOption(o, "style", ["long", "short", "narrow"], "long");
    slots.set(this, s);
    return this;
  }
  function stringList(iterable) {
    if (iterable === undefined) return [];
    const out = [];
    for (const x of iterable) {
      if (typeof x !== "string") throw new TypeErr(`Iterable yielded ${typeof x === "object" ? "an object" : $String(x)} which is not a string`);
      out.push(x);
    }
    return out;
  }
  function listArgs(s) {
    return [s.locale, ["conjunction", "disjunction", "unit"].indexOf(s.type), ["long", "short", "narrow"].indexOf(s.style)];
  }
  defineMethods(ListFormat.prototype, {
    format(list) {
      const s = internal(this, "ListFormat", "format");
      const items = stringList(list);
      return icu.listFormat(...listArgs(s), items, false);
    },
    formatToParts(list) {
      const s = internal(this, "ListFormat", "formatToParts");
      const items = stringList(list);
      const [text, spans] = icu.listFormat(...listArgs(s), items, true);
      const type = new Array(text.length).fill("literal");
      const elem = new Array(text.length).fill(undefined);
      for (let i = 0; i < spans.length; i += 4)
        if (spans[i] === 3 && spans[i + 1] === 1) for (let k = spans[i + 2]; k < spans[i + 3]; k++) { type[k] = "element"; elem[k] = i; }
      return coalesce(text, type, elem, null);
    },
    resolvedOptions() {
      const s = internal(this, "ListFormat", "resolvedOptions");
      return plain({ __proto__: null, locale: s.locale, type: s.type, style: s.style });
    },
  });
  defineTag(ListFormat.prototype, "Intl.ListFormat");

  /* ---------- Intl ---------- */

  const Intl = {};
  const ctors = { Collator, DateTimeFormat, ListFormat, NumberFormat, PluralRules, RelativeTimeFormat };
  for (const name of Object.keys(ctors)) {
    const C = ctors[name];
    ObjectDefineProperty(C, "name", { value: name, configurable: true });
    ObjectDefineProperty(C, "length", { value: 0, configurable: true });
    ObjectDefineProperty(C, "prototype", { writable: false, enumerable: false, configurable: false });
    ObjectDefineProperty(C.prototype, "constructor", { value: C, writable: true, enumerable: false, configurable: true });
    ObjectDefineProperty(C, "supportedLocalesOf", {
      value: { supportedLocalesOf(locales) { return supportedLocales(locales, arguments[1], name === "Collator" ? 1 : name === "PluralRules" ? 2 : 0); } }.supportedLocalesOf,
      writable: true, enumerable: false, configurable: true,
    });
    ObjectDefineProperty(Intl, name, { value: C, writable: true, enumerable: false, configurable: true });
  }
  ObjectDefineProperty(Intl, "getCanonicalLocales", {
    value: { getCanonicalLocales(locales) { return canonicalizeLocaleList(locales); } }.getCanonicalLocales,
    writable: true, enumerable: false, configurable: true,
  });
  defineTag(Intl, "Intl");

  /* ---------- the toLocaleString family ---------- */

  const cache = new Map();
  function cached(kind, locales, options, make) {
    if (options !== undefined || (locales !== undefined && typeof locales !== "string")) return make();
    const key = kind + "|" + (locales === undefined ? "" : locales);
    let f = cache.get(key);
    if (!f) { f = make(); if (cache.size < 200) cache.set(key, f); }
    return f;
  }
  function dateToLocale(t, locales, options, required, defaults, kind) {
    if (NumberIsNaN(t)) return "Invalid Date";
    const s = cached(kind, locales, options, () => createDateTimeFormat(locales, options, required, defaults));
    return formatDate(s, t);
  }
  const locale = {
    number(x, locales, options) {
      const nf = cached("n", locales, options, () => new NumberFormat(locales, options));
      return nf.format(x);
    },
    date(t, locales, options) { return dateToLocale(t, locales, options, "any", "all", "d"); },
    dateOnly(t, locales, options) { return dateToLocale(t, locales, options, "date", "date", "dd"); },
    timeOnly(t, locales, options) { return dateToLocale(t, locales, options, "time", "time", "dt"); },
    compare(a, b, locales, options) {
      const c = cached("c", locales, options, () => new Collator(locales, options));
      return c.compare(a, b);
    },
  };
  locale.caseMap = (text, locales, upper) => {
    const list = canonicalizeLocaleList(locales);
    const tag = list.length ? stripExtensions(list[0]) : DEFAULT_LOCALE;
    return icu.caseMap(text, tag, upper);
  };
  return { Intl, locale };
});
