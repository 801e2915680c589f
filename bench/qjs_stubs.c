/* bench/qjs_stubs.c — what quickjs-ng's qjs.c links against besides the engine: the bytecode of
 * its REPL and of its standalone-executable loader, which qjs's build compiles from JavaScript
 * that Debian's qjs-src package does not carry. Bare qjs for the benchmarks and the conformance
 * runner (bench/lib.sh) runs files only, so both are empty: `qjs` with no file, or a compiled
 * standalone executable, is not what it is for. */
#include <stdint.h>

const uint8_t qjsc_repl[1];
const uint32_t qjsc_repl_size = 0;
const uint8_t qjsc_standalone[1];
const uint32_t qjsc_standalone_size = 0;
