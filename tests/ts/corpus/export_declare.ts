export declare const x: number;
export declare function y(): void;
export const z = 3;
console.log(z);
