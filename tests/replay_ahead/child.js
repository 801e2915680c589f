// tests/replay_ahead/child.js: the nested agent of mixed.js.
export default async function (input, chidori) {
  await chidori.mark("child");
  return { doubled: input.x * 2 };
}
