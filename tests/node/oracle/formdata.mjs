// Oracle: Response#formData() and Request#formData() — multipart/form-data and
// application/x-www-form-urlencoded bodies parsed as Node 20 parses them. Errors are compared by
// class only (chidori's messages say what was wrong; Node's say "Failed to parse body as FormData.").
const T = "multipart/form-data; boundary=x";
const mp = (b, parts) => parts.map((p) => "--" + b + "\r\n" + p).join("\r\n") + "\r\n--" + b + "--\r\n";
const bytes = (...chunks) => {
  const out = [];
  for (const c of chunks) {
    if (typeof c === "string") for (const b of new TextEncoder().encode(c)) out.push(b);
    else out.push(...c);
  }
  return new Uint8Array(out);
};

const CASES = [
  ["url", "a=1&b=2+3&c=%41%zz&&d&=e&f=", "application/x-www-form-urlencoded"],
  ["url-utf8", "a=%C3%A9&%E2%82%AC=x", "application/x-www-form-urlencoded;charset=UTF-8"],
  ["url-case", "x=1", "APPLICATION/X-WWW-FORM-URLENCODED"],
  ["url-empty", "", "application/x-www-form-urlencoded"],
  ["no-type", "a=1", null],
  ["plain", "a=1", "text/plain"],
  ["mp", mp("XyZ", ['Content-Disposition: form-data; name="f"\r\n\r\nv1',
    'Content-Disposition: form-data; name="file"; filename="z.txt"\r\nContent-Type: text/x\r\n\r\nzz',
    'Content-Disposition: form-data; name="nofile"; filename="a.bin"\r\n\r\n\x01\x02']), "multipart/form-data; boundary=XyZ"],
  ["mp-quoted-boundary", mp("a b", ['Content-Disposition: form-data; name="f"\r\n\r\nv']), 'multipart/form-data; boundary="a b"'],
  ["mp-no-boundary", "--x\r\n\r\n", "multipart/form-data"],
  ["mp-garbage", "garbage", T],
  ["mp-no-end", '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nv\r\n', T],
  ["mp-no-name", mp("x", ["Content-Disposition: form-data\r\n\r\nv"]), T],
  ["mp-no-disposition", mp("x", ["Content-Type: text/plain\r\n\r\nv"]), T],
  ["mp-preamble", "junk\r\n" + mp("x", ['Content-Disposition: form-data; name="a"\r\n\r\nv']), T],
  ["mp-epilogue", '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nv\r\n--x--\r\nepilogue', T],
  ["mp-empty", "--x--\r\n", T],
  ["mp-end-without-crlf", '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nv\r\n--x--', T],
  ["mp-utf8", mp("x", ['Content-Disposition: form-data; name="é"\r\n\r\né']), T],
  ["mp-lf-only", '--x\nContent-Disposition: form-data; name="a"\n\nv\n--x--\n', T],
  ["mp-escaped", mp("x", ['Content-Disposition: form-data; name="a%22b%0D%0Ac"; filename="c%22d.txt"\r\n\r\nv']), T],
  ["mp-empty-filename", mp("x", ['Content-Disposition: form-data; name="a"; filename=""\r\n\r\nv']), T],
  ["mp-file-type", mp("x", ['Content-Disposition: form-data; name="a"; filename="f"\r\ncontent-type: text/html; charset=utf-8\r\n\r\nv']), T],
  ["mp-extra-headers", mp("x", ['Content-Disposition: form-data; name="a"\r\nX-Other: 1\r\nContent-Transfer-Encoding: binary\r\n\r\nv']), T],
  ["mp-padding", '--x  \r\nContent-Disposition: form-data; name="a"\r\n\r\nv\r\n--x--\r\n', T],
  ["mp-unquoted-name", mp("x", ["Content-Disposition: form-data; name=a\r\n\r\nv"]), T],
  ["mp-crlf-in-body", mp("x", ['Content-Disposition: form-data; name="a"\r\n\r\nline1\r\nline2\r\n']), T],
  ["mp-repeated", mp("x", ['Content-Disposition: form-data; name="a"\r\n\r\n1', 'Content-Disposition: form-data; name="a"\r\n\r\n2']), T],
  ["mp-base64", mp("x", ['Content-Disposition: form-data; name="a"\r\nContent-Transfer-Encoding: base64\r\n\r\naGk=']), T],
  ["mp-long-boundary", mp("b".repeat(70), ['Content-Disposition: form-data; name="a"\r\n\r\nv']), "multipart/form-data; boundary=" + "b".repeat(70)],
  ["mp-type-case", mp("x", ['Content-Disposition: form-data; name="a"\r\n\r\nv']), "Multipart/Form-Data; Boundary=x"],
  ["mp-bad-utf8", bytes('--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n', [0xff, 0xfe], "\r\n--x--\r\n"), T],
  ["mp-utf8-name-bytes", bytes('--x\r\nContent-Disposition: form-data; name="', [0xc3, 0xa9], '"\r\n\r\nv\r\n--x--\r\n'), T],
  ["mp-binary-file", bytes('--x\r\nContent-Disposition: form-data; name="b"; filename="b.bin"\r\nContent-Type: application/octet-stream\r\n\r\n',
    [0, 13, 10, 45, 45, 255], "\r\n--x--\r\n"), T],
];

async function parse(body, type, asRequest) {
  const headers = type === null ? {} : { "content-type": type };
  const r = asRequest ? new Request("http://example.test/", { method: "POST", body, headers }) : new Response(body, { headers });
  if (type === null && r.headers.has("content-type")) r.headers.delete("content-type");
  try {
    const fd = await r.formData();
    const out = [];
    for (const [k, v] of fd) {
      if (typeof v === "string") out.push([k, v]);
      else out.push([k, { file: v instanceof File, name: v.name, type: v.type, size: v.size, bytes: [...new Uint8Array(await v.arrayBuffer())] }]);
    }
    return out;
  } catch (e) {
    return { error: e.constructor.name };
  }
}

export async function agent() {
  const out = {};
  for (const [name, body, type] of CASES) out[name] = await parse(body, type, false);
  out.request = await parse(CASES[6][1], CASES[6][2], true);
  out.requestUrl = await parse("q=1&r=2", "application/x-www-form-urlencoded", true);
  const r = new Response("a=1", { headers: { "content-type": "application/x-www-form-urlencoded" } });
  await r.formData();
  out.usedTwice = await r.formData().then(() => "no error", (e) => e.constructor.name);
  // a FormData body sent and read back
  const fd = new FormData();
  fd.append("k", "v");
  fd.append("f", new Blob(["blob"], { type: "text/x" }), "f.txt");
  const back = await new Response(fd).formData();
  out.roundTrip = [back.get("k"), back.get("f").name, back.get("f").type, await back.get("f").text()];
  return out;
}
