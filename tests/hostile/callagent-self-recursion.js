//! exit: 1
//! stderr: chidori.callAgent: agents nested more than 8 deep
// An agent that calls itself forever is stopped by the nesting cap, not the stack.
export default async (input, chidori) => {
  return await chidori.callAgent("./callagent-self-recursion.js", {});
};
