import { describe, expect, it } from 'vitest';
import { compareRunConfigs } from '../../src/runs/run-growth';
import { type RunConfig, runConfigSchema } from '../../src/runs/run-manifest';

const base = (overrides: Record<string, unknown> = {}): RunConfig =>
  runConfigSchema.parse({
    run: 'r',
    datasets: [{ name: 'fever', file: '/d/fever.jsonl', sha256: 'a', sample: 10 }],
    methods: ['rag'],
    models: ['gpt-4o-mini'],
    parameters: { rag: { topK: 5 } },
    ...overrides,
  });

describe('compareRunConfigs (growing a run)', () => {
  it('accepts budget and concurrency changes as the same run', () => {
    expect(compareRunConfigs(base(), base({ concurrency: 3, budget: { usd: 2 } }))).toEqual({ kind: 'same' });
  });

  it('names what was added: models, methods with their own parameters, datasets at the end', () => {
    const next = base({
      models: ['gpt-4o-mini', 'gpt-4.1'],
      methods: ['rag', 'fire'],
      parameters: { rag: { topK: 5 }, fire: { maxSearches: 2 } },
      datasets: [
        { name: 'fever', file: '/d/fever.jsonl', sha256: 'a', sample: 10 },
        { name: 'hover', file: '/d/hover.jsonl', sha256: 'b' },
      ],
    });
    expect(compareRunConfigs(base(), next)).toEqual({ kind: 'grown', added: ['dataset hover', 'method fire', 'model gpt-4.1'] });
  });

  it.each([
    [{ seed: 8 }, 'seed changed from 7 to 8'],
    [{ datasets: [{ name: 'fever', file: '/d/fever.jsonl', sha256: 'a', sample: 20 }] }, 'dataset fever: sample changed from 10 to 20'],
    [{ datasets: [{ name: 'fever', file: '/d/fever.jsonl', sha256: 'z', sample: 10 }] }, 'the contents of dataset file /d/fever.jsonl changed'],
    [{ parameters: { rag: { topK: 3 } } }, 'parameters.rag changed'],
    [{ models: ['gpt-4.1'] }, 'model gpt-4o-mini was removed'],
    [{ ordered: true }, 'ordered changed from false to true'],
    [
      { datasets: [{ name: 'hover', file: '/d/hover.jsonl', sha256: 'b' }, { name: 'fever', file: '/d/fever.jsonl', sha256: 'a', sample: 10 }] },
      'datasets were reordered or inserted before existing ones (add new datasets at the end)',
    ],
    [{ datasets: [{ name: 'fever', file: '/d/fever.jsonl', sha256: 'a', stratify: { field: 'num_hops', perValue: 5 } }] }, 'dataset fever: sample changed from 10 to all'],
  ])('refuses %j, naming the change', (overrides, change) => {
    expect(compareRunConfigs(base(), base(overrides))).toEqual({ kind: 'incompatible', change });
  });

  it('grows a run by more repeats (repeat 0 is the run as it was) and refuses fewer', () => {
    expect(compareRunConfigs(base(), base({ repeats: 1 }))).toEqual({ kind: 'same' });
    expect(compareRunConfigs(base(), base({ repeats: 3 }))).toEqual({ kind: 'grown', added: ['repeats 1 → 3'] });
    expect(compareRunConfigs(base({ repeats: 3 }), base({ repeats: 2 }))).toEqual({ kind: 'incompatible', change: 'repeats lowered from 3 to 2' });
  });

  it('refuses a changed stratify, and a dataset with both sample and stratify', () => {
    const stratified = (perValue: number) => base({ datasets: [{ name: 'hover', file: '/d/hover.jsonl', sha256: 'b', stratify: { field: 'num_hops', perValue } }] });
    expect(compareRunConfigs(stratified(100), stratified(50))).toEqual({ kind: 'incompatible', change: 'dataset hover: stratify changed' });
    expect(() => base({ datasets: [{ name: 'hover', file: '/d/hover.jsonl', sample: 3, stratify: { field: 'num_hops', perValue: 1 } }] })).toThrow(/either sample .* or stratify/);
  });
});
