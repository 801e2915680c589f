enum Weird { "a-b" = 1, 'c d' = 2, plain }
console.log(Weird["a-b"], Weird["c d"], Weird.plain, Weird[3]);
