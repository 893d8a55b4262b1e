import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { projectRoot } from '../../src/project-root';
import { samplingForRole, type MethodSampling } from '../../src/shared/sampling';

const SWEEPS = path.join(projectRoot(), 'eval', 'sweeps');

function methodSamplings(file: string): [string, MethodSampling][] {
  const config = YAML.parse(fs.readFileSync(path.join(SWEEPS, file), 'utf8')) as { parameters?: Record<string, { llm?: MethodSampling } | undefined> };
  return Object.entries(config.parameters ?? {}).flatMap(([method, settings]) => (settings?.llm ? [[method, settings.llm] as [string, MethodSampling]] : []));
}

// Issue 37 (8): toe.yaml said "the provider's default" for the roles it left unset, which then ran at
// the worker's VERITY_TEMPERATURE (0). A temperature a config means must be the one it sends.
describe('sweep configs send the temperatures they state (issue 37, defect 8)', () => {
  it('a config that sets a temperature for some roles of a method also sets the method-wide one (no role silently at the worker default)', () => {
    for (const file of fs.readdirSync(SWEEPS).filter((name) => name.endsWith('.yaml'))) {
      for (const [method, sampling] of methodSamplings(file)) {
        const someRoleSet = Object.values(sampling.roles ?? {}).some((role) => role.temperature !== undefined);
        if (someRoleSet) expect(sampling.temperature, `${file}: parameters.${method}.llm.temperature`).toBeTypeOf('number');
      }
    }
  });

  it('toe.yaml: the provider default (1) for the executor and decomposer, 0 for the evaluator and judge', () => {
    const toe = methodSamplings('toe.yaml').find(([method]) => method === 'toe')![1];
    expect(samplingForRole(toe, 'executor').temperature).toBe(1);
    expect(samplingForRole(toe, 'decomposer').temperature).toBe(1);
    expect(samplingForRole(toe, 'evaluator').temperature).toBe(0);
    expect(samplingForRole(toe, 'judge').temperature).toBe(0);
  });
});
