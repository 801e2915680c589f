'use strict';
// Written for chidori's tools/node-tests self-test: excluded, it needs child processes (and its
// require is no declaration, so the whole file goes).
require('../common');
const assert = require('assert');
assert.strictEqual(typeof require('child_process').spawnSync, 'function');
