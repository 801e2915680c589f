//mod
// fuzz_engine regression (patch 0010): every iteration throws a ReferenceError and builds its backtrace.
export default async () => {
  const keep = [];
  for (;;) { try { keei.push(new Array(1e6).fill(1)); } catch (e) { keep.length = 0; } }
};
