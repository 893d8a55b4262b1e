import type { VerdictDecision } from './verdict-heuristic';
import { isVerdictEnum, pickVerdictValue } from './verdict-labels';
import { contentWords } from './text';

/** What the simulator "understood" from the prompt, used to fill the schema's fields. */
export interface GenerationContext {
  claim: string;
  decision: VerdictDecision;
  rationale: string;
}

type JsonSchema = Record<string, unknown>;

/** A deterministic value valid for `schema` (the JSON-schema subset zod and OpenAI strict mode use). */
export function generateFromSchema(schema: unknown, context: GenerationContext): unknown {
  return new Generator(asSchema(schema), context).value(asSchema(schema), '');
}

class Generator {
  constructor(
    private readonly root: JsonSchema,
    private readonly context: GenerationContext,
  ) {}

  value(schema: JsonSchema, fieldName: string): unknown {
    const resolved = this.resolve(schema);
    if ('const' in resolved) return resolved.const;
    if (Array.isArray(resolved.enum)) return this.enumValue(resolved.enum, fieldName);
    const variants = (resolved.anyOf ?? resolved.oneOf ?? resolved.allOf) as JsonSchema[] | undefined;
    if (Array.isArray(variants)) return this.value(variants.find((v) => v.type !== 'null') ?? variants[0]!, fieldName);
    switch (typeOf(resolved)) {
      case 'object':
        return this.object(resolved);
      case 'array':
        return this.array(resolved, fieldName);
      case 'string':
        return this.string(resolved, fieldName);
      case 'integer':
        return Math.round(this.number(resolved, fieldName, true));
      case 'number':
        return this.number(resolved, fieldName, false);
      case 'boolean':
        return this.context.decision.label === 'SUPPORTED';
      default:
        return null;
    }
  }

  private resolve(schema: JsonSchema): JsonSchema {
    const ref = schema.$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#/')) return schema;
    const target = ref
      .slice(2)
      .split('/')
      .reduce<unknown>((node, key) => (node as JsonSchema | undefined)?.[key], this.root);
    return target ? this.resolve(asSchema(target)) : {};
  }

  private enumValue(values: unknown[], fieldName: string): unknown {
    if (isVerdictEnum(values)) return pickVerdictValue(values, this.context.decision.label);
    return values[stableIndex(fieldName + this.context.claim, values.length)];
  }

  private object(schema: JsonSchema): Record<string, unknown> {
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    return Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, this.value(property, name)]));
  }

  private array(schema: JsonSchema, fieldName: string): unknown[] {
    const items = asSchema(schema.items);
    const min = Number(schema.minItems ?? 0);
    const max = Number(schema.maxItems ?? Infinity);
    const ids = this.context.decision.citedIds;
    if (typeOf(this.resolve(items)) === 'string' && looksLikeCitationList(fieldName) && ids.length > 0) {
      return pad(ids.slice(0, max), min, (i) => ids[i % ids.length]);
    }
    return pad([], Math.max(1, min), () => this.value(items, singular(fieldName))).slice(0, max);
  }

  private string(schema: JsonSchema, fieldName: string): string {
    const text = this.stringFor(fieldName);
    const minLength = Number(schema.minLength ?? 0);
    const maxLength = Number(schema.maxLength ?? Infinity);
    return text.padEnd(minLength, '.').slice(0, maxLength);
  }

  private stringFor(fieldName: string): string {
    const name = fieldName.toLowerCase();
    const { claim, decision, rationale } = this.context;
    if (looksLikeIdField(fieldName)) return decision.citedIds[0] ?? 'none';
    if (/query|search|keyword|question|title|entity/.test(name)) return [...contentWords(claim)].slice(0, 6).join(' ') || claim;
    if (/claim/.test(name)) return claim;
    if (/label|verdict/.test(name)) return decision.label;
    return rationale;
  }

  private number(schema: JsonSchema, fieldName: string, integer: boolean): number {
    const minimum = numberOr(schema.minimum, numberOr(schema.exclusiveMinimum, undefined, integer ? 1 : 1e-6));
    const maximum = numberOr(schema.maximum, numberOr(schema.exclusiveMaximum, undefined, integer ? -1 : -1e-6));
    const low = minimum ?? 0;
    const high = maximum ?? Math.max(low, 1);
    const wanted = /confidence|score|probability|certainty|weight/i.test(fieldName) ? this.context.decision.overlap : 0;
    const scaled = low + wanted * (high - low);
    return Math.min(Math.max(scaled, low), high);
  }
}

function asSchema(value: unknown): JsonSchema {
  return value !== null && typeof value === 'object' ? (value as JsonSchema) : {};
}

function typeOf(schema: JsonSchema): string | undefined {
  const type = schema.type;
  if (Array.isArray(type)) return (type.find((t) => t !== 'null') ?? type[0]) as string | undefined;
  if (typeof type === 'string') return type;
  if (schema.properties) return 'object';
  if (schema.items) return 'array';
  return undefined;
}

function numberOr(value: unknown, fallback: number | undefined, offset = 0): number | undefined {
  return typeof value === 'number' ? value + offset : fallback;
}

function looksLikeIdField(fieldName: string): boolean {
  return /(^|_)ids?$/i.test(fieldName) || /[a-z]Ids?$/.test(fieldName);
}

function looksLikeCitationList(fieldName: string): boolean {
  return looksLikeIdField(fieldName) || /citation|cited|evidence|passage|source/i.test(fieldName);
}

function singular(fieldName: string): string {
  return fieldName.replace(/s$/, '');
}

function pad<T>(values: T[], length: number, fill: (index: number) => T): T[] {
  const result = [...values];
  while (result.length < length) result.push(fill(result.length));
  return result;
}

/** A stable pseudo-random index (FNV-1a), so "arbitrary" choices repeat across runs. */
export function stableIndex(text: string, modulo: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % Math.max(1, modulo);
}
