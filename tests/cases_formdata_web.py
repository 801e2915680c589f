"""tests/cases_formdata_web.py — Response#formData() / Request#formData() against hostile bodies
(internal/formdata's parser reads untrusted bytes: a response from anywhere).

Node's results for well-formed and malformed bodies are pinned by the oracle module
tests/node/oracle/formdata.mjs (tests/cases_node_oracle.py). Here: garbage never escapes as
anything but a TypeError that names formData(), every truncation of a valid body is handled, and a
body over the 32 MiB limit is refused with a message that says so.
"""
import json
import os
import tempfile

from cases import chidori

GARBAGE = r"""
(async () => {
  let seed = 12345;
  const rnd = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  const valid = '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nvalue\r\n' +
    '--x\r\nContent-Disposition: form-data; name="f"; filename="f.txt"\r\nContent-Type: text/plain\r\n\r\nfile\r\n--x--\r\n';
  const enc = new TextEncoder().encode(valid);
  const types = ["multipart/form-data; boundary=x", "application/x-www-form-urlencoded", 'multipart/form-data; boundary="x"',
    "multipart/form-data; boundary=", "multipart/form-data; boundary=" + "y".repeat(300), "multipart/form-data"];
  let parsed = 0, refused = 0;
  const bad = [];
  const attempt = async (body, type) => {
    try {
      const fd = await new Response(body, { headers: { "content-type": type } }).formData();
      if (!(fd instanceof FormData)) bad.push("not a FormData");
      parsed++;
    } catch (e) {
      if (!(e instanceof TypeError) || !e.message.startsWith("Response.formData(): ")) bad.push(String(e && e.message));
      refused++;
    }
  };
  for (let cut = 0; cut <= enc.length; cut++) await attempt(enc.slice(0, cut), types[0]);
  for (let i = 0; i < 400; i++) {
    const b = enc.slice();
    const flips = 1 + rnd(6);
    for (let k = 0; k < flips; k++) b[rnd(b.length)] = rnd(256);
    await attempt(b, types[rnd(types.length)]);
  }
  for (let i = 0; i < 200; i++) {
    const b = new Uint8Array(rnd(300));
    for (let k = 0; k < b.length; k++) b[k] = [13, 10, 45, 120, 34, 59, 61, 37, 43, 38, rnd(256)][rnd(11)];
    await attempt(b, types[rnd(types.length)]);
  }
  console.log(JSON.stringify({ parsed, refused, bad: bad.slice(0, 5) }));
})();
"""

LIMIT = r"""
(async () => {
  const big = new Uint8Array(32 * 1024 * 1024 + 1).fill(97);
  try {
    await new Response(big, { headers: { "content-type": "application/x-www-form-urlencoded" } }).formData();
    console.log("parsed");
  } catch (e) {
    console.log(e.name + ": " + e.message);
  }
  const fine = await new Response("a=" + "b".repeat(1000), { headers: { "content-type": "application/x-www-form-urlencoded" } }).formData();
  console.log(fine.get("a").length);
})();
"""


def _eval(v, source):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "agent.js")
        with open(path, "w") as f:
            f.write(source)
        return chidori(v, "eval", "--file", path, timeout=60)


def case_formdata_garbage_is_a_typeerror(v):
    """Truncated, bit-flipped and random multipart/urlencoded bodies parse or reject with a TypeError naming formData()."""
    code, out, err = _eval(v, GARBAGE)
    assert code == 0, f"exit {code}\n{out}\n{err[-2000:]}"
    r = json.loads(out.strip().splitlines()[-1])
    assert r["bad"] == [], f"an error that is not formData()'s TypeError: {r['bad']}"
    assert r["parsed"] > 0 and r["refused"] > 100, r


def case_formdata_size_limit(v):
    """A body over 32 MiB is refused with a message naming the limit; a small one parses."""
    code, out, err = _eval(v, LIMIT)
    assert code == 0, f"exit {code}\n{out}\n{err[-2000:]}"
    lines = out.strip().splitlines()
    assert lines[0].startswith("TypeError: Response.formData(): the body is larger than 32 MiB"), lines
    assert lines[1] == "1000", lines
