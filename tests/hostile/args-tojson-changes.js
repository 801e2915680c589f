//! stdout-contains: "stored": "value-
// Arguments whose toJSON answers differently each time: however often the JS side serializes
// them, the host receives one JSON text, so the value the policy sees is the value performed and
// recorded (the stored value is one of the answers, whole).
export default async (input, chidori) => {
  let n = 0;
  const v = { toJSON() { n++; return "value-" + n; } };
  await chidori.memory.set("k", v);
  return { stored: await chidori.memory.get("k"), serialized: n };
};
