'use strict';
// Written for chidori's tools/node-tests self-test; the comment after each check is its verdict
// under Node and under chidori.
const common = require('../common');
const assert = require('assert');
const path = require('path');
const vm = require('vm');

class Joiner {
  constructor(base) { this.base = base; }
  join(more) { return path.join(this.base, more); }
}
const joiner = new Joiner('/a');

function same(a, b) {
  assert.strictEqual(a, b);
}

assert.strictEqual(joiner.join('b'), '/a/b'); // both pass
assert.strictEqual(path.basename('/x/y.txt'), 'not-this'); // both fail
assert.strictEqual(path.extname('notes.md'), '.md'); // both pass, after a failure
same(path.dirname('/a/b'), '/a'); // both pass, through a helper
setTimeout(common.mustCall(() => {
  assert.strictEqual(path.sep, '\\');
}), 1); // both fail, in a callback
const neverCalled = common.mustCall(); // both fail: never called
assert.notStrictEqual(process.cwd(), '/'); // Node passes, chidori fails (a run's cwd is /)
assert.strictEqual(process.cwd(), '/'); // chidori passes, Node fails
assert.rejects(Promise.resolve(1), Error); // both fail, later
Promise.reject(new Error('late')).catch(common.mustCall()); // both pass
assert.strictEqual(vm.runInNewContext('1 + 1'), 2); // left out: needs vm
const notACheck = path.join('x', 'y');
