#!/usr/bin/env node
'use strict';
const path = require('node:path');
const fs = require('node:fs');

// `verity … | head` closes stdout early; that is not an error.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

const entry = path.join(__dirname, '..', 'dist', 'src', 'cli', 'main.js');
if (!fs.existsSync(entry)) {
  process.stderr.write('verity: the project is not built yet; run `npm run build` (npm ci does it for you).\n');
  process.exit(1);
}
require(entry).main(process.argv).then(
  (code) => process.exit(code ?? 0),
  (err) => {
    process.stderr.write(`verity: ${err && err.message ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
