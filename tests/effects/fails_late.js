// Two effects, then an uncaught error.
export default async function (input, chidori) {
  await chidori.log("one");
  await chidori.mark("two");
  throw new Error("late failure");
}
