#!/usr/bin/env node
// PGlite decodes every text field of a result with `new TextDecoder('utf-8')`, which treats a leading
// U+FEFF as a byte-order mark and drops it: a document starting with a BOM comes back without it, so
// reads, exports and replay disagree with what was written (PostgreSQL through `pg` keeps it).
// Until PGlite decodes with ignoreBOM, this gives its protocol reader that option, in the ESM and the
// CommonJS builds. It is idempotent and refuses loudly when the code it expects is not there.
const { readFileSync, writeFileSync, readdirSync } = require('node:fs');
const { dirname, join } = require('node:path');

const READER = /new TextDecoder\((\w+\(this,\w+\))\)/g;
const PATCHED = /new TextDecoder\(\w+\(this,\w+\),\{ignoreBOM:!0\}\)/;

function main() {
  let entry;
  try {
    entry = require.resolve('@electric-sql/pglite');
  } catch (error) {
    if (error.code === 'MODULE_NOT_FOUND') return; // an install without PGlite: nothing to patch
    throw error;
  }
  const dist = dirname(entry);
  const files = readdirSync(dist).filter((f) => /\.(c?js)$/.test(f)).map((f) => join(dist, f));
  let readers = 0;
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    if (PATCHED.test(text)) {
      readers += 1;
      continue;
    }
    const matches = text.match(READER);
    if (!matches) continue;
    if (matches.length !== 1) throw new Error(`${file}: expected one protocol TextDecoder, found ${matches.length}`);
    writeFileSync(file, text.replace(READER, 'new TextDecoder($1,{ignoreBOM:!0})'));
    readers += 1;
  }
  if (readers < 2) {
    throw new Error(`PGlite's protocol reader not found in ${dist} (found ${readers} of 2 builds): check scripts/pglite-keep-bom.cjs against this PGlite version`);
  }
}

main();
