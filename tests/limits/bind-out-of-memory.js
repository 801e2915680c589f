//! mode: eval
//! env: CHIDORI_JS_MEM_CAP_MB=64
//! exit: 1
//! stderr: memory ceiling
//! max-seconds: 20
// bind() creates the function object, then allocates its bound arguments; when that second
// allocation failed (memory ceiling), freeing the half-made function read a null pointer and
// the engine crashed. Now the run ends with the memory error.
const args = new Array(60000).fill(0);
function f() {}
const keep = [];
for (;;) keep.push(f.bind(null, ...args));
