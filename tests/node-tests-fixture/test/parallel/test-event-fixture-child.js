'use strict';
// Written for chidori's tools/node-tests self-test: excluded, it needs child processes.
require('../common');
const assert = require('assert');
const { spawnSync } = require('child_process');
assert.strictEqual(typeof spawnSync, 'function');
