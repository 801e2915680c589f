type Shape = { k: "c"; r: number } | { k: "s"; a: number };
function area(s: Shape): number {
  switch (s.k) {
    case "c": return Math.round(Math.PI * s.r ** 2);
    case "s": return s.a * s.a;
  }
}
console.log(area({ k: "c", r: 1 }), area({ k: "s", a: 2 }));
