/**
 * A tool's JSON Schema as rows a person reads: each property with its type in words, whether
 * it is required, its default and its description, nested objects indented. Pure; the schema
 * comes from an upstream, so nothing in it is trusted to have any shape.
 * @module
 */

/** A JSON Schema node, as far as it is looked at. */
export type SchemaNode = {
  type?: unknown;
  enum?: unknown;
  const?: unknown;
  format?: unknown;
  items?: unknown;
  properties?: unknown;
  required?: unknown;
  description?: unknown;
  default?: unknown;
  anyOf?: unknown;
  oneOf?: unknown;
};

/** One property of a schema, at some depth. */
export type PropertyRow = {
  readonly path: string;
  readonly depth: number;
  readonly type: string;
  readonly required: boolean;
  readonly description: string | null;
  readonly defaultValue: string | null;
};

/** `value` as a schema node, or an empty one. */
export const asNode = (value: unknown): SchemaNode =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as SchemaNode) : {};

/** The properties of an object schema, in order. */
export const propertiesOf = (node: SchemaNode): [string, SchemaNode][] =>
  Object.entries(asNode(node.properties)).map(([name, value]) => [name, asNode(value)]);

/** The names an object schema requires. */
export const requiredOf = (node: SchemaNode): Set<string> =>
  new Set(Array.isArray(node.required) ? node.required.filter((n): n is string => typeof n === 'string') : []);

/** The primitive type names a node allows (`["string","null"]` gives both). */
export const typesOf = (node: SchemaNode): string[] =>
  (Array.isArray(node.type) ? node.type : [node.type]).filter((t): t is string => typeof t === 'string');

/**
 * A value from a schema as a person reads it: a string as itself, without JSON's quotes
 * (`celsius`, not `"celsius"`), unless it is empty; anything else as JSON; cut at 60 characters.
 */
export const plainValue = (value: unknown) => {
  const text = typeof value === 'string' && value !== '' ? value : (JSON.stringify(value) ?? String(value));
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
};

/** The type of a node in words: `string`, `integer`, `one of a, b`, `array of string`, `string (uri)`. */
export function typeLabel(node: SchemaNode, depth = 0): string {
  if (Array.isArray(node.enum)) return `one of ${node.enum.map(plainValue).join(', ')}`;
  if (node.const !== undefined) return `exactly ${plainValue(node.const)}`;
  const alternatives = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : null;
  if (alternatives && depth < 3) return alternatives.map((a) => typeLabel(asNode(a), depth + 1)).join(' or ');
  const types = typesOf(node);
  if (types.length === 0) return 'any';
  return types
    .map((type) => {
      if (type === 'array' && depth < 3) return `array of ${typeLabel(asNode(node.items), depth + 1)}`;
      if (type === 'string' && typeof node.format === 'string') return `string (${node.format})`;
      return type;
    })
    .join(' or ');
}

/** Every property of `schema`, nested objects (and arrays of objects) below their parent, to `maxDepth`. */
export function describeSchema(schema: unknown, maxDepth = 4): PropertyRow[] {
  const rows: PropertyRow[] = [];
  const walk = (node: SchemaNode, prefix: string, depth: number) => {
    const required = requiredOf(node);
    for (const [name, property] of propertiesOf(node)) {
      const path = prefix ? `${prefix}.${name}` : name;
      rows.push({
        path,
        depth,
        type: typeLabel(property),
        required: required.has(name),
        description: typeof property.description === 'string' ? property.description : null,
        defaultValue: property.default === undefined ? null : plainValue(property.default),
      });
      if (depth >= maxDepth) continue;
      if (property.properties !== undefined) walk(property, path, depth + 1);
      const items = asNode(property.items);
      if (items.properties !== undefined) walk(items, `${path}[]`, depth + 1);
    }
  };
  walk(asNode(schema), '', 0);
  return rows;
}
