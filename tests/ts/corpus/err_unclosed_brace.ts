// error: 2:20
function f(): void {
  let x = 1;
