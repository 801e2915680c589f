/* test_runtime_oom.c — the engine's interpreter and builtins when an allocation fails at any point
 * of a run. A guest can bring one about: it fills its memory to just under its cap and then calls
 * a builtin, and how much it filled picks the allocation that is refused (test_compile_oom.c does
 * the same for the compiler). Each focus script defines `work()`, which exercises a family of
 * builtins on objects it makes afresh and returns a digest of what it saw; `work()` is called once
 * to count its allocations and then once for every allocation of that count, refusing that one
 * (and, in a second pass, every one after it, as a cap does), the job queue drained after each
 * call under the same refusal. No call may read or write outside its memory, trip an assertion
 * or leak (the unit run is leak-checked); a call either throws an object (the out-of-memory error,
 * or the one the context made ahead when not even that can be made) or returns the digest it
 * returns unrefused — never another value, and never with an exception pending — a job that fails
 * fails with an object, and `work()` gives the same digest after, from the same context. The
 * scripts cover arrays and JSON, strings and regular expressions, collections and iterators,
 * typed arrays and BigInt, Proxy, classes and errors, promises and async iteration, and a guest's
 * Error.prepareStackTrace that starts jobs of its own. The sweep runs in a
 * warm context (what a builtin does every time) and, for the first call of each builtin, in a
 * fresh context per point (what it does once per context: shapes, lazily made prototypes).
 * Built for AddressSanitizer only (ng_refusing.h says why). */
#include "unit.h"
#include "ng_refusing.h"
#include "quickjs.h"

#include <stdbool.h>
#include <string.h>

#if defined(CHIDORI_ENGINE_NG) && defined(__SANITIZE_ADDRESS__)

