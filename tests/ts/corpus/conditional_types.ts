type IsStr<T> = T extends string ? true : false;
type Unwrap<T> = T extends Promise<infer U> ? Unwrap<U> : T;
type First<T extends any[]> = T extends [infer H extends string, ...any[]] ? H : never;
type M<T> = { [K in keyof T as `get${Capitalize<string & K>}`]: () => T[K] };
type R = { readonly [K in "a" | "b"]?: number };
type Minus = { -readonly [K in "a"]-?: number };
const v: IsStr<"x"> = true;
console.log(v);
