#!/usr/bin/env node
'use strict';
// Thin launcher: the compiled CLI lives in dist/ (built by `npm install` through `prepare`).
const path = require('node:path');
const entry = path.join(__dirname, '..', '..', '..', 'dist', 'apps', 'cli', 'src', 'main.js');
try {
  require.resolve(entry);
} catch {
  process.stderr.write('palimpsest: not built yet; run `npm run build` (npm install does this)\n');
  process.exit(70);
}
require(entry).main(process.argv).catch((err) => {
  process.stderr.write(`palimpsest: ${err && err.message ? err.message : String(err)}\n`);
  process.exit(err && err.exitCode === 2 ? 2 : 1); // 2: the request was wrong (UsageError), 1: the work failed
});
