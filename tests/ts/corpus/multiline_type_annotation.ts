function f(
  a: {
    x: number;
    y: string;
  },
  b: Array<
    number
  >,
): Promise<
  string
> {
  return Promise.resolve(a.y + a.x + b.length);
}
f({ x: 1, y: "y" }, [1]).then(console.log);
