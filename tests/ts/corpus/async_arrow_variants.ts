const a = async (x: number) => x;
const b = async x => x;
const c = async (): Promise<void> => {};
const async = (x: number) => x + 100;
console.log(async(1));
Promise.all([a(1), b(2), c()]).then((r) => console.log(r));