static const char *const SCRIPTS[] = {
    /* arrays, objects, JSON */
    "function work() {\n"
    "  const a = Array.from({ length: 40 }, (_, i) => (i * 7) % 13);\n"
    "  const b = a.map(x => x * 2).filter(x => x % 3).concat([1, [2, [3]]].flat(2), a.flatMap(x => [x, -x]).slice(0, 5));\n"
    "  b.sort((x, y) => x - y); b.splice(2, 3, 'p', 'q'); b.reverse(); b.copyWithin(0, 3, 6); b.fill(0, 30);\n"
    "  const c = b.toSorted().toReversed().with(0, 9).toSpliced(1, 1); c.unshift(...'xy'); c.push(...c.slice(0, 3));\n"
    "  const o = Object.assign({}, { k: 1, j: [1, 2] }, Object.fromEntries(c.slice(0, 6).map((v, i) => ['e' + i, v])));\n"
    "  Object.defineProperty(o, 'hidden', { value: 1, enumerable: false });\n"
    "  const keys = Object.keys(o).concat(Object.getOwnPropertyNames(o), Object.entries(o).map(e => e.join('=')));\n"
    "  const s = JSON.stringify({ o, c, n: null, d: [1.5, -0, 1e21], u: undefined }, (k, v) => typeof v === 'number' ? v + 1 : v, 2);\n"
    "  const p = JSON.parse(s, (k, v) => Array.isArray(v) ? v.length : v);\n"
    "  const g = Object.groupBy(a, x => x % 2 ? 'odd' : 'even'); const m = Map.groupBy(a, x => x % 3);\n"
    "  const frozen = Object.freeze(structuredCloneLike(o)); delete o.k; o[100] = 1; o[-1] = 2;\n"
    "  let raw; try { raw = JSON.stringify([JSON.rawJSON('1e3')]); } catch (e) { raw = e.name; }\n"
    "  return [b.join(), c.join('|'), keys.join(), s.length, JSON.stringify(p), g.odd.length, m.size,\n"
    "          Object.isFrozen(frozen), a.indexOf(5), a.lastIndexOf(5), a.includes(12), a.findLast(x => x > 10),\n"
    "          a.at(-1), String(a.entries().next().value), a.every(Number.isInteger), a.some(x => x > 12), raw].join(';');\n"
    "}\n"
    "function structuredCloneLike(v) { return JSON.parse(JSON.stringify(v)); }\n",
    /* strings and regular expressions */
    "function work() {\n"
    "  const t = 'The quick brown fox, née Ünïcödé, jumps over 13 lazy dogs in 2026-12-05.';\n"
    "  const parts = t.split(/[ ,.]+/).map(w => w.toUpperCase() + w.toLowerCase().padStart(12, '-').padEnd(14, '+'));\n"
    "  const r = t.replace(/(?<w>\\w+)/g, (m, w, off) => w.length + ':' + off).replaceAll('o', '0');\n"
    "  const found = [...t.matchAll(/(?<y>\\d{4})-(?<m>\\d\\d)-(?<d>\\d\\d)|(\\d+)/dg)].map(m => m.index + (m.groups?.y ?? m[0]) + m.indices[0]);\n"
    "  const sticky = /\\w+/y; sticky.lastIndex = 4; const st = sticky.exec(t);\n"
    "  const u = /\\p{L}+/gu.exec(t.slice(20)); const v = /[\\p{L}--[a-z]]/v.test('Ü');\n"
    "  const n = t.normalize('NFD').length + t.normalize('NFKC').length + t.localeCompare('the');\n"
    "  const rep = 'ab'.repeat(50).split('').reverse().join('').substring(3, 60).trim().at(-2);\n"
    "  const raw = String.raw`a\\n${t.length}b` + String.fromCodePoint(0x1f600, 97) + t.codePointAt(17);\n"
    "  const cut = t.slice(-10) + t.substr(2, 5) + t.charAt(3) + t.startsWith('The') + t.endsWith('.') + t.search(/fox/);\n"
    "  const wf = '\\ud800x'.isWellFormed() + '\\ud800x'.toWellFormed() + encodeURIComponent(t) + escape(t.slice(0, 20));\n"
    "  const re = new RegExp('(a|b)*c{2,3}[^d]', 'gi'); const ms = 'abacccxABCCy'.match(re);\n"
    "  return [parts.join(), r, found.join(), st && st[0], u && u[0], v, n, rep, raw, cut, wf, decodeURIComponent(encodeURI(t)), ms, re.source, re.flags].join('#');\n"
    "}\n",
    /* collections, iterators, generators */
    "function work() {\n"
    "  const m = new Map(), s = new Set(), wm = new WeakMap(), ws = new WeakSet(), keys = [];\n"
    "  for (let i = 0; i < 60; i++) { const k = { i }; keys.push(k); m.set('k' + i, i); s.add(i % 17); wm.set(k, i); ws.add(k); }\n"
    "  for (let i = 0; i < 60; i += 3) m.delete('k' + i);\n"
    "  const u = s.union(new Set([100, 101])), x = s.intersection(new Set([1, 2, 99])), d = s.difference(new Set([0]));\n"
    "  const sym = s.symmetricDifference(new Set([1, 200])), sub = x.isSubsetOf(s);\n"
    "  function* gen(n) { for (let i = 0; i < n; i++) { const r = yield i; if (r) return r; } }\n"
    "  const it = gen(30).map(v => v * 3).filter(v => v % 2).drop(1).take(8).flatMap(v => [v, v + 1]);\n"
    "  const arr = it.toArray(); const red = Iterator.from(gen(10)).reduce((p, v) => p + v, 0);\n"
    "  const g = gen(5); g.next(); const ret = g.next(7);\n"
    "  const wr = new WeakRef(keys[0]); const fr = new FinalizationRegistry(() => {}); fr.register(keys[1], 1);\n"
    "  const ent = [...m.entries()].slice(0, 4).map(([k, v]) => k + v).join() + [...m.keys()].length + [...s.values()].join();\n"
    "  let each = 0; m.forEach((v) => { each += v; }); s.forEach(v => { each -= v; });\n"
    "  return [ent, each, u.size, x.size, d.size, sym.size, sub, arr.join(), red, ret.value, ret.done, wm.get(keys[5]),\n"
    "          ws.has(keys[6]), wr.deref() === keys[0], m.size, Array.from(new Set('mississippi')).join()].join(';');\n"
    "}\n",
    /* numbers, BigInt, typed arrays, buffers, Math, Date */
    "function work() {\n"
    "  const buf = new ArrayBuffer(64, { maxByteLength: 256 }); const dv = new DataView(buf);\n"
    "  for (let i = 0; i < 16; i++) dv.setFloat32(i * 4, i / 3, true);\n"
    "  buf.resize(128); const f32 = new Float32Array(buf, 0, 20); const u8 = new Uint8Array(buf.slice(4, 40));\n"
    "  const i16 = Int16Array.from(u8, x => x - 128).sort().subarray(2, 20).map(x => x * 3);\n"
    "  const big = new BigInt64Array([1n, -2n, 3n ** 40n % (2n ** 63n)]); const bu = BigInt.asUintN(70, -5n) * 3n ** 50n;\n"
    "  const fl = Array.from(f32).join(), mx = Math.max(...f32); const moved = buf.transfer(96); const detached = buf.detached;\n"
    "  const nums = [Math.PI.toFixed(8), (1234.5678).toPrecision(6), (255).toString(36), (0.1 + 0.2).toExponential(3),\n"
    "    Number.parseFloat('3.25e2x'), parseInt('ff', 16), Math.hypot(3, 4, 12), Math.fround(5.5), Math.clz32(1), Math.imul(3, -7),\n"
    "    mx, Math.sumPrecise ? 1 : 0, (2 ** 53 + 2).toString(2).length, (-1.5e300 * 1e10).toString()];\n"
    "  const d = new Date(Date.UTC(2026, 11, 5, 1, 2, 3, 4)); const d2 = new Date('2026-12-05T01:02:03.004Z');\n"
    "  const ds = [d.toISOString(), d.toUTCString(), d.getTime() === d2.getTime(), JSON.stringify(d), d.getUTCDay(),\n"
    "    Date.parse('Sat, 05 Dec 2026 01:02:03 GMT'), new Date(8.64e15 + 1).getTime()];\n"
    "  return [fl, u8.join(), i16.join(), big.join(), bu.toString(16), moved.byteLength, detached,\n"
    "          nums.join(), ds.join(), (12345678901234567890n).toLocaleString(), Array.from(new Uint8Array(moved, 0, 8)).join()].join('|');\n"
    "}\n",
    /* functions, classes, Proxy, Reflect, Symbol, errors, closures */
    "function work() {\n"
    "  const log = [];\n"
    "  const target = { a: 1, b: { c: 2 } };\n"
    "  const p = new Proxy(target, { get(t, k, r) { log.push('get ' + String(k)); return Reflect.get(t, k, r); },\n"
    "    has(t, k) { log.push('has ' + String(k)); return k in t; }, ownKeys(t) { return [...Reflect.ownKeys(t), 'z']; },\n"
    "    getOwnPropertyDescriptor(t, k) { return k === 'z' ? { value: 0, enumerable: true, configurable: true } : Reflect.getOwnPropertyDescriptor(t, k); } });\n"
    "  const ks = Object.keys(p).join() + ('a' in p) + p.b.c + JSON.stringify(p);\n"
    "  class A { #x; static #n = 0; constructor(x) { this.#x = x; A.#n++; } get x() { return this.#x; } static count() { return A.#n; }\n"
    "    [Symbol.toPrimitive](h) { return h === 'number' ? this.#x : 'A' + this.#x; } *[Symbol.iterator]() { yield this.#x; } }\n"
    "  class B extends A { constructor() { super(5); } toString() { return 'B' + super.x; } }\n"
    "  const objs = Array.from({ length: 10 }, (_, i) => i % 2 ? new A(i) : new B());\n"
    "  const sum = objs.reduce((s, o) => s + +o, 0) + `${objs[1]}` + [...objs[0]] + String(objs[0]);\n"
    "  const bound = function (a, b) { return this.k + a + b + arguments.length; }.bind({ k: 1 }, 2);\n"
    "  const errs = [];\n"
    "  for (const f of [() => null.x, () => undefinedName, () => { throw new RangeError('r', { cause: 1 }); }, () => new Array(-1),\n"
    "       () => { 'use strict'; Object.freeze([]).push(1); }, () => JSON.parse('{bad'), () => new AggregateError([1], 'agg'), () => eval('1 +')])\n"
    "    try { const e = f(); if (e) errs.push(e.errors.length); } catch (e) {\n"
    "      errs.push(e.name + ':' + e.message + ':' + (e.cause ?? '') + (typeof e.stack === 'string' || e.stack === null)); }\n"
    "  const sym = Symbol('s'); const reg = Symbol.for('reg'); const o = { [sym]: 1, [reg]: 2 };\n"
    "  const refl = Reflect.ownKeys(o).length + String(Reflect.construct(Date, [0]).getTime()) + Reflect.apply(Math.max, null, [1, 3]);\n"
    "  const counter = (() => { let c = 0; return () => ++c; })(); counter(); counter();\n"
    "  return [ks, log.join(), sum, bound(3), A.count() > 0, errs.join('/'), refl, counter(), sym.description, Symbol.keyFor(reg),\n"
    "          Function.prototype.toString.call(work).length, new Function('a', 'b', 'return a * b')(6, 7)].join(';');\n"
    "}\n",
    /* promises, async functions, async generators: work() starts them; the job queue finishes them */
    "var settled;\n"
    "function work() {\n"
    "  settled = undefined;\n"
    "  const sleep = (v) => new Promise(r => r(v));\n"
    "  async function* ag(n) { for (let i = 0; i < n; i++) yield await sleep(i); }\n"
    "  async function main() {\n"
    "    const out = [];\n"
    "    for await (const v of ag(6)) out.push(v);\n"
    "    out.push(...await Promise.all([1, sleep(2), Promise.resolve(3)]));\n"
    "    const st = await Promise.allSettled([sleep(1), Promise.reject(new Error('no'))]);\n"
    "    out.push(st.map(s => s.status).join());\n"
    "    out.push(await Promise.any([Promise.reject(1), sleep('any')]), await Promise.race([sleep('race'), new Promise(() => {})]));\n"
    "    try { await Promise.any([Promise.reject(1)]); } catch (e) { out.push(e.constructor.name + e.errors.length); }\n"
    "    const { promise, resolve } = Promise.withResolvers(); queueMicrotaskLike(() => resolve('wr')); out.push(await promise);\n"
    "    out.push(await sleep(1).then(v => v + 1).finally(() => out.push('fin')).catch(() => 'never'));\n"
    "    const noReturn = { [Symbol.iterator]() { let i = 0; return { next: () => ({ value: i++, done: i > 3 }) }; } };\n"
    "    for await (const x of noReturn) { out.push('fs' + x); break; }\n"
    "    async function* deleg() { yield* noReturn; }\n"
    "    const dg = deleg(); await dg.next();\n"
    "    out.push(await dg.throw(new Error('t')).then(() => 'no', e => e.constructor.name));\n"
    "    out.push((await Array.fromAsync(ag(3))).join('+'));\n"
    "    const agProto = Object.getPrototypeOf(ag(0));\n"
    "    out.push(await agProto.next.call({}).then(() => 'no', e => e.constructor.name));\n"
    "    return out.join();\n"
    "  }\n"
    "  main().then(v => { settled = v; }, e => { settled = e; });\n"
    "  return 'started';\n"
    "}\n"
    "function queueMicrotaskLike(f) { Promise.resolve().then(f); }\n",
    /* the guest's stack-trace callback, run while the engine builds a thrown error's trace, starting
     * promise jobs of its own (a review found a resolver's failure there aborted the process) */
    "function work() {\n"
    "  const seen = [];\n"
    "  Error.prepareStackTrace = (e, sites) => { (async () => ({ then(r) { r(1); } }))().then(v => seen.push(v));\n"
    "    return 'trace of ' + sites.length; };\n"
    "  let s = '';\n"
    "  /* a trace the callback could not make is null (docs/reliability.md) */\n"
    "  try { null.x; } catch (e) { s = typeof e.stack === 'string' || e.stack === null; }\n"
    "  try { undefinedName; } catch (e) { s += typeof e.stack === 'string' || e.stack === null; }\n"
    "  Error.prepareStackTrace = undefined;\n"
    "  return s;\n"
    "}\n",
};

