const type = 1, interface_ = 2, namespace = 3, module = 4, declare = 5, abstract = 6, as = 7, satisfies = 8, readonly = 9, is = 10, infer = 11, keyof = 12;
const of = [type, namespace, module, declare, abstract, as, satisfies, readonly, is, infer, keyof];
let async = (x: number) => x;
console.log(of, async(1), interface_);
