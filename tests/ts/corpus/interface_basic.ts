interface Point { x: number; y: number; }
interface P3 extends Point { z: number }
const p: P3 = { x: 1, y: 2, z: 3 };
console.log(p);
