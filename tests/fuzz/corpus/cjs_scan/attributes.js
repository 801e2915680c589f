// tests/npm/fixture/app/agent.js — hand-written packages (tests/npm/fixture/packages, copied into
// node_modules by tests/cases_npm_packages.py): exports maps, conditions, patterns, CommonJS with a
// cycle, JSON modules, a scoped package, self-reference, `module`/`main`/index probing.
import { run } from "chidori:agent";
import { which } from "esm-pat";
import { cond } from "esm-pat/conditions";
import { feature as alpha } from "esm-pat/features/alpha";
import { feature as deep } from "esm-pat/features/deep/beta.js";
import { util } from "esm-pat/utils/double";
import cyc, { name as cycName, count, defined } from "cjs-cycle";
import hello, { scoped } from "@scope/pkg";
import { kind as subKind } from "@scope/pkg/sub";
import { format as legacyFormat } from "legacy";
import data from "./data.json";
import data2 from "./data.json" with { type: "json" };
import { feature, self } from "./lib/feature.js";
import helper from "./lib/helper.cjs";
import { sum } from "./lib/helper.cjs";

run(async () => ({
  which, cond, alpha, deep, double: util(21),
  cjs: { name: cycName, count, defined, bSawALoaded: cyc.bSawALoaded, aDone: cyc.aDone, data: cyc.data,
    sameInstance: cyc.sameInstance, file: cyc.file, dir: cyc.dir, joined: cyc.joined, thisIsExports: cyc.thisIsExports },
  scoped: { hello: hello("ada"), scoped, subKind },
  legacyFormat,
  json: { data, same: data === data2 },
  self: { feature, self },
  helper: { ...helper }, sum,
}));
