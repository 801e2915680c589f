// Two logged steps; a test edits the second message between record and replay.
export default async function (input, chidori) {
  await chidori.log("first step");
  await chidori.log("second step");
  return { steps: 2 };
}
