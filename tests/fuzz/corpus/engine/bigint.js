let a = 2n ** 200n - 1n; const b = a * a / 3n % 1000000007n; console.log(b, BigInt.asUintN(64, -a), (-a).toString(36), a >> 100n, BigInt('0x' + 'f'.repeat(40)));
