//! stdout-contains: "fetched": [],
//! stdout-contains: "other": [],
//! stdout-contains: "blocked": 23,
//! stdout-contains: "of": 23
// Internal addresses by every spelling fetch accepts: each is refused by the SSRF guard on the
// address actually connected, before any byte is sent. (IP literals and loopback names only: no
// DNS, no traffic leaves the machine.)
const targets = [
  "http://169.254.169.254/latest/meta-data/", "http://[fd00::1]/", "http://100.64.0.1/",
  "http://0/", "http://[::]/", "http://2852039166/", "http://0xa9fea9fe/", "http://0251.0376.0251.0376/",
  "http://[::ffff:a9fe:a9fe]/", "http://[64:ff9b::a9fe:a9fe]/", "http://[2002:a9fe:a9fe::]/",
  "http://10.0.0.1/", "http://172.16.0.1/", "http://192.168.1.1/", "http://224.0.0.1/",
  "http://255.255.255.255/", "http://[fe80::1]/", "http://[ff02::1]/",
  "http://example.com@127.0.0.1:9/", "http://127.0.0.1:9#@example.com/", "http://127.0.0.1:9\\@example.com/",
  "http://LOCALHOST/", "http://a.b.localhost/",
];
export default async () => {
  // Refused by the guard, or (URLs with credentials) rejected by fetch before the host is asked.
  const fetched = [], other = [];
  let blocked = 0;
  for (const url of targets) {
    try { await fetch(url); fetched.push(url); }
    catch (e) { if (/refused|with credentials/.test(e.message)) blocked++; else other.push(url + ": " + e.message); }
  }
  return { fetched, other, blocked, of: targets.length };
};
