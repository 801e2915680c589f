const x = { type: "a", interface: "b" };
type: for (const k of Object.keys(x)) { if (k === "a") break type; console.log(k); }
