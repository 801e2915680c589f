//! stdout: null
export default async () => undefined;
