// Every way out of the workspace must be refused; the way in must work. Used by cases_effects.py
// with link-out.txt → a file outside, dir-out → a folder outside, link-in.txt → inside.txt.
export default async function (input, chidori) {
  const ws = chidori.workspace;
  const verdict = (p) => p.then(() => "ok", () => "refused");
  return {
    dotdot: await verdict(ws.read("../outside.txt")),
    absolute: await verdict(ws.read("/etc/passwd")),
    linkOut: await verdict(ws.read("link-out.txt")),
    dirOutRead: await verdict(ws.read("dir-out/secret.txt")),
    dirOutWrite: await verdict(ws.write("dir-out/new.txt", "x")),
    deleteOut: await verdict(ws.delete("dir-out/secret.txt")),
    stateDir: await verdict(ws.write(".chidori/runs/forged.jsonl", "x")),
    stateDirSlashes: await verdict(ws.write(".//.chidori/forged.txt", "x")),
    stateDirDots: await verdict(ws.write("./././.chidori/forged.txt", "x")),
    stateDirRead: await verdict(ws.read(".//.chidori/memory.json")),
    nul: await verdict(ws.read("inside.txt\u0000.png")),
    linkIn: await verdict(ws.read("link-in.txt")),
    writeRead: await verdict(ws.write("made/here.txt", "hi").then(() => ws.read("made/here.txt"))),
  };
}
