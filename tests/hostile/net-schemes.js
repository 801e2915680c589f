//! stdout-not: FETCHED
//! stdout-contains: "file:///etc/passwd": "http: `file:///etc/passwd`: only http: and https: URLs
//! stdout-contains: "gopher://127.0.0.1:70/": "http: `gopher://127.0.0.1:70/`: only http: and https: URLs
// Only http and https: every other scheme is refused before the host does anything.
export default async () => {
  const out = {};
  for (const url of ["file:///etc/passwd", "ftp://127.0.0.1/", "gopher://127.0.0.1:70/", "dict://127.0.0.1:11211/",
                     "data:text/plain,hi", "ldap://127.0.0.1/", "telnet://127.0.0.1/"]) {
    try { const r = await fetch(url); out[url] = "FETCHED " + (await r.text()).slice(0, 20); }
    catch (e) { out[url] = e.message.slice(0, 60); }
  }
  return out;
};
