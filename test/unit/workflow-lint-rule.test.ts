import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root';

/** Lints source text as if it were a file in workflows/, with the project's own configuration. */
async function lintAsWorkflow(code: string): Promise<string[]> {
  const eslint = new ESLint({
    cwd: projectRoot(),
    overrideConfig: {
      // The probe is not a file of the TypeScript project: lint it without type information.
      languageOptions: { parserOptions: { projectService: false, project: null } },
      rules: { '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/consistent-type-imports': 'off' },
    },
  });
  const [result] = await eslint.lintText(code, { filePath: path.join(projectRoot(), 'workflows', 'lint-probe.workflow.ts') });
  return (result?.messages ?? []).map((message) => `${message.ruleId}: ${message.message}`);
}

describe('the workflow sandbox lint rule', () => {
  it.each([
    ["import fs from 'node:fs';", 'Node built-ins'],
    ["import { readFileSync } from 'fs';", 'Node built-ins'],
    ["import OpenAI from 'openai';", 'may import values only'],
    ["import { z } from 'zod';", 'may import values only'],
    ["import { createActivities } from '../activities';", 'may import values only'],
    ["import { loadConfig } from '../src/config/config';", 'may import values only'],
  ])('rejects %s', async (line, expected) => {
    const messages = await lintAsWorkflow(`${line}\nexport const used = [${line.match(/import (?:\{ )?(\w+)/)?.[1]}];\n`);
    expect(messages.join('\n')).toContain(expected);
  });

  it('allows the workflow SDK, sandbox-safe shared code and type-only imports', async () => {
    const messages = await lintAsWorkflow(
      [
        "import { proxyActivities } from '@temporalio/workflow';",
        "import { SearchAttributeType } from '@temporalio/common';",
        "import { MAX_CLAIM_CHARS } from '../src/shared/constants';",
        "import type { Activities } from '../activities';",
        "import { LLM_CALL } from './activity-options';",
        'export const used = [proxyActivities, SearchAttributeType, MAX_CLAIM_CHARS, LLM_CALL];',
        'export type A = Activities;',
      ].join('\n'),
    );
    expect(messages.filter((m) => m.includes('restricted-imports'))).toEqual([]);
  });

  it('rejects console in workflow code', async () => {
    expect((await lintAsWorkflow("console.log('replayed');\n")).join('\n')).toContain('no-console');
  });
});
