// tests/replay_ahead/mixed.js: a run whose replay meets every kind of record replay ahead knows:
// plain effects, recorded failures, console output between them, a cached step (records another op
// takes), concurrent calls, a nested agent (a record only the parent replays), refused calls that
// take no record (actor ops: a refused lookup right before a recorded one), then a pause; the
// resumed run goes on live.
export default async function (input, chidori) {
  const out = [];
  for (let i = 0; i < 30; i++) {
    await chidori.mark("m" + i, { i });
    if (i % 7 === 0) console.log("at", i);
    if (i % 10 === 0) out.push(await chidori.step("s" + i, async () => { await chidori.mark("in" + i); return i * 2; }));
  }
  try { await chidori.workspace.read("missing.txt"); } catch (e) { out.push("caught: " + e.message); }
  try { await chidori.memory.set("", 1); } catch (e) { out.push("refused: " + e.message); }
  out.push(await Promise.all([chidori.mark("p1"), chidori.memory.get("k"), chidori.mark("p2")]));
  await chidori.memory.set("k", { v: 1 });
  out.push(await chidori.callAgent("./child.js", { x: 2 }));
  try { await chidori.actors.lookup(42); } catch (e) { out.push("lookup: " + e.message); }
  out.push(await chidori.actors.lookup("nobody"));
  try { await chidori.actors.spawn(42); } catch (e) { out.push("spawn: " + e.message); }
  await chidori.log("before the question", { n: out.length });
  const answer = await chidori.input("go on?");
  for (let i = 0; i < 3; i++) await chidori.mark("after" + i);
  out.push(await chidori.memory.get("k"));
  return { out, answer };
}
