//! exit: 1
//! stderr: never finished
export default () => new Promise(() => {});
