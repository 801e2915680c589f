// Oracle: values whose prototype was taken away are still known by their internal slots, as in
// Node (before: a Set, Map, WeakMap, ArrayBuffer or DataView with a null prototype printed as an
// empty object, and a Uint8Array's bytes as bigints), and EventEmitter's `on` carries Node's name.
import util from "node:util";
import { EventEmitter } from "node:events";

export async function agent() {
  const bare = (v) => Object.setPrototypeOf(v, null);
  const shown = [
    util.inspect(bare(new Set(["draft", "sent"]))),
    util.inspect(bare(new Map([["retries", 3]]))),
    util.inspect(bare(new WeakSet())),
    util.inspect(bare(new WeakMap())),
    util.inspect(bare(new Uint8Array([7, 8, 9]))),
    util.inspect(bare(new Int16Array([-2]))),
    util.inspect(bare(new BigUint64Array([5n]))),
    util.inspect(bare(new ArrayBuffer(3))),
    util.inspect(bare(new DataView(new ArrayBuffer(2)))),
    util.inspect({ inner: bare(new Set([1])) }),
    util.inspect(bare(new Set()), { showHidden: true }),
  ];
  const kinds = [
    util.types.isSet(bare(new Set())), util.types.isMap(bare(new Map())), util.types.isWeakSet(bare(new WeakSet())),
    util.types.isWeakMap(bare(new WeakMap())), util.types.isArrayBuffer(bare(new ArrayBuffer(1))),
    util.types.isDataView(bare(new DataView(new ArrayBuffer(1)))), util.types.isSet(bare({})), util.types.isMap(Object.create(null)),
  ];
  const proto = EventEmitter.prototype;
  const names = [proto.on.name, proto.addListener.name, proto.on === proto.addListener, proto.prependListener.name, proto.off.name];
  // prependListener still works after the rename
  const order = [];
  const bus = new EventEmitter();
  bus.on("step", () => order.push("second"));
  bus.prependListener("step", () => order.push("first"));
  bus.emit("step");
  return JSON.stringify({ shown, kinds, names, order }, null, 1);
}
