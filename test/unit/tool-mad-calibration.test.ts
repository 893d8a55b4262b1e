import { describe, expect, it } from 'vitest';
import { calibrateToolMadRun, ToolMadProtocolError } from '../../src/client/tool-mad-protocol';
import { loadConfig } from '../../src/config/config';
import { RELEVANCE_THRESHOLDS } from '../../src/methods/tool-mad/relevance-thresholds';
import { runConfigSchema, type RunConfig } from '../../src/runs/run-manifest';

const real = loadConfig({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: 'https://llm.example', VERITY_EMBEDDING_MODEL: 'text-embedding-3-small' } as NodeJS.ProcessEnv);
const simulated = loadConfig({} as NodeJS.ProcessEnv);

function run(toolMad: Record<string, unknown>, methods = ['tool-mad']): RunConfig {
  return runConfigSchema.parse({ run: 'r', datasets: [{ name: 'fever', file: 'f.jsonl' }], methods, models: ['m'], parameters: { 'tool-mad': toolMad } });
}

describe("Tool-MAD's answer-relevance gate, calibrated per embedding model at sweep start", () => {
  it('resolves the threshold of the table for the model and pins model and threshold into the parameters', () => {
    const { run: pinned, calibrations } = calibrateToolMadRun(real, run({ relevanceEmbeddingModel: 'text-embedding-ada-002' }));
    expect(pinned.parameters['tool-mad']).toEqual({ relevanceEmbeddingModel: 'text-embedding-ada-002', relevanceThreshold: 0.8 });
    expect(calibrations).toEqual([{ method: 'tool-mad', setting: 'relevanceThreshold', value: 0.8, embeddingModel: 'text-embedding-ada-002', from: 'table', source: RELEVANCE_THRESHOLDS[0]!.source }]);
  });

  it("refuses a model without a calibrated threshold (the worker's text-embedding-3-small), naming the bench that measures one", () => {
    expect(() => calibrateToolMadRun(real, run({}))).toThrow(ToolMadProtocolError);
    expect(() => calibrateToolMadRun(real, run({}))).toThrow(/no calibrated answer-relevance threshold for embedding model "text-embedding-3-small".*npm run bench:tool-mad/);
  });

  it('keeps a threshold the config sets, and records that it was configured', () => {
    const { run: pinned, calibrations } = calibrateToolMadRun(real, run({ relevanceThreshold: 0.55 }));
    expect(pinned.parameters['tool-mad']).toEqual({ relevanceThreshold: 0.55, relevanceEmbeddingModel: 'text-embedding-3-small' });
    expect(calibrations[0]).toMatchObject({ value: 0.55, from: 'configured', embeddingModel: 'text-embedding-3-small' });
  });

  it("the simulator's hashed embeddings have their own measured entry, whatever model name is asked for", () => {
    const { calibrations } = calibrateToolMadRun(simulated, run({ relevanceEmbeddingModel: 'text-embedding-ada-002' }));
    expect(calibrations[0]).toMatchObject({ value: 0.86, from: 'table', embeddingModel: 'text-embedding-ada-002' });
    expect(calibrations[0]!.source).toMatch(/bench:tool-mad.*p25/);
  });

  it('leaves runs without tool-mad alone', () => {
    const other = run({}, ['rag']);
    expect(calibrateToolMadRun(real, other)).toEqual({ run: other, calibrations: [] });
  });
});
