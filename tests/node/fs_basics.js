//! env: CHIDORI_CLOCK_START_MS=1700000000000
//! stdout-file: fs_basics.expected.json
// node:fs on the VFS: write, append, mkdir -p, readdir, stat, rename, rm -r, and Node's error
// codes. Also driven by tests/cases_vfs.py (isolated vs in-process, replay, nothing on disk).
import fs from "node:fs";

function code(fn) {
  try { fn(); return "no error"; } catch (e) { return [e.code, e.errno, e.syscall, e.path, e.message]; }
}

export async function agent() {
  const out = {};
  fs.writeFileSync("/chidori-vfs-probe.txt", "hello");
  fs.appendFileSync("/chidori-vfs-probe.txt", ", world");
  fs.appendFileSync("chidori-vfs-probe.txt", new Uint8Array([0x21, 0x0a]));
  out.text = fs.readFileSync("/chidori-vfs-probe.txt", "utf8");
  out.bytes = Array.from(fs.readFileSync("/chidori-vfs-probe.txt").slice(0, 3));
  out.mkdirFirst = fs.mkdirSync("/work/a/b/c", { recursive: true });
  out.mkdirAgain = fs.mkdirSync("/work/a/b/c", { recursive: true }) === undefined;
  fs.writeFileSync("/work/a/notes.md", "# notes\n");
  fs.writeFileSync("/work/Z.txt", "");
  out.readdir = fs.readdirSync("/work");
  out.recursive = fs.readdirSync("/work", { recursive: true });
  out.dirents = fs.readdirSync("/work/a", { withFileTypes: true }).map((d) => [d.name, d.isFile(), d.isDirectory(), d.parentPath]);
  const st = fs.statSync("/chidori-vfs-probe.txt");
  out.stat = { size: st.size, isFile: st.isFile(), isDirectory: st.isDirectory(), isSymbolicLink: st.isSymbolicLink(),
    mode: st.mode.toString(8), nlink: st.nlink, mtime: st.mtime.toISOString(), mtimeMs: st.mtimeMs };
  const dst = fs.statSync("/work/a");
  out.dirStat = { isDirectory: dst.isDirectory(), mode: dst.mode.toString(8), nlink: dst.nlink };
  fs.renameSync("/work/a/notes.md", "/work/notes.md");
  out.afterRename = [fs.existsSync("/work/a/notes.md"), fs.readFileSync("/work/notes.md", "utf8")];
  out.errors = {
    ENOENT: code(() => fs.readFileSync("/nope.txt")),
    EEXIST: code(() => fs.mkdirSync("/work")),
    EISDIR: code(() => fs.readFileSync("/work")),
    EISDIR_write: code(() => fs.writeFileSync("/work", "x")),
    ENOTEMPTY: code(() => fs.rmdirSync("/work")),
    ENOTDIR: code(() => fs.readdirSync("/work/notes.md")),
    EEXIST_wx: code(() => fs.writeFileSync("/work/notes.md", "x", { flag: "wx" })),
    rename_ENOENT: code(() => fs.renameSync("/nope", "/work/x")),
    rm_dir: code(() => fs.rmSync("/work")),
    noThrowIfMissing: fs.statSync("/nope", { throwIfNoEntry: false }) === undefined,
  };
  out.dotdot = {
    passwd: code(() => fs.readFileSync("/../../etc/passwd", "utf8")),
    exists: fs.existsSync("../../../etc/passwd"),
    realpath: fs.realpathSync("/work/a/../../../../work/./notes.md"),
  };
  fs.writeFileSync("/../../../chidori-vfs-escape.txt", "inside");
  out.escapeLandsAtRoot = fs.readFileSync("/chidori-vfs-escape.txt", "utf8");
  fs.rmSync("/work", { recursive: true });
  out.afterRm = fs.readdirSync("/");
  out.rmForce = code(() => fs.rmSync("/work", { recursive: true, force: true }));
  return out;
}
