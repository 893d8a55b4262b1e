import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { projectRoot } from '../../src/project-root';
import { optionPairsToObject, parseMethodSettings } from '../../src/methods/settings-schemas';
import { MEMORY_CODE_COMPAT } from '../../src/shared/memory';
import { mermaidLabelSetName, mermaidMemoryScope, mermaidToolset, resolveMermaidSettings } from '../../src/shared/methods/mermaid';
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
    for (const input of [{ runId: 'r1' }, { runId: 'r1', dataset: 'factcheck_bench' }]) {
      expect(mermaidMemoryScope({}, input)).toBe(memoryScope(input));
    }
    expect(mermaidMemoryScope({ memoryScope: 'run:frozen' }, { runId: 'r2' })).toBe('run:frozen');
  });

  it('accepts the parameters of eval/sweeps/mermaid.yaml', () => {
    const doc = YAML.parse(fs.readFileSync(path.join(projectRoot(), 'eval', 'sweeps', 'mermaid.yaml'), 'utf8')) as { parameters: { mermaid: unknown } };
    const parsed = parseMethodSettings('mermaid', doc.parameters.mermaid, 'parameters.mermaid');
    expect(parsed.mermaid).toMatchObject({ fidelity: 'paper', maxSteps: 5, memory: 'on', recall: { mode: 'substring', topK: 3 } });
  });
});
