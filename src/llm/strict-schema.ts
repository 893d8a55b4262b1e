// OpenAI's strict structured-output rules ("Supported schemas", Structured Outputs guide), checked without a
// network call, so a task whose schema a strict server would answer with a 400 fails a unit test instead:
//   - the root is an object, not anyOf;
//   - every object sets `additionalProperties: false` and lists every property in `required`
//     (an optional field is a required one whose type admits null);
//   - only the supported subset of keywords: no allOf/oneOf/not/if/then/else/dependent*, no open records
//     (additionalProperties as a schema, patternProperties, propertyNames), no minLength/maxLength/default;
//     pattern/format (listed formats only), minimum/maximum/exclusive*/multipleOf and minItems/maxItems are allowed;
//   - limits: 5,000 object properties, 5 levels of object nesting, 1,000 enum values, 120,000 characters of
//     property names, definition names, enum and const values.
// Where the published rules are vague (e.g. minLength, title), the checker takes the stricter reading.

const PRIMITIVE_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const STRING_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);
const COMMON_KEYWORDS = new Set(['type', 'description', 'title', 'enum', 'const', 'anyOf', '$ref', '$defs', 'definitions']);
const KEYWORDS_BY_TYPE: Record<string, readonly string[]> = {
  object: ['properties', 'required', 'additionalProperties'],
  array: ['items', 'minItems', 'maxItems'],
  string: ['pattern', 'format'],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  integer: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
};

export const STRICT_SCHEMA_LIMITS = {
  objectProperties: 5000,
  objectNesting: 5,
  enumValues: 1000,
  totalStringLength: 120_000,
} as const;

interface Tally {
  properties: number;
  enumValues: number;
  stringLength: number;
}

type JsonObject = Record<string, unknown>;

