const big: bigint = 1_000_000n;
const hex: number = 0xFF_FF, bin = 0b1010, oct = 0o17, flt = 1_0.5e1_0, dot = .5;
console.log(big, hex, bin, oct, flt, dot);
