outer: for (let i: number = 0; i < 3; i++) {
  switch (i as number) {
    case 0: continue outer;
    case 1: { console.log("one"); break; }
    default: console.log("other", i);
  }
}
let k = 0;
do { k++ } while (k < 3)
console.log(k);
