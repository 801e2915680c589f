let x = 0; for (let i = 0; i < 1000; i++) x += i * 3 % 7; if (x !== 2997) throw new Error(String(x));
