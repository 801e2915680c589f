// Oracle: TextEncoder/TextDecoder and atob/btoa (globals, no import) against Node.
const attempt = (f) => {
  try { return { ok: f() }; } catch (e) { return { name: e.name, message: e.message, code: e.code, isError: e instanceof Error }; }
};
const hex = (u8) => Array.from(u8, (b) => b.toString(16).padStart(2, "0")).join("");
const units = (s) => Array.from(s, (c) => c.codePointAt(0).toString(16));

export async function agent() {
  const out = {};
  out.atob = {};
  for (const s of [" YW Jj\n", "YWJj", "YQ", "YQ=", "YQ==", "YQ===", "Y", "YW\fJj", "YW\tJj", "YW\vJj", "-_", "Y=Q=",
    "YR==", "", "YQ==\n", "=", "YWJ=j", "/+/+", "AAEC/w==", "abc\u0100", "ab cd\r\n", "Zm9vYmFy", "Zm9vYg"])
    out.atob[JSON.stringify(s)] = attempt(() => units(atob(s)));
  out.atobArgs = [attempt(() => atob(null)), attempt(() => atob(12)), attempt(() => atob(undefined)), attempt(() => atob()),
    attempt(() => atob({ toString() { return "YQ"; } }))];
  out.btoa = [attempt(() => btoa(null)), attempt(() => btoa(undefined)), attempt(() => btoa(12)), attempt(() => btoa("ā")),
    attempt(() => btoa()), attempt(() => btoa("\xff\xfe\x00")), attempt(() => btoa("")), attempt(() => btoa("hello, world!"))];

  const enc = new TextEncoder();
  out.encoding = enc.encoding;
  out.encode = ["", "a", "é", "€", "😀", "\ud800", "a\udc00b", "\ud83d\ude00\ud83d", "日本語"].map((s) => hex(enc.encode(s)));
  out.encodeUndefined = hex(enc.encode());
  out.encodeNonString = hex(enc.encode(123));
  out.encodeInto = [0, 1, 2, 3, 4, 5, 8].map((n) => {
    const dest = new Uint8Array(n);
    const r = enc.encodeInto("a€😀", dest);
    return { read: r.read, written: r.written, bytes: hex(dest) };
  });
  out.encodeIntoLone = enc.encodeInto("\ud800", new Uint8Array(3));

  const dec = (bytes, label, opts) => attempt(() => units(new TextDecoder(label, opts).decode(Uint8Array.from(bytes))));
  const invalid = [
    [0x61, 0xf0, 0x9f, 0x98, 0xe2, 0x82, 0xff, 0xed, 0xa0, 0x80, 0x62, 0xc0, 0xaf],
    [0xe0, 0x80, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xf0, 0x80], [0xc2], [0xe2, 0x82], [0xf8, 0x88, 0x80, 0x80, 0x80],
    [0xc3, 0x28], [0xa0, 0xa1], [0xe2, 0x28, 0xa1], [0xf0, 0x28, 0x8c, 0xbc], [0xf0, 0x90, 0x28, 0xbc], [0xef, 0xbf, 0xbf],
    [0xed, 0x9f, 0xbf], [0xee, 0x80, 0x80], [0xf4, 0x8f, 0xbf, 0xbf], [0xc1, 0xbf],
  ];
  out.utf8 = invalid.map((b) => dec(b));
  out.utf8Fatal = invalid.map((b) => dec(b, "utf-8", { fatal: true }));
  out.bom = [dec([0xef, 0xbb, 0xbf, 0x41]), dec([0xef, 0xbb, 0xbf, 0x41], "utf-8", { ignoreBOM: true }),
    dec([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf]), dec([0xff, 0xfe, 0x41, 0x00], "utf-16le"),
    dec([0xff, 0xfe, 0x41, 0x00], "utf-16le", { ignoreBOM: true })];
  out.utf16le = [dec([0x41, 0, 0x42]), dec([0x41, 0, 0x42], "utf-16le"), dec([0x3d, 0xd8, 0x00, 0xde], "utf-16le"),
    dec([0x3d, 0xd8, 0x41, 0x00], "utf-16le"), dec([0x00, 0xde], "utf-16le"), dec([0x3d, 0xd8], "utf-16le"),
    dec([0x41, 0, 0x42], "utf-16le", { fatal: true }), dec([0x3d, 0xd8], "utf-16le", { fatal: true })];
  out.utf16be = [dec([0, 0x41, 0xd8, 0x3d, 0xde, 0x00], "utf-16be")];
  out.latin1Printable = dec([0x41, 0xe9, 0xff, 0xa0, 0x7f], "latin1");
  out.labels = ["utf-8", "UTF8", " utf-8 ", "unicode-1-1-utf-8", "utf-16", "UTF-16LE", "ucs-2", "utf-16be", "latin1",
    "iso-8859-1", "ascii", "us-ascii", "windows-1252", "cp1252", "xx", "utf-32", ""].map((l) =>
    attempt(() => new TextDecoder(l).encoding));
  const d0 = new TextDecoder();
  out.decoderProps = [d0.encoding, d0.fatal, d0.ignoreBOM, String(d0), String(enc),
    new TextDecoder("utf-8", { fatal: true, ignoreBOM: 1 }).fatal, new TextDecoder("utf-8", { fatal: true, ignoreBOM: 1 }).ignoreBOM];
  out.decodeInputs = [
    attempt(() => d0.decode()), attempt(() => d0.decode(undefined)),
    attempt(() => d0.decode(new Uint16Array([0x6968]))), attempt(() => d0.decode(new Uint8Array([104, 105, 33]).buffer)),
    attempt(() => d0.decode(new DataView(new Uint8Array([0, 104, 105, 0]).buffer, 1, 2))),
    attempt(() => d0.decode(new Uint8Array([120, 104, 105]).subarray(1))),
  ].map((r) => r.ok !== undefined ? r : { name: r.name, code: r.code });
  out.decodeBadInput = ["abc", {}, 5, null].map((v) => { const r = attempt(() => d0.decode(v)); return [r.name, r.code]; });

  // streaming: a multi-byte character split at every position, and a pending tail at the end
  const euro = [0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80, 0x41];
  out.stream = [];
  for (let cut = 0; cut <= euro.length; cut++) {
    const d = new TextDecoder();
    const a = d.decode(Uint8Array.from(euro.slice(0, cut)), { stream: true });
    const b = d.decode(Uint8Array.from(euro.slice(cut)));
    out.stream.push([units(a), units(b)]);
  }
  const ds = new TextDecoder();
  out.streamTail = [ds.decode(Uint8Array.of(0xe2, 0x82), { stream: true }), ds.decode()].map(units);
  const db = new TextDecoder();
  out.streamBom = [db.decode(Uint8Array.of(0xef, 0xbb), { stream: true }), db.decode(Uint8Array.of(0xbf, 0x41), { stream: true }),
    db.decode(Uint8Array.of(0xef, 0xbb, 0xbf, 0x42))].map(units);
  const du = new TextDecoder("utf-16le");
  out.stream16 = [du.decode(Uint8Array.of(0x3d), { stream: true }), du.decode(Uint8Array.of(0xd8, 0x00), { stream: true }),
    du.decode(Uint8Array.of(0xde, 0x41, 0x00))].map(units);
  const big = new Uint8Array(20000).fill(0x61);
  big[19999] = 0xc3;
  out.bigDecode = [new TextDecoder().decode(big).length, hex(enc.encode("é".repeat(9000))).length];
  return out;
}
