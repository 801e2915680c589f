/* node/internal_console.js — the console methods beyond log/info/debug/warn/error, with Node's
 * output: count/countReset, time/timeLog/timeEnd (durations read from the run's virtual clock, so
 * a replay prints the same numbers), group/groupCollapsed/groupEnd (two spaces per level on every
 * line, stdout and stderr alike), table (Node 20's box drawing, cells left-aligned), assert, dir (no
 * custom inspect unless asked) and dirxml. (trace is the prelude's own.)
 *
 * The prelude hands in `write(level, text)` (the console op, already indented) and the clock; this file holds no capability. Trusts nothing from the guest:
 * labels are stringified as Node does, tabular data is only read. */
(function (require, natives, name) {
  "use strict";

  const util = require("util");
  const inspect = util.inspect;
  // every method here runs on builtins captured before guest code (primordials.js,
  // internal/captures_util); the lists it fills have no prototype
  const P = natives.primordials, u = P.uncurry;
  const { ReflectApply, MapCtor, argsWith } = P;
  const MapGet = u(P.MapPrototypeGet), MapSet = u(P.MapPrototypeSet), MapHas = u(P.MapPrototypeHas), MapDelete = u(P.MapPrototypeDelete);
  const C = require("internal/captures_util"), t = C.uncurryThis;
  const { MathFloor, MathMax, StringCtor, NumberCtor, ObjectKeys, ObjectCreate, ArrayIsArray, ObjectHasOwn, list } = C;
  const StringPadStart = t(C.StringPrototypePadStart), NumberToFixed = t(C.NumberPrototypeToFixed);
  const StringIndexOf = t(C.StringPrototypeIndexOf), StringSlice = t(C.StringPrototypeSlice);
  const StringRepeat = t(C.StringPrototypeRepeat), StringNormalize = t(C.StringPrototypeNormalize);
  const StringCodePointAt = t(C.StringPrototypeCodePointAt), RegExpExec = t(C.RegExpPrototypeExec);
  const ArrayJoin = t(C.ArrayPrototypeJoin), objectToString = t(C.ObjectPrototypeToString);
  const MapForEach = t(C.MapPrototypeForEach), SetForEach = t(C.SetPrototypeForEach);
  const MapIteratorNext = t(C.MapIteratorPrototypeNext), SetIteratorNext = t(C.SetIteratorPrototypeNext);
  // ToString as a template literal applies it (a Symbol throws)
  const text = (v) => {
    if (typeof v === "symbol") throw new C.TypeErrorCtor("Cannot convert a Symbol value to a string");
    return StringCtor(v);
  };
  const isInstance = (v, Ctor) => ReflectApply(C.FunctionPrototypeHasInstance, Ctor, [v]);

  // Node's duration text: "12.345ms", "1.500s", "1:02.345 (m:ss.mmm)", "1:02:03.456 (h:mm:ss.mmm)".
  function formatTime(ms) {
    let hours = 0, minutes = 0, seconds = 0;
    if (ms >= 1000) {
      if (ms >= 60000) {
        if (ms >= 3600000) {
          hours = MathFloor(ms / 3600000);
          ms = ms % 3600000;
        }
        minutes = MathFloor(ms / 60000);
        ms = ms % 60000;
      }
      seconds = ms / 1000;
    }
    const pad = (v) => StringPadStart(StringCtor(v), 2, "0");
    if (hours !== 0 || minutes !== 0) {
      const fixed = NumberToFixed(seconds, 3), dot = StringIndexOf(fixed, ".");
      const s = StringSlice(fixed, 0, dot), frac = StringSlice(fixed, dot + 1);
      const head = hours !== 0 ? hours + ":" + pad(minutes) : StringCtor(minutes);
      return head + ":" + pad(s) + "." + frac + " (" + (hours !== 0 ? "h:m" : "") + "m:ss.mmm)";
    }
    if (seconds !== 0) return NumberToFixed(seconds, 3) + "s";
    return NumberCtor(NumberToFixed(ms, 3)) + "ms";
  }

  // Display width of a cell: East Asian wide/fullwidth characters count 2, combining marks and
  // zero-width characters 0, escape sequences nothing (what Node's getStringWidth computes).
  function isFullWidth(c) {
    return c >= 0x1100 && (c <= 0x115f || c === 0x2329 || c === 0x232a ||
      (c >= 0x2e80 && c <= 0x3247 && c !== 0x303f) || (c >= 0x3250 && c <= 0x4dbf) ||
      (c >= 0x4e00 && c <= 0xa4c6) || (c >= 0xa960 && c <= 0xa97c) || (c >= 0xac00 && c <= 0xd7a3) ||
      (c >= 0xf900 && c <= 0xfaff) || (c >= 0xfe10 && c <= 0xfe19) || (c >= 0xfe30 && c <= 0xfe6b) ||
      (c >= 0xff01 && c <= 0xff60) || (c >= 0xffe0 && c <= 0xffe6) || (c >= 0x1b000 && c <= 0x1b001) ||
      (c >= 0x1f200 && c <= 0x1f251) || (c >= 0x1f300 && c <= 0x1f64f) || (c >= 0x20000 && c <= 0x3fffd));
  }
  const SGR = /\u001b\[[0-9;]*m/g;
  function stringWidth(s) {
    s = StringCtor(s);
    // drop colour escapes (s.replace(/\u001b\[[0-9;]*m/g, "") through the captured exec)
    let plain = "", from = 0, m;
    SGR.lastIndex = 0;
    while ((m = RegExpExec(SGR, s)) !== null) { plain += StringSlice(s, from, m.index); from = m.index + m[0].length; }
    s = StringNormalize(plain + StringSlice(s, from), "NFC");
    let w = 0;
    for (let i = 0; i < s.length; i++) {
      const c = StringCodePointAt(s, i);
      if (c > 0xffff) i++;
      if (c <= 0x1f || (c >= 0x7f && c <= 0x9f) || (c >= 0x300 && c <= 0x36f) || (c >= 0x200b && c <= 0x200f) ||
        (c >= 0x20d0 && c <= 0x20ff) || (c >= 0xfe00 && c <= 0xfe0f) || (c >= 0xfe20 && c <= 0xfe2f) ||
        (c >= 0xe0100 && c <= 0xe01ef)) continue;
      w += isFullWidth(c) ? 2 : 1;
    }
    return w;
  }

  function renderRow(row, widths) {
    let out = "│ ";
    for (let i = 0; i < row.length; i++) {
      out += row[i] + StringRepeat(" ", widths[i] - stringWidth(row[i]));
      if (i !== row.length - 1) out += " │ ";
    }
    return out + " │";
  }

  // head: column titles; columns: one (possibly sparse) array of cell texts per title.
  function renderTable(head, columns) {
    const rows = list();
    const widths = list();
    for (let i = 0; i < head.length; i++) widths[i] = stringWidth(head[i]);
    let longest = 0;
    for (let i = 0; i < columns.length; i++) longest = MathMax(longest, columns[i].length);
    for (let i = 0; i < head.length; i++) {
      const column = columns[i];
      for (let j = 0; j < longest; j++) {
        if (rows[j] === undefined) rows[j] = list();
        const value = rows[j][i] = ObjectHasOwn(column, j) ? column[j] : "";
        widths[i] = MathMax(widths[i] || 0, stringWidth(value));
      }
    }
    const divider = list();
    for (let i = 0; i < widths.length; i++) divider[i] = StringRepeat("─", widths[i] + 2);
    let out = "┌" + ArrayJoin(divider, "┬") + "┐\n" + renderRow(head, widths) + "\n" + "├" + ArrayJoin(divider, "┼") + "┤\n";
    for (let i = 0; i < rows.length; i++) out += renderRow(rows[i], widths) + "\n";
    return out + "└" + ArrayJoin(divider, "┴") + "┘";
  }

  const typeTag = (v) => objectToString(v);
  const isMap = (v) => { try { ReflectApply(C.MapPrototypeGetSize, v, []); return true; } catch (_) { return false; } };
  const isSet = (v) => { try { ReflectApply(C.SetPrototypeGetSize, v, []); return true; } catch (_) { return false; } };
  // the items a Map or Set iterator still holds, through the captured next (not the live one)
  function drain(iter, next) {
    const out = list();
    for (let r = next(iter); !r.done; r = next(iter)) out[out.length] = r.value;
    return out;
  }
  function mapList(items, f) {
    const out = list();
    for (let i = 0; i < items.length; i++) out[i] = f(items[i]);
    return out;
  }

  function tableText(data, properties) {
    const cell = (v) => {
      const depth = v !== null && typeof v === "object" && !ArrayIsArray(v) && ObjectKeys(v).length > 2 ? -1 : 0;
      return inspect(v, { depth, maxArrayLength: 3, breakLength: Infinity });
    };
    const indexes = (n) => { const out = list(); for (let i = 0; i < n; i++) out[i] = cell(i); return out; };
    const isMapIter = typeTag(data) === "[object Map Iterator]";
    const isSetIter = typeTag(data) === "[object Set Iterator]";
    if ((isInstance(data, MapCtor) && isMap(data)) || isMapIter) {
      const keys = list(), values = list();
      let entries;
      if (isMapIter) entries = drain(data, MapIteratorNext);
      else { entries = list(); MapForEach(data, (v, k) => { entries[entries.length] = [k, v]; }); }
      // a map's keys() or values() iterator lists single values, like a set
      if (isMapIter && entries.length && !(ArrayIsArray(entries[0]) && entries[0].length === 2)) {
        return renderTable(["(iteration index)", "Values"], [indexes(entries.length), mapList(entries, cell)]);
      }
      for (let i = 0; i < entries.length; i++) { keys[i] = cell(entries[i][0]); values[i] = cell(entries[i][1]); }
      return renderTable(["(iteration index)", "Key", "Values"], [indexes(keys.length), keys, values]);
    }
    if ((isInstance(data, C.SetCtor) && isSet(data)) || isSetIter) {
      let items;
      if (isSetIter) items = drain(data, SetIteratorNext);
      else { items = list(); SetForEach(data, (v) => { items[items.length] = v; }); }
      const values = mapList(items, cell);
      return renderTable(["(iteration index)", "Values"], [indexes(values.length), values]);
    }
    const map = ObjectCreate(null);
    let hasPrimitives = false;
    const primitives = list();
    const indexKeys = ObjectKeys(data);
    for (let i = 0; i < indexKeys.length; i++) {
      const item = data[indexKeys[i]];
      const primitive = item === null || (typeof item !== "function" && typeof item !== "object");
      if (properties === undefined && primitive) {
        hasPrimitives = true;
        primitives[i] = cell(item);
      } else {
        const keys = properties || ObjectKeys(item);
        for (let n = 0; n < keys.length; n++) {
          const key = keys[n];
          if (map[key] === undefined) map[key] = list();
          map[key][i] = (primitive && properties) || !ObjectHasOwn(item, key) ? "" : cell(item[key]);
        }
      }
    }
    const names = ObjectKeys(map);
    const keys = list(), values = list();
    keys[0] = "(index)";
    values[0] = indexKeys;
    for (let i = 0; i < names.length; i++) { keys[keys.length] = names[i]; values[values.length] = map[names[i]]; }
    if (hasPrimitives) { keys[keys.length] = "Values"; values[values.length] = primitives; }
    return renderTable(keys, values);
  }

  // The methods for `console`. env.write(level, text) prints one (indented) entry; the rest go
  // through console.log/warn/error, so a guest replacing console.log sees their calls as in Node.
  function methods(console, env) {
    const counts = new MapCtor();
    const times = new MapCtor();
    const warn = (text) => require("process").emitWarning(text);
    // `${l}` as Node writes it, without a template literal (QuickJS compiles those to a call of
    // the live String.prototype.concat)
    const label = (l) => (l === undefined ? "default" : text(l));

    function count(l) {
      l = label(l);
      const n = (MapGet(counts, l) || 0) + 1;
      MapSet(counts, l, n);
      console.log(l + ": " + n);
    }
    function countReset(l) {
      l = label(l);
      if (!MapHas(counts, l)) warn("Count for '" + l + "' does not exist");
      else MapDelete(counts, l);
    }
    function time(l) {
      l = label(l);
      if (MapHas(times, l)) return warn("Label '" + l + "' already exists for console.time()");
      MapSet(times, l, env.now());
    }
    function logTime(which, l, data) {
      const start = MapGet(times, l);
      if (start === undefined) { warn("No such label '" + l + "' for console." + which + "()"); return false; }
      const text = formatTime(env.now() - start);
      ReflectApply(console.log, console, argsWith(["%s: %s", l, text], data));
      return true;
    }
    function timeLog(l, ...data) { logTime("timeLog", label(l), data); }
    function timeEnd(l) {
      l = label(l);
      if (logTime("timeEnd", l, [])) MapDelete(times, l);
    }
    function group(...data) {
      if (data.length > 0) ReflectApply(console.log, console, data);
      env.indent(2);
    }
    function groupEnd() { env.indent(-2); }
    function table(data, properties) {
      if (properties !== undefined && !ArrayIsArray(properties)) {
        throw require("internal/captures_util").invalidArgType("properties", "an instance of Array", properties);
      }
      if (data === null || typeof data !== "object") return console.log(data);
      console.log(tableText(data, properties));
    }
    function assert(condition, ...args) {
      if (condition) return;
      C.defineValue(args, 0, "Assertion failed" + (args.length === 0 ? "" : ": " + text(args[0])));
      ReflectApply(console.warn, console, args);
    }
    function dir(value, options) {
      const opts = { customInspect: false };
      if (options !== null && typeof options === "object") {
        const keys = ObjectKeys(options);
        for (let i = 0; i < keys.length; i++) C.defineValue(opts, keys[i], options[keys[i]]);
      }
      env.write("log", inspect(value, opts));
    }
    return { count, countReset, time, timeLog, timeEnd, group, groupCollapsed: group, groupEnd, table, assert,
      dir, dirxml: (...a) => ReflectApply(console.log, console, a) };
  }

  return { methods, formatTime, renderTable };
});
