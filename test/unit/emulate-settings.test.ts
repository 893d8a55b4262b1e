import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { InvalidMethodSettingsError, optionPairsToObject, parseMethodSettings } from '../../src/methods/settings-schemas';
import { projectRoot } from '../../src/project-root';

describe('emulate and fire settings (CLI -o, sweep parameters)', () => {
  it('eval/sweeps/emulate.yaml parameters validate against both schemas', () => {
    const config = YAML.parse(fs.readFileSync(path.join(projectRoot(), 'eval', 'sweeps', 'emulate.yaml'), 'utf8')) as { parameters: Record<string, unknown> };
    expect(parseMethodSettings('emulate', config.parameters.emulate, 'parameters.emulate')).toEqual({ emulate: config.parameters.emulate });
    expect(parseMethodSettings('fire', config.parameters.fire, 'parameters.fire')).toEqual({ fire: config.parameters.fire });
  });

  it('reads -o pairs and names the offending key', () => {
    expect(parseMethodSettings('emulate', optionPairsToObject(['contentMode=page', 'codeCompat=true', 'maxSearchQueries=2']), '--option')).toEqual({
      emulate: { contentMode: 'page', codeCompat: true, maxSearchQueries: 2 },
    });
    expect(() => parseMethodSettings('emulate', { contentMode: 'html' }, '--option')).toThrow(/--option\.contentMode/);
    expect(() => parseMethodSettings('emulate', { useWebExtraction: true }, '--option')).toThrow(InvalidMethodSettingsError);
    expect(() => parseMethodSettings('fire', { similarityThreshold: 1.5 }, '--option')).toThrow(/similarityThreshold/);
    expect(parseMethodSettings('fire', optionPairsToObject(['similarity=lexical', 'maxSteps=3']), '--option')).toEqual({ fire: { similarity: 'lexical', maxSteps: 3 } });
  });
});
