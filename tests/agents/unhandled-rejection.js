//! stdout: "ok"
// An unhandled rejection does not end the run or crash the host.
export default async () => {
  Promise.reject(new Error("ignored"));
  for (let i = 0; i < 1000; i++) Promise.reject(i);
  return "ok";
};
