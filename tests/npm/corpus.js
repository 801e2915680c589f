// tests/npm/corpus.js — the third batch of real npm packages, each used for a real result; printed
// by corpus_agent.js under chidori and by corpus_node.mjs under Node, and compared.
import toml from "fast-toml";
import Handlebars from "handlebars";
import { produce, enablePatches, produceWithPatches } from "immer";
import { from, of, lastValueFrom, firstValueFrom } from "rxjs";
import { map, filter, scan, toArray, mergeMap, take } from "rxjs/operators";
import Papa from "papaparse";
import { XMLParser, XMLBuilder } from "fast-xml-parser";
import { Validator } from "jsonschema";
import JSON5 from "json5";
import ini from "ini";
import { object, string, number, array, optional, validate as ssValidate } from "superstruct";
import * as R from "ramda";
import Decimal from "decimal.js";
import Fuse from "fuse.js";
import pluralize from "pluralize";
import deepmerge from "deepmerge";
import ms from "ms";

enablePatches();

export async function results() {
  const out = {};
  out.fastToml = toml.parse('title = "x"\n[owner]\nname = "ada"\nnums = [1, 2, 3]\n[[items]]\nk = 1\n[[items]]\nk = 2\n');
  Handlebars.registerHelper("shout", (s) => String(s).toUpperCase() + "!");
  out.handlebars = Handlebars.compile("{{#each people}}{{shout name}} is {{age}}{{#if @last}}.{{else}}, {{/if}}{{/each}} {{{raw}}} {{esc}}")(
    { people: [{ name: "ada", age: 36 }, { name: "alan", age: 41 }], raw: "<b>", esc: "<i>" });
  const base = { todos: [{ t: "a", done: false }, { t: "b", done: false }] };
  const next = produce(base, (d) => { d.todos[1].done = true; d.todos.push({ t: "c", done: false }); });
  const [, patches] = produceWithPatches(base, (d) => { d.todos[0].t = "A"; });
  out.immer = { same0: next.todos[0] === base.todos[0], done: next.todos[1].done, len: next.todos.length, frozen: Object.isFrozen(next), patches, untouched: base.todos[1].done };
  out.rxjs = {
    sum: await lastValueFrom(from([1, 2, 3, 4, 5]).pipe(filter((x) => x % 2), map((x) => x * 10), scan((a, b) => a + b, 0))),
    list: await lastValueFrom(of("a", "b").pipe(mergeMap((x) => of(x + 1, x + 2)), toArray())),
    first: await firstValueFrom(from([7, 8, 9]).pipe(take(1))),
  };
  const csv = Papa.parse("name,age\nada,36\n\"turing, alan\",41\n", { header: true, dynamicTyping: true, skipEmptyLines: true });
  out.papaparse = { data: csv.data, fields: csv.meta.fields, back: Papa.unparse([{ a: 1, b: "x,y" }]) };
  const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@" }).parse('<root a="1"><item id="x">one</item><item id="y">two</item><n>5</n></root>');
  out.fastXmlParser = { xml, back: new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: "@" }).build({ doc: { "@v": "2", k: ["a", "b"] } }) };
  const vres = new Validator().validate({ n: "x", list: [1, 2] }, { type: "object", properties: { n: { type: "number" }, list: { type: "array", items: { type: "integer" }, maxItems: 1 } } });
  out.jsonschema = { valid: vres.valid, errors: vres.errors.map((e) => e.property + " " + e.name) };
  out.json5 = { parsed: JSON5.parse("{a: 1, 'b': [0x10, +2,], // c\n s: 'it\\'s', inf: Infinity}"), back: JSON5.stringify({ k: "v", n: [1, null] }) };
  out.ini = { parsed: ini.parse("top = 1\n[sec]\nkey = value\nflag = true\n[sec.sub]\nx = y\n"), back: ini.stringify({ a: "1", s: { b: "2" } }) };
  const User = object({ name: string(), age: number(), tags: optional(array(string())) });
  const [err, good] = ssValidate({ name: "ada", age: 36 }, User);
  const [err2] = ssValidate({ name: "ada", age: "x" }, User);
  out.superstruct = { ok: err === undefined, good, bad: err2.path.join(".") + ":" + err2.type };
  out.ramda = {
    piped: R.pipe(R.map(R.multiply(2)), R.filter((x) => x > 2), R.sum)([1, 2, 3]),
    grouped: R.groupBy((x) => (x % 2 ? "odd" : "even"), [1, 2, 3, 4]),
    lens: R.set(R.lensPath(["a", "b"]), 9, { a: { b: 1, c: 2 } }),
    uniq: R.uniqBy(Math.abs, [-1, 1, 2, -2, 3]),
  };
  out.decimal = { sum: new Decimal("0.1").plus("0.2").toString(), div: new Decimal(1).div(3).toSignificantDigits(12).toString(), pow: new Decimal(2).pow(100).toFixed(), sqrt: new Decimal(2).sqrt().toFixed(20) };
  const fuse = new Fuse([{ title: "Old Man's War" }, { title: "The Lock Artist" }, { title: "HTML5" }], { keys: ["title"], includeScore: true });
  out.fuse = fuse.search("lock artst").map((r) => r.item.title);
  out.pluralize = [pluralize("person"), pluralize("box", 1, true), pluralize.singular("geese"), pluralize("test", 3, true)];
  out.deepmerge = deepmerge({ a: [1], o: { x: 1 } }, { a: [2], o: { y: 2 } });
  out.ms = [ms("2 days"), ms("1.5h"), ms(90000), ms(3 * 60 * 60 * 1000, { long: true })];
  return out;
}
