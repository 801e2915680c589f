// tests/intl/formats.mjs — Intl and the toLocaleString family in five locales, as a JSON summary.
// chidori must print what Node 20 prints (tests/cases_intl.py; the stored expected output notes
// where ICU 72's CLDR data differs from Node's newer one).
const LOCALES = ["en-US", "en-GB", "de-DE", "fr-FR", "ja-JP"];
const T = Date.UTC(2024, 2, 10, 7, 5, 9, 45); // a Sunday, 07:05:09.045 UTC
const T2 = Date.UTC(2024, 2, 14, 18, 30, 0);

function attempt(f) {
  try { return f(); } catch (e) { return `${e.name}: ${e instanceof RangeError || e instanceof TypeError ? "thrown" : e.message}`; }
}

export function agent() {
  const out = {};
  for (const L of LOCALES) {
    const r = {};
    const nf = (o, x) => new Intl.NumberFormat(L, o).format(x);
    r.decimal = [nf(undefined, 1234567.891), nf(undefined, -0.5), nf(undefined, 0), nf(undefined, 1e21), nf(undefined, NaN), nf(undefined, -Infinity)];
    r.digits = [nf({ minimumFractionDigits: 2 }, 3), nf({ maximumFractionDigits: 0 }, 2.5), nf({ maximumSignificantDigits: 3 }, 123456),
      nf({ minimumIntegerDigits: 3 }, 7), nf({ useGrouping: false }, 123456.7), nf({ minimumSignificantDigits: 4 }, 1.5)];
    r.percent = [nf({ style: "percent" }, 0.256), nf({ style: "percent", maximumFractionDigits: 2 }, -0.12345)];
    r.currency = [nf({ style: "currency", currency: "EUR" }, 1234.5), nf({ style: "currency", currency: "USD", currencyDisplay: "code" }, -42),
      nf({ style: "currency", currency: "JPY" }, 1234.5), nf({ style: "currency", currency: "GBP", currencyDisplay: "name" }, 2),
      nf({ style: "currency", currency: "EUR", currencySign: "accounting" }, -3.5)];
    r.compact = [nf({ notation: "compact" }, 1234), nf({ notation: "compact" }, 1234567), nf({ notation: "compact", compactDisplay: "long" }, 98765432)];
    r.scientific = [nf({ notation: "scientific" }, 123456), nf({ notation: "engineering" }, 0.000123)];
    r.sign = [nf({ signDisplay: "always" }, 5), nf({ signDisplay: "exceptZero" }, 0), nf({ signDisplay: "never" }, -5)];
    r.unit = [nf({ style: "unit", unit: "kilometer-per-hour" }, 50), nf({ style: "unit", unit: "liter", unitDisplay: "long" }, 2)];
    r.numberParts = new Intl.NumberFormat(L, { style: "currency", currency: "EUR" }).formatToParts(-1234.56);
    r.numberResolved = new Intl.NumberFormat(L, { style: "currency", currency: "JPY" }).resolvedOptions();
    r.bigint = [12345678901234567890n.toLocaleString(L), new Intl.NumberFormat(L).format(-987654321987654321n)];
    r.numberToLocale = [(1234.5).toLocaleString(L), (0.75).toLocaleString(L, { style: "percent" })];

    const df = (o, t = T) => new Intl.DateTimeFormat(L, o).format(t);
    r.dateDefault = df(undefined);
    r.dateStyles = ["full", "long", "medium", "short"].map((s) => df({ dateStyle: s, timeStyle: s }));
    r.dateComponents = [df({ weekday: "long", year: "numeric", month: "long", day: "numeric" }), df({ month: "short", day: "2-digit" }),
      df({ hour: "numeric", minute: "2-digit" }), df({ hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false }),
      df({ hour: "numeric", hour12: true }), df({ hourCycle: "h23", hour: "numeric", minute: "numeric" }),
      df({ year: "2-digit", month: "narrow" }), df({ era: "long", year: "numeric" }), df({ minute: "2-digit", second: "2-digit", fractionalSecondDigits: 3 })];
    r.zones = [df({ timeZone: "America/New_York", dateStyle: "medium", timeStyle: "long" }), df({ timeZone: "Asia/Kolkata", hour: "numeric", minute: "numeric", timeZoneName: "short" }),
      df({ timeZone: "Europe/Berlin", timeStyle: "full" }), df({ timeZone: "Australia/Lord_Howe", hour: "numeric", minute: "numeric", timeZoneName: "shortOffset" })];
    r.dateParts = new Intl.DateTimeFormat(L, { dateStyle: "medium", timeStyle: "short", timeZone: "Asia/Tokyo" }).formatToParts(T);
    r.dateResolved = new Intl.DateTimeFormat(L, { hour: "numeric", minute: "numeric", timeZone: "Europe/Paris" }).resolvedOptions();
    r.range = [new Intl.DateTimeFormat(L, { month: "short", day: "numeric" }).formatRange(T, T2), new Intl.DateTimeFormat(L, { hour: "numeric", minute: "numeric" }).formatRange(T, T + 3600e3)];
    r.dateToLocale = [new Date(T).toLocaleString(L), new Date(T).toLocaleDateString(L), new Date(T).toLocaleTimeString(L),
      new Date(T).toLocaleDateString(L, { month: "long" }), new Date(NaN).toLocaleString(L)];

    const words = ["Zebra", "äpfel", "apple", "Apfel", "zebra", "Éclair", "eclair", "item10", "item9", "a-b", "ab"];
    r.collate = [[...words].sort(new Intl.Collator(L).compare), [...words].sort(new Intl.Collator(L, { numeric: true, sensitivity: "base" }).compare),
      new Intl.Collator(L, { sensitivity: "base" }).compare("a", "Á"), new Intl.Collator(L, { sensitivity: "accent" }).compare("a", "á"),
      new Intl.Collator(L, { sensitivity: "case" }).compare("a", "A"), new Intl.Collator(L, { caseFirst: "upper" }).compare("a", "A"),
      "résumé".localeCompare("resume", L), "a".localeCompare("b", L), new Intl.Collator(L, { ignorePunctuation: true }).compare("a-b", "ab")];
    r.collatorResolved = new Intl.Collator(L, { numeric: true }).resolvedOptions();

    const pr = new Intl.PluralRules(L), po = new Intl.PluralRules(L, { type: "ordinal" });
    r.plural = [0, 1, 2, 3, 4, 11, 21, 22, 1.5, 100].map((n) => pr.select(n) + "/" + po.select(n));
    r.pluralFraction = new Intl.PluralRules(L, { minimumFractionDigits: 1 }).select(1);
    r.pluralCategories = pr.resolvedOptions().pluralCategories;

    const rtf = new Intl.RelativeTimeFormat(L), rta = new Intl.RelativeTimeFormat(L, { numeric: "auto", style: "short" });
    r.relative = [rtf.format(-1, "day"), rtf.format(3, "hours"), rtf.format(-2.5, "weeks"), rta.format(-1, "day"), rta.format(0, "year"),
      rta.format(1, "month"), new Intl.RelativeTimeFormat(L, { style: "narrow" }).format(-10, "minute"), rtf.format(1, "quarter")];
    r.relativeParts = rtf.formatToParts(-1234.5, "second");

    const lf = (o) => new Intl.ListFormat(L, o).format(["Alpha", "Beta", "Gamma"]);
    r.list = [lf(), lf({ type: "disjunction" }), lf({ type: "unit", style: "narrow" }), lf({ style: "short" }),
      new Intl.ListFormat(L).format(["solo"]), new Intl.ListFormat(L).format([])];
    r.listParts = new Intl.ListFormat(L).formatToParts(["x", "y"]);
    r.array = [1234.5, new Date(T), "s", null].toLocaleString(L);
    out[L] = r;
  }
  out.defaults = {
    number: (1234.5).toLocaleString(), date: new Date(T).toLocaleString(),
    locale: new Intl.NumberFormat().resolvedOptions().locale, zone: new Intl.DateTimeFormat().resolvedOptions().timeZone,
    collator: new Intl.Collator().resolvedOptions().locale,
  };
  out.locales = {
    canonical: Intl.getCanonicalLocales(["EN-us", "de-de", "zh-hant-tw", "en-US"]),
    supported: Intl.NumberFormat.supportedLocalesOf(["fr-FR", "xx-YY", "ja-JP"]),
    unicodeExt: new Intl.NumberFormat("de-DE-u-nu-arab").format(1234.5),
    fallback: new Intl.NumberFormat(["xx", "de-CH"]).resolvedOptions().locale,
    zoneCanonical: ["UTC", "Etc/GMT", "europe/paris", "America/New_York"].map((z) => new Intl.DateTimeFormat("en", { timeZone: z }).resolvedOptions().timeZone),
  };
  out.errors = {
    badLocale: attempt(() => new Intl.NumberFormat("en_US")),
    badLocaleType: attempt(() => Intl.getCanonicalLocales([5])),
    badStyle: attempt(() => new Intl.NumberFormat("en", { style: "bogus" })),
    noCurrency: attempt(() => new Intl.NumberFormat("en", { style: "currency" })),
    badCurrency: attempt(() => new Intl.NumberFormat("en", { style: "currency", currency: "EURO" })),
    badDigits: attempt(() => new Intl.NumberFormat("en", { maximumFractionDigits: 101 })),
    badZone: attempt(() => new Intl.DateTimeFormat("en", { timeZone: "Mars/Olympus" })),
    styleAndComponent: attempt(() => new Intl.DateTimeFormat("en", { dateStyle: "short", hour: "numeric" })),
    badDate: attempt(() => new Intl.DateTimeFormat("en").format(NaN)),
    badUnit: attempt(() => new Intl.RelativeTimeFormat("en").format(1, "fortnight")),
    badListItem: attempt(() => new Intl.ListFormat("en").format(["a", 1])),
    pluralNoNew: attempt(() => Intl.PluralRules()),
    wrongReceiver: attempt(() => Intl.NumberFormat.prototype.resolvedOptions.call({})),
    hugeTag: attempt(() => new Intl.Collator("a" + "-abcdefgh".repeat(5000))),
  };
  return out;
}
