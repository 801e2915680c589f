//! stdout: "function"
// Poisoned String.prototype methods do not change which built-in module is loaded.
export default async () => {
  String.prototype.slice = () => "child_process";
  String.prototype.startsWith = () => true;
  const m = await import("node:timers");
  return typeof m.setTimeout;
};
