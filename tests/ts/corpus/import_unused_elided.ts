import { EventEmitter } from "node:events";
import * as fs from "node:fs";
import def, { basename } from "node:path";
const e: EventEmitter | undefined = undefined;
console.log(basename("/x/y.ts"), e);
