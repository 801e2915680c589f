//! input: who=export
//! stdout-contains: "form": "export agent"
//! stdout-contains: "who": "export"
export async function agent(input, chidori) {
  await chidori.log("in agent");
  return { form: "export agent", who: input.who };
}
