function tag<T>(strs: TemplateStringsArray, ...vals: T[]): string { return strs.join("|") + vals.join(","); }
console.log(tag<number>`a${1}b${2}c`, tag`x${"y"}`);
