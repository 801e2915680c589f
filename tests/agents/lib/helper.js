export const greet = (name) => `hi ${name}`;
export function fail() {
  throw new RangeError("from the helper");
}
