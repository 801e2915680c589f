// tests/node/oracle_url/probe.mjs — runs the URL corpus (corpus.json, given as the agent's input)
// through the URL / URLSearchParams / node:url of whichever runtime executes it: chidori
// (`chidori run probe.mjs -i @corpus.json`) or Node (node_runner.mjs). cases_url_crypto.py
// compares the two answers field by field; Node is the oracle. The "spec" section holds inputs on
// which Node 20 departs from the URL Standard; there chidori is held to the standard's answer.
import * as nodeUrl from "node:url";

const FIELDS = ["href", "origin", "protocol", "username", "password", "host", "hostname", "port", "pathname",
  "search", "hash"];

function describe(u) {
  const out = {};
  for (const f of FIELDS) out[f] = u[f];
  out.searchParams = u.searchParams.toString();
  out.json = JSON.stringify(u);
  return out;
}

function attempt(fn) {
  try {
    return fn();
  } catch (e) {
    return { error: e && e.name, code: e && e.code };
  }
}

function parseCase([input, base]) {
  const got = attempt(() => describe(base === null ? new URL(input) : new URL(input, base)));
  got.canParse = base === null ? URL.canParse(input) : URL.canParse(input, base);
  return got;
}

function setterCase([href, attr, value]) {
  return attempt(() => {
    const u = new URL(href);
    const before = u.searchParams;
    u[attr] = value;
    const out = describe(u);
    out.sameParams = before === u.searchParams;
    return out;
  });
}

function paramsCase({ init, ops }) {
  return attempt(() => {
    const p = init === undefined ? new URLSearchParams() : new URLSearchParams(init);
    const trace = [p.toString(), p.size];
    for (const [op, ...args] of ops) {
      const r = attempt(() => p[op](...args));
      trace.push(op, r === undefined ? null : r, p.toString(), p.size);
    }
    trace.push([...p.entries()], [...p.keys()], [...p.values()]);
    const seen = [];
    p.forEach((v, k, self) => seen.push(k + "=" + v + (self === p ? "" : "!")));
    trace.push(seen);
    return trace;
  });
}

// Live link between a URL and its searchParams, both ways.
function linkCase([href, ops]) {
  return attempt(() => {
    const u = new URL(href);
    const p = u.searchParams;
    const trace = [];
    for (const [target, op, ...args] of ops) {
      if (target === "url") u[op] = args[0];
      else p[op](...args);
      trace.push(u.href, p.toString(), p.size);
    }
    return trace;
  });
}

function helperCase([fn, ...args]) {
  return attempt(() => {
    switch (fn) {
      case "pathToFileURL": return nodeUrl.pathToFileURL(...args).href;
      case "formatURL": return nodeUrl.format(new URL(args[0]), args[1]);
      case "urlToHttpOptions": return { ...nodeUrl.urlToHttpOptions(new URL(args[0])) };
      case "parse": {
        const r = nodeUrl.parse(...args);
        const o = {};
        for (const k of ["protocol", "slashes", "auth", "host", "port", "hostname", "hash", "search", "query",
          "pathname", "path", "href"]) o[k] = r[k];
        if (o.query !== null && typeof o.query === "object") o.query = { ...o.query };
        return o;
      }
      default: return nodeUrl[fn](...args);
    }
  });
}

export async function agent(input) {
  return {
    parse: input.parse.map(parseCase),
    spec: (input.spec || []).map(parseCase),
    setters: input.setters.map(setterCase),
    params: input.params.map(paramsCase),
    link: input.link.map(linkCase),
    helpers: input.helpers.map(helperCase),
  };
}
