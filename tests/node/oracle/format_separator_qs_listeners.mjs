// Oracle: what Node's own tests of util.format, querystring and events check that chidori missed
// (tools/node-tests): %d, %i, %f and %s group digits when formatWithOptions' options, else
// util.inspect.defaultOptions, ask for numericSeparator; querystring.parse with an empty
// separator ([] or "") takes the whole string as one pair; querystring.escape of a lone
// surrogate takes the next code unit as its low half (URI malformed only at the end);
// events.getEventListeners refuses what is neither an EventEmitter nor an EventTarget, and
// events.setMaxListeners(n, eventTarget) sets the limit getMaxListeners reads.
// (Before: no grouping in format, `{}` for an empty separator, URI malformed for any lone
// surrogate, [] for any value, and an EventTarget's limit stayed the default.)
import util from "node:util";
import qs from "node:querystring";
import events from "node:events";

function t(f) {
  try { return f(); } catch (e) { return ["throws", e.name, e.code, e.message]; }
}

export async function agent() {
  const saved = util.inspect.defaultOptions.numericSeparator;
  util.inspect.defaultOptions.numericSeparator = true;
  const byDefault = [util.format("%d", 1234567), util.format("%i", 1234567.9), util.format(1234567),
    util.format("%s", 1234567.891), util.format("%f", -1234567.891), util.format("%d", 1234.5678),
    util.format("%s", -12345678n), util.format("%d", 12345678n), util.format("%s", 1e21), util.format("%d", -0), util.inspect(-0, { numericSeparator: true }), util.inspect([-0, 12345.5]),
    util.formatWithOptions({ numericSeparator: false }, "%d %s %i %f", 12345, 12345, 12345, 12345.5),
    util.format("%o", 12345)];
  util.inspect.defaultOptions.numericSeparator = saved;
  const byOptions = [util.formatWithOptions({ numericSeparator: true }, "%d %i %s %f", 1234567, 1234567, 1234567, 1234567.891),
    util.formatWithOptions({ numericSeparator: true }, "%s", 12345678901234567890n),
    util.formatWithOptions({ numericSeparator: 1 }, "%d %d", 0.0001234, 123456.123456),
    util.formatWithOptions({ numericSeparator: true }, "%d", NaN), util.format("%d %s", 1234567, 1234567)];
  const parsed = [qs.parse("a", []), qs.parse("a=1&b=2", ""), qs.parse("a=1&b=2", "", ""), qs.parse("a", null, []),
    qs.parse("a=1&b=2", null), qs.parse()];
  const escaped = [t(() => qs.escape(String.fromCharCode(0xD801) + "test")), t(() => qs.escape("a\uDC00bc")),
    t(() => qs.escape("\uD83D\uDE00 ok")), t(() => qs.escape("ab\uD800")), t(() => qs.escape("\uD800\uD800")),
    t(() => qs.stringify({ k: "\uD800z", "\uDBFF\uDFFF": 1 }))];
  const et = new EventTarget();
  et.addEventListener("x", () => {});
  const listeners = [t(() => events.getEventListeners("INVALID_EMITTER")), t(() => events.getEventListeners({}, "x")),
    t(() => events.getEventListeners(et, "x").length),
    t(() => events.getEventListeners(new EventTarget(), "x").length),
    t(() => events.getEventListeners(new events.EventEmitter().on("y", () => {}), "y").length)];
  const et2 = new EventTarget(), et3 = new EventTarget();
  const limits = [events.getMaxListeners(et2)];
  events.setMaxListeners(101, et2);
  limits.push(events.getMaxListeners(et2), events.getMaxListeners(et3));
  return JSON.stringify({ byDefault, byOptions, parsed, escaped, listeners, limits }, null, 1);
}