/* Calls work() (and drains the job queue) with allocation `at` (and every later one when after)
 * refused, and checks what it gave against want (the digest of an unrefused call, which also
 * names settled's digest for a script that finishes in jobs; NULL: learn it, refusing nothing).
 * Returns the digest the call gave (the caller frees it), or NULL when it failed. */
static char *call_work(JSContext *ctx, long at, bool after, const char *want, bool *ok)
{
    JSRuntime *rt = JS_GetRuntime(ctx);
    JSValue global = JS_GetGlobalObject(ctx);
    refuse_from(at, after);
    JSValue fn = JS_GetPropertyStr(ctx, global, "work");
    JSValue r = JS_IsException(fn) ? JS_EXCEPTION : JS_Call(ctx, fn, global, 0, NULL);
    JS_FreeValue(ctx, fn);
    bool threw = JS_IsException(r);
    JSValue e = threw ? JS_GetException(ctx) : JS_UNDEFINED;
    /* the jobs it left, under the same refusal: a job that fails (out of memory, which a guest
       cannot catch) ends the run, so what it would have settled stays unsettled */
    bool job_failed = false, job_threw_object = true;
    for (;;) {
        JSContext *jctx;
        int jr = JS_ExecutePendingJob(rt, &jctx);
        if (jr == 0) break;
        if (jr < 0) {
            JSValue je = JS_GetException(jctx);
            job_failed = true;
            job_threw_object &= JS_IsObject(je);
            JS_FreeValue(jctx, je);
        }
    }
    long refused_at = at;
    refuse_at = 0;
    *ok = true;
    if (!job_threw_object) {
        fprintf(stderr, "work() with allocation %ld%s refused: a job threw a non-object\n", refused_at, after ? " and later" : "");
        *ok = false;
    }
    if (JS_HasException(ctx)) { /* pending after a call that returned or threw */
        fprintf(stderr, "work() with allocation %ld%s refused: an exception left pending\n", refused_at, after ? " and later" : "");
        JS_FreeValue(ctx, JS_GetException(ctx));
        *ok = false;
    }
    JSValue settled = threw ? JS_UNDEFINED : JS_GetPropertyStr(ctx, global, "settled");
    char *digest = NULL;
    if (threw) {
        if (!want) { /* learning: nothing may fail */
            const char *m = JS_ToCString(ctx, e);
            fprintf(stderr, "work() threw unrefused: %s\n", m ? m : "?");
            JS_FreeCString(ctx, m);
            *ok = false;
        }
        if (!JS_IsObject(e)) {
            fprintf(stderr, "work() with allocation %ld%s refused: threw a non-object\n", refused_at, after ? " and later" : "");
            *ok = false;
        }
        JS_FreeValue(ctx, e);
    } else {
        const char *s = JS_ToCString(ctx, r);
        const char *t = JS_IsUndefined(settled) || JS_IsException(settled) ? NULL : JS_ToCString(ctx, settled);
        size_t slen = s ? strlen(s) : 0, n = slen + (t ? strlen(t) : 0) + 2;
        digest = malloc(n);
        snprintf(digest, n, "%s\n%s", s ? s : "", t ? t : "");
        if (!s) *ok = false;
        JS_FreeCString(ctx, s);
        JS_FreeCString(ctx, t);
        /* a script finishing in jobs whose job failed has only its synchronous digest */
        bool same = want && (strcmp(digest, want) == 0 ||
                             (job_failed && !t && strncmp(digest, want, slen + 1) == 0));
        if (want && !same) {
            fprintf(stderr, "work() with allocation %ld%s refused: returned\n%s\nnot\n%s\n", refused_at,
                    after ? " and later" : "", digest, want);
            *ok = false;
        }
    }
    JS_FreeValue(ctx, settled);
    JS_FreeValue(ctx, r);
    JS_FreeValue(ctx, global);
    return digest;
}

