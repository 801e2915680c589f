const arr = [1, 2, 3] as const;
const obj = { kind: "x" } as const;
console.log(arr, obj.kind);
