import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { projectRoot } from '../../src/project-root';
import { optionPairsToObject, parseMethodSettings } from '../../src/methods/settings-schemas';
import { MEMORY_CODE_COMPAT } from '../../src/shared/memory';
import { mermaidLabelSetName, mermaidMemoryScope, mermaidToolset, resolveMermaidSettings } from '../../src/methods/mermaid/sandbox/mermaid-settings';
import { memoryScope } from '../../src/memory/scope';

describe('MERMAID settings', () => {
  it('defaults to the paper: T_max 5, forced LLM answer, memory on, tools by dataset', () => {
    const settings = resolveMermaidSettings(undefined);
    expect(settings).toMatchObject({ fidelity: 'paper', maxSteps: 5, forceAnswer: true, fallbackLabel: 'negative', memory: 'on', tools: true });
    expect(settings.recall).toBeUndefined(); // the worker's VERITY_MEMORY_* defaults apply
  });

  it('code-compat reproduces the released code: no forced call, "True" fallback, the code memory rules; explicit settings still win', () => {
    const settings = resolveMermaidSettings({ fidelity: 'code-compat', update: { dedup: 'toolArgs' } });
    expect(settings).toMatchObject({ forceAnswer: false, fallbackLabel: 'positive', recall: MEMORY_CODE_COMPAT.recall });
    expect(settings.update).toEqual({ mode: 'perCall', dedup: 'toolArgs', storeInvalid: true });
  });

  it('parses CLI options (memory=false, nested keys, tool lists) and rejects unknown keys', () => {
    const parsed = parseMethodSettings('mermaid', optionPairsToObject(['memory=false', 'recall.mode=exact', 'toolset=["web_search"]', 'decomposerModel=gpt-4o']), '--option');
    expect(parsed.mermaid).toEqual({ memory: 'off', recall: { mode: 'exact' }, toolset: ['web_search'], decomposerModel: 'gpt-4o' });
    expect(() => parseMethodSettings('mermaid', { maxStep: 5 }, '--option')).toThrow(/maxStep|Unrecognized/);
    expect(() => parseMethodSettings('mermaid', { toolset: ['google'] }, '--option')).toThrow(/toolset/);
  });

  it('picks label sets and tool subsets by dataset (spec §2.4, §9.17)', () => {
    expect(mermaidLabelSetName({ labelSet: 'auto' }, 'hover')).toBe('hover');
    expect(mermaidLabelSetName({ labelSet: 'auto' }, 'scifact')).toBe('scifact');
    expect(mermaidLabelSetName({ labelSet: 'auto' }, 'factcheck_bench')).toBe('true-false');
    expect(mermaidToolset({ tools: true, toolset: 'auto' }, 'hover')).not.toContain('scholar_search');
    expect(mermaidToolset({ tools: true, toolset: 'auto' }, 'true-false')).toEqual(expect.arrayContaining(['web_search', 'scholar_search', 'get_article']));
    expect(mermaidToolset({ tools: false, toolset: 'auto' }, 'true-false')).toEqual([]);
  });

  it('names the memory scope like the evidence layer does', () => {
    const paper = resolveMermaidSettings(undefined);
    for (const input of [{ runId: 'r1' }, { runId: 'r1', dataset: 'factcheck_bench' }, { runId: 'r1', dataset: 'hover', model: 'gpt-4o' }]) {
      expect(mermaidMemoryScope(paper, input)).toBe(memoryScope({ ...input, fidelity: 'paper' }));
    }
    expect(mermaidMemoryScope({ ...paper, memoryScope: 'run:frozen' }, { runId: 'r2' })).toBe('run:frozen');
  });

  it('keeps one memory per model and fidelity by default: models in one sweep never recall each other\'s evidence', () => {
    const input = { runId: 'sweep-1', dataset: 'hover' };
    const paper = resolveMermaidSettings(undefined);
    const scopes = new Set([
      mermaidMemoryScope(paper, { ...input, model: 'gpt-4o' }),
      mermaidMemoryScope(paper, { ...input, model: 'openai/gpt-oss-20b' }),
      mermaidMemoryScope(resolveMermaidSettings({ fidelity: 'code-compat' }), { ...input, model: 'gpt-4o' }),
    ]);
    expect(scopes.size).toBe(3);
    expect(mermaidMemoryScope(paper, { ...input, model: 'openai/gpt-oss-20b' })).toBe('run:sweep-1/dataset:hover/model:openai/gpt-oss-20b/fidelity:paper');
    expect(mermaidMemoryScope(paper, { ...input, model: 'my model@v2' })).toBe('run:sweep-1/dataset:hover/model:my-model-v2/fidelity:paper');
    // Sharing across models is an explicit setting; recorded histories replay with the old rule.
    const shared = resolveMermaidSettings({ memorySharing: 'run' });
    expect(mermaidMemoryScope(shared, { ...input, model: 'gpt-4o' })).toBe('run:sweep-1/dataset:hover');
    expect(mermaidMemoryScope(paper, { ...input, model: 'gpt-4o' }, { perModel: false })).toBe('run:sweep-1/dataset:hover');
    // A sweep's repeat r ≥ 1 is its own run of the method, with its own memory.
    expect(mermaidMemoryScope({ ...paper, llm: { repeat: 2 } }, { ...input, model: 'gpt-4o' })).toBe('run:sweep-1/dataset:hover/model:gpt-4o/fidelity:paper/repeat:2');
    expect(parseMethodSettings('mermaid', { memorySharing: 'run' }, '--option').mermaid).toEqual({ memorySharing: 'run' });
  });

  it('decides the memory write moment itself, per fidelity, never from the worker (src/methods/mermaid/README.md)', () => {
    expect(resolveMermaidSettings(undefined).update?.mode).toBe('endOfClaim');
    expect(resolveMermaidSettings({ fidelity: 'code-compat' }).update?.mode).toBe('perCall');
    expect(resolveMermaidSettings({ update: { mode: 'perCall' } }).update?.mode).toBe('perCall');
  });

  it('accepts the parameters of eval/sweeps/mermaid.yaml', () => {
    const doc = YAML.parse(fs.readFileSync(path.join(projectRoot(), 'eval', 'sweeps', 'mermaid.yaml'), 'utf8')) as { parameters: { mermaid: unknown } };
    const parsed = parseMethodSettings('mermaid', doc.parameters.mermaid, 'parameters.mermaid');
    expect(parsed.mermaid).toMatchObject({ fidelity: 'paper', maxSteps: 5, memory: 'on', recall: { mode: 'substring', topK: 3 } });
  });
});
