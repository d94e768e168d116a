/**
 * The test form of a tool, generated from its input schema: one field per top-level property
 * (a text box, a number box, a checkbox or a yes/no choice, a list of choices, a list one item
 * a line, or JSON for anything else), and the arguments the filled form gives, or what is
 * wrong with each field. Pure.
 * @module
 */
import { asNode, propertiesOf, requiredOf, type SchemaNode, typeLabel, typesOf } from './describe-schema.js';

/** How a field is entered. */
export type FieldKind = 'text' | 'number' | 'integer' | 'boolean' | 'choice' | 'lines' | 'json';

/** One field of the form. */
export type Field = {
  readonly name: string;
  readonly kind: FieldKind;
  readonly type: string;
  readonly required: boolean;
  readonly description: string | null;
  /** For `choice`: the allowed values, as JSON (sent back as such, shown by {@link choiceLabel}). */
  readonly choices: readonly string[];
  readonly initial: string | boolean;
};

/** The form's values by field name: text for every kind but a required boolean's checkbox. */
export type FormValues = Record<string, string | boolean>;

/** The arguments, or a message per field that is wrong. */
export type FormResult =
  | { readonly ok: true; readonly arguments: Record<string, unknown> }
  | { readonly ok: false; readonly errors: Record<string, string> };

const primitive = (value: unknown) => value === null || ['string', 'number', 'boolean'].includes(typeof value);

function kindOf(node: SchemaNode): { kind: FieldKind; choices: string[] } {
  if (Array.isArray(node.enum) && node.enum.every(primitive))
    return { kind: 'choice', choices: node.enum.map((v) => JSON.stringify(v)) };
  const types = typesOf(node).filter((t) => t !== 'null');
  if (types.length === 1) {
    const [type] = types;
    if (type === 'string' || type === 'number' || type === 'integer')
      return { kind: type === 'string' ? 'text' : type, choices: [] };
    if (type === 'boolean') return { kind: 'boolean', choices: [] };
    if (type === 'array' && typesOf(asNode(node.items)).join() === 'string') return { kind: 'lines', choices: [] };
  }
  return { kind: 'json', choices: [] };
}

function initialOf(kind: FieldKind, required: boolean, value: unknown): string | boolean {
  if (kind === 'boolean' && required) return value === true;
  if (value === undefined) return '';
  if (kind === 'lines' && Array.isArray(value)) return value.map(String).join('\n');
  if (kind === 'json' || kind === 'choice' || kind === 'boolean') return JSON.stringify(value, null, 2);
  return String(value);
}

/** The fields of an input schema, in its order. */
export function toFields(inputSchema: unknown): Field[] {
  const schema = asNode(inputSchema);
  const required = requiredOf(schema);
  return propertiesOf(schema).map(([name, node]) => {
    const { kind, choices } = kindOf(node);
    const isRequired = required.has(name);
    return {
      name,
      kind,
      type: typeLabel(node),
      required: isRequired,
      description: typeof node.description === 'string' ? node.description : null,
      choices,
      initial: initialOf(kind, isRequired, node.default),
    };
  });
}

/** How a choice (JSON) is shown: a string without its quotes, anything else as it is. */
export function choiceLabel(choice: string): string {
  try {
    const value: unknown = JSON.parse(choice);
    return typeof value === 'string' && value !== '' ? value : choice;
  } catch {
    return choice;
  }
}

/** The starting values of a form. */
export function initialValues(fields: readonly Field[]): FormValues {
  return Object.fromEntries(fields.map((field) => [field.name, field.initial]));
}

/** Parse one entered value; throws a message for the field. */
function parseValue(field: Field, text: string): unknown {
  switch (field.kind) {
    case 'number':
    case 'integer': {
      const value = Number(text);
      if (!Number.isFinite(value)) throw new Error('expected a number');
      if (field.kind === 'integer' && !Number.isInteger(value)) throw new Error('expected a whole number');
      return value;
    }
    case 'lines':
      return text.split('\n').filter((line) => line.trim() !== '');
    case 'text':
      return text;
    default:
      try {
        return JSON.parse(text);
      } catch {
        throw new Error(field.kind === 'json' ? 'expected JSON' : 'expected one of the choices');
      }
  }
}

/** The arguments of a filled form: empty optional fields are left out, empty required ones are errors. */
export function toArguments(fields: readonly Field[], values: FormValues): FormResult {
  const args: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const value = values[field.name] ?? field.initial;
    if (typeof value === 'boolean') {
      args[field.name] = value;
      continue;
    }
    if (value.trim() === '') {
      // An empty string may be what is meant: it is sent only when asked for, from the JSON mode.
      if (field.required)
        errors[field.name] =
          field.kind === 'text' ? 'required (to send an empty string, use Edit as JSON)' : 'required';
      continue;
    }
    try {
      args[field.name] = parseValue(field, value);
    } catch (error) {
      errors[field.name] = (error as Error).message;
    }
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, arguments: args };
}
