declare const VERSION: string;
declare let mutable: number;
declare function ext(x: number): string;
declare class Ext { m(): void; }
declare module "virtual" { export const v: number; }
declare global { interface Window { foo: string } }
declare namespace NS { const x: number; }
declare enum DE { A }
console.log("declared", typeof ext);
