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
  // count/time/group/assert/dirxml run on builtins captured before guest code (primordials.js);
  // table's rendering still calls the live Array and String methods (docs/primordials.md)
  const P = natives.primordials, u = P.uncurry;
  const { ReflectApply, MapCtor, argsWith } = P;
  const MapGet = u(P.MapPrototypeGet), MapSet = u(P.MapPrototypeSet), MapHas = u(P.MapPrototypeHas), MapDelete = u(P.MapPrototypeDelete);

  // Node's duration text: "12.345ms", "1.500s", "1:02.345 (m:ss.mmm)", "1:02:03.456 (h:mm:ss.mmm)".
  function formatTime(ms) {
    let hours = 0, minutes = 0, seconds = 0;
    if (ms >= 1000) {
      if (ms >= 60000) {
        if (ms >= 3600000) {
          hours = Math.floor(ms / 3600000);
          ms = ms % 3600000;
        }
        minutes = Math.floor(ms / 60000);
        ms = ms % 60000;
      }
      seconds = ms / 1000;
    }
    const pad = (v) => String(v).padStart(2, "0");
    if (hours !== 0 || minutes !== 0) {
      const [s, frac] = seconds.toFixed(3).split(".");
      const head = hours !== 0 ? hours + ":" + pad(minutes) : String(minutes);
      return head + ":" + pad(s) + "." + frac + " (" + (hours !== 0 ? "h:m" : "") + "m:ss.mmm)";
    }
    if (seconds !== 0) return seconds.toFixed(3) + "s";
    return Number(ms.toFixed(3)) + "ms";
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
  function stringWidth(s) {
    s = String(s).replace(/\u001b\[[0-9;]*m/g, "");
    let w = 0;
    for (const ch of s.normalize("NFC")) {
      const c = ch.codePointAt(0);
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
      out += row[i] + " ".repeat(widths[i] - stringWidth(row[i]));
      if (i !== row.length - 1) out += " │ ";
    }
    return out + " │";
  }

  // head: column titles; columns: one (possibly sparse) array of cell texts per title.
  function renderTable(head, columns) {
    const rows = [];
    const widths = head.map((h) => stringWidth(h));
    const longest = Math.max(0, ...columns.map((c) => c.length));
    for (let i = 0; i < head.length; i++) {
      const column = columns[i];
      for (let j = 0; j < longest; j++) {
        if (rows[j] === undefined) rows[j] = [];
        const value = rows[j][i] = Object.prototype.hasOwnProperty.call(column, j) ? column[j] : "";
        widths[i] = Math.max(widths[i] || 0, stringWidth(value));
      }
    }
    const divider = widths.map((w) => "─".repeat(w + 2));
    let out = "┌" + divider.join("┬") + "┐\n" + renderRow(head, widths) + "\n" + "├" + divider.join("┼") + "┤\n";
    for (const row of rows) out += renderRow(row, widths) + "\n";
    return out + "└" + divider.join("┴") + "┘";
  }

  const typeTag = (v) => Object.prototype.toString.call(v);

  function tableText(data, properties) {
    const cell = (v) => {
      const depth = v !== null && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length > 2 ? -1 : 0;
      return inspect(v, { depth, maxArrayLength: 3, breakLength: Infinity });
    };
    const indexes = (n) => Array.from({ length: n }, (_, i) => cell(i));
    const isMapIter = typeTag(data) === "[object Map Iterator]";
    const isSetIter = typeTag(data) === "[object Set Iterator]";
    if (data instanceof Map || isMapIter) {
      const keys = [], values = [];
      let entries = isMapIter ? Array.from(data) : Array.from(data.entries());
      // a map's keys() or values() iterator lists single values, like a set
      if (isMapIter && entries.length && !(Array.isArray(entries[0]) && entries[0].length === 2)) {
        return renderTable(["(iteration index)", "Values"], [indexes(entries.length), entries.map(cell)]);
      }
      for (const [k, v] of entries) { keys.push(cell(k)); values.push(cell(v)); }
      return renderTable(["(iteration index)", "Key", "Values"], [indexes(keys.length), keys, values]);
    }
    if (data instanceof Set || isSetIter) {
      const values = Array.from(data, cell);
      return renderTable(["(iteration index)", "Values"], [indexes(values.length), values]);
    }
    const map = Object.create(null);
    let hasPrimitives = false;
    const primitives = [];
    const indexKeys = Object.keys(data);
    for (let i = 0; i < indexKeys.length; i++) {
      const item = data[indexKeys[i]];
      const primitive = item === null || (typeof item !== "function" && typeof item !== "object");
      if (properties === undefined && primitive) {
        hasPrimitives = true;
        primitives[i] = cell(item);
      } else {
        const keys = properties || Object.keys(item);
        for (const key of keys) {
          if (map[key] === undefined) map[key] = [];
          map[key][i] = (primitive && properties) || !Object.prototype.hasOwnProperty.call(item, key) ? "" : cell(item[key]);
        }
      }
    }
    const keys = Object.keys(map);
    const values = Object.values(map);
    if (hasPrimitives) { keys.push("Values"); values.push(primitives); }
    keys.unshift("(index)");
    values.unshift(indexKeys);
    return renderTable(keys, values);
  }

  // The methods for `console`. env.write(level, text) prints one (indented) entry; the rest go
  // through console.log/warn/error, so a guest replacing console.log sees their calls as in Node.
  function methods(console, env) {
    const counts = new MapCtor();
    const times = new MapCtor();
    const warn = (text) => require("process").emitWarning(text);
    const label = (l) => (l === undefined ? "default" : `${l}`);

    function count(l) {
      l = label(l);
      const n = (MapGet(counts, l) || 0) + 1;
      MapSet(counts, l, n);
      console.log(`${l}: ${n}`);
    }
    function countReset(l) {
      l = label(l);
      if (!MapHas(counts, l)) warn(`Count for '${l}' does not exist`);
      else MapDelete(counts, l);
    }
    function time(l) {
      l = label(l);
      if (MapHas(times, l)) return warn(`Label '${l}' already exists for console.time()`);
      MapSet(times, l, env.now());
    }
    function logTime(which, l, data) {
      const start = MapGet(times, l);
      if (start === undefined) { warn(`No such label '${l}' for console.${which}()`); return false; }
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
      if (properties !== undefined && !Array.isArray(properties)) {
        throw require("internal/text").invalidArgType("properties", "an instance of Array", properties);
      }
      if (data === null || typeof data !== "object") return console.log(data);
      console.log(tableText(data, properties));
    }
    function assert(condition, ...args) {
      if (condition) return;
      args[0] = `Assertion failed${args.length === 0 ? "" : `: ${args[0]}`}`;
      ReflectApply(console.warn, console, args);
    }
    function dir(value, options) {
      env.write("log", inspect(value, { customInspect: false, ...options }));
    }
    return { count, countReset, time, timeLog, timeEnd, group, groupCollapsed: group, groupEnd, table, assert,
      dir, dirxml: (...a) => ReflectApply(console.log, console, a) };
  }

  return { methods, formatTime, renderTable };
});
