// Oracle: what a hand run of Node's own events/util tests still showed in the util group — an
// error one of our shims throws names its Node code when printed ("TypeError [ERR_X]: …", from
// String() and from util.inspect's first line) while a guest's error that merely carries a `code`
// does not, and a custom inspect function receives Node's option keys only (no indentationLvl).
// Only first lines of inspected errors are compared: stack frames are the engine's own.
import util from "node:util";
import { EventEmitter } from "node:events";
import { StringDecoder } from "node:string_decoder";
import assert from "node:assert";

const firstLine = (s) => s.split("\n")[0];
function caught(fn) {
  try { fn(); } catch (e) { return e; }
  return null;
}
function describe(e) {
  return {
    string: String(e),
    viaTemplate: `${e}`,
    head: firstLine(util.inspect(e)),
    nestedHead: firstLine(util.inspect({ failure: e })),
    name: e.name,
    code: e.code,
    keys: Object.keys(e),
    protoToString: Error.prototype.toString.call(e),
  };
}

export async function agent() {
  const out = {};
  const bus = new EventEmitter();
  out.badListener = describe(caught(() => bus.on("tick", 42)));
  out.unhandledObject = describe(caught(() => bus.emit("error", { reason: "disk full" })));
  out.unhandledText = describe(caught(() => bus.emit("error", "queue closed")));
  out.unknownEncoding = describe(caught(() => new StringDecoder("klingon")));
  out.promisifyNumber = describe(caught(() => util.promisify(7)));
  out.maxListeners = describe(caught(() => bus.setMaxListeners(-3)));

  // A message changed after the throw shows in String() as in Node (read at call time).
  const later = caught(() => bus.once("tock", "nope"));
  later.message = "rewritten";
  out.rewritten = String(later);

  // A guest error with a `code` of its own keeps the plain first line.
  const own = new RangeError("queue too slow");
  own.code = "E_SLOW";
  out.guestCoded = { string: String(own), head: firstLine(util.inspect(own)) };

  // assert.throws matching a RegExp against String(err) sees the code, as in Node.
  out.regexMatch = caught(() => assert.throws(() => bus.on("x", null), /^TypeError \[ERR_INVALID_ARG_TYPE\]: /)) === null;

  // Custom inspect functions: Node's option keys, at the top level and nested.
  const seen = [];
  const probe = { [util.inspect.custom](depth, options) { seen.push({ depth, keys: Object.keys(options).sort(), indentationLvl: options.indentationLvl }); return "probe"; } };
  util.inspect(probe);
  util.inspect({ outer: { inner: probe } }, { depth: 4 });
  util.inspect([probe], { compact: false, breakLength: 20 });
  out.customOptions = seen;
  return JSON.stringify(out, null, 1);
}
