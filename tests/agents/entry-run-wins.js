//! stdout-contains: "form": "run"
// run(handler) is preferred over the exports.
import { run } from "chidori:agent";
run(async () => ({ form: "run" }));
export async function agent() { return { form: "export agent" }; }
export default async function () { return { form: "default" }; }
