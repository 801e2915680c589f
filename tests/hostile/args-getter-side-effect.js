//! stdout-contains: "reads": 1
//! stderr: [log] m1
// A getter on an argument cannot observe or change anything host-side.
export default async (input, chidori) => {
  let reads = 0;
  const args = { get message() { reads++; return "m" + reads; } };
  await chidori.log(args.message);
  return { reads };
};
