//! exit: 1
//! stderr: SyntaxError
//! stderr: ts-syntax-error.ts:6:27
//! stderr:     6 | const broken: Map<string, = new Map();
//! stderr:       |                           ^
const broken: Map<string, = new Map();
export default async () => broken;
