// decode.js — checks OTLP/HTTP JSON export bodies against the OpenTelemetry protobuf definitions
// (opentelemetry-proto, compiled to a protobufjs root as published in @opentelemetry/otlp-transformer)
// and prints the spans they hold, for tests/cases_otel.py.
//
//   node decode.js < bodies.json      (a JSON array of request bodies, each an ExportTraceServiceRequest)
//
// Each body must: verify against ExportTraceServiceRequest; survive fromObject → toObject
// unchanged (an unknown field, a wrong type or a bad enum does not); carry traceId/spanId/
// parentSpanId as lowercase hex of 16/8 bytes (the OTLP/JSON encoding; converted to the base64 of
// protobuf's JSON mapping before checking). Prints {"resources": [...], "spans": [...]} with ids in
// hex and attributes as a key → value object. Exits 1 with the reason on the first failure.
"use strict";
const root = require("@opentelemetry/otlp-transformer/build/src/generated/root.js");
const Request = root.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;

function fail(msg) {
  process.stderr.write("decode.js: " + msg + "\n");
  process.exit(1);
}

function idToBase64(hex, bytes, what) {
  if (typeof hex !== "string" || !new RegExp("^[0-9a-f]{" + 2 * bytes + "}$").test(hex) || /^0+$/.test(hex))
    fail(what + " is not " + bytes + " bytes of lowercase hex (not all zero): " + JSON.stringify(hex));
  return Buffer.from(hex, "hex").toString("base64");
}

function canonical(v) {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === "object") {
    const out = {};
    for (const k of Object.keys(v).sort()) out[k] = canonical(v[k]);
    return out;
  }
  return v;
}

function anyValue(v) {
  if ("stringValue" in v) return v.stringValue;
  if ("intValue" in v) return Number(v.intValue);
  if ("boolValue" in v) return v.boolValue;
  if ("doubleValue" in v) return v.doubleValue;
  if ("arrayValue" in v) return (v.arrayValue.values || []).map(anyValue);
  fail("an attribute value of no known kind: " + JSON.stringify(v));
}

function attrs(list) {
  const out = {};
  for (const a of list || []) {
    if (a.key in out) fail("attribute " + a.key + " twice");
    out[a.key] = anyValue(a.value);
  }
  return out;
}

const Long = require("long");

// 64-bit integers travel as decimal strings in OTLP/JSON; verify wants them as Long.
function toLong(text, unsigned, what) {
  if (typeof text !== "string" || !/^-?[0-9]{1,20}$/.test(text)) fail(what + " is not a decimal string: " + JSON.stringify(text));
  return Long.fromString(text, unsigned);
}

function forVerify(wire) {
  const v = JSON.parse(JSON.stringify(wire));
  const values = (list) => {
    for (const a of list || []) {
      if (a.value && "intValue" in a.value) a.value.intValue = toLong(a.value.intValue, false, a.key);
      if (a.value && a.value.arrayValue) values((a.value.arrayValue.values || []).map((x) => ({ key: a.key, value: x })));
    }
  };
  for (const rs of v.resourceSpans || []) {
    values(rs.resource && rs.resource.attributes);
    for (const ss of rs.scopeSpans || [])
      for (const s of ss.spans || []) {
        s.startTimeUnixNano = toLong(s.startTimeUnixNano, true, "startTimeUnixNano");
        s.endTimeUnixNano = toLong(s.endTimeUnixNano, true, "endTimeUnixNano");
        values(s.attributes);
      }
  }
  return v;
}

let text = "";
process.stdin.on("data", (d) => (text += d));
process.stdin.on("end", () => {
  const bodies = JSON.parse(text);
  const result = { resources: [], spans: [] };
  for (const body of bodies) {
    const wire = JSON.parse(JSON.stringify(body));
    for (const rs of wire.resourceSpans || [])
      for (const ss of rs.scopeSpans || [])
        for (const s of ss.spans || []) {
          s.traceId = idToBase64(s.traceId, 16, "traceId");
          s.spanId = idToBase64(s.spanId, 8, "spanId");
          if ("parentSpanId" in s) s.parentSpanId = idToBase64(s.parentSpanId, 8, "parentSpanId");
        }
    const why = Request.verify(forVerify(wire));
    if (why) fail("ExportTraceServiceRequest.verify: " + why);
    const back = Request.toObject(Request.fromObject(wire), { longs: String, enums: Number, bytes: String });
    const a = JSON.stringify(canonical(wire)), b = JSON.stringify(canonical(back));
    if (a !== b) {
      let i = 0;
      while (i < a.length && a[i] === b[i]) i++;
      fail("the body does not survive fromObject/toObject unchanged (an unknown field or a wrong type), at:\n  sent:    " +
           a.slice(Math.max(0, i - 120), i + 80) + "\n  decoded: " + b.slice(Math.max(0, i - 120), i + 80));
    }
    const hex = (b64) => (b64 ? Buffer.from(b64, "base64").toString("hex") : null);
    for (const rs of back.resourceSpans || []) {
      result.resources.push(attrs(rs.resource && rs.resource.attributes));
      for (const ss of rs.scopeSpans || [])
        for (const s of ss.spans || [])
          result.spans.push({
            traceId: hex(s.traceId),
            spanId: hex(s.spanId),
            parentSpanId: hex(s.parentSpanId),
            name: s.name,
            kind: s.kind || 0,
            start: s.startTimeUnixNano,
            end: s.endTimeUnixNano,
            status: { code: (s.status && s.status.code) || 0, message: (s.status && s.status.message) || "" },
            attributes: attrs(s.attributes),
            scope: ss.scope && ss.scope.name,
          });
    }
  }
  process.stdout.write(JSON.stringify(result));
});
