//! env: CHIDORI_CLOCK_START_MS=1700000000000
//! stdout-file: fs_promises.expected.json
// node:fs/promises and the callback API over the same VFS; bytes and encodings; what is not
// supported says so.
import * as fsp from "node:fs/promises";
import fs, { constants, readFileSync } from "fs";

const code = (e) => [e.code, e.syscall || null, e.message];

export async function agent() {
  const out = {};
  await fsp.mkdir("/data/in", { recursive: true });
  await fsp.writeFile("/data/in/bin", new Uint8Array([0, 1, 2, 254, 255]));
  await fsp.appendFile("/data/in/bin", "é", "latin1");
  const bin = await fsp.readFile("/data/in/bin");
  out.bin = { isBuffer: Buffer.isBuffer(bin), isUint8Array: bin instanceof Uint8Array, bytes: Array.from(bin), hex: await fsp.readFile("/data/in/bin", "hex"),
    base64: await fsp.readFile("/data/in/bin", { encoding: "base64" }) };
  await fsp.writeFile("/data/in/u.txt", "héllo \u{1F600} \ud800", "utf8");
  out.utf8 = { text: await fsp.readFile("/data/in/u.txt", "utf8"), size: (await fsp.stat("/data/in/u.txt")).size };
  await fsp.writeFile("/data/in/b64.txt", "aGk=", "base64");
  out.fromBase64 = readFileSync("/data/in/b64.txt", "utf8");
  await fsp.copyFile("/data/in/u.txt", "/data/copy.txt");
  out.copyExcl = await fsp.copyFile("/data/in/u.txt", "/data/copy.txt", constants.COPYFILE_EXCL).then(() => "copied", code);
  await fsp.truncate("/data/copy.txt", 3);
  out.truncated = await fsp.readFile("/data/copy.txt", "utf8");
  out.access = [await fsp.access("/data/copy.txt", constants.R_OK).then(() => "ok"), await fsp.access("/nope").catch(code)];
  out.tmp = [await fsp.mkdtemp("/data/tmp-"), fs.mkdtempSync("/data/tmp-")];
  out.readdir = (await fsp.readdir("/data", { withFileTypes: true })).map((d) => d.name + (d.isDirectory() ? "/" : ""));
  await fsp.rename("/data/copy.txt", "/data/moved.txt");
  out.lstat = (await fsp.lstat("/data/moved.txt")).isFile();
  out.realpath = await fsp.realpath("data/./in/../moved.txt");
  await fsp.rm("/data/in", { recursive: true });
  out.rmMissing = await fsp.rm("/data/in").catch(code);
  out.rmdir = await fsp.rmdir("/data").catch(code);
  await fsp.unlink("/data/moved.txt");
  out.left = await fsp.readdir("/data");
  await fsp.chmod("/data/tmp-000001", 0o750);
  out.mode = (await fsp.stat("/data/tmp-000001")).mode & 0o777;
  await fsp.utimes("/data/tmp-000001", 1000, new Date(2000000));
  const st = await fsp.stat("/data/tmp-000001");
  out.utimes = [st.atimeMs, st.mtimeMs, st.mtime.toISOString()];

  // callbacks run later, from a microtask, with (err, result)
  const order = [];
  const cb = await new Promise((resolve) => {
    fs.writeFile("/cb.txt", "callback", (err) => {
      order.push("write done " + err);
      fs.readFile("/cb.txt", "utf8", (err2, text) => {
        order.push("read " + text);
        fs.readFile("/nope", (err3, none) => resolve([code(err3), none === undefined]));
      });
    });
    order.push("after the call");
  });
  out.callbacks = { order, cb };
  out.exists = await new Promise((r) => fs.exists("/cb.txt", r));
  out.argErrors = [
    (() => { try { fs.readFile("/cb.txt"); } catch (e) { return e.code; } })(),
    (() => { try { fs.readFileSync({}); } catch (e) { return e.code; } })(),
    (() => { try { fs.readFileSync("/a\u0000b"); } catch (e) { return e.code; } })(),
    (() => { try { fs.readFileSync("/cb.txt", "klingon"); } catch (e) { return e.code; } })(),
  ];
  out.unsupported = [];
  for (const f of [() => fs.symlinkSync("/cb.txt", "/link"), () => fs.openSync("/cb.txt"), () => fs.createReadStream("/cb.txt"),
    () => fs.watch("/")]) {
    try { f(); } catch (e) { out.unsupported.push(code(e)); }
  }
  out.readlink = await fsp.readlink("/cb.txt").catch(code);
  out.constants = [constants.F_OK, constants.R_OK, constants.W_OK, constants.X_OK, constants.COPYFILE_EXCL];
  return out;
}
