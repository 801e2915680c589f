//mod
import { chidori } from "chidori:agent";
import * as self from "./main.js";
import "./other.js";
export default async function main(input) { await chidori.mark?.("m"); return { ok: Object.keys(self).length, input }; }
