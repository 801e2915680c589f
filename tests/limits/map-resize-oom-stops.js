//! mode: eval
//! env: CHIDORI_JS_MAX_ALLOC_MB=1
//! exit: 1
//! stderr: allocation cap reached
//! max-seconds: 10
// A Set's hash table doubles as it grows; the table for 262,144 buckets is 2 MiB, over the 1 MiB
// allocation cap. Before patch 0013 QuickJS ignored that failure (its out-of-memory error was left
// pending and lost), the Set went on with ever longer chains, and this loop ran until the default
// tick budget (5e9 ticks) instead of stopping at the cap.
const s = new Set();
for (let i = 0; i < 1e6; i++) s.add(i);
console.log("not reached", s.size);
