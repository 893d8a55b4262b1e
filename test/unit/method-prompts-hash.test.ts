import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { methodPromptsHash, methodPromptsHashes, promptsHash } from '../../src/llm/prompts-hash';
import { METHOD_NAMES, methodDefinition, type MethodName } from '../../src/methods/registry';
import { identityHash, methodIdentityContext, verificationHash } from '../../src/shared/identity';

const root = path.resolve(__dirname, '../..');
const parts = { claim: 'The sky is blue.', method: 'rag' as const, model: 'm', rag: { topK: 5, index: 'i' } };

/** The task ids a TypeScript file names in `task: '<id>'` (how workflow code asks for an LLM task). */
function taskIdsNamedIn(file: string): string[] {
  return [...fs.readFileSync(file, 'utf8').matchAll(/task: '([^']+)'/g)].map((match) => match[1]!);
}

function sourceFilesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** The method a workflow file belongs to: its folder under src/methods, or the longest method name its file name starts with. */
function methodOfFile(file: string): MethodName | undefined {
  const relative = path.relative(root, file).split(path.sep);
  if (relative[0] === 'src' && relative[1] === 'methods') return METHOD_NAMES.find((name) => name === relative[2]);
  const base = path.basename(file);
  return [...METHOD_NAMES].sort((a, b) => b.length - a.length).find((name) => base.startsWith(`${name}.`) || base.startsWith(`${name}-`));
}

describe('per-method prompts hashes', () => {
  it('change a method\'s verifications when its own behaviour changes, and no other method\'s', () => {
    const before = methodPromptsHashes();
    const toolMad = methodDefinition('tool-mad');
    const version = toolMad.behaviourVersion;
    toolMad.behaviourVersion = version + 1;
    try {
      const after = methodPromptsHashes();
      expect(after['tool-mad']).not.toBe(before['tool-mad']);
      for (const method of METHOD_NAMES.filter((name) => name !== 'tool-mad')) expect(after[method]).toBe(before[method]);
    } finally {
      toolMad.behaviourVersion = version;
    }
    expect(methodPromptsHash('tool-mad')).toBe(before['tool-mad']);
  });

  it('do not move when a task is added to another method (adding a method changes no existing identity)', () => {
    const before = methodPromptsHash('rag');
    const mermaid = methodDefinition('mermaid');
    const tasks = mermaid.tasks;
    mermaid.tasks = [...tasks, { ...tasks[0]!, id: 'mermaid.added', version: '1' }];
    try {
      expect(methodPromptsHash('mermaid')).not.toBe(methodPromptsHash('rag'));
      expect(methodPromptsHash('rag')).toBe(before);
    } finally {
      mermaid.tasks = tasks;
    }
  });

  it('are distinct per method and name only the method\'s own tasks', () => {
    const hashes = methodPromptsHashes();
    expect(new Set(Object.values(hashes)).size).toBe(METHOD_NAMES.length);
    for (const method of METHOD_NAMES) {
      for (const task of methodDefinition(method).tasks) expect(task.id.startsWith(`${method}.`), `${task.id} of ${method}`).toBe(true);
    }
  });

  it('cover every task a method\'s workflow code asks for: no workflow calls another method\'s task', () => {
    const files = [...sourceFilesUnder(path.join(root, 'workflows')), ...sourceFilesUnder(path.join(root, 'src/methods'))];
    let checked = 0;
    for (const file of files) {
      const method = methodOfFile(file);
      for (const id of taskIdsNamedIn(file)) {
        expect(method, `${path.relative(root, file)} asks for ${id} but belongs to no method`).toBeDefined();
        expect(methodDefinition(method!).tasks.map((task) => task.id), `${path.relative(root, file)} asks for ${id}`).toContain(id);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(METHOD_NAMES.length);
  });
});

describe('verification identity with per-method prompts hashes', () => {
  const legacy = { configHash: 'c', promptsHash: promptsHash() };

  it('keeps the identity of inputs recorded before per-method hashes', () => {
    expect(verificationHash(parts, legacy)).toBe(identityHash({
      v: 1, claim: parts.claim, method: 'rag', model: 'm', rag: { topK: 5, index: 'i', mode: 'bm25' }, settings: {}, configHash: 'c', promptsHash: legacy.promptsHash,
    }));
    expect(methodIdentityContext(legacy, 'rag')).toEqual(legacy);
  });

  it('uses the method\'s own hash where the context has one', () => {
    const context = { ...legacy, promptsHashes: methodPromptsHashes() };
    expect(methodIdentityContext(context, 'rag')).toEqual({ configHash: 'c', promptsHash: methodPromptsHash('rag') });
    expect(verificationHash(parts, context)).toBe(verificationHash(parts, { configHash: 'c', promptsHash: methodPromptsHash('rag') }));
    expect(verificationHash(parts, context)).not.toBe(verificationHash(parts, legacy));
  });
});
