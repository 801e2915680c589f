// Flags: --pending-deprecation
'use strict';
// Written for chidori's tools/node-tests self-test: excluded for its flag.
require('../common');
const assert = require('assert');
assert.ok(true);
