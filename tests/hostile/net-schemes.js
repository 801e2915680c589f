//! stdout-not: FETCHED
//! stdout-contains: "file:///etc/passwd": "http: `file:///etc/passwd`: only http: and https: URLs
//! stdout-contains: "gopher://127.0.0.1:70/": "http: `gopher://127.0.0.1:70/`: only http: and https: URLs
//! stdout-contains: "data:text/plain,hi": "data hi text/plain"
// Only http and https reach the host: every other scheme is refused before the host does anything,
// except data: URLs, which fetch answers inside the engine from the URL itself (the Fetch standard's
// data: URL processor, as Node does), with no host op.
export default async () => {
  const out = {};
  for (const url of ["file:///etc/passwd", "ftp://127.0.0.1/", "gopher://127.0.0.1:70/", "dict://127.0.0.1:11211/",
                     "ldap://127.0.0.1/", "telnet://127.0.0.1/"]) {
    try { const r = await fetch(url); out[url] = "FETCHED " + (await r.text()).slice(0, 20); }
    catch (e) { out[url] = e.message.slice(0, 60); }
  }
  const d = await fetch("data:text/plain,hi");
  out["data:text/plain,hi"] = "data " + (await d.text()) + " " + d.headers.get("content-type");
  return out;
};
