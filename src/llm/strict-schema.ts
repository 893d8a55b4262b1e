/**
 * OpenAI's strict structured-output rules (`response_format: json_schema` with `strict: true`): the
 * root is an object, every object lists all its properties in `required` (nullable instead of
 * optional) and sets `additionalProperties: false` (so no open records), and composition is `anyOf`
 * only. Servers that enforce them answer a schema breaking them with a 400; this names each break.
 */

type JsonSchema = Record<string, unknown>;

const UNSUPPORTED_COMPOSITION = ['oneOf', 'allOf', 'not', 'if', 'then', 'else', 'dependentRequired', 'dependentSchemas', 'patternProperties'];
const SUBSCHEMA_MAPS = ['properties', '$defs', 'definitions'];
const SUBSCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];

/** Every break of the strict rules in `schema`, each naming where it is (e.g. `properties.step`); empty when it passes. */
export function strictSchemaViolations(schema: unknown): string[] {
  if (!isSchema(schema)) return ['the schema is not a JSON object'];
  const violations: string[] = [];
  if (typeOf(schema) !== 'object' || 'anyOf' in schema) violations.push('(root): the root schema must be an object, not anyOf or another type');
  walk(schema, '(root)', violations);
  return violations;
}

function walk(schema: JsonSchema, at: string, violations: string[]): void {
  for (const keyword of UNSUPPORTED_COMPOSITION) {
    if (keyword in schema) violations.push(`${at}: '${keyword}' is not permitted (use anyOf)`);
  }
  if (typeOf(schema) === 'object') checkObject(schema, at, violations);
  for (const map of SUBSCHEMA_MAPS) {
    const children = schema[map];
    if (!isSchema(children)) continue;
    for (const [name, child] of Object.entries(children)) if (isSchema(child)) walk(child, path(at, `${map}.${name}`), violations);
  }
  for (const list of SUBSCHEMA_LISTS) {
    const children = schema[list];
    if (Array.isArray(children)) children.forEach((child, i) => isSchema(child) && walk(child, path(at, `${list}[${i}]`), violations));
  }
  if (isSchema(schema.items)) walk(schema.items, path(at, 'items'), violations);
  if (isSchema(schema.additionalProperties)) walk(schema.additionalProperties, path(at, 'additionalProperties'), violations);
}

function checkObject(schema: JsonSchema, at: string, violations: string[]): void {
  if (schema.additionalProperties !== false) {
    violations.push(`${at}: 'additionalProperties' must be false (an open object or record is not permitted)`);
  }
  const properties = isSchema(schema.properties) ? Object.keys(schema.properties) : [];
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const missing = properties.filter((name) => !required.has(name));
  if (missing.length > 0) {
    violations.push(`${at}: 'required' must include every key in properties; missing ${missing.map((m) => `'${m}'`).join(', ')} (make it nullable instead of optional)`);
  }
}

function typeOf(schema: JsonSchema): string | undefined {
  const type = schema.type;
  if (Array.isArray(type)) return type.includes('object') ? 'object' : (type.find((t) => t !== 'null') as string | undefined);
  if (typeof type === 'string') return type;
  return 'properties' in schema ? 'object' : undefined;
}

function path(at: string, key: string): string {
  return at === '(root)' ? key : `${at}.${key}`;
}

function isSchema(value: unknown): value is JsonSchema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
