//! exit: 1
//! stderr: unhandled promise rejection: Error: ignored
// A rejection nobody handles fails the run with its error, as in Node (issue 24; this fixture
// used to assert the opposite: "ok" and exit 0). The host survives the 1000 others.
export default async () => {
  Promise.reject(new Error("ignored"));
  for (let i = 0; i < 1000; i++) Promise.reject(i);
  return "ok";
};
