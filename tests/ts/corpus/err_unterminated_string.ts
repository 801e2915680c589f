// error: 3:9
let a: number = 1;
let s = "abc
