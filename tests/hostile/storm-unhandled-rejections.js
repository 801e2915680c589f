//! exit: 1
//! stderr: unhandled promise rejection: Error: rejection 0
// 100,000 unhandled rejections: the run fails on them once, with the first reason (issue 24:
// this fixture asserted "returned" while rejections did not fail a run).
export default async () => {
  for (let i = 0; i < 100000; i++) Promise.reject(new Error("rejection " + i));
  return "returned";
};
