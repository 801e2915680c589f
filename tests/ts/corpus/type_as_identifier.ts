let type = "t";
type = type + "2";
const o = { type: 1, interface: 2, enum: 3 };
console.log(type, o.type, o.interface, o.enum);
