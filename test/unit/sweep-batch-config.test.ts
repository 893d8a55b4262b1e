import { describe, expect, it } from 'vitest';
import { buildSweepInput, InvalidRunConfigError } from '../../src/client/start-sweep';
import { loadConfig } from '../../src/config/config';
import { describeRunConfigIssue } from '../../src/runs/config-keys';
import { runConfigSchema } from '../../src/runs/run-manifest';

const config = loadConfig({ ES_INDEX_PREFIX: 'acme' });
const base = { run: 'r1', datasets: [{ name: 'demo', file: 'claims.jsonl' }], methods: ['rag'], models: ['gpt-4o-mini', 'gpt-4o'] };

describe('batch: in a sweep config', () => {
  it('carries the batch models and their waits (in ms) to the sweep, outside its identity', () => {
    const run = runConfigSchema.parse({ ...base, batch: { models: ['gpt-4o-mini'], maxRequests: 100, maxWaitSeconds: 30, pollSeconds: 120 } });
    const input = buildSweepInput(config, run, '/tmp');
    expect(input.batch).toEqual({ models: ['gpt-4o-mini'], maxRequests: 100, maxWaitMs: 30_000, pollMs: 120_000 });
    const direct = buildSweepInput(config, runConfigSchema.parse(base), '/tmp');
    expect(direct.batch).toBeUndefined();
    expect(input.identity).toEqual(direct.identity);
  });

  it('batches every model of the run on `batch: true` or a block without models, none on `batch: false`', () => {
    expect(buildSweepInput(config, runConfigSchema.parse({ ...base, batch: true }), '/tmp').batch).toEqual({ models: ['gpt-4o-mini', 'gpt-4o'] });
    expect(buildSweepInput(config, runConfigSchema.parse({ ...base, batch: { pollSeconds: 5 } }), '/tmp').batch).toEqual({ models: ['gpt-4o-mini', 'gpt-4o'], pollMs: 5_000 });
    expect(buildSweepInput(config, runConfigSchema.parse({ ...base, batch: false }), '/tmp').batch).toBeUndefined();
    expect(runConfigSchema.safeParse({ ...base, batch: 'yes' }).success).toBe(false);
  });

  it("refuses a batch model the run does not use, and names a misspelt key", () => {
    expect(() => buildSweepInput(config, runConfigSchema.parse({ ...base, batch: { models: ['gpt-4.1'] } }), '/tmp')).toThrow(InvalidRunConfigError);
    const parsed = runConfigSchema.safeParse({ ...base, batch: { models: ['gpt-4o'], pollSecond: 3 } });
    expect(parsed.success).toBe(false);
    expect(describeRunConfigIssue(parsed.error!.issues[0]!)).toBe('batch: unknown key "pollSecond"; did you mean "pollSeconds"?');
  });
});
