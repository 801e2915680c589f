// Oracle: node:querystring — parse/stringify quirks, escape/unescape, aliases, custom codecs.
import qs from "node:querystring";
import { parse, stringify, escape, unescape } from "querystring";

const attempt = (f) => {
  try { return { ok: f() }; } catch (e) { return { name: e.name, message: e.message, code: e.code }; }
};
const plain = (o) => JSON.parse(JSON.stringify(o));

export async function agent() {
  const out = {};
  out.shape = Object.keys(qs).sort();
  out.aliases = [qs.decode === qs.parse, qs.encode === qs.stringify, parse === qs.parse, escape === qs.escape];
  out.parse = ["", "&=&", "=", "a&&b", "a=1&a=2&a=3", "=x", "x=", "a=b=c", "%zz=%41+b", "a+b=c+d", "&&&", "a=1;b=2",
    "a==1&&b", "%E4%BD%A0=%F0%9F%98%80", "a=%E4%BD", "__proto__=1&constructor=2&hasOwnProperty=3", "é=%zzé", "x=%", "x=%2",
    "a[]=1&a[]=2", "q=100%25+sure"].map((s) => [s, plain(parse(s))]);
  out.parseProto = Object.getPrototypeOf(parse("a=1")) === null;
  out.parseNonString = [parse(undefined), parse(5), parse(null)].map(plain);
  out.parseSepEq = [plain(parse("a:1;b:2", ";", ":")), plain(parse("a=>1||b=>2", "||", "=>")), plain(parse("a=1&b=2", null, null))];
  out.maxKeys = [plain(parse("a=1&b=2&c=3&&d", null, null, { maxKeys: 2 })), plain(parse("&&a=1&b=2", null, null, { maxKeys: 2 })),
    plain(parse("a=1&a=2&a", "&", "=", { maxKeys: 0 })), Object.keys(parse(Array.from({ length: 1500 }, (_, i) => "k" + i).join("&"))).length];
  out.customDecode = [plain(parse("a=%F0%9F", null, null, { decodeURIComponent: () => { throw new Error("x"); } })),
    plain(parse("a=b", null, null, { decodeURIComponent: (s) => s.toUpperCase() }))];
  out.stringify = [stringify({ a: [1, 2], b: [], c: true, d: null, e: undefined, f: NaN, g: {}, h: 10n, "x y": "é" }),
    stringify("x"), stringify(null), stringify({ a: 1, b: 2 }, ";", ":"), stringify({ n: 1e21, s: "1e+21", i: -Infinity }),
    stringify({ a: "b c" }, null, null, { encodeURIComponent: (s) => s.toUpperCase() }), stringify({ "": "", "&": "=" }),
    stringify([5, 6]), stringify({ u: "\u{1F600}!'()*~-._" })];
  out.stringifyBad = attempt(() => stringify({ a: "\ud800" }));
  out.escape = ["a b!~*()é&=", "", "\u{1F600}", "/?#[]@$,;:+"].map(escape).concat([escape(5), escape({ toString: () => "o k" }), escape(null)]);
  out.escapeBad = attempt(() => escape("x\udc00"));
  out.unescape = ["%E4%BD%A0%zz+%", "a+b", "%41%4", "é%zz", "%C3"].map((s) => [unescape(s), unescape(s, true)]);
  out.unescapeBuffer = [...qs.unescapeBuffer("%41%zz+%e9", true)];
  out.roundTrip = plain(parse(stringify({ k: ["a&b", "c=d", "é ü"], empty: "" })));
  return out;
}
