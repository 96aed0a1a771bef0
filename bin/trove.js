#!/usr/bin/env node
// The `trove` command: a shim over the compiled CLI (src/cli/main.ts, built into dist/ by `npm run build`).
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const cli = join(__dirname, '..', 'dist', 'src', 'cli', 'main.js');
if (!existsSync(cli)) {
  process.stderr.write(`trove: ${cli} is missing: build Trove first (npm run build)\n`);
  process.exit(1);
}
require(cli).main();