function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function childPath(path: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

function typesOf(node: JsonObject): string[] {
  if (typeof node.type === 'string') return [node.type];
  if (Array.isArray(node.type)) return node.type.filter((t): t is string => typeof t === 'string');
  return [];
}

class StrictSchemaChecker {
  readonly violations: string[] = [];
  private readonly tally: Tally = { properties: 0, enumValues: 0, stringLength: 0 };

  constructor(private readonly root: JsonObject) {}

  run(): string[] {
    const root = this.root;
    if (root.anyOf !== undefined) this.report('$', 'the root must not be anyOf');
    if (!typesOf(root).includes('object') || typesOf(root).length !== 1) this.report('$', 'the root must be of type "object"');
    this.checkNode(root, '$', 0);
    this.checkLimits();
    return this.violations;
  }

  private report(path: string, message: string): void {
    this.violations.push(`${path}: ${message}`);
  }

  private checkNode(node: unknown, path: string, objectDepth: number): void {
    if (!isJsonObject(node)) {
      this.report(path, 'a schema must be a JSON object (boolean schemas are not supported)');
      return;
    }
    const types = typesOf(node);
    this.checkType(node, types, path);
    this.checkKeywords(node, types, path);
    this.checkDefinitions(node, path, objectDepth);
    this.checkEnumAndConst(node, path);
    if (node.$ref !== undefined) this.checkRef(node.$ref, path);
    if (node.anyOf !== undefined) this.checkAnyOf(node.anyOf, path, objectDepth);
    if (types.includes('object')) this.checkObject(node, path, objectDepth + 1);
    if (types.includes('array')) this.checkArray(node, path, objectDepth);
    if (types.includes('string') && node.format !== undefined && !STRING_FORMATS.has(String(node.format))) {
      this.report(childPath(path, 'format'), `format "${String(node.format)}" is not supported`);
    }
  }

  private checkType(node: JsonObject, types: string[], path: string): void {
    if (node.type === undefined) {
      if (node.anyOf === undefined && node.$ref === undefined && node.enum === undefined && node.const === undefined) {
        this.report(path, 'a schema needs a type (an empty schema, e.g. z.unknown(), is not supported)');
      }
      return;
    }
    const declared = Array.isArray(node.type) ? node.type : [node.type];
    if (declared.length === 0 || types.length !== declared.length) this.report(childPath(path, 'type'), 'type must be a type name or a list of them');
    for (const type of types) {
      if (!PRIMITIVE_TYPES.has(type)) this.report(childPath(path, 'type'), `unknown type "${type}"`);
    }
  }

  private checkKeywords(node: JsonObject, types: string[], path: string): void {
    const allowed = new Set(COMMON_KEYWORDS);
    for (const type of types) for (const keyword of KEYWORDS_BY_TYPE[type] ?? []) allowed.add(keyword);
    for (const keyword of Object.keys(node)) {
      if (!allowed.has(keyword)) this.report(childPath(path, keyword), `keyword "${keyword}" is not supported in strict mode`);
    }
  }

  private checkDefinitions(node: JsonObject, path: string, objectDepth: number): void {
    for (const key of ['$defs', 'definitions']) {
      const definitions = node[key];
      if (definitions === undefined) continue;
      if (!isJsonObject(definitions)) {
        this.report(childPath(path, key), `${key} must be an object of schemas`);
        continue;
      }
      for (const [name, definition] of Object.entries(definitions)) {
        this.tally.stringLength += name.length;
        this.checkNode(definition, childPath(childPath(path, key), name), objectDepth);
      }
    }
  }

  private checkEnumAndConst(node: JsonObject, path: string): void {
    if (node.enum !== undefined) {
      if (!Array.isArray(node.enum) || node.enum.length === 0) {
        this.report(childPath(path, 'enum'), 'enum must be a non-empty list');
      } else {
        this.tally.enumValues += node.enum.length;
        for (const value of node.enum) {
          if (isJsonObject(value) || Array.isArray(value)) this.report(childPath(path, 'enum'), 'enum values must be primitives');
          if (typeof value === 'string') this.tally.stringLength += value.length;
        }
      }
    }
    if (typeof node.const === 'string') this.tally.stringLength += node.const.length;
  }

  private checkRef(ref: unknown, path: string): void {
    if (ref === '#') return;
    const match = typeof ref === 'string' ? /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref) : null;
    const definitions = match ? this.root[match[1] as string] : undefined;
    if (!match || !isJsonObject(definitions) || !(match[2] as string in definitions)) {
      this.report(childPath(path, '$ref'), `$ref ${JSON.stringify(ref)} must point at "#" or a root $defs entry`);
    }
  }

  private checkAnyOf(anyOf: unknown, path: string, objectDepth: number): void {
    const anyOfPath = childPath(path, 'anyOf');
    if (!Array.isArray(anyOf) || anyOf.length === 0) {
      this.report(anyOfPath, 'anyOf must be a non-empty list of schemas');
      return;
    }
    anyOf.forEach((branch, index) => this.checkNode(branch, `${anyOfPath}[${index}]`, objectDepth));
  }

  private checkObject(node: JsonObject, path: string, objectDepth: number): void {
    if (objectDepth > STRICT_SCHEMA_LIMITS.objectNesting) {
      this.report(path, `objects nest more than ${STRICT_SCHEMA_LIMITS.objectNesting} levels deep`);
    }
    if (node.additionalProperties !== false) {
      const open = isJsonObject(node.additionalProperties) || node.additionalProperties === true;
      this.report(
        childPath(path, 'additionalProperties'),
        open ? 'open records (additionalProperties other than false) are not supported' : 'additionalProperties: false must be set',
      );
    }
    const properties = node.properties;
    if (!isJsonObject(properties)) {
      this.report(childPath(path, 'properties'), 'an object must declare its properties');
      return;
    }
    const required = Array.isArray(node.required) ? node.required : [];
    if (node.required !== undefined && !Array.isArray(node.required)) this.report(childPath(path, 'required'), 'required must be a list');
    for (const [name, property] of Object.entries(properties)) {
      this.tally.properties += 1;
      this.tally.stringLength += name.length;
      if (!required.includes(name)) {
        this.report(childPath(childPath(path, 'properties'), name), 'every property must be required (make an optional one nullable instead)');
      }
      this.checkNode(property, childPath(childPath(path, 'properties'), name), objectDepth);
    }
    for (const name of required) {
      if (typeof name !== 'string' || !(name in properties)) {
        this.report(childPath(path, 'required'), `required names ${JSON.stringify(name)}, which is not a property`);
      }
    }
  }

  private checkArray(node: JsonObject, path: string, objectDepth: number): void {
    if (node.items === undefined) {
      this.report(childPath(path, 'items'), 'an array must declare the schema of its items');
      return;
    }
    this.checkNode(node.items, childPath(path, 'items'), objectDepth);
  }

  private checkLimits(): void {
    const { properties, enumValues, stringLength } = this.tally;
    const limits = STRICT_SCHEMA_LIMITS;
    if (properties > limits.objectProperties) this.report('$', `${properties} object properties (at most ${limits.objectProperties})`);
    if (enumValues > limits.enumValues) this.report('$', `${enumValues} enum values (at most ${limits.enumValues})`);
    if (stringLength > limits.totalStringLength) {
      this.report('$', `${stringLength} characters of names and enum/const values (at most ${limits.totalStringLength})`);
    }
  }
}

/**
 * The ways a JSON schema breaks OpenAI's strict structured-output rules, each as "<JSON path>: <rule>";
 * empty when a strict server would accept it. Pure: no I/O, never throws.
 */
export function strictSchemaViolations(schema: unknown): string[] {
  if (!isJsonObject(schema)) return ['$: the root must be a JSON object of type "object"'];
  return new StrictSchemaChecker(schema).run();
}
