/**
 * Schema portability: the JSON Schema spellings that are legal but that some
 * MCP clients cannot take. A client that maps tool schemas onto a narrower
 * dialect (the OpenAPI 3.0 subset behind Gemini function declarations, for
 * one) rejects the tool or silently drops the constraint.
 *
 * The rules follow what the official MCP Inspector's v2 CLI reports on
 * `tools/list` (`--strict` prints each finding), so an author sees here what
 * the Inspector will say — `type-union`, `untyped-schema`, `boolean-schema`,
 * `remote-ref` — plus one it does not check: zod's default safe-integer bounds
 * (`±9007199254740991`), which say nothing, cost tokens on every `tools/list`,
 * and overflow the 32/64-bit integer types some clients map `integer` to.
 */

/** The rule a portability finding breaks. */
export type PortabilityRule = 'type-union' | 'untyped-schema' | 'boolean-schema' | 'remote-ref' | 'integer-bounds';

/** One place in a schema that some clients cannot take. */
export interface PortabilityIssue {
  readonly rule: PortabilityRule;
  /** `boolean-schema` is an error (a client may reject the whole tool); the rest are warnings. */
  readonly severity: 'error' | 'warning';
  /** Where, from the schema's root: `outputSchema.properties.notes`. */
  readonly path: string;
  readonly message: string;
  readonly hint: string;
}

/** Keywords whose value is one subschema (`items` may also be an array of them). */
const SINGLE = ['items', 'contains', 'not', 'propertyNames', 'if', 'then', 'else', 'additionalProperties', 'unevaluatedProperties', 'additionalItems', 'unevaluatedItems', 'contentSchema'];
/** Keywords whose value is an array of subschemas. */
const LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
/** Keywords whose value maps names to subschemas. */
const MAPS = ['properties', 'patternProperties', 'dependentSchemas', 'dependencies', '$defs', 'definitions'];
/** Where `true`/`false` is the conventional spelling, not a stand-in for a schema. */
const BOOLEAN_OK = new Set(['additionalProperties', 'unevaluatedProperties', 'additionalItems', 'unevaluatedItems']);
/** Every keyword that constrains a value; a schema with none of them accepts anything. */
const CONSTRAINING = new Set([
  'type', 'enum', 'const', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum',
  'maxLength', 'minLength', 'pattern', 'format', 'contentMediaType', 'contentEncoding', 'contentSchema',
  'maxItems', 'minItems', 'uniqueItems', 'maxContains', 'minContains', 'maxProperties', 'minProperties',
  'required', 'dependentRequired', 'allOf', 'anyOf', 'oneOf', 'not', 'items', 'prefixItems', 'contains',
  'additionalItems', 'unevaluatedItems', 'properties', 'patternProperties', 'additionalProperties',
  'unevaluatedProperties', 'propertyNames', 'dependentSchemas', 'dependencies', '$ref', '$dynamicRef', '$recursiveRef',
]);
const JSON_TYPES = new Set(['null', 'boolean', 'object', 'array', 'number', 'string', 'integer']);
const MAX_DEPTH = 64;
const SAFE = Number.MAX_SAFE_INTEGER;

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Lists what is not portable in a JSON Schema, walking every subschema.
 * `root` names the schema in paths (`inputSchema`, `outputSchema`).
 */
export function portabilityIssues(schema: unknown, root: string): PortabilityIssue[] {
  const issues: PortabilityIssue[] = [];
  const embeddedIds = declaresId(schema, 0);
  const visit = (node: unknown, path: string, keyword: string | undefined, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    if (typeof node === 'boolean') {
      if (keyword === undefined || !BOOLEAN_OK.has(keyword)) {
        issues.push({
          rule: 'boolean-schema',
          severity: 'error',
          path,
          message: `a bare \`${String(node)}\` stands where a schema object is expected`,
          hint: node ? 'declare what the value is, e.g. {"type": "object", "additionalProperties": true}' : 'write the always-false schema as {"not": {}}',
        });
      }
      return;
    }
    if (!isNode(node)) return;
    checkNode(node, path, keyword, embeddedIds, issues);
    forEachChild(node, path, (child, childPath, childKeyword) => visit(child, childPath, childKeyword, depth + 1));
  };
  visit(schema, root, undefined, 0);
  return issues;
}

