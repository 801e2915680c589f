//! mode: eval
//! stdout: 1606938044258990275541962092341162602522202993782792835301375 10000000000000000 -18446744073709551616 0 ffffffffffffffff
// BigInt printing after our patches (polling; the top-limb fix of 0006), checked against Node.
console.log(String((1n << 200n) - 1n), (2n ** 64n).toString(16), (-(2n ** 64n)).toString(), 0n.toString(2),
  (2n ** 64n - 1n).toString(16));
