const pick = (n: number) => n > 0 ? (n > 10 ? "big" : "small") : n < 0 ? "neg" : "zero";
console.log(pick(20), pick(5), pick(-1), pick(0));
