//! exit: 1
//! stderr: no entrypoint
export const notAnAgent = 1;
