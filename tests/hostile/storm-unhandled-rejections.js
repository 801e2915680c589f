//! stdout: "returned"
// 100,000 unhandled rejections: the run fails on them once, with the first reason.
export default async () => {
  for (let i = 0; i < 100000; i++) Promise.reject(new Error("rejection " + i));
  return "returned";
};
