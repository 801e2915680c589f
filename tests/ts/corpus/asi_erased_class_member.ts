class C {
  a = 1
  declare b: string
  ["c"] = 2
  d = 3;
  [k: string]: unknown
  ["e"] = 4
}
console.log(Object.keys(new C()))
