// Oracle: util.inspect.colors as Node lists it — its aliases (grey, blackBright, faint,
// crossedOut, swapColors, …) are non-enumerable accessors that follow the colour they name, and
// a style naming an alias colours as the colour does. (Before: only `grey`, as a fixed value.)
import util from "node:util";

export async function agent() {
  const { colors, styles } = util.inspect;
  const keys = Object.keys(colors);
  const aliases = Object.getOwnPropertyNames(colors).filter((k) => !keys.includes(k));
  const shapes = aliases.map((k) => {
    const d = Object.getOwnPropertyDescriptor(colors, k);
    return [k, typeof d.get, typeof d.set, d.enumerable, d.configurable, colors[k]];
  });
  const before = colors.bgBlackBright;
  colors.gray = [2, 22]; // an alias follows a replaced colour
  const followed = [colors.grey, colors.blackBright];
  colors.grey = [90, 39]; // and writes through to it
  const restored = colors.gray;
  styles.undefined = "faint";
  const faint = util.inspect(undefined, { colors: true });
  styles.undefined = "grey";
  return JSON.stringify({ keys, shapes, before, followed, restored, faint, grey: util.inspect(undefined, { colors: true }) }, null, 1);
}
