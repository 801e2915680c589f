const m = new Map<string, number[]>([["a", [1, 2]]]);
const first = m.get("a")![0];
const len = m.get("a")!.length;
let z: number | undefined = 5;
const w = z! + 1;
console.log(first, len, w, z! != 4, z !== 4);
