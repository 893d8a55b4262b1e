import fs from 'node:fs';
import path from 'node:path';

/** workflows/index.ts in source (tsx, vitest), workflows/index.js in dist. */
export const WORKFLOWS_PATH = ['.ts', '.js']
  .map((extension) => path.join(__dirname, '..', '..', 'workflows', `index${extension}`))
  .find((file) => fs.existsSync(file)) ?? path.join(__dirname, '..', '..', 'workflows', 'index');

/** The workflow interceptors (configuration stamp propagation), bundled with the workflows. */
export const WORKFLOW_INTERCEPTORS_PATH = ['.ts', '.js']
  .map((extension) => path.join(__dirname, '..', '..', 'workflows', `interceptors${extension}`))
  .find((file) => fs.existsSync(file)) ?? path.join(__dirname, '..', '..', 'workflows', 'interceptors');
