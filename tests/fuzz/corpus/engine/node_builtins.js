//mod
import path from "node:path";
import { Buffer } from "node:buffer";
import util from "node:util";
import { EventEmitter } from "node:events";
import { URL } from "node:url";
export default async () => [path.join("a", "..", "b"), Buffer.from("hi").toString("base64"), util.inspect({ a: [1] }), new EventEmitter().emit("x"), new URL("http://a/b/../c?d#e").href];
