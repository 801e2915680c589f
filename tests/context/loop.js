// conversation().loop(): each turn reads input(); a blank line is skipped, "bye" ends it.
import { chidori, run } from "chidori:agent";

run(async () => {
  const chat = chidori.conversation({ system: "Loop.", compact: { budgetTokens: 100000 } });
  const replies = [];
  const transcript = await chat.loop({
    prompt: (turn) => `turn ${turn}>`,
    exit: "BYE",
    onReply: async (reply, message) => { replies.push(message + "=" + reply); },
  });
  return { transcript, replies };
});
