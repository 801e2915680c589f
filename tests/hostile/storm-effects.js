//! stdout: "done"
//! max-seconds: 20
// 2,000 effects in a tight loop (each made durable with fdatasync) are all performed and recorded.
export default async (input, chidori) => {
  for (let i = 0; i < 2000; i++) await chidori.mark("m", { i });
  return "done";
};
