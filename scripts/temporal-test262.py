#!/usr/bin/env python3
"""temporal-test262.py — runs test262's Temporal tests (test/built-ins/Temporal and
Date.prototype.toTemporalInstant: every script test of the feature outside intl402) through
`chidori eval --file` (or any command given with --cmd), one process per test, and prints the pass
count. A quick loop for this one directory; `make conformance` is the full runner.

Each test becomes one script: harness/assert.js + sta.js (+ doneprintHandle.js for async tests) +
its `includes:` + the test, with "use strict" first for onlyStrict tests. Module and raw tests are
skipped (counted). A negative test passes when the run fails naming the expected error type.

Usage: scripts/temporal-test262.py TEST262_DIR [--cmd 'build/chidori eval --file'] [--prepend FILE]
       [--every N] [-j 2] [--strict] [--failures FILE]
Trusts: the test262 checkout (read only; scripts are written to a temporary directory)."""
import argparse, concurrent.futures, os, re, shlex, subprocess, sys, tempfile

# every script test of the Temporal feature outside intl402 and staging
DIRS = ('test/built-ins/Temporal', 'test/built-ins/Date/prototype/toTemporalInstant')
META = re.compile(r'/\*---(.*?)---\*/', re.S)


def meta(src):
    m = META.search(src)
    text = m.group(1) if m else ''
    out = {'includes': [], 'flags': [], 'negative': None}
    inc = re.search(r'^includes:\s*\[(.*?)\]', text, re.M)
    if inc:
        out['includes'] = [s.strip() for s in inc.group(1).split(',') if s.strip()]
    else:
        blk = re.search(r'^includes:\s*\n((?:\s+-.*\n)+)', text, re.M)
        if blk:
            out['includes'] = [l.strip()[1:].strip() for l in blk.group(1).splitlines() if l.strip()]
    fl = re.search(r'^flags:\s*\[(.*?)\]', text, re.M)
    if fl:
        out['flags'] = [s.strip() for s in fl.group(1).split(',') if s.strip()]
    neg = re.search(r'^negative:\s*\n\s+phase:\s*(\w+)\s*\n\s+type:\s*(\w+)', text, re.M)
    if neg:
        out['negative'] = (neg.group(1), neg.group(2))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('test262')
    ap.add_argument('--cmd', default='build/chidori eval --file')
    ap.add_argument('--prepend', help='a script put before everything (e.g. a polyfill for a bare engine)')
    ap.add_argument('--every', type=int, default=1, help='run every Nth test only (a sample)')
    ap.add_argument('-j', type=int, default=2)
    ap.add_argument('--timeout', type=float, default=60)
    ap.add_argument('--strict', action='store_true',
                    help='run each test that allows it in strict mode (test262 runs tests without flags in both modes)')
    ap.add_argument('--failures', help='write the failing paths with their first error line here')
    a = ap.parse_args()
    files = sorted(os.path.join(d, f) for sub in DIRS for d, _, fs in os.walk(os.path.join(a.test262, sub)) for f in fs
                   if f.endswith('.js') and not f.endswith('_FIXTURE.js'))[::a.every]
    harness = {}

    def h(name):
        if name not in harness:
            with open(os.path.join(a.test262, 'harness', name)) as f:
                harness[name] = f.read()
        return harness[name]

    pre = open(a.prepend).read() if a.prepend else ''
    tmp = tempfile.mkdtemp(prefix='t262-')

    def run(i_path):
        i, path = i_path
        src = open(path).read()
        m = meta(src)
        if 'module' in m['flags'] or 'raw' in m['flags']:
            return path, 'skip', ''
        strict = 'onlyStrict' in m['flags'] or (a.strict and 'noStrict' not in m['flags'])
        parts = ['"use strict";\n' if strict else '',
                 "if (typeof print === 'undefined') globalThis.print = function () { console.log.apply(console, arguments); };\n",
                 pre, h('assert.js'), h('sta.js')]
        if 'async' in m['flags']:
            parts.append(h('doneprintHandle.js'))
        parts += [h(x) for x in m['includes']] + [src]
        fn = os.path.join(tmp, f'{i}.js')
        with open(fn, 'w') as f:
            f.write('\n'.join(parts))
        try:
            p = subprocess.run(shlex.split(a.cmd) + [fn], capture_output=True, text=True, timeout=a.timeout)
            out, rc = p.stdout + p.stderr, p.returncode
        except subprocess.TimeoutExpired:
            out, rc = 'timeout', -1
        finally:
            os.unlink(fn)
        if m['negative']:
            ok = rc != 0 and m['negative'][1] in out
        elif 'async' in m['flags']:
            ok = rc == 0 and 'Test262:AsyncTestComplete' in out
        else:
            ok = rc == 0
        first = next((l for l in out.splitlines() if 'Error' in l or 'Test262' in l), out.strip()[:200])
        return path, 'pass' if ok else 'fail', first

    counts = {'pass': 0, 'fail': 0, 'skip': 0}
    fails = []
    with concurrent.futures.ThreadPoolExecutor(a.j) as ex:
        for path, res, first in ex.map(run, enumerate(files)):
            counts[res] += 1
            if res == 'fail':
                fails.append(f'{os.path.relpath(path, a.test262)}\t{first}')
    os.rmdir(tmp)
    if a.failures:
        with open(a.failures, 'w') as f:
            f.write('\n'.join(sorted(fails)) + '\n')
    print(f"Temporal test262: {len(files)} files, {counts['pass']} passed, {counts['fail']} failed, "
          f"{counts['skip']} skipped (module/raw)")


if __name__ == '__main__':
    sys.exit(main())
