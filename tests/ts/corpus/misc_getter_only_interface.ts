interface HasLen { readonly length: number }
const lens: HasLen[] = ["ab", [1, 2, 3]];
console.log(lens.map((l) => l.length));
