// tests/npm/real.js — real npm packages (tests/npm/package.json) used inside chidori: each
// result is printed by the agent and compared with Node running the same file.
import _ from "lodash";
import YAML from "yaml";
import { z } from "zod";
import { v5 as uuidv5, validate as uuidValidate, NIL } from "uuid";
import semver from "semver";
import dayjs from "dayjs";
import utc from "dayjs/plugin/utc.js";

dayjs.extend(utc);

export function results() {
  const out = {};
  out.lodash = {
    chunk: _.chunk([1, 2, 3, 4, 5], 2),
    groupBy: _.groupBy(["one", "two", "three"], "length"),
    template: _.template("hi <%= name %>!")({ name: "ada" }),
    debounceType: typeof _.debounce,
    merge: _.merge({ a: { b: 1 } }, { a: { c: 2 } }),
    sortBy: _.sortBy([{ n: "b", a: 2 }, { n: "a", a: 1 }], "a").map((x) => x.n),
  };
  const doc = YAML.parse("name: chidori\nlist:\n  - 1\n  - two\nnested: {a: true}\n");
  out.yaml = { doc, back: YAML.stringify({ k: [1, "x"], m: { n: null } }) };
  const User = z.object({ name: z.string().min(2), age: z.number().int().positive(), tags: z.array(z.string()).default([]) });
  const ok = User.safeParse({ name: "Ada", age: 36 });
  const bad = User.safeParse({ name: "A", age: -1 });
  out.zod = { ok: ok.success, data: ok.data, bad: bad.success, issues: bad.error.issues.map((i) => i.path.join(".") + ":" + i.code) };
  const id = uuidv5("chidori", uuidv5.URL);
  out.uuid = { id, valid: uuidValidate(id), nil: NIL };
  out.semver = {
    sat: semver.satisfies("1.2.3", "^1.0.0"),
    max: semver.maxSatisfying(["1.2.3", "1.4.0", "2.0.0"], "~1.4"),
    inc: semver.inc("1.2.3", "minor"),
    cmp: semver.compare("2.0.0-beta.1", "2.0.0"),
    coerce: String(semver.coerce("v3.1")),
  };
  const d = dayjs.utc("2024-02-28T10:00:00Z");
  out.dayjs = { plus: d.add(1, "day").format("YYYY-MM-DD"), diff: dayjs.utc("2024-03-01").diff(d, "hour"), fmt: d.format("ddd, MMM D YYYY HH:mm") };
  return out;
}
