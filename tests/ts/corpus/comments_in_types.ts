let a: /* inline */ number = 1;
let b: // line comment
  string = "s";
function f(x: number /* why */, y: /* t */ string): /* ret */ void { console.log(x, y); }
f(a, b);