function checkNode(node: Node, path: string, keyword: string | undefined, embeddedIds: boolean, issues: PortabilityIssue[]): void {
  const type = node.type;
  if (Array.isArray(type) && type.length > 0 && type.every((t) => typeof t === 'string' && JSON_TYPES.has(t)) && new Set(type).size === type.length) {
    issues.push({
      rule: 'type-union',
      severity: 'warning',
      path,
      message: `\`type\` is an array (${JSON.stringify(type)}), which a client mapping schemas onto a single-type dialect may reject or drop`,
      hint: `spell it as anyOf branches with one type each: {"anyOf": [${type.map((t) => `{"type": "${String(t)}"}`).join(', ')}]}${type.includes('null') ? ', or make the field optional where absent may stand for null' : ''}`,
    });
  }
  const ref = node.$ref;
  if (typeof ref === 'string' && ref !== '' && !ref.startsWith('#') && !embeddedIds) {
    issues.push({
      rule: 'remote-ref',
      severity: 'warning',
      path,
      message: `\`$ref\` points outside the schema (${JSON.stringify(ref)}); clients do not fetch remote schemas`,
      hint: 'inline the schema, or move it under $defs and refer to it as #/$defs/<name>',
    });
  }
  const constrains = Object.keys(node).some((key) => CONSTRAINING.has(key)) || ('if' in node && ('then' in node || 'else' in node));
  if (!constrains && keyword !== 'not') {
    issues.push({
      rule: 'untyped-schema',
      severity: 'warning',
      path,
      message: 'the schema has no validation keyword, so it accepts any value (`{}` is a bare `true`)',
      hint: 'declare what the value is, e.g. {"type": "object", "additionalProperties": true} for free-form objects (zod: z.record(z.string(), z.json()) or a typed schema instead of z.unknown()/z.any())',
    });
  }
  const integer = type === 'integer' || (Array.isArray(type) && type.includes('integer'));
  if (integer && (node.minimum === -SAFE || node.maximum === SAFE)) {
    issues.push({
      rule: 'integer-bounds',
      severity: 'warning',
      path,
      message: `the integer carries zod's default bounds (${node.minimum === -SAFE ? `minimum ${-SAFE}` : ''}${node.minimum === -SAFE && node.maximum === SAFE ? ', ' : ''}${node.maximum === SAFE ? `maximum ${SAFE}` : ''}), which say nothing a client can use and exceed the integer types some clients map to`,
      hint: 'give the real bounds (z.number().int().min(0).max(1000)), or let the host leave default bounds out',
    });
  }
}

function forEachChild(node: Node, path: string, visit: (child: unknown, path: string, keyword: string) => void): void {
  for (const key of MAPS) {
    const map = node[key];
    if (!isNode(map)) continue;
    for (const [name, child] of Object.entries(map)) {
      // Draft-7 `dependencies` may map to a list of property names, which is no schema.
      if (Array.isArray(child)) continue;
      visit(child, join(join(path, key), name), key);
    }
  }
  for (const key of LISTS) {
    const list = node[key];
    if (Array.isArray(list)) list.forEach((child, i) => visit(child, `${join(path, key)}[${i}]`, key));
  }
  for (const key of SINGLE) {
    if (!(key in node)) continue;
    const value = node[key];
    if (key === 'items' && Array.isArray(value)) value.forEach((child, i) => visit(child, `${join(path, key)}[${i}]`, key));
    else visit(value, join(path, key), key);
  }
}

function declaresId(node: unknown, depth: number): boolean {
  if (depth > MAX_DEPTH || !isNode(node)) return false;
  if (typeof node.$id === 'string' && node.$id !== '') return true;
  let found = false;
  forEachChild(node, '', (child) => {
    found ||= declaresId(child, depth + 1);
  });
  return found;
}

function join(parent: string, key: string): string {
  const part = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : `[${JSON.stringify(key)}]`;
  if (parent === '') return part.startsWith('[') ? part : part;
  return part.startsWith('[') ? `${parent}${part}` : `${parent}.${part}`;
}
