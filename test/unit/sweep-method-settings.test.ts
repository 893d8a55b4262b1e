import { describe, expect, it } from 'vitest';
import { buildSweepInput, InvalidRunConfigError } from '../../src/client/start-sweep';
import { loadConfig } from '../../src/config/config';
import { runConfigSchema } from '../../src/runs/run-manifest';

const config = loadConfig({ ES_INDEX_PREFIX: 'acme' });

function run(extra: Record<string, unknown>) {
  return runConfigSchema.parse({ run: 'r1', datasets: [{ name: 'demo', file: 'claims.jsonl' }], models: ['m'], seed: 1, ...extra });
}

describe('method settings of a sweep config', () => {
  it('passes each method its validated parameters', () => {
    const input = buildSweepInput(config, run({ methods: ['toe', 'fire'], parameters: { toe: { maxDepth: 3 }, fire: {} } }), '/tmp');
    expect(input.settings).toEqual({ toe: { maxDepth: 3 }, fire: {} });
  });

  it('names the offending key of invalid parameters', () => {
    expect(() => buildSweepInput(config, run({ methods: ['toe'], parameters: { toe: { maxDepht: 3 } } }), '/tmp')).toThrow(/parameters\.toe/);
  });

  it('refuses mermaid with memory unless claims are verified in order', () => {
    expect(() => buildSweepInput(config, run({ methods: ['mermaid'], ordered: false }), '/tmp')).toThrow(InvalidRunConfigError);
    expect(() => buildSweepInput(config, run({ methods: ['mermaid'], ordered: true }), '/tmp')).not.toThrow();
    expect(() => buildSweepInput(config, run({ methods: ['mermaid'], ordered: false, parameters: { mermaid: { memory: false } } }), '/tmp')).not.toThrow();
  });

  it('refuses repeats of ToE learning online, whose policy versions follow the claim order that repeats would share', () => {
    expect(() => buildSweepInput(config, run({ methods: ['toe'], repeats: 3, parameters: { toe: { policy: 'online' } } }), '/tmp')).toThrow(/repeats: ToE with policy online/);
    expect(() => buildSweepInput(config, run({ methods: ['toe'], repeats: 3, parameters: { toe: { policy: 'heuristic' } } }), '/tmp')).not.toThrow();
    expect(() => buildSweepInput(config, run({ methods: ['toe'], repeats: 1, parameters: { toe: { policy: 'online' } } }), '/tmp')).not.toThrow();
  });

  it('passes parameters.rag.order to the rag method alone (issue 37, defect 12)', () => {
    expect(buildSweepInput(config, run({ methods: ['rag', 'fire'], parameters: { rag: { order: 'label-first', topK: 3 } } }), '/tmp').settings).toMatchObject({ rag: { order: 'label-first' } });
    expect(buildSweepInput(config, run({ methods: ['fire'], parameters: { rag: { order: 'label-first' } } }), '/tmp').settings?.rag).toBeUndefined();
    expect(() => buildSweepInput(config, run({ methods: ['rag'], parameters: { rag: { order: 'last' } } }), '/tmp')).toThrow(/parameters\.rag\.order/);
  });

  it('refuses unknown keys under parameters.rag, as every method does, with a did-you-mean (issue 39)', () => {
    expect(() => buildSweepInput(config, run({ methods: ['rag'], parameters: { rag: { topk: 1 } } }), '/tmp')).toThrow('parameters.rag: unknown key "topk"; did you mean "topK"?');
    expect(() => buildSweepInput(config, run({ methods: ['rag'], parameters: { rag: { mode: 'dense' } } }), '/tmp')).toThrow('parameters.rag: unknown key "mode"; known keys: topK, index, order');
    expect(() => buildSweepInput(config, run({ methods: ['rag'], parameters: { rag: { topK: 0 } } }), '/tmp')).toThrow(/^parameters\.rag\.topK: expected a whole number above 0$/);
    expect(() => buildSweepInput(config, run({ methods: ['rag'], parameters: { rag: { topK: 1.5 } } }), '/tmp')).toThrow(/^parameters\.rag\.topK: expected a whole number$/);
    expect(buildSweepInput(config, run({ methods: ['rag'], parameters: { rag: { topK: 3, index: 'acme-other' } } }), '/tmp').rag).toEqual({ topK: 3, index: 'acme-other' });
    expect(buildSweepInput(config, run({ methods: ['rag'], parameters: { rag: null } }), '/tmp').rag).toEqual({ topK: 5, index: 'acme-wiki' });
  });

  it('applies the one index-name rule of --index to every index a sweep config names (issue 39)', () => {
    for (const index of ['*', '_all', 'acme-*', 'acme-wiki,other-wiki', 'other-wiki']) {
      expect(() => buildSweepInput(config, run({ methods: ['rag'], parameters: { rag: { index } } }), '/tmp')).toThrow(/^parameters\.rag\.index: index ".*" is (not one index name|outside this deployment)/);
      expect(() => buildSweepInput(config, runConfigSchema.parse({ run: 'r1', datasets: [{ name: 'demo', file: 'claims.jsonl' }, { name: 'd2', file: 'c.jsonl', index }], methods: ['rag'], models: ['m'] }), '/tmp')).toThrow(/^datasets\.1\.index: index ".*" is (not one index name|outside this deployment)/);
    }
  });
});
