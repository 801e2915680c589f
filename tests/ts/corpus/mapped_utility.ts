type Opt<T> = { [P in keyof T]?: T[P] };
type Req = Required<Opt<{ a: number }>>;
const r: Req = { a: 1 };
const o: Opt<Req> = {};
console.log(r, o);
