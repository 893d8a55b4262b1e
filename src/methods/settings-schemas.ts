import type { MethodSettings } from '../shared/method-settings';
import { methodDefinition, type MethodName } from './registry';

export class InvalidMethodSettingsError extends Error {
  override name = 'InvalidMethodSettingsError';
}

/** Validates one method's settings with its registered schema; the error names the offending key and what was expected. */
export function parseMethodSettings(method: MethodName, raw: unknown, where: string): MethodSettings {
  if (raw === undefined) return {};
  const parsed = methodDefinition(method).settingsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = issue.path.join('.');
    throw new InvalidMethodSettingsError(`${where}${key ? `.${key}` : ''}: ${issue.message}`);
  }
  return { [method]: parsed.data } as MethodSettings;
}

/**
 * `key=value` pairs (dotted keys nest) into an object; values that read as JSON (numbers,
 * booleans, arrays, quoted strings) are taken as such, anything else as a string.
 */
export function optionPairsToObject(pairs: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new InvalidMethodSettingsError(`option "${pair}": expected key=value`);
    const keys = pair.slice(0, eq).trim().split('.');
    const unsafe = keys.find((key) => key === '__proto__' || key === 'constructor' || key === 'prototype');
    if (unsafe) throw new InvalidMethodSettingsError(`option "${pair}": "${unsafe}" is not a setting`);
    const text = pair.slice(eq + 1).trim();
    let value: unknown = text;
    try {
      value = JSON.parse(text);
    } catch {
      // a bare word: keep it as a string
    }
    let node = out;
    for (const key of keys.slice(0, -1)) {
      if (typeof node[key] !== 'object' || node[key] === null) node[key] = {};
      node = node[key] as Record<string, unknown>;
    }
    node[keys.at(-1)!] = value;
  }
  return out;
}
