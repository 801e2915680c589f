export interface Scaled { value: number; unit?: string }
export function scale<T extends number>(x: T, by = 21): Scaled {
  return { value: x * by };
}
