//! stdout: "done"
//! max-seconds: 20
// 20,000 effects in a tight loop are all performed and recorded; the run stays within its limits.
export default async (input, chidori) => {
  for (let i = 0; i < 20000; i++) await chidori.mark("m", { i });
  return "done";
};
