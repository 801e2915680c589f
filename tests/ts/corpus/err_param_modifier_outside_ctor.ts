// error: 2:12
function f(private x: number) {}