static JSContext *context_with(JSRuntime *rt, const char *script)
{
    JSContext *ctx = JS_NewContext(rt);
    if (!ctx) return NULL;
    JSValue r = JS_Eval(ctx, script, strlen(script), "<focus>", JS_EVAL_TYPE_GLOBAL);
    bool made = !JS_IsException(r);
    JS_FreeValue(ctx, r);
    if (!made) {
        JS_FreeValue(ctx, JS_GetException(ctx));
        JS_FreeContext(ctx);
        return NULL;
    }
    return ctx;
}

/* The digest work() gives unrefused, and how many allocations a warm call makes. */
static char *learn(JSContext *ctx, long *allocs)
{
    bool ok;
    char *d = call_work(ctx, 1L << 60, false, NULL, &ok);
    *allocs = seen;
    if (!ok) {
        free(d);
        return NULL;
    }
    return d;
}

static void sweep(const char *script, bool cold)
{
    JSRuntime *rt = JS_NewRuntime2(&injecting, NULL);
    JSContext *ctx = context_with(rt, script);
    CHECK(ctx != NULL);
    long first, total;
    char *want = learn(ctx, &first); /* the first call: what it makes once per context */
    free(learn(ctx, &total));
    char *again = learn(ctx, &total);
    if (!want || !again || strcmp(want, again) != 0) /* deterministic, or the comparison below means nothing */
        fprintf(stderr, "work() gave\n%s\nand then\n%s\n", want ? want : "(failed)", again ? again : "(failed)");
    CHECK(want && again && strcmp(want, again) == 0);
    free(again);
    if (cold) total = first;
    CHECK(total > 20);
    trace = getenv("CHIDORI_TEST_TRACE") != NULL;
    int failures = 0;
    bool whole;
    for (int after = 0; after < 2; after++) {
        for (long at = 1; at <= total; at++) {
            if (trace) fprintf(stderr, "%s: refusing allocation %ld of %ld%s\n", cold ? "cold" : "warm", at, total, after ? " and later" : "");
            JSContext *c = cold ? context_with(rt, script) : ctx;
            CHECK(c != NULL);
            bool ok;
            free(call_work(c, at, after, want, &ok));
            free(call_work(c, 0, false, want, &whole)); /* and the context is whole after */
            if (!whole) fprintf(stderr, "  (the call after the one with allocation %ld%s refused)\n", at, after ? " and later" : "");
            if (cold) JS_FreeContext(c);
            if (!(ok && whole)) failures++;
        }
    }
    CHECK(failures == 0);
    free(want);
    JS_FreeContext(ctx);
    JS_FreeRuntime(rt);
}

TEST(ng_builtins_survive_a_refused_allocation_anywhere)
{
    for (size_t i = 0; i < sizeof SCRIPTS / sizeof *SCRIPTS; i++) {
        sweep(SCRIPTS[i], false);
        sweep(SCRIPTS[i], true);
    }
}

#endif
