//! stdout-contains: "refused",
//! stdout-not: status
// node:http to loopback and the metadata address is refused the same way as fetch.
import http from "node:http";
const get = (url) => new Promise((resolve) => {
  const req = http.get(url, (res) => resolve("status " + res.statusCode));
  req.on("error", (e) => resolve(/refused/.test(e.message) ? "refused" : e.message));
});
export default async () => [await get("http://127.0.0.1:9/"), await get("http://169.254.169.254/"), await get("http://[::1]:9/")];
