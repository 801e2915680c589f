// Every context path the static provider can answer: prompt, respond, compact (a summary made by
// a plain prompt), conversation say and respond, and the plain values digest/estimateTokens.
import { chidori, run } from "chidori:agent";

run(async (input) => {
  const base = chidori.context({ system: "Be brief." }).doc("corpus", "Section 1: reviews.").cacheBreakpoint();
  const first = await base.user("Who reviews?").prompt({ type: "final" });
  const second = await first.context.user("And then?").respond({ maxTokens: 50 });
  const fork = base.user("A different question");            // shares base, untouched by the turns
  const kept = await second.context.compact({ budgetTokens: 1000000 }); // under budget: no call
  const compacted = await second.context.compact({ keepTurns: 1, ttl: "1h" });
  const chat = chidori.conversation({ system: "You chat.", model: "chat-model", type: "chat" });
  const said = await chat.say("hello");
  const responded = await chat.respond("more");
  let empty;
  try { await chidori.context().system("no turns").prompt(); } catch (e) { empty = e.message; }
  let unknown;
  try { chidori.context().user("x").system("y").doc("a", "b").digest({ model: 5 }); unknown = "ok"; } catch (e) { unknown = e.message; }
  return {
    first: first.text,
    stop: second.response.stopReason,
    blocks: second.response.blocks,
    forkTokens: fork.estimateTokens(),
    sameAfterNoop: kept === second.context,
    compactedShorter: compacted.estimateTokens() < second.context.estimateTokens(),
    said, responded: responded.content,
    history: chat.history(), turns: chat.length,
    empty, unknown,
  };
});
