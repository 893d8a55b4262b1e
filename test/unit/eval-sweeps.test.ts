import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { isKnownDataset } from '../../src/labels';
import { relevanceThresholdOf } from '../../src/methods/tool-mad/relevance-thresholds';
import { projectRoot } from '../../src/project-root';
import { parseMethodSettings } from '../../src/methods/settings-schemas';
import { sampleRunClaims } from '../../src/runs/run-claims';
import { runConfigSchema } from '../../src/runs/run-manifest';

const SWEEPS = path.join(projectRoot(), 'eval', 'sweeps');
const files = fs.readdirSync(SWEEPS).filter((name) => /\.ya?ml$/.test(name));

describe('example sweep configs (eval/sweeps)', () => {
  it('has the paper protocols', () => {
    expect(files).toEqual(expect.arrayContaining(['mermaid.yaml', 'emulate.yaml', 'tool-mad.yaml', 'toe.yaml']));
  });

  // verity-format files name each claim's dataset themselves; other formats take the config's name.
  it.each(files)('%s validates, names datasets with label mappings and files that exist', (name) => {
    const file = path.join(SWEEPS, name);
    const parsed = runConfigSchema.safeParse(YAML.parse(fs.readFileSync(file, 'utf8')));
    if (!parsed.success) throw new Error(`${name}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    for (const dataset of parsed.data.datasets) {
      if (dataset.format !== 'verity') expect(isKnownDataset(dataset.name), `${name}: dataset ${dataset.name} has no label mapping`).toBe(true);
      expect(fs.existsSync(path.resolve(SWEEPS, dataset.file)), `${name}: ${dataset.file}`).toBe(true);
    }
  });

  it('runs MERMAID in dataset order, since its memory depends on it', () => {
    const mermaid = runConfigSchema.parse(YAML.parse(fs.readFileSync(path.join(SWEEPS, 'mermaid.yaml'), 'utf8')));
    expect(mermaid.ordered).toBe(true);
  });

  // Issue 37 (9): Factcheck-Bench's 30 NEI claims were verified (unscored) inside MERMAID's ordered memory stream.
  it('lets no claim its binary schemes cannot score into MERMAID\'s ordered memory stream (Factcheck-Bench: the paper\'s 631)', async () => {
    const mermaid = runConfigSchema.parse(YAML.parse(fs.readFileSync(path.join(SWEEPS, 'mermaid.yaml'), 'utf8')));
    for (const dataset of mermaid.datasets.filter((d) => d.name !== 'hover')) {
      const claims = await sampleRunClaims(`mermaid-${dataset.name}`, [{ ...dataset, file: path.resolve(SWEEPS, dataset.file) }], mermaid.seed);
      expect(new Set(claims.map((claim) => claim.labelNorm)), dataset.name).toEqual(new Set(['SUPPORTED', 'REFUTED']));
      if (dataset.name === 'factcheck_bench') expect(claims).toHaveLength(631);
    }
  });

  it("drops SciFact's NEI claims from MERMAID's protocol, as the paper did (§7.1)", async () => {
    const mermaid = runConfigSchema.parse(YAML.parse(fs.readFileSync(path.join(SWEEPS, 'mermaid.yaml'), 'utf8')));
    const scifact = mermaid.datasets.find((dataset) => dataset.name === 'scifact')!;
    expect(scifact.dropLabels).toEqual(['NEI']);
    const ref = { ...scifact, file: path.resolve(SWEEPS, scifact.file) };
    const claims = await sampleRunClaims('mermaid-scifact', [ref], mermaid.seed);
    expect(claims).toHaveLength(scifact.sample!);
    expect(new Set(claims.map((claim) => claim.labelNorm))).toEqual(new Set(['SUPPORTED', 'REFUTED']));
  });
});

describe('paper sampling settings in the protocol configs', () => {
  const parameters = (name: string) => (runConfigSchema.parse(YAML.parse(fs.readFileSync(path.join(SWEEPS, name), 'utf8'))).parameters as Record<string, { llm?: unknown }>);

  it('EMULATE and its FIRE baseline both at temperature 1 (EMULATE §4: "all agents in EMULATE as well as the baseline systems"), FIRE with 2,048 max tokens', () => {
    const emulate = parameters('emulate.yaml');
    expect(parseMethodSettings('emulate', emulate.emulate, 'emulate').emulate?.llm).toEqual({ temperature: 1 });
    expect(parseMethodSettings('fire', emulate.fire, 'fire').fire?.llm).toEqual({ temperature: 1, maxTokens: 2048 });
    expect(runConfigSchema.parse(YAML.parse(fs.readFileSync(path.join(SWEEPS, 'emulate.yaml'), 'utf8'))).protocol).toBe('paper');
  });

  // Issue 37 (6): only EMULATE's sweep scored under protocol paper; each paper's sweep reports its paper's number.
  it.each(['emulate.yaml', 'mermaid.yaml', 'tool-mad.yaml', 'toe.yaml'])('%s scores under protocol paper', (name) => {
    expect(runConfigSchema.parse(YAML.parse(fs.readFileSync(path.join(SWEEPS, name), 'utf8'))).protocol).toBe('paper');
  });

  it('MERMAID, Tool-MAD and ToE name theirs too, and every config validates', () => {
    expect(parseMethodSettings('mermaid', parameters('mermaid.yaml').mermaid, 'mermaid').mermaid?.llm).toEqual({ temperature: 1 });
    expect(parseMethodSettings('tool-mad', parameters('tool-mad.yaml')['tool-mad'], 'tool-mad')['tool-mad']?.llm).toEqual({ temperature: 0 });
    expect(parseMethodSettings('toe', parameters('toe.yaml').toe, 'toe').toe?.llm).toEqual({ temperature: 1, roles: { evaluator: { temperature: 0 }, judge: { temperature: 0 } } });
  });

  it('ToE learns its retrieval policy online, as the paper (§III-B, Table I): warm-up 8 claims, GRPO groups of 8 episodes, sampled actions; a version per 4 claims in claim order', () => {
    const toe = parseMethodSettings('toe', parameters('toe.yaml').toe, 'toe').toe!;
    expect(toe.policy).toBe('online');
    // No `scope`: the run's own scope, where the claim-order schedule applies at any concurrency.
    expect(toe.online).toEqual({ warmupClaims: 8, groupSize: 8, claimsPerVersion: 4 });
    expect(toe.sampling).toBe('sample');
  });
});

describe('paper protocols: datasets, tool sets and limits of each paper', () => {
  const config = (name: string) => runConfigSchema.parse(YAML.parse(fs.readFileSync(path.join(SWEEPS, name), 'utf8')));
  const names = (name: string) => config(name).datasets.map((dataset) => dataset.name);

  it("MERMAID (§7): its five datasets, the paper's fidelity, T_max 5, decomposition and memory on, substring recall top 3, the default tool set", () => {
    expect(names('mermaid.yaml')).toEqual(['factool_qa', 'bingcheck', 'factcheck_bench', 'hover', 'scifact']);
    const mermaid = parseMethodSettings('mermaid', (config('mermaid.yaml').parameters as Record<string, unknown>).mermaid, 'mermaid').mermaid!;
    expect(mermaid).toMatchObject({ fidelity: 'paper', maxSteps: 5, decompose: true, memory: 'on', recall: { mode: 'substring', topK: 3 } });
    // toolset auto: Wikipedia + web + scholar search, HoVer without scholar (§2.4).
    expect(mermaid.toolset ?? 'auto').toBe('auto');
  });

  it('EMULATE (§4-5) and FIRE: the four datasets, MAX_SEARCH_QUERIES 4, 2 results per query, snippets; FIRE 5 steps, top-3 snippets', () => {
    expect(names('emulate.yaml')).toEqual(['factcheck_bench', 'bingcheck', 'factool_qa', 'felm_wk']);
    expect(config('emulate.yaml').methods).toEqual(['emulate', 'fire']);
    const parameters = config('emulate.yaml').parameters as Record<string, unknown>;
    expect(parseMethodSettings('emulate', parameters.emulate, 'emulate').emulate).toMatchObject({ maxSearchQueries: 4, maxSearchResultsPerQuery: 2, contentMode: 'snippet' });
    expect(parseMethodSettings('fire', parameters.fire, 'fire').fire).toMatchObject({ maxSteps: 5, resultsPerSearch: 3 });
  });

  it('Tool-MAD (Algorithm 1): a RAG and a search debater, top-3 each, T = 3, gates 0.7 / 0.8 on the paper\'s embedding model, RAG mode left to the dense default', () => {
    const toolMad = parseMethodSettings('tool-mad', (config('tool-mad.yaml').parameters as Record<string, unknown>)['tool-mad'], 'tool-mad')['tool-mad']!;
    expect(toolMad).toMatchObject({ debaters: ['rag', 'search'], ragTopK: 3, searchResults: 3, maxRounds: 3, faithfulnessThreshold: 0.7, relevanceEmbeddingModel: 'text-embedding-ada-002' });
    // The relevance threshold is resolved at sweep start from the calibrated table (tool-mad-calibration.test.ts).
    expect(toolMad.relevanceThreshold).toBeUndefined();
    expect(relevanceThresholdOf('text-embedding-ada-002')?.threshold).toBe(0.8);
    expect(toolMad.ragMode).toBeUndefined();
    expect(names('tool-mad.yaml')).toContain('fever');
  });

  it('ToE (§IV-A): depth 5, T_max 20, ≤ 5 searches of ≤ 3 results, ≤ 10 documents per node, 0.4 / 0.6 mapping, 50 claims per dataset', () => {
    const toe = parseMethodSettings('toe', (config('toe.yaml').parameters as Record<string, unknown>).toe, 'toe').toe!;
    expect(toe).toMatchObject({ maxDepth: 5, maxIterations: 20, maxSearchSteps: 5, maxResultsPerSearch: 3, maxDocumentsPerNode: 10, finalMapping: { falseBelow: 0.4, trueAbove: 0.6 } });
    expect(config('toe.yaml').datasets.every((dataset) => dataset.sample === 50)).toBe(true);
  });
});
