// tests/npm/more.js — more real npm packages, each used for a real result; printed by
// more_agent.js under chidori and by more_node.mjs under Node, and compared.
import jsyaml from "js-yaml";
import { marked } from "marked";
import { diffLines, createTwoFilesPatch } from "diff";
import Mustache from "mustache";
import Ajv from "ajv";
import { customAlphabet } from "nanoid";
import { addDays, format, differenceInCalendarDays, parseISO } from "date-fns";
import { chunk, uniqBy, camelCase } from "lodash-es";
import * as v from "valibot";

export function results() {
  const out = {};
  out.jsyaml = { load: jsyaml.load("a: 1\nb: [x, y]\nc: {d: true}\n"), dump: jsyaml.dump({ k: [1, "two"], n: null }) };
  out.marked = marked.parse("# Title\n\nSome *em* and **strong** text.\n\n- one\n- two\n");
  out.diff = {
    lines: diffLines("a\nb\nc\n", "a\nB\nc\nd\n").map((p) => (p.added ? "+" : p.removed ? "-" : "=") + p.count),
    patch: createTwoFilesPatch("x.txt", "x.txt", "one\ntwo\n", "one\n2\n", "", "", { context: 1 }),
  };
  out.mustache = Mustache.render("Hi {{name}}! {{#items}}[{{.}}]{{/items}} {{{raw}}} {{esc}}", { name: "Ada", items: [1, 2], raw: "<b>", esc: "<i>" });
  const ajv = new Ajv({ allErrors: true });
  const validate = ajv.compile({ type: "object", properties: { n: { type: "integer", minimum: 1 }, s: { type: "string" } }, required: ["n"], additionalProperties: false });
  out.ajv = { ok: validate({ n: 2, s: "x" }), bad: validate({ n: 0, extra: 1 }), errors: validate.errors.map((e) => e.instancePath + " " + e.keyword) };
  const id = customAlphabet("abc", 12)();
  out.nanoid = { length: id.length, alphabet: /^[abc]+$/.test(id) };
  const d = parseISO("2024-02-27T12:00:00");
  out.dateFns = { plus: format(addDays(d, 3), "yyyy-MM-dd EEE"), days: differenceInCalendarDays(parseISO("2024-03-10"), d) };
  out.lodashEs = { chunk: chunk([1, 2, 3], 2), uniq: uniqBy([{ a: 1 }, { a: 1 }, { a: 2 }], "a").length, camel: camelCase("Foo Bar-baz") };
  const Schema = v.object({ email: v.pipe(v.string(), v.email()), age: v.pipe(v.number(), v.minValue(18)) });
  const good = v.safeParse(Schema, { email: "a@b.co", age: 20 });
  const badV = v.safeParse(Schema, { email: "nope", age: 3 });
  out.valibot = { good: good.success, bad: badV.success, issues: badV.issues.map((i) => i.type) };
  return out;
}
