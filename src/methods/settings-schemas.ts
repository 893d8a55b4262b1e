import type { z } from 'zod';
import type { MethodName } from '../shared/constants';
import type { MethodSettings } from '../shared/method-settings';
import { emulateSettingsSchema } from './emulate/settings-schema';
import { fireSettingsSchema } from './fire/settings-schema';
import { mermaidSettingsSchema } from './mermaid/settings-schema';
import { toeSettingsSchema } from './toe/settings-schema';
import { toolMadSettingsSchema } from './tool-mad/settings-schema';

/** Each method's settings schema (partial: what is left out keeps its default). */
export const METHOD_SETTINGS_SCHEMAS: Record<Exclude<MethodName, 'rag'>, z.ZodTypeAny> = {
  mermaid: mermaidSettingsSchema,
  emulate: emulateSettingsSchema,
  fire: fireSettingsSchema,
  'tool-mad': toolMadSettingsSchema,
  toe: toeSettingsSchema,
};

export class InvalidMethodSettingsError extends Error {
  override name = 'InvalidMethodSettingsError';
}

/** Validates one method's settings; the error names the offending key and what was expected. */
export function parseMethodSettings(method: MethodName, raw: unknown, where: string): MethodSettings {
  if (raw === undefined) return {};
  if (method === 'rag') throw new InvalidMethodSettingsError(`${where}: the rag method takes no settings here (use its own options)`);
  const parsed = METHOD_SETTINGS_SCHEMAS[method].safeParse(raw);
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
