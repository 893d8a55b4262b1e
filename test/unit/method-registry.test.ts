import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createActivities, type ActivityDependencies, type Activities } from '../../activities';
import '../../src/methods/tasks';
import { getTask } from '../../src/llm/task-registry';
import { METHOD_NAMES, METHOD_REGISTRY, methodDefinition } from '../../src/methods/registry';
import { METHOD_RUNNERS } from '../../src/methods/registry.workflow';
import { responderFor } from '../../src/simulator/method-responders';

const ROOT = path.join(__dirname, '..', '..');

describe('the method registry (src/methods/registry.ts)', () => {
  it('lists each method under its own name, and the workflow runner table has the same methods in the same order', () => {
    for (const [key, definition] of Object.entries(METHOD_REGISTRY)) expect(definition.name).toBe(key);
    expect(Object.keys(METHOD_RUNNERS)).toEqual(METHOD_NAMES);
  });

  it("registers every method's own activities on the worker, and types them for workflows", () => {
    // Factories only build stores over their dependencies; nothing here is called.
    const deps = { es: {}, gateway: {}, verdicts: { index: 'unit-verdicts' }, documents: {}, tools: {}, temporal: {} } as unknown as ActivityDependencies;
    const registered = Object.keys(createActivities(deps));
    const own = METHOD_NAMES.flatMap((name) => Object.keys(methodDefinition(name).activities?.(deps) ?? {}));
    expect(own).toEqual(expect.arrayContaining(['mermaidToolCatalog', 'fireTextSimilarity', 'toolMadQuestionSimilarity', 'toeOnlineClaimFinished']));
    expect(registered).toEqual(expect.arrayContaining(own));
    expect(new Set(own).size).toBe(own.length);
    expectTypeOf<Activities>().toHaveProperty('mermaidToolCatalog');
    expectTypeOf<Activities>().toHaveProperty('toeOnlineClaimOrderVersion');
  });

  describe.each(METHOD_NAMES)('%s', (name) => {
    const definition = methodDefinition(name);

    it('has a runner, a settings schema, a behaviour version and a call estimate', () => {
      expect(typeof METHOD_RUNNERS[name]).toBe('function');
      expect(typeof definition.settingsSchema.safeParse).toBe('function');
      expect(Number.isInteger(definition.behaviourVersion) && definition.behaviourVersion >= 1).toBe(true);
      expect(definition.llmCallsPerClaim).toBeGreaterThanOrEqual(1);
    });

    it('has at least one task, each registered, and a simulator responder for one of them', () => {
      expect(definition.tasks.length).toBeGreaterThan(0);
      for (const task of definition.tasks) expect(getTask(task.id)).toBe(task);
      expect(Object.keys(definition.responders).length).toBeGreaterThan(0);
      for (const schemaName of Object.keys(definition.responders)) expect(responderFor(schemaName)).toBe(definition.responders[schemaName]);
      expect(definition.tasks.some((task) => definition.responders[task.schemaName] !== undefined)).toBe(true);
    });

    it('has a README', () => {
      const readme = path.join(ROOT, definition.readme);
      expect(fs.existsSync(readme), definition.readme).toBe(true);
      expect(fs.readFileSync(readme, 'utf8')).toMatch(/^# /);
    });
  });
});
