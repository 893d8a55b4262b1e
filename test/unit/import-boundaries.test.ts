import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.join(__dirname, '..', '..');
const CRUISER = path.join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

/** A miniature tree, laid out like verity's, with one file per boundary it breaks (and one that keeps them). */
const TREE: Record<string, string> = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'commonjs', moduleResolution: 'node', esModuleInterop: true } }),
  'workflows/reads-a-file.workflow.ts': "import fs from 'node:fs';\nexport const x = fs.existsSync;\n",
  'workflows/uses-a-package.workflow.ts': "import { z } from 'zod';\nexport const s = z.string();\n",
  'workflows/imports-activities.workflow.ts': "import { store } from '../activities/store';\nexport const y = store;\n",
  'workflows/types-only.workflow.ts': "import type { Store } from '../activities/store';\nimport { defineQuery } from '@temporalio/workflow';\nimport { LIMIT } from '../src/shared/limits';\nexport const q = defineQuery<Store>('q');\nexport const l = LIMIT;\n",
  'src/shared/limits.ts': 'export const LIMIT = 3;\n',
  'src/methods/demo/demo.workflow.ts': "import { q } from '../../../workflows/types-only.workflow';\nimport { LIMIT } from '../../shared/limits';\nexport const run = [q, LIMIT];\n",
  'src/methods/demo/reads-its-tasks.workflow.ts': "import { task } from './tasks';\nexport const t = task;\n",
  'src/methods/demo/tasks.ts': 'export const task = 1;\n',
  'src/methods/demo/sandbox/demo-run.workflow.ts': "import { STEPS } from './demo-steps';\nexport const run = STEPS;\n",
  'src/methods/demo/sandbox/demo-steps.ts': "import { LIMIT } from '../../../shared/limits';\nexport const STEPS = LIMIT;\n",
  'src/methods/demo/sandbox/reads-its-tasks.ts': "import { task } from '../tasks';\nexport const t = task;\n",
  'src/methods/demo/sandbox/uses-a-package.ts': "import { z } from 'zod';\nexport const s = z.string();\n",
  'src/methods/demo/index.ts': "import { run } from './demo.workflow';\nimport { q } from '../../../workflows/types-only.workflow';\nexport const method = [run, q];\n",
  'src/shared/imports-a-workflow.ts': "import { q } from '../../workflows/types-only.workflow';\nexport const z = q;\n",
  'activities/store.ts': 'export type Store = { n: number };\nexport const store = 1;\n',
  'src/report/reads-eval.ts': "import { bench } from '../../eval/bench';\nexport const b = bench;\n",
  'src/runs/reads-the-cli.ts': "import { command } from '../cli/commands/sweep';\nexport const c = command;\n",
  'src/cli/commands/sweep.ts': 'export const command = 1;\n',
  'src/cli/main.ts': 'export const main = 1;\n',
  'eval/bench.ts': "import { command } from '../src/cli/commands/sweep';\nimport { main } from '../src/cli/main';\nexport const bench = command + main;\n",
};

describe('import boundaries (.dependency-cruiser.cjs, run by `npm run lint`)', () => {
  let dir: string;
  let violations: { from: string; to: string; rule: string }[];

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-boundaries-'));
    for (const [file, text] of Object.entries(TREE)) {
      fs.mkdirSync(path.join(dir, path.dirname(file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
    let output: string;
    try {
      output = execFileSync(process.execPath, [CRUISER, '--config', path.join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'json', 'src', 'workflows', 'activities', 'eval'], { cwd: dir, encoding: 'utf8' });
    } catch (err) {
      output = (err as { stdout: string }).stdout; // exit code 1: violations found, the JSON is still on stdout
    }
    const result = JSON.parse(output) as { summary: { violations: { from: string; to: string; rule: { name: string } }[] } };
    violations = result.summary.violations.map((v) => ({ from: v.from, to: v.to, rule: v.rule.name }));
  }, 60_000);

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const rulesFor = (from: string) => violations.filter((v) => v.from === from).map((v) => v.rule).sort();

  it('keeps Node built-ins, other packages and node-side code out of the workflow sandbox', () => {
    expect(rulesFor('workflows/reads-a-file.workflow.ts')).toEqual(['sandbox-no-node-builtins']);
    expect(rulesFor('workflows/uses-a-package.workflow.ts')).toEqual(['sandbox-no-packages']);
    expect(rulesFor('workflows/imports-activities.workflow.ts')).toEqual(['sandbox-no-node-side-code']);
  });

  it('lets sandbox code import types from anywhere and values from @temporalio/workflow and src/shared', () => {
    expect(rulesFor('workflows/types-only.workflow.ts')).toEqual([]);
  });

  it("counts a method's workflow files (src/methods/**/*.workflow.ts) as sandbox code, and only those", () => {
    expect(rulesFor('src/methods/demo/demo.workflow.ts')).toEqual([]);
    expect(rulesFor('src/methods/demo/reads-its-tasks.workflow.ts')).toEqual(['sandbox-no-node-side-code']);
    expect(violations.filter((v) => v.from === 'src/methods/demo/index.ts')).toEqual([{ from: 'src/methods/demo/index.ts', to: 'workflows/types-only.workflow.ts', rule: 'src-no-upward-imports' }]);
  });

  it("counts a method's sandbox/ folder (its workflows and the pure logic they run) as sandbox code", () => {
    expect(rulesFor('src/methods/demo/sandbox/demo-run.workflow.ts')).toEqual([]);
    expect(rulesFor('src/methods/demo/sandbox/demo-steps.ts')).toEqual([]);
    expect(rulesFor('src/methods/demo/sandbox/reads-its-tasks.ts')).toEqual(['sandbox-no-node-side-code']);
    expect(rulesFor('src/methods/demo/sandbox/uses-a-package.ts')).toEqual(['sandbox-no-packages']);
  });

  it('keeps src/shared below workflows, src/ below eval/, and app logic out of CLI command files', () => {
    expect(rulesFor('src/shared/imports-a-workflow.ts')).toEqual(['src-no-upward-imports']);
    expect(rulesFor('src/report/reads-eval.ts')).toEqual(['src-no-upward-imports']);
    expect(rulesFor('src/runs/reads-the-cli.ts')).toEqual(['no-app-logic-in-cli']);
    expect(violations.filter((v) => v.from === 'eval/bench.ts')).toEqual([{ from: 'eval/bench.ts', to: 'src/cli/commands/sweep.ts', rule: 'eval-runs-the-cli-whole' }]);
  });
});
