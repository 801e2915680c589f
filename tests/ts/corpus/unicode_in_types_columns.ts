let a: "é" | "😀" = "é"; const b = new Error("pos").stack!.split("\n")[1];
console.log(a, typeof b);
